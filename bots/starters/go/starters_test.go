// Package starters_test builds every Go starter bot and the arena, and
// runs each starter through arena check and a short match against the
// bundled random bot, as a student would.
package starters_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// The starters, with what keeps their match short.
var starters = []struct {
	game    string
	seats   int
	options []string
}{
	{"banqi", 2, []string{"max_plies=300"}},
	{"uno", 2, []string{"scoring=single_hand"}},
	{"bounce", 2, []string{"scoring=single_hand"}},
	{"boon", 3, nil},
}

func TestMain(m *testing.M) {
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

// TestStarters: every starter passes arena check and plays a match
// against the random bot without a forfeit.
func TestStarters(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the arena and the starters")
	}
	arena := testkit.Build(t, "./cmd/arena")
	for _, s := range starters {
		t.Run(s.game, func(t *testing.T) {
			bot := testkit.Build(t, "./bots/starters/go/"+s.game)
			var opts []string
			for _, o := range s.options {
				opts = append(opts, "--option", o)
			}
			check := append([]string{"check", "--game", s.game, "--games", "2", "--seed", "7"}, opts...)
			if out, err := exec.Command(arena, append(check, bot)...).CombinedOutput(); err != nil {
				t.Fatalf("arena check: %v\n%s", err, out)
			}
			out := t.TempDir()
			match := append([]string{"match", "--game", s.game, "--seed", "7", "-q", "--out", out, "--bot", "me=" + bot}, opts...)
			for i := 1; i < s.seats; i++ {
				match = append(match, "--bot", "random"+string(rune('0'+i))+"=arena bot random")
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(arena, match...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("arena match: %v\n%s%s", err, stdout.String(), stderr.String())
			}
			results, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(results, []byte("\n")); n != s.seats {
				t.Fatalf("%d games in results.jsonl, want %d:\n%s", n, s.seats, results)
			}
			if bytes.Contains(results, []byte(`"forfeits":[{`)) || bytes.Contains(results, []byte(`"strikes":[{`)) {
				t.Fatalf("arena match: a forfeit or strike:\n%s\n%s", results, stderr.String())
			}
			t.Logf("arena match:\n%s", stdout.String())
		})
	}
}
