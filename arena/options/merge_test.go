package options_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/options"
)

// file is what a tournament file gives, for the merge tests.
type file struct {
	Name             string `yaml:"name"`
	options.Settings `yaml:",inline"`
}

func given(kv ...any) options.Given {
	var g options.Given
	for i := 0; i < len(kv); i += 2 {
		g.Set(kv[i].(string), kv[i+1])
	}
	return g
}

// A flag given wins over the file, even at the value a flag has when not
// given; a field no flag was given for keeps the file's.
func TestMerge(t *testing.T) {
	n0 := 0
	tests := []struct {
		name  string
		file  file
		flags options.Given
		want  file
	}{
		{"file only", file{Name: "cup", Settings: options.Settings{Concurrency: 4, Clock: options.Clock{TC: "60s+1s"}}}, given(),
			file{Name: "cup", Settings: options.Settings{Concurrency: 4, Clock: options.Clock{TC: "60s+1s"}}}},
		{"flag only", file{}, given("name", "quick", "clock.move", 250*time.Millisecond, "failure.max_strikes", 5),
			file{Name: "quick", Settings: options.Settings{Clock: options.Clock{Move: options.Duration(250 * time.Millisecond)}, Failure: options.Failure{MaxStrikes: 5}}}},
		{"both: the flag wins where given", file{Name: "cup", Settings: options.Settings{Concurrency: 4, RestartBots: true}}, given("concurrency", 2),
			file{Name: "cup", Settings: options.Settings{Concurrency: 2, RestartBots: true}}},
		{"a flag at its default, given", file{Settings: options.Settings{RestartBots: true, Failure: options.Failure{MaxStartupFailures: new(3)}}},
			given("restart_bots", false, "failure.max_startup_failures", 0),
			file{Settings: options.Settings{Failure: options.Failure{MaxStartupFailures: &n0}}}},
		{"limits add paths and clear no_network", file{Settings: options.Settings{Limits: options.Limits{NoNetwork: true, Env: []string{"A=1"}}}},
			given("limits.network", "loopback", "limits.env", []string{"A=1", "B=2", ""}),
			file{Settings: options.Settings{Limits: options.Limits{Network: "loopback", Env: []string{"A=1", "B=2"}}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.file
			if err := options.Merge(&got, tc.flags); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	var f file
	if err := options.Merge(&f, given("limits.memroy", "1GiB")); err == nil {
		t.Error("an unknown field was accepted")
	}
}

// Resolve fills in the defaults of what is not given; a zero given
// explicitly (a flag set to 0) stays zero.
func TestResolveExplicitZero(t *testing.T) {
	var s options.Settings
	def, err := s.Resolve(nil)
	if err != nil || def.Limits.Margin == 0 || def.Limits.Move == 0 {
		t.Fatalf("defaults %+v, %v", def.Limits, err)
	}
	g := given("clock.margin", time.Duration(0))
	zero, err := s.Resolve(g.Has)
	if err != nil || zero.Limits.Margin != 0 || zero.Limits.Move != def.Limits.Move {
		t.Errorf("margin given 0: %+v, %v; want margin 0, the rest defaults", zero.Limits, err)
	}
	s.Failure.Policy = "never"
	if _, err := s.Resolve(nil); err == nil || err.Error() != `failure.policy: "never": want forfeit or random` {
		t.Errorf("bad policy: %v", err)
	}
}
