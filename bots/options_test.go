package bots

import (
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/bots/ismcts"
)

// parseFor reads args as `arena bot NAME ARGS` does: the flags, then
// the bot built with them.
func parseFor(name string, args []string) (Options, error) {
	o, err := ParseOptions(args)
	if err == nil {
		_, err = NewWith(name, o)
	}
	return o, err
}

func TestParseOptions(t *testing.T) {
	good := []struct {
		args []string
		want Options
	}{
		{nil, Options{}},
		{[]string{"--level", "weak"}, Options{Level: "weak"}},
		{[]string{"--iterations=300"}, Options{Iterations: 300}},
		{[]string{"--level", "medium", "--time-fraction", "0.25"}, Options{Level: "medium", TimeFraction: 0.25}},
	}
	for _, c := range good {
		o, err := parseFor("ismcts", c.args)
		if err != nil || o != c.want {
			t.Errorf("%q: %+v, %v; want %+v", c.args, o, err, c.want)
		}
	}
	bad := []struct {
		name string
		args []string
		want string
	}{
		{"greedy", []string{"--level", "weak"}, "takes no strength options"},
		{"ismcts", []string{"--level", "godlike"}, `unknown level "godlike"`},
		{"ismcts", []string{"--depth", "3"}, "--depth/--nodes: budget of another kind of search"},
		{"expectimax", []string{"--iterations", "3"}, "--iterations: budget of another kind of search"},
		{"ismcts", []string{"--iterations"}, "flag needs an argument: -iterations"},
		{"ismcts", []string{"--iterations", "many"}, `invalid value "many" for flag -iterations`},
		{"ismcts", []string{"--time-fraction", "1.5"}, "a fraction in [0, 1]"},
		{"ismcts", []string{"weak"}, `"weak" is not a flag`},
		{"ismcts", []string{"--wisdom", "9"}, "flag provided but not defined: -wisdom"},
	}
	for _, c := range bad {
		if _, err := parseFor(c.name, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: %v, want an error with %q", c.name, c.args, err, c.want)
		}
	}
}

// Iterations alone make a fixed budget (no clock), a time fraction alone
// a time budget; the levels are as documented.
func TestISMCTSConfig(t *testing.T) {
	const z = ismcts.DefaultConfidence
	strong := func(c ismcts.Config) ismcts.Config {
		c.NoClockIterations, c.Confidence, c.GreedyPlayouts, c.Paired, c.PairedCands = 4000, z, true, 300, 3
		c.Boon = ismcts.BoonOptions{Infer: true, InferDeals: 8}
		return c
	}
	cases := []struct {
		o    Options
		want ismcts.Config
	}{
		{Options{}, strong(ismcts.Config{TimeFraction: 0.5})},
		{Options{Level: "weak"}, ismcts.Config{Iterations: 50}},
		{Options{Iterations: 123}, strong(ismcts.Config{Iterations: 123})},
		{Options{Level: "weak", TimeFraction: 0.2}, ismcts.Config{TimeFraction: 0.2}},
		{Options{Iterations: 9, TimeFraction: 0.2}, strong(ismcts.Config{Iterations: 9, TimeFraction: 0.2})},
	}
	for _, c := range cases {
		got, err := ISMCTSConfig(c.o)
		if err != nil || got != c.want {
			t.Errorf("%+v: %+v, %v; want %+v", c.o, got, err, c.want)
		}
	}
}

// The time budget keeps a safety margin: a fifth of the move, at least
// 10 ms, whatever the fraction.
func TestBudgetMargin(t *testing.T) {
	c := ismcts.Config{TimeFraction: 1}
	for ms, want := range map[int64]time.Duration{
		20: 10 * time.Millisecond, 25: 15 * time.Millisecond, 50: 40 * time.Millisecond,
		100: 80 * time.Millisecond, 1000: 800 * time.Millisecond,
	} {
		if b := c.Budget(ms); b != want {
			t.Errorf("move %d ms: budget %v, want %v", ms, b, want)
		}
	}
	if b := (ismcts.Config{TimeFraction: 0.5}).Budget(100); b != 50*time.Millisecond {
		t.Errorf("half of 100 ms: budget %v, want 50ms", b)
	}
	if b := (ismcts.Config{Iterations: 5}).Budget(100); b != 0 {
		t.Errorf("iterations only: budget %v", b)
	}
}

// TestSession: a session of a bundled bot is a new bot of that name,
// refused for a name or options no bot has; with no input it ends.
func TestSession(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		ok   bool
	}{
		{"random", Options{}, true},
		{"ismcts", Options{Level: "weak"}, true},
		{"nope", Options{}, false},
		{"random", Options{Level: "weak"}, false},
	}
	for _, tc := range tests {
		var out strings.Builder
		err := Session(tc.name, tc.o, "1")(strings.NewReader(""), &out)
		if _, newErr := NewWith(tc.name, tc.o); (newErr == nil) != tc.ok || (!tc.ok && err == nil) {
			t.Errorf("Session(%s, %+v): %v (NewWith: %v)", tc.name, tc.o, err, newErr)
		}
	}
}
