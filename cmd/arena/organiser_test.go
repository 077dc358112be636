package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arena-dev/arena/arena/ledger"
)

// script writes an executable shell script into a new directory.
func script(t *testing.T, name, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// forfeitedBy are the games of recs that bot forfeited, by id.
func forfeitedBy(recs []ledger.Record, bot string) []string {
	var ids []string
	for _, r := range recs {
		if slices.ContainsFunc(r.Forfeits, func(f ledger.SeatFailure) bool { return f.Bot == bot }) {
			ids = append(ids, r.GameID)
		}
	}
	slices.Sort(ids)
	return ids
}

// TestTournamentProgressShowsForfeits runs a 4-seat Uno tournament in
// which one bot crashes as it starts, with progress as plain lines (a
// log) and as a bar (a terminal): each game it forfeits is said as it
// is counted, in arena match's words (the reason, the detail, the last
// line of its stderr), and the running totals name it.
func TestTournamentProgressShowsForfeits(t *testing.T) {
	t.Parallel()
	crash := script(t, "crash.sh", `echo "ImportError: no module named numpy" >&2; exit 1`)
	args := func(out string) []string {
		return []string{"tournament", "run", "--name", "fcup", "--game", "uno", "--seats", "4", "--option", "target=0",
			"--bot", "crash=" + crash, "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--bot", "c=arena bot random",
			"--bot", "d=arena bot random", "--games-per-encounter", "4", "--seed", "3", "--concurrency", "2", "--out", out}
	}
	said := regexp.MustCompile(`\[\d+/\d+\] game (\S+): \[crash forfeited: crash: [^\]]*its stderr ends with "ImportError: no module named numpy"`)

	t.Run("plain lines", func(t *testing.T) {
		t.Parallel()
		out := t.TempDir()
		_, stderr, code := arena(t, args(out)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var ids []string
		for _, m := range said.FindAllStringSubmatch(stderr, -1) {
			ids = append(ids, m[1])
		}
		slices.Sort(ids)
		want := forfeitedBy(records(t, out), "crash")
		if len(want) == 0 || !slices.Equal(ids, want) {
			t.Fatalf("progress told of forfeits in games %v, the ledger has %v:\n%s", ids, want, stderr)
		}
		if !strings.Contains(stderr, fmt.Sprintf("(forfeits: crash %d)", len(want))) {
			t.Errorf("the last progress line does not total the forfeits:\n%s", stderr)
		}
	})
	t.Run("terminal", func(t *testing.T) {
		t.Parallel()
		out := t.TempDir()
		term := startTerminal(t, args(out)...)
		term.expect(said)
		term.expect(regexp.MustCompile(`\(forfeits: crash \d+\)`))
		term.expect(regexp.MustCompile(`head to head`)) // the standings: the run is over
		if err := term.cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	})
	// Totals naming several bots with long names: the bar still fits the
	// terminal's 80 columns, as a line that wraps leaves its first half
	// behind at every redraw.
	t.Run("terminal, long names", func(t *testing.T) {
		t.Parallel()
		out := t.TempDir()
		term := startTerminal(t, "tournament", "run", "--name", "lcup", "--game", "uno", "--seats", "4", "--option", "target=0",
			"--bot", "crashing_bot_number_one="+crash, "--bot", "crashing_bot_number_two="+crash,
			"--bot", "a=arena bot random", "--bot", "b=arena bot random", "--bot", "c=arena bot random",
			"--games-per-encounter", "4", "--seed", "3", "--concurrency", "2", "--out", out)
		term.expect(regexp.MustCompile(`head to head`))
		if err := term.cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		term.mu.Lock()
		text := term.text.String()
		term.mu.Unlock()
		bars := 0
		for _, frame := range regexp.MustCompile(`[\r\n]+`).Split(ansi.ReplaceAllString(text, ""), -1) {
			if !strings.Contains(frame, "games/s") {
				continue // not the bar
			}
			bars++
			if n := utf8.RuneCountInString(frame); n > termCols {
				t.Errorf("a bar of %d columns on a terminal of %d:\n%s", n, termCols, frame)
			}
		}
		if bars == 0 {
			t.Fatalf("no bar drawn:\n%q", text)
		}
	})
}

// ansi matches a terminal's escape sequences (colours, cursor moves).
var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// TestMatchSuspendsABotThatNeverStarts plays a match against a bot that
// never says ready (it sleeps): after --max-startup-failures games in a
// row it is suspended, and its remaining games are recorded as forfeits
// saying so without it being started (counted by the lines it writes as
// it starts); 0 never suspends it.
func TestMatchSuspendsABotThatNeverStarts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		max, starts int
	}{
		{2, 2},
		{0, 4},
	} {
		t.Run(fmt.Sprint("max ", tc.max), func(t *testing.T) {
			t.Parallel()
			log := filepath.Join(t.TempDir(), "starts")
			sleeper := script(t, "sleeper.sh", fmt.Sprintf("echo started >> '%s'; exec sleep 60", log))
			out := t.TempDir()
			_, stderr, code := arena(t, "match", "--game", "banqi", "--option", "max_plies=20", "--bot", "s="+sleeper, "--bot", "r=arena bot random",
				"--games", "4", "--startup-time", "1s", "--max-startup-failures", fmt.Sprint(tc.max), "--bot-isolate", "no", "--out", out)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			b, _ := os.ReadFile(log)
			if n := bytes.Count(b, []byte("\n")); n != tc.starts {
				t.Fatalf("the sleeper was started %d times, want %d:\n%s", n, tc.starts, stderr)
			}
			suspended := fmt.Sprintf("suspended after %d startup failures in a row", tc.max)
			if got := strings.Contains(stderr, "arena: bot s "+suspended); got != (tc.max > 0) {
				t.Errorf("suspension said: %v, want %v:\n%s", got, tc.max > 0, stderr)
			}
			for i, r := range records(t, out) {
				f := r.Forfeits[slices.IndexFunc(r.Forfeits, func(f ledger.SeatFailure) bool { return f.Bot == "s" })]
				if f.Reason != "startup" || strings.HasPrefix(f.Detail, suspended) != (i >= tc.starts) {
					t.Errorf("game %d: the sleeper's forfeit %+v", i, f)
				}
			}
			// The games it took no part in carry no advice on answering hello.
			for _, line := range strings.Split(stderr, "\n") {
				if strings.Contains(line, "[s forfeited: startup: "+suspended) && strings.Contains(line, "answer hello") {
					t.Errorf("a game the sleeper took no part in advises it on answering hello: %s", line)
				}
			}
		})
	}
}

// TestTournamentBotListEdits resumes a tournament from its file after
// edits to the bot list: a removed bot is withdrawn (said at the start,
// and in the standings); any other change is refused in a few words
// naming it, not with both lists.
func TestTournamentBotListEdits(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "cup.yaml")
	write := func(bots ...string) {
		body := "name: ecup\ngame: banqi\noptions: {max_plies: \"8\"}\nseed: 5\nconcurrency: 1\nbots:\n"
		for _, b := range bots {
			name, cmd, _ := strings.Cut(b, "=")
			body += fmt.Sprintf("  - name: %s\n    command: %s\n", name, cmd)
		}
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	run := func() (string, string, int) { return arena(t, "tournament", "run", file, "--out", out, "-q") }
	write("a=arena bot random", "b=arena bot greedy", "c=arena bot random")
	if _, stderr, code := run(); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		name string
		bots []string
		want string
	}{
		{"command changed", []string{"a=arena bot random", "b=arena bot random", "c=arena bot random"},
			`bot b's command changed ("arena bot greedy" there, "arena bot random" now)`},
		{"added", []string{"a=arena bot random", "b=arena bot greedy", "c=arena bot random", "d=arena bot random"}, "bot d added"},
	} {
		write(tc.bots...)
		_, stderr, code := run()
		line := ""
		for _, l := range strings.Split(stderr, "\n") {
			if strings.Contains(l, "holds a different tournament") {
				line = l
			}
		}
		if code == 0 || !strings.Contains(line, tc.want) || len(line) > 400 {
			t.Errorf("%s: exit %d, want a refusal of a few words naming %q:\n%s", tc.name, code, tc.want, stderr)
		}
	}

	write("a=arena bot random", "b=arena bot greedy")
	stdout, stderr, code := run()
	if code != 0 || !strings.Contains(stderr, "arena: bot c removed from the tournament's bots: withdrawn") {
		t.Fatalf("removing c: exit %d, want its withdrawal said:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "c plays no more: withdrawn from the tournament by its organiser") {
		t.Errorf("the standings do not say c is withdrawn:\n%s", stdout)
	}
	var st struct {
		Standings []struct {
			Name, Withdrawn string
		}
	}
	js, _, _ := arena(t, "tournament", "standings", out, "--json")
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Standings {
		if (r.Name == "c") != (r.Withdrawn != "") {
			t.Errorf("standings --json: %s withdrawn %q", r.Name, r.Withdrawn)
		}
	}
}
