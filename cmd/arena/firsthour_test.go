package main

// Tests of what a bot author meets in the first hour: failure lines that
// say why, strikes that show, commands with commas, misspelt bundled bots,
// help texts, usage errors, completion and the version.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/internal/argorder"
	"github.com/arena-dev/arena/internal/completion"
)

// progressLines are the lines of a match's stderr that report a game.
func progressLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "game ") {
			out = append(out, l)
		}
	}
	return out
}

// TestMatchFailureLineShowsStderr: a forfeit's progress line quotes the
// last line the bot wrote to stderr in that game (with or without --out),
// says where the whole log is (with --out) or how to keep it, and a
// startup timeout carries the flush hint. What a process wrote in an
// earlier game is not quoted for a later one.
func TestMatchFailureLineShowsStderr(t *testing.T) {
	t.Parallel()
	type tc struct {
		name  string
		bot   string
		flags []string
		out   bool
		check func(t *testing.T, lines []string)
	}
	quoted := func(reason, last string, out bool) func(t *testing.T, lines []string) {
		return func(t *testing.T, lines []string) {
			for _, l := range lines {
				if !strings.Contains(l, "forfeited: "+reason+": ") || !strings.Contains(l, fmt.Sprintf("its stderr ends with %q", last)) {
					t.Errorf("the line does not quote the bot's stderr %q:\n%s", last, l)
					continue
				}
				if !out {
					if !strings.Contains(l, "(--out DIR keeps each bot's whole stderr)") {
						t.Errorf("the line does not say how to keep the whole log:\n%s", l)
					}
					continue
				}
				_, path, ok := strings.Cut(l, "; whole log: ")
				path = strings.TrimSuffix(path, "]")
				data, err := os.ReadFile(path)
				if !ok || err != nil || !strings.Contains(string(data), last) {
					t.Errorf("the line names no log holding %q (%v):\n%s", last, err, l)
				}
			}
		}
	}
	cases := []tc{
		{name: "crash", bot: checkBotCommand(t, "crash"), check: quoted("crash", "panic: something broke", false)},
		{name: "crash with --out", bot: checkBotCommand(t, "crash"), out: true, check: quoted("crash", "panic: something broke", true)},
		{name: "ready not flushed", bot: checkBotCommand(t, "unflushed-ready"), flags: []string{"--startup-time", "300ms"},
			check: func(t *testing.T, lines []string) {
				for _, l := range lines {
					if !strings.Contains(l, `forfeited: startup: `) || !strings.Contains(l, `answer hello with {"type":"ready"} and flush stdout`) {
						t.Errorf("no flush hint:\n%s", l)
					}
				}
			}},
		{name: "silent exit after a talkative game", bot: checkBotCommand(t, "quiet-exit"), flags: []string{"--games", "4"},
			check: func(t *testing.T, lines []string) {
				for i, l := range lines {
					forfeit := strings.Contains(l, "forfeited: crash: ")
					if forfeit != (i >= 2) {
						t.Errorf("game %d: want a crash in games 3 and 4 only:\n%s", i+1, l)
					}
					if strings.Contains(l, "its stderr ends with") {
						t.Errorf("game %d quotes what the process wrote in its earlier game:\n%s", i+1, l)
					}
				}
			}},
	}
	if python, err := exec.LookPath("python3"); err == nil {
		cases = append(cases, tc{name: "python traceback", out: true,
			bot:   fmt.Sprintf(`'%s' -c 'import sys; sys.stdin.readline(); raise ValueError("boom")'`, python),
			check: quoted("crash", "ValueError: boom", true)})
	} else {
		t.Log("python3 not installed: no traceback case")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			args := append([]string{"match", "--game", "banqi", "--bot", "c=" + tc.bot, "--bot", "r=arena bot random", "--seed", "3"}, tc.flags...)
			if tc.out {
				args = append(args, "--out", t.TempDir())
			}
			_, stderr, code := arena(t, args...)
			lines := progressLines(stderr)
			if code != 0 || len(lines) == 0 {
				t.Fatalf("exit %d, %d progress lines:\n%s", code, len(lines), stderr)
			}
			tc.check(t, lines)
		})
	}
}

// TestTeachingModeShowsStrikes: with --on-timeout random a late turn is a
// strike, and the strikes show in the progress lines, the table and the
// JSON summary of a match, and in a tournament's progress lines.
func TestTeachingModeShowsStrikes(t *testing.T) {
	t.Parallel()
	late := checkBotCommand(t, "late") // late at the first turn of each process's first game
	teach := []string{"--on-timeout", "random", "--move-time", "500ms"}
	// Once per game, but a loaded machine may make another turn late.
	strikeLine := regexp.MustCompile(`\[late struck (once|\d+ times): timeout(, timeout)*; last: no reply within 500ms \(\+50ms margin\)(: (from [0-9.µms]+ into the move \(its cgroup's first reading\) it ran [0-9.µms]+ on a CPU, waited [0-9.µms]+ for one( \([0-9.µms]+ of it its own CPU limit's throttling\))? and [0-9.µms]+ for memory or I/O(; the referee, itself held back, took that reading late: [^;\]]*)?(; the hypervisor held this machine's CPUs [0-9.µms]+ meanwhile)?|its CPU use could not be read [^\]]*))?\]`)
	cases := []struct {
		name  string
		args  []string
		check func(t *testing.T, stdout, stderr string)
	}{
		{"match table", append([]string{"match", "--game", "banqi", "--bot", "late=" + late, "--bot", "r=arena bot random", "--seed", "2"}, teach...),
			func(t *testing.T, stdout, stderr string) {
				if lines := progressLines(stderr); len(lines) != 2 || !strikeLine.MatchString(lines[0]) || !strikeLine.MatchString(lines[1]) {
					t.Errorf("progress lines do not show the strikes (%s):\n%s", strikeLine, stderr)
				}
				if !strings.Contains(stdout, "STRIKES") {
					t.Errorf("the table has no strikes column:\n%s", stdout)
				}
			}},
		{"match json", append([]string{"match", "--game", "banqi", "--bot", "late=" + late, "--bot", "r=arena bot random", "--seed", "2", "--json", "-q"}, teach...),
			func(t *testing.T, stdout, stderr string) {
				var sum struct {
					Bots []map[string]any `json:"bots"`
				}
				if err := json.Unmarshal([]byte(stdout), &sum); err != nil || len(sum.Bots) != 2 {
					t.Fatalf("not a summary (%v):\n%s", err, stdout)
				}
				for _, b := range sum.Bots {
					if _, ok := b["strikes"]; !ok {
						t.Errorf("bot %v has no strikes field", b["name"])
					}
				}
				if got, _ := sum.Bots[0]["strikes"].(float64); sum.Bots[0]["name"] != "late" || got < 2 {
					t.Errorf("late's strikes: %v, want 2 (one per process):\n%s", sum.Bots[0]["strikes"], stdout)
				}
			}},
		{"tournament progress", append([]string{"tournament", "run", "--name", "strikes", "--game", "banqi", "--bot", "late=" + late,
			"--bot", "r=arena bot random", "--games-per-encounter", "2", "--seed", "2", "--out", t.TempDir()}, teach...),
			func(t *testing.T, stdout, stderr string) {
				if !strings.Contains(stderr, "(strikes: late ") {
					t.Errorf("the progress lines do not show the strikes:\n%s", stderr)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := arena(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			tc.check(t, stdout, stderr)
		})
	}
}

// eachCommand calls f with the path and the command of every command and
// subcommand of app but help.
func eachCommand(app *cli.App, f func(path []string, c *cli.Command)) {
	var walk func(cmds []*cli.Command, path []string)
	walk = func(cmds []*cli.Command, path []string) {
		for _, c := range cmds {
			if c.Name == "help" {
				continue
			}
			p := append(slices.Clone(path), c.Name)
			f(p, c)
			walk(c.Subcommands, p)
		}
	}
	walk(app.Commands, nil)
}

// findCommand is the command at path in app.
func findCommand(app *cli.App, path []string) *cli.Command {
	var found *cli.Command
	eachCommand(app, func(p []string, c *cli.Command) {
		if slices.Equal(p, path) {
			found = c
		}
	})
	return found
}

// TestRepeatableFlagsKeepCommas: every repeatable flag of every command
// takes its value whole, commas and all (urfave/cli splits at commas by
// default).
func TestRepeatableFlagsKeepCommas(t *testing.T) {
	t.Parallel()
	type slot struct {
		path []string
		flag string
	}
	var slots []slot
	eachCommand(newApp(), func(path []string, c *cli.Command) {
		for _, f := range c.Flags {
			if sf, ok := f.(*cli.StringSliceFlag); ok {
				slots = append(slots, slot{path, sf.Name})
			}
		}
	})
	if len(slots) < 10 {
		t.Fatalf("found only %d repeatable flags: %v", len(slots), slots)
	}
	const value = "x=python3 bot.py --weights a,b"
	for _, s := range slots {
		app := newApp() // a fresh one: Run sets an app up once
		app.Writer, app.ErrWriter = io.Discard, io.Discard
		var got []string
		findCommand(app, s.path).Action = func(c *cli.Context) error {
			got = c.StringSlice(s.flag)
			return nil
		}
		args := append(append([]string{"arena"}, s.path...), "--"+s.flag, value)
		inProcess.Lock()
		err := app.Run(argorder.FlagsFirst(app, args))
		inProcess.Unlock()
		if err != nil {
			t.Errorf("%v: %v", args, err)
			continue
		}
		if !slices.Equal(got, []string{value}) {
			t.Errorf("arena %s --%s %q gives %q, want the value whole", strings.Join(s.path, " "), s.flag, value, got)
		}
	}
}

// TestBotCommandWithAComma: a --bot command with a comma reaches the bot
// whole and plays.
func TestBotCommandWithAComma(t *testing.T) {
	t.Parallel()
	// The check bot plays any mode it does not know as a correct bot.
	stdout, stderr, code := arena(t, "match", "--game", "banqi", "--bot", "c="+checkBotCommand(t, "ok,with,commas"),
		"--bot", "r=arena bot random", "--seed", "1", "--json", "-q")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	var sum struct {
		Games int `json:"games"`
		Bots  []struct {
			Name     string `json:"name"`
			Forfeits int    `json:"forfeits"`
		} `json:"bots"`
	}
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || sum.Games != 2 || sum.Bots[0].Name != "c" || sum.Bots[0].Forfeits != 0 {
		t.Fatalf("want 2 games without forfeits (%v):\n%s", err, stdout)
	}
}

// TestMisspeltBundledBotIsUsage: a command naming a bundled bot that does
// not exist is refused before anything runs, in every command that runs
// bots, with the list of bundled bots.
func TestMisspeltBundledBotIsUsage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cup := filepath.Join(dir, "cup.yaml")
	if err := os.WriteFile(cup, []byte("name: cup\ngame: banqi\nbots:\n  - name: a\n    command: arena bot rnd\n  - name: b\n    command: arena bot random\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	list := "(bundled bots: " + strings.Join(bots.Names(), ", ") + ")"
	unknown := `unknown bot "rnd" ` + list
	cases := []usageCase{
		{"match", []string{"match", "--game", "banqi", "--bot", "a=arena bot rnd", "--bot", "b=arena bot random"}, "--bot a: " + unknown},
		{"match, no name", []string{"match", "--game", "banqi", "--bot", "a=arena bot", "--bot", "b=arena bot random"}, `"arena bot" names none ` + list},
		{"match, more after the name", []string{"match", "--game", "banqi", "--bot", "a=arena bot random --x a,b", "--bot", "b=arena bot random"},
			`takes one bundled bot's name and nothing else: "arena bot random --x a,b" has "--x a,b" after it`},
		{"tournament flags", []string{"tournament", "run", "--name", "typo", "--game", "banqi", "--bot", "a=arena bot rnd", "--bot", "b=arena bot random",
			"--out", filepath.Join(dir, "out")}, unknown},
		{"tournament file", []string{"tournament", "run", cup, "--out", filepath.Join(dir, "out2")}, "bots[0].command: " + unknown},
		{"sprt", []string{"sprt", "--game", "banqi", "--base", "a=arena bot random", "--test", "b=arena bot rnd", "--max-games", "2"}, "--test b: " + unknown},
		{"check", []string{"check", "--game", "banqi", "arena bot rnd"}, unknown},
	}
	runUsageCases(t, cases, nil)
}

// inProcess serializes running the CLI in this process: urfave/cli's
// help and version flags are package variables that every run sets up.
var inProcess sync.Mutex

// helpOf renders arena PATH --help.
func helpOf(t *testing.T, path []string) string {
	t.Helper()
	app := newApp()
	var out bytes.Buffer
	app.Writer, app.ErrWriter = &out, io.Discard
	inProcess.Lock()
	defer inProcess.Unlock()
	if err := app.Run(append(append([]string{"arena"}, path...), "--help")); err != nil {
		t.Fatalf("arena %s --help: %v", strings.Join(path, " "), err)
	}
	return out.String()
}

// flagDefaults maps each flag of a help text to the defaults its line
// shows (the texts in "(default: ...)").
func flagDefaults(help string) map[string][]string {
	out := map[string][]string{}
	re := regexp.MustCompile(`\(default: ([^()]*(?:\([^()]*\))?[^()]*)\)`)
	for _, l := range strings.Split(help, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "--") {
			continue
		}
		name := strings.TrimPrefix(strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == ',' })[0], "--")
		out[name] = []string{}
		for _, m := range re.FindAllStringSubmatch(l, -1) {
			out[name] = append(out[name], m[1])
		}
	}
	return out
}

// TestHelpShowsEachDefaultOnce: no flag's help shows two defaults, and the
// defaults shown are the ones that apply, tournament run's included (its
// flags have no values of their own, so that a file's fields stay).
func TestHelpShowsEachDefaultOnce(t *testing.T) {
	t.Parallel()
	want := map[string]map[string]string{
		"match": {"games": "one full seat rotation, as many games as seats", "move-time": "1s without --tc", "startup-time": "10s",
			"margin": "50ms", "max-strikes": "3", "seed": "random, printed"},
		"tournament run": {"move-time": "1s without --tc", "startup-time": "10s", "margin": "50ms", "rounds": "1",
			"games-per-encounter": "seats", "max-strikes": "3", "seats": "the game's minimum", "on-timeout": "forfeit", "format": "round-robin"},
		"sprt":  {"seats": "the game's minimum", "concurrency": "cores / seats", "move-time": "1s without --tc", "max-strikes": "3"},
		"check": {"progress": "on, off with --json", "seats": "the game's minimum", "move-time": "1s", "startup-time": "10s"},
	}
	seen := 0
	eachCommand(newApp(), func(path []string, c *cli.Command) {
		name := strings.Join(path, " ")
		got := flagDefaults(helpOf(t, path))
		for flag, defs := range got {
			if len(defs) > 1 {
				t.Errorf("arena %s --%s shows %d defaults: %q", name, flag, len(defs), defs)
			}
		}
		for flag, def := range want[name] {
			seen++
			if d := got[flag]; len(d) != 1 || d[0] != def {
				t.Errorf("arena %s --%s: help shows defaults %q, want %q", name, flag, d, def)
			}
		}
	})
	if seen == 0 {
		t.Fatal("no command checked")
	}
}

// TestUsageMistakesExit2OneLine: a missing required flag, a missing input
// file and a duration without a unit are usage errors: exit 2, one line
// on stderr that says what is wrong, nothing on stdout.
func TestUsageMistakesExit2OneLine(t *testing.T) {
	t.Parallel()
	cases := []usageCase{
		{"match without flags", []string{"match"}, "--game is required"},
		{"replay show of no file", []string{"replay", "show", "missing.jsonl.zst"}, "missing.jsonl.zst: no such file"},
		{"replay verify of no file", []string{"replay", "verify", "missing.jsonl.zst"}, "missing.jsonl.zst: no such file"},
		{"tournament run of no file", []string{"tournament", "run", "missing.yaml"}, "missing.yaml: no such file"},
	}
	for _, cmd := range [][]string{{"match"}, {"sprt"}, {"check"}, {"tournament", "run"}} {
		for _, flag := range []string{"move-time", "startup-time", "margin"} {
			cases = append(cases, usageCase{strings.Join(cmd, " ") + " --" + flag, append(slices.Clone(cmd), "--"+flag, "100"), `"100" has no unit: 100ms or 100s?`})
		}
	}
	runUsageCases(t, cases, func(t *testing.T, tc usageCase, stdout, stderr string) {
		if stdout != "" || strings.Count(stderr, "\n") != 1 {
			t.Fatalf("stdout %d bytes, stderr:\n%s\nwant one line naming %q and nothing on stdout", len(stdout), stderr, tc.want)
		}
	})
}

// TestHelpCompletionAndVersion: arena help, the shell completion urfave/cli
// answers and the scripts that ask it, and --version naming the commit.
func TestHelpCompletionAndVersion(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"COMMANDS:", "tournament", "completion", "arena match --game banqi"}},
		{[]string{"help", "match"}, []string{"arena match - play games", "--bot value"}},
		{[]string{"tournament", "help", "run"}, []string{"arena tournament run - run (or resume)"}},
		{[]string{"completion", "bash"}, []string{"complete -o bashdefault -o default -F _arena_complete arena", completion.Flag}},
		{[]string{"completion", "zsh"}, []string{"compdef _arena_complete arena", completion.Flag}},
		{[]string{"completion", "fish"}, []string{"complete -c arena"}},
		{[]string{completion.Flag}, []string{"\nmatch\n", "\nsprt\n", "\ncompletion\n"}},
		{[]string{"tournament", completion.Flag}, []string{"run\n", "\nverify\n"}},
		{[]string{"match", "--ga", completion.Flag}, []string{"--game\n", "--games\n"}},
		{[]string{"--version"}, []string{"arena version " + Version + " (commit "}},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := arena(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
		})
	}
}

// TestBashCompletionScript sources the bash script and completes a word,
// with arena on PATH (this test binary, as the arena).
func TestBashCompletionScript(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(bash, "-c", `source <(arena completion bash) && COMP_WORDS=(arena tourn) && COMP_CWORD=1 && _arena_complete && echo "${COMPREPLY[*]}"`)
	cmd.Env = arenaOnPath(t)
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "tournament" {
		t.Fatalf("completing arena tourn: %v: %q, want tournament", err, out)
	}
}

// TestEveryCommandHelpHasAnExample: each command's help shows at least
// one command line of its own in its description.
func TestEveryCommandHelpHasAnExample(t *testing.T) {
	t.Parallel()
	n := 0
	eachCommand(newApp(), func(path []string, c *cli.Command) {
		n++
		help := helpOf(t, path)
		_, desc, _ := strings.Cut(help, "DESCRIPTION:\n")
		example := regexp.MustCompile(`(?m)^\s+(\S+ )*arena ` + regexp.QuoteMeta(strings.Join(path, " ")) + `( |$)`)
		if !example.MatchString(desc) {
			t.Errorf("arena %s --help shows no example:\n%s", strings.Join(path, " "), help)
		}
	})
	if n < 12 {
		t.Fatalf("only %d commands", n)
	}
}

// TestSPRTGameIDsAreUnique: arena sprt's match id is the shared unique
// one (time and random digits), not a per-second timestamp that two runs
// started together would share.
func TestSPRTGameIDsAreUnique(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, stderr, code := arena(t, "sprt", "--game", "banqi", "--base", "a=arena bot random", "--test", "b=arena bot random",
		"--max-games", "2", "--seed", "1", "--out", dir, "-q")
	if code != exitInconclusive && code != exitOK && code != exitH0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	id := regexp.MustCompile(`^sprt-banqi-\d{8}-\d{6}-[0-9a-f]{8}-p00000[ab]$`)
	lines := readLines(t, filepath.Join(dir, "results.jsonl"))
	if len(lines) != 2 {
		t.Fatalf("%d games recorded, want 2", len(lines))
	}
	for _, l := range lines {
		var r ledger.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil || !id.MatchString(r.GameID) {
			t.Errorf("game id %q (%v) is not of the form %s", r.GameID, err, id)
		}
	}
}

// TestDocsQuoteTheArena: what the README and docs quote of the arena's
// output and ids is what it prints.
func TestDocsQuoteTheArena(t *testing.T) {
	t.Parallel()
	read := func(path string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	readme, protocolDoc, tournaments := read("README.md"), read("docs/protocol.md"), read("docs/tournaments.md")

	allWon := eloLineOf(matchOf("greedy", "random", repeat(20, 1), true))
	if allWon == "" || !strings.Contains(readme, allWon) {
		t.Errorf("README does not quote the all-won Elo line %q", allWon)
	}
	for _, w := range []string{"arena tournament verify", "arena.lock"} {
		if !strings.Contains(readme, w) {
			t.Errorf("README does not mention %s", w)
		}
	}

	// Match ids as run.NewMatchID makes them, game ids with -gNNNN.
	matchID := regexp.MustCompile(`^banqi-\d{8}-\d{6}-[0-9a-f]{8}$`)
	if id := run.NewMatchID("banqi"); !matchID.MatchString(id) {
		t.Fatalf("NewMatchID gives %q: the pattern here is out of date", id)
	}
	ids := regexp.MustCompile(`banqi-\d{8}-\d{6}[-0-9a-fg]*`).FindAllString(protocolDoc, -1)
	if len(ids) < 10 {
		t.Fatalf("found only %d ids in docs/protocol.md", len(ids))
	}
	for _, id := range ids {
		mid, _, _ := strings.Cut(id+"-g", "-g")
		if !matchID.MatchString(mid) {
			t.Errorf("docs/protocol.md shows the id %q, whose match id %q is not NewMatchID's", id, mid)
		}
	}

	_, row, _ := strings.Cut(tournaments, "| `pairs[]` |")
	row, _, _ = strings.Cut(row, "\n")
	for _, w := range []string{"Beta(wins+1, losses+1)", "passes score 0 or 1"} {
		if !strings.Contains(row, w) {
			t.Errorf("docs/tournaments.md's pairs[] row lacks %q:\n%s", w, row)
		}
	}
}
