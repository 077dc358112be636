package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/sdk"
)

// traceLine is one line of --trace: time, bot, session, direction, line.
var traceLine = regexp.MustCompile(`^\[ *\d+\.\d{3}\] (\S+) #(\d+) ([<>!]) (.*)$`)

// transcripts reads --trace output into each session's lines to the bot
// and from it.
func transcripts(t *testing.T, stderr string) (in, out map[string][]string) {
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
	return in, out
}

// The ISMCTS bot at a fixed iteration budget is a function of the lines
// it is sent: fed the lines a real match sent it (recorded with --trace),
// in process and as `arena bot ismcts --iterations N` again, it answers
// exactly what it answered in the match. So it uses nothing but the
// protocol (its view and legal actions), and its seed.
func TestISMCTSReplaysItsMatch(t *testing.T) {
	cases := []struct {
		game string
		args []string
	}{
		{"uno", []string{"--option", "target=0", "--bot", "g1=arena bot greedy"}},
		{"bounce", []string{"--bot", "g1=arena bot greedy", "--bot", "g2=arena bot greedy"}},
		{"boon", []string{"--bot", "g1=arena bot greedy", "--bot", "g2=arena bot greedy"}},
	}
	for _, c := range cases {
		t.Run(c.game, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"match", "--game", c.game, "--seed", "5", "--games", "2", "--trace", "s", "-q",
				"--bot", "s=arena bot ismcts --iterations 60"}, c.args...)
			_, stderr, code := arena(t, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			in, out := transcripts(t, stderr)
			if len(in) == 0 {
				t.Fatalf("no transcript:\n%s", stderr)
			}
			turns := 0
			for sess, lines := range in {
				input := strings.Join(lines, "\n") + "\n"
				want := strings.Join(out[sess], "\n")
				turns += strings.Count(input, `"type":"turn"`)
				// In process.
				b, err := bots.NewWith("ismcts", bots.Options{Iterations: 60})
				if err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := sdk.Run(strings.NewReader(input), &got, b, sdk.Options{Name: "ismcts", Version: Version, Log: &bytes.Buffer{}}); err != nil {
					t.Fatal(err)
				}
				if g := strings.TrimRight(got.String(), "\n"); g != want {
					t.Errorf("session %s in process: answers differ\ngot:\n%s\nwant:\n%s", sess, g, want)
				}
				// As the bundled bot's own process.
				cmd := exec.Command(os.Args[0], "bot", "ismcts", "--iterations", "60")
				cmd.Stdin = strings.NewReader(input)
				sub, err := cmd.Output()
				if err != nil {
					t.Fatal(err)
				}
				if g := strings.TrimRight(string(sub), "\n"); g != want {
					t.Errorf("session %s as arena bot: answers differ\ngot:\n%s\nwant:\n%s", sess, g, want)
				}
			}
			if turns < 5 {
				t.Errorf("only %d turns in the transcript", turns)
			}
		})
	}
}

// The time-based level never loses on time: real matches through the
// referee at 100 ms a move and at a tight 25 ms, every game to the end
// without a forfeit or a strike.
func TestISMCTSNeverLosesOnTime(t *testing.T) {
	cases := []struct {
		game, move string
		args       []string
	}{
		{"uno", "100ms", []string{"--option", "target=0", "--bot", "g=arena bot greedy"}},
		{"uno", "25ms", []string{"--option", "target=0", "--bot", "g=arena bot greedy", "--bot", "g2=arena bot greedy", "--bot", "g3=arena bot greedy"}},
		{"boon", "100ms", []string{"--bot", "g=arena bot greedy", "--bot", "g2=arena bot greedy"}},
		{"boon", "25ms", []string{"--bot", "g=arena bot greedy", "--bot", "g2=arena bot greedy", "--bot", "g3=arena bot greedy"}},
	}
	for _, c := range cases {
		t.Run(c.game+"/"+c.move, func(t *testing.T) {
			args := append([]string{"match", "--game", c.game, "--seed", "9", "--games", "2", "--move-time", c.move,
				"--margin", "0s", "--json", "-q", "--bot", "s=arena bot ismcts --level strong"}, c.args...)
			stdout, stderr, code := arena(t, args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			var sum struct {
				Games int `json:"games"`
				Bots  []struct {
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
					t.Errorf("ismcts: %d forfeits, %d strikes in %d games\n%s", b.Forfeits, b.Strikes, b.Games, stderr)
				}
			}
		})
	}
}
