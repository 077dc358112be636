package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/sdk"
)

// traceLine is one line of --trace: time, bot, session, direction, line.
var traceLine = regexp.MustCompile(`^\[ *\d+\.\d{3}\] (\S+) #(\d+) ([<>!]) (.*)$`)

// traceSessions splits a --trace transcript into each session's lines to
// the bot and from it.
func traceSessions(t *testing.T, stderr string) (in, out map[string][]string) {
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

// A search bot at a fixed budget is a function of the lines it is sent:
// fed the lines a real match sent it (recorded with --trace), in process
// through sdk.Run and as the `arena bot NAME FLAGS` subprocess, it answers
// exactly what it answered in the match. So it uses nothing but the
// protocol (its view and legal actions) and its seed.
func TestSearchBotsReplayTheirMatch(t *testing.T) {
	cases := []struct {
		bot   string
		flags []string
		opts  bots.Options
		game  string
		args  []string
	}{
		{"ismcts", []string{"--iterations", "60"}, bots.Options{Iterations: 60}, "uno", []string{"--option", "target=0", "--bot", "g1=arena bot greedy"}},
		{"ismcts", []string{"--iterations", "60"}, bots.Options{Iterations: 60}, "bounce", []string{"--bot", "g1=arena bot greedy", "--bot", "g2=arena bot greedy"}},
		{"ismcts", []string{"--iterations", "60"}, bots.Options{Iterations: 60}, "boon", []string{"--bot", "g1=arena bot greedy", "--bot", "g2=arena bot greedy"}},
		// A clock it never reaches: only the depth decides.
		{"expectimax", []string{"--depth", "2"}, bots.Options{Depth: 2}, "banqi", []string{"--option", "max_plies=80", "--move-time", "30s", "--bot", "g=arena bot greedy"}},
	}
	for _, c := range cases {
		t.Run(c.bot+"/"+c.game, func(t *testing.T) {
			t.Parallel()
			cmdline := "arena bot " + c.bot + " " + strings.Join(c.flags, " ")
			args := append([]string{"match", "--game", c.game, "--seed", "5", "--games", "2", "--trace", "s", "-q", "--bot", "s=" + cmdline}, c.args...)
			_, stderr, code := arena(t, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			in, out := traceSessions(t, stderr)
			turns := 0
			for sess, lines := range in {
				input := strings.Join(lines, "\n") + "\n"
				want := strings.Join(out[sess], "\n")
				turns += strings.Count(input, `"type":"turn"`)
				b, err := bots.NewWith(c.bot, c.opts)
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := sdk.Run(strings.NewReader(input), &got, b, sdk.Options{Name: c.bot, Version: Version, Log: &bytes.Buffer{}}); err != nil {
					t.Fatal(err)
				}
				if g := strings.TrimRight(got.String(), "\n"); g != want {
					t.Errorf("session %s in process: answers differ\ngot:\n%s\nwant:\n%s", sess, g, want)
				}
				cmd := exec.Command(os.Args[0], append([]string{"bot", c.bot}, c.flags...)...)
				cmd.Stdin = strings.NewReader(input)
				var sub, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &sub, &errb
				if err := cmd.Run(); err != nil {
					t.Fatalf("session %s: %s: %v\n%s", sess, cmdline, err, errb.String())
				}
				if g := strings.TrimRight(sub.String(), "\n"); g != want {
					t.Errorf("session %s as %s: answers differ\ngot:\n%s\nwant:\n%s", sess, cmdline, g, want)
				}
			}
			if turns < 5 {
				t.Errorf("only %d turns in the transcript", turns)
			}
		})
	}
}

// The time-based level never loses on time: real matches through the
// referee at 100 ms a move and at a tight 25 ms with no margin, every
// game to the end without a forfeit or a strike. Opt-in
// (ARENA_REAL_CLOCKS=1): a machine that other work keeps busy can hold a
// bot off its CPU for longer than 25 ms, which no bot can budget for.
func TestSearchBotsNeverLoseOnTime(t *testing.T) {
	testkit.RealClocks(t)
	cases := []struct {
		bot, game, move string
		args            []string
	}{
		{"ismcts", "uno", "100ms", []string{"--option", "target=0", "--bot", "g=arena bot greedy"}},
		{"ismcts", "uno", "25ms", []string{"--option", "target=0", "--bot", "g=arena bot greedy", "--bot", "g2=arena bot greedy", "--bot", "g3=arena bot greedy"}},
		{"ismcts", "boon", "100ms", []string{"--bot", "g=arena bot greedy", "--bot", "g2=arena bot greedy"}},
		{"ismcts", "boon", "25ms", []string{"--bot", "g=arena bot greedy", "--bot", "g2=arena bot greedy", "--bot", "g3=arena bot greedy"}},
		{"expectimax", "banqi", "100ms", []string{"--option", "max_plies=120", "--bot", "g=arena bot greedy"}},
		{"expectimax", "banqi", "25ms", []string{"--option", "max_plies=120", "--bot", "g=arena bot greedy"}},
	}
	for _, c := range cases {
		t.Run(c.bot+"/"+c.game+"/"+c.move, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{"match", "--game", c.game, "--seed", "9", "--games", "2", "--move-time", c.move, "--out", out,
				"--margin", "0s", "--json", "-q", "--bot", "s=arena bot " + c.bot + " --level strong"}, c.args...)
			stdout, stderr, code := arena(t, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
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
				t.Fatalf("%v: %s", err, stdout)
			}
			for _, b := range sum.Bots {
				if b.Name == "s" && (b.Forfeits != 0 || b.Strikes != 0 || b.Games != 2) {
					// The ledger says why: the time used, waited for a CPU
					// and forgiven, or another failure.
					ledger, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
					t.Errorf("%s: %d forfeits, %d strikes in %d games\n%s\n%s", c.bot, b.Forfeits, b.Strikes, b.Games, ledger, stderr)
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
