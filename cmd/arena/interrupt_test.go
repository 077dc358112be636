package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/sprt"
)

// SIGTERM (timeout, docker stop, CI cancel) stops every long-running
// command as Ctrl-C does: it winds down, says it was stopped and by
// what, in words, and exits with its code for an interrupt (0 for the
// servers, whose way to stop it is; 1 for a run cut short).
func TestSIGTERMStopsEveryCommand(t *testing.T) {
	t.Parallel()
	url := natsServer(t)
	for _, tc := range []struct {
		name  string
		args  []string
		ready string // a stderr line (its first group) once it runs
		code  int
		said  string // on stderr once stopped
	}{
		{"serve", []string{"serve", "--listen", "127.0.0.1:0", "--store", t.TempDir()}, `(NATS server at)`, 0,
			`NATS server stopped \(SIGTERM\)`},
		{"connect", []string{"connect", "--nats", url, "--bot", "termed", "--", "arena", "bot", "random"}, `(serving bot termed)`, 0,
			`stopped serving bot termed \(SIGTERM\)`},
		{"bundled bot over NATS", []string{"bot", "random", "--nats", url, "--id", "termed2"}, `(serving bot termed2)`, 0,
			`stopped serving bot termed2 \(SIGTERM\)`},
		{"worker", []string{"worker", "--nats", url, "--name", "tw", "--bot", "r=arena bot random"}, `(worker tw at)`, 0,
			`worker tw stopped \(SIGTERM\); the games it was playing go to other workers`},
		{"match", []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--games", "100000"},
			`(game 1/100000)`, exitFail, `match interrupted \(SIGTERM\) (during game|after) \d+`},
		{"bench", []string{"bench", "--game", "banqi", "--games", "100000"}, `(bench: pipe round trip)`, exitFail,
			`bench interrupted \(SIGTERM\) before it finished measuring`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := start(t, nil, tc.args...)
			p.waitFor(t, regexp.MustCompile(tc.ready))
			p.cmd.Process.Signal(syscall.SIGTERM)
			code := p.wait(t)
			stderr := p.stderr()
			if code != tc.code || !regexp.MustCompile(tc.said).MatchString(stderr) || strings.Contains(stderr, "context canceled") {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d saying %s, and no Go jargon", code, stderr, tc.code, tc.said)
			}
		})
	}
}

// SIGTERM to a running sprt: every report is written (sprt.json, JUnit,
// Markdown) with the final verdict "aborted", none is left at
// "running", and the exit code is the interrupt's (1), as for Ctrl-C.
func TestSIGTERMStopsSPRTWithItsReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, junit, md := filepath.Join(dir, "out"), filepath.Join(dir, "sprt.xml"), filepath.Join(dir, "summary.md")
	// Two copies of one bot, bounds no run of this length crosses.
	p := start(t, nil, "sprt", "--game", "banqi", "--base", "a=arena bot random", "--test", "b=arena bot random",
		"--elo0", "-5", "--elo1", "5", "--max-games", "0", "--concurrency", "1", "--out", out, "--junit", junit, "--summary-md", md)
	p.waitFor(t, regexp.MustCompile(`^(pairs \d+) `))
	p.cmd.Process.Signal(syscall.SIGTERM)
	if code := p.wait(t); code != exitFail {
		t.Fatalf("exit %d, want %d:\n%s", code, exitFail, p.stderr())
	}
	if !strings.Contains(p.stderr(), "sprt interrupted (SIGTERM) after") {
		t.Errorf("stderr does not say the run was interrupted by SIGTERM:\n%s", p.stderr())
	}
	b, err := os.ReadFile(filepath.Join(out, sprt.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var sum sprt.Summary
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Verdict != sprt.Aborted || sum.ExitCode == nil || *sum.ExitCode != exitFail || sum.Games == 0 {
		t.Errorf("sprt.json: verdict %q, exit code %v, %d games: want aborted, %d, the games played", sum.Verdict, sum.ExitCode, sum.Games, exitFail)
	}
	if len(records(t, out)) < sum.Games {
		t.Errorf("%d games in results.jsonl, fewer than the %d counted", len(records(t, out)), sum.Games)
	}
	x, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Errors int `xml:"errors,attr"`
	}
	if err := xml.Unmarshal(x, &suites); err != nil || suites.Errors != 1 || !strings.Contains(string(x), "aborted") {
		t.Errorf("JUnit (%v): want one error, the run aborted:\n%s", err, x)
	}
	if m, err := os.ReadFile(md); err != nil || !strings.Contains(string(m), "**aborted** (exit code 1)") {
		t.Errorf("Markdown summary (%v):\n%s", err, m)
	}
}

// slowCup is a banqi round-robin of 150 games whose bot s (this test
// binary as the spy bot, given its directory and delay on the command
// line) thinks 10ms per turn: a game lasts a fraction of a second, the
// run many seconds, so a signal sent once its first games are recorded
// finds it running.
func slowCup(out string) []string {
	return []string{"tournament", "run", "--name", "slowcup", "--game", "banqi", "--option", "max_plies=40",
		"--bot", "s=" + os.Args[0], "--bot", "r=arena bot random", "--bot", "g=arena bot greedy",
		"--rounds", "25", "--games-per-encounter", "2", "--seed", "5", "--concurrency", "2", "--out", out,
		"--bot-isolate", "no", "--bot-env", "ARENA_SPY_DIR=" + filepath.Join(out, ".."), "--bot-env", "ARENA_SPY_DELAY=10ms"}
}

// interruptedLine is what a tournament says when a signal stops it:
// how many games it counted, and the command that resumes it.
var interruptedLine = regexp.MustCompile(`arena: tournament interrupted \(SIGTERM\) after (\d+) games; every finished game is recorded; resume with: (arena tournament run [^\n]+)`)

// SIGTERM to a running tournament leaves a directory with nothing
// half-recorded (no torn line, every line matching its replay), which
// the command it prints resumes: the resumed run goes on from there
// (stopped by SIGTERM in turn), no game recorded twice.
func TestSIGTERMLeavesATournamentResumable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		where []string // how the run plays its games, which the resume must say again
	}{
		{"local", nil},
		{"distributed", []string{"--distributed", "--workers", "1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sigtermAndResume(t, tc.where)
		})
	}
}

// gameRecorded is a tournament's progress line, "[12/150] ...", which it
// prints once a game is recorded.
var gameRecorded = regexp.MustCompile(`^(\[\d+/\d+\]) `)

// sigtermAndResume runs a slow cup (with the flags where), stops it with
// SIGTERM once it recorded games, and resumes it with the command it
// printed, which must hold where's flags, then stops that too.
func sigtermAndResume(t *testing.T, where []string) {
	out := filepath.Join(t.TempDir(), "cup")
	var resume []string
	for run := range 2 { // the first run, then its resume
		args := append(slowCup(out), where...)
		if run > 0 {
			args = resume
		}
		p := start(t, nil, args...)
		// Once the run has recorded a game of its own: its progress
		// lines come after a game is recorded (tournament.Options.OnGame).
		p.waitFor(t, gameRecorded)
		p.cmd.Process.Signal(syscall.SIGTERM)
		if code := p.wait(t); code != exitFail {
			t.Fatalf("run %d: exit %d, want %d:\n%s", run, code, exitFail, p.stderr())
		}
		said := interruptedLine.FindStringSubmatch(p.stderr())
		if said == nil || strings.Contains(p.stderr(), "context canceled") {
			t.Fatalf("run %d: stderr:\n%s\nwant the interruption by SIGTERM in words, and how to resume", run, p.stderr())
		}
		b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(b), "\n")
		if fmt.Sprint(n) != said[1] || n >= 150 || !strings.HasSuffix(string(b), "\n") {
			t.Fatalf("run %d: results.jsonl has %d lines (ends with a newline: %v); the arena said %s games, of 150", run, n, strings.HasSuffix(string(b), "\n"), said[1])
		}
		ledgerOf(t, out) // no game twice
		if _, stderr, code := arena(t, "tournament", "verify", out); code != 0 {
			t.Fatalf("run %d: verify after SIGTERM: exit %d: %s", run, code, stderr)
		}
		t.Logf("run %d: %d games recorded", run, n)
		resume = strings.Fields(said[2])[1:] // "arena tournament run DIR ...", as printed
		if !strings.HasSuffix(strings.Join(resume, " "), " "+strings.Join(append([]string{out}, where...), " ")) {
			t.Fatalf("run %d: resume with %q, want the directory and %q", run, said[2], where)
		}
	}
}

// On a terminal the progress bar has no newline of its own: the line
// that says the run was interrupted starts a line of its own, not the
// end of the bar's.
func TestInterruptStartsANewLine(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "cup")
	term := startTerminal(t, slowCup(out)...)
	term.expect(regexp.MustCompile(`\(\d+/150, `)) // the bar, drawn once a game is done
	term.cmd.Process.Signal(syscall.SIGTERM)
	m := term.expect(regexp.MustCompile(`(?s)(.)arena: tournament interrupted \(SIGTERM\)`))
	if m[1] != "\n" {
		term.mu.Lock()
		text := term.text.String()
		term.mu.Unlock()
		t.Fatalf("the interrupted line follows %q on its line:\n%q", m[1], text)
	}
	if code := term.wait(); code != exitFail {
		t.Fatalf("exit %d, want %d", code, exitFail)
	}
}

// TestResumeCommandSaysWhereGamesArePlayed: the resume command an
// interrupted tournament prints gives again the flags that say where its
// games are played, as given, each a shell word; a bool flag given as
// false is left out (not "--distributed false", whose "false" would be
// taken for an argument).
func TestResumeCommandSaysWhereGamesArePlayed(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "arena tournament run 'my cup'"},
		{[]string{"--distributed", "--workers", "2", "--lease", "5s"}, "arena tournament run 'my cup' --distributed --workers 2 --lease 5s"},
		{[]string{"--distributed=false", "--nats", "nats://h:4222"}, "arena tournament run 'my cup' --nats nats://h:4222"},
	} {
		var got string
		app := &cli.App{Flags: append(options.DistributedFlags(), options.NATSFlags()...), Action: func(c *cli.Context) error {
			got = resumeCommand(c, "my cup")
			return nil
		}}
		if err := app.Run(append([]string{"arena"}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%v: resume with %q, want %q", tc.args, got, tc.want)
		}
	}
}
