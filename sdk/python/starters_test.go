package python

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// starterSeats is the seat count each starter's match is played at.
var starterSeats = map[string]int{"banqi": 2, "uno": 2, "bounce": 2, "boon": 3}

// TestStarters runs every starter of bots/starters/python, from a kit
// directory as `arena new python` writes it (bot.py and arenabot.py side
// by side), through arena check and a short match against arena bot
// random: both must succeed.
func TestStarters(t *testing.T) {
	root := moduleRoot(t)
	dirs, err := filepath.Glob(filepath.Join(root, "bots", "starters", "python", "*"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range dirs {
		game := filepath.Base(d)
		seen[game] = true
		t.Run(game, func(t *testing.T) {
			script, err := os.ReadFile(filepath.Join(d, "bot.py"))
			if err != nil {
				t.Fatal(err)
			}
			readme, err := os.ReadFile(filepath.Join(d, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				"arena new python " + game + " mybot",
				"arena check --game " + game + " 'python3 mybot/bot.py'",
				"arena match --game " + game + " --bot me='python3 mybot/bot.py' --bot random='arena bot random'",
			} {
				if !bytes.Contains(readme, []byte(want)) {
					t.Errorf("README.md lacks %q", want)
				}
			}
			seats, ok := starterSeats[game]
			if !ok {
				t.Fatalf("no seat count for the starter of %q", game)
			}
			bin := arena(t)
			kit := kitDir(t, map[string]string{"bot.py": string(script), "README.md": string(readme)})
			me := "python3 " + filepath.Join(kit, "bot.py")
			run(t, bin, "check", "--game", game, "--seed", "7", me)
			args := []string{"match", "--game", game, "--games", "4", "--seed", "7", "--quiet", "--json", "--bot", "me=" + me}
			for i := 1; i < seats; i++ {
				args = append(args, "--bot", fmt.Sprintf("random%d=arena bot random", i))
			}
			out := run(t, bin, args...)
			var summary struct {
				Games int
				Bots  []struct {
					Name            string
					Games, Forfeits int
					Strikes         int
				}
			}
			if err := json.Unmarshal([]byte(out), &summary); err != nil {
				t.Fatalf("match --json: %v\n%s", err, out)
			}
			if summary.Games != 4 || len(summary.Bots) != seats {
				t.Fatalf("match: %s", out)
			}
			for _, b := range summary.Bots {
				if b.Games != 4 || b.Forfeits != 0 || b.Strikes != 0 {
					t.Errorf("match: %s played %d games, %d forfeits, %d strikes", b.Name, b.Games, b.Forfeits, b.Strikes)
				}
			}
		})
	}
	for game := range starterSeats {
		if !seen[game] {
			t.Errorf("no Python starter for %s", game)
		}
	}
}

// run runs the arena binary, failing the test unless it exits 0, and
// returns its standard output.
func run(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		out = append(out, stderr.Bytes()...)
		t.Fatalf("arena %s: %v\n%s", strings.Join(args, " "), err, lastLines(out, 30))
	}
	return string(out)
}
