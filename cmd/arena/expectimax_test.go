package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

// traceLine is one line of --trace: time, bot, session, direction, line.
var traceLine = regexp.MustCompile(`^\[ *\d+\.\d{3}\] (\S+) #(\d+) ([<>!]) (.*)$`)

// sessions splits a --trace transcript into each session's lines to the
// bot and from it.
func sessions(t *testing.T, stderr string) (in, out map[string][]string) {
	t.Helper()
	in, out = map[string][]string{}, map[string][]string{}
	for _, l := range strings.Split(stderr, "\n") {
		m := traceLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch m[3] {
		case ">":
			in[m[2]] = append(in[m[2]], m[4])
		case "<":
			out[m[2]] = append(out[m[2]], m[4])
		}
	}
	if len(in) == 0 {
		t.Fatalf("no session in the trace:\n%s", stderr)
	}
	return in, out
}

// The expectimax bot uses only what the protocol gives it: fed the lines
// the referee sent it in a real match (recorded with --trace), it answers
// every one exactly as it did in the match, both as the `arena bot`
// subprocess and in process through sdk.Run. The budget is fixed (a
// depth, and a clock it never reaches), so only its input decides.
func TestExpectimaxReplaysItsMatch(t *testing.T) {
	_, stderr, code := arena(t, "match", "--game", "banqi", "--games", "2", "--option", "max_plies=80",
		"--move-time", "30s", "--bot", "x=arena bot expectimax --depth 2", "--bot", "g=arena bot greedy", "--trace", "x", "-q")
	if code != 0 {
		t.Fatalf("match: exit %d\n%s", code, stderr)
	}
	in, out := sessions(t, stderr)
	for id, lines := range in {
		input := strings.Join(lines, "\n") + "\n"
		want := strings.Join(out[id], "\n")
		if !strings.Contains(want, `"type":"action"`) {
			t.Fatalf("session %s sent no action:\n%s", id, want)
		}
		cmd := exec.Command(os.Args[0], "bot", "expectimax", "--depth", "2")
		cmd.Stdin = strings.NewReader(input)
		var got, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &got, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("session %s: arena bot: %v\n%s", id, err, errb.String())
		}
		if g := strings.TrimSpace(got.String()); g != want {
			t.Errorf("session %s: the subprocess answered\n%s\nin the match it sent\n%s", id, g, want)
		}
		b, err := bots.NewWith("expectimax", bots.Options{Depth: 2})
		if err != nil {
			t.Fatal(err)
		}
		var inproc bytes.Buffer
		if err := sdk.Run(strings.NewReader(input), &inproc, b, sdk.Options{Name: "expectimax", Version: Version}); err != nil {
			t.Fatal(err)
		}
		if g := strings.TrimSpace(inproc.String()); g != want {
			t.Errorf("session %s: in process it answered\n%s\nin the match it sent\n%s", id, g, want)
		}
	}
}

// The time-based level never loses on time: real matches through the
// referee at 100 ms a move and at 25 ms (the default 50 ms margin), the
// bot thinking for its level's share of each move.
func TestExpectimaxNeverLosesOnTime(t *testing.T) {
	for _, move := range []string{"100ms", "25ms"} {
		t.Run(move, func(t *testing.T) {
			stdout, stderr, code := arena(t, "match", "--game", "banqi", "--games", "2", "--option", "max_plies=120",
				"--move-time", move, "--bot", "x=arena bot expectimax --level strong", "--bot", "g=arena bot greedy", "--json", "-q")
			if code != 0 {
				t.Fatalf("match: exit %d\n%s", code, stderr)
			}
			var sum struct {
				Bots []struct {
					Name     string `json:"name"`
					Games    int    `json:"games"`
					Forfeits int    `json:"forfeits"`
					Strikes  int    `json:"strikes"`
				} `json:"bots"`
			}
			if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
				t.Fatalf("%v:\n%s", err, stdout)
			}
			for _, b := range sum.Bots {
				if b.Name == "x" && (b.Games != 2 || b.Forfeits != 0 || b.Strikes != 0) {
					t.Fatalf("expectimax at %s a move: %+v\n%s", move, b, stderr)
				}
			}
		})
	}
}

// envStrength opts in to TestExpectimaxLadder, the measurement behind
// docs/bots.md: ARENA_STRENGTH=GAMES plays that many games a pairing
// (minutes at 100 ms a move: a game is a few hundred moves).
const envStrength = "ARENA_STRENGTH"

// The ladder, measured in real matches at 100 ms a move: strong beats
// greedy with a 95% interval that excludes zero, and each level is
// printed against the one below (strength claims the docs make).
func TestExpectimaxLadder(t *testing.T) {
	games := os.Getenv(envStrength)
	if games == "" {
		t.Skipf("set %s=GAMES (e.g. 40) to measure the expectimax ladder", envStrength)
	}
	pairings := []struct{ a, b string }{
		{"arena bot expectimax --level strong", "arena bot greedy"},
		{"arena bot expectimax --level medium", "arena bot expectimax --level weak"},
		{"arena bot expectimax --level strong", "arena bot expectimax --level medium"},
		{"arena bot expectimax --level weak", "arena bot greedy"},
	}
	elo := regexp.MustCompile(`Elo difference a vs b: .*`)
	for i, p := range pairings {
		stdout, stderr, code := arena(t, "match", "--game", "banqi", "--games", games, "--move-time", "100ms",
			"--seed", "18", "--bot", "a="+p.a, "--bot", "b="+p.b, "-q")
		if code != 0 {
			t.Fatalf("%s vs %s: exit %d\n%s", p.a, p.b, code, stderr)
		}
		line := elo.FindString(stdout)
		t.Logf("%s vs %s:\n%s", p.a, p.b, stdout)
		if i == 0 && !aboveZero(line) {
			t.Errorf("strong vs greedy: %s: want an interval above zero", line)
		}
	}
}

// aboveZero reports whether an Elo line of arena match puts the whole
// 95% interval above zero.
func aboveZero(line string) bool {
	if m := regexp.MustCompile(`: ([+-]\d+\.\d) \+/- (\d+\.\d)`).FindStringSubmatch(line); m != nil {
		x, _ := strconv.ParseFloat(m[1], 64)
		h, _ := strconv.ParseFloat(m[2], 64)
		return x-h > 0
	}
	return regexp.MustCompile(`interval \[\+|at least \+`).MatchString(line)
}

func TestAboveZero(t *testing.T) {
	for line, want := range map[string]bool{
		"Elo difference a vs b: +269.4, 95% interval [+143.0, +531.1] (20 game pairs)": true,
		"Elo difference a vs b: +20.0, 95% interval [-3.0, +50.1] (20 game pairs)":     false,
		"Elo difference a vs b: +80.5 +/- 40.2 (95%; 20 game pairs)":                   true,
		"Elo difference a vs b: +30.5 +/- 40.2 (95%; 20 game pairs)":                   false,
		"Elo difference a vs b: at least +277 (95%; a won all 20 games)":               true,
		"Elo difference a vs b: at most -277 (95%; b won all 20 games)":                false,
	} {
		if got := aboveZero(line); got != want {
			t.Errorf("aboveZero(%q) = %v", line, got)
		}
	}
}
