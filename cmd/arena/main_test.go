package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/sdk"
)

// TestMain lets this test binary stand in for the arena executable: with
// ARENA_AS_CLI set it runs the CLI, so `arena bot random` children (which
// re-run os.Executable()) work without a separate build step. With
// ARENA_SPY_DIR set it is a random bot that logs every line it receives
// (and, with ARENA_SPY_DELAY, thinks that long per turn).
func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // as main does
	if dir := os.Getenv("ARENA_SPY_DIR"); dir != "" {
		os.Exit(spyBot(dir))
	}
	if os.Getenv("ARENA_AS_CLI") != "" {
		os.Exit(runMain(os.Args))
	}
	os.Setenv("ARENA_AS_CLI", "1")
	os.Exit(m.Run())
}

// arena runs the CLI as a subprocess and returns stdout, stderr, exit code.
func arena(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return arenaIn(t, "", args...)
}

// arenaIn is arena run in dir ("" for the test's own directory), where a
// user's relative paths lie.
func arenaIn(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := exitCode(t, cmd.Run())
	return out.String(), errb.String(), code
}

// exitCode is the exit code of a command whose Run (or Wait) returned
// err: 0 for nil, the code of an *exec.ExitError; any other error (the
// command did not run) fails t.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// arenaOnPath is the environment of a command that runs `arena` as a
// user types it: this test binary, as the arena, first on PATH.
func arenaOnPath(t *testing.T) []string {
	t.Helper()
	bin := t.TempDir()
	if err := os.Symlink(os.Args[0], filepath.Join(bin, "arena")); err != nil {
		t.Fatal(err)
	}
	return append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// usageCase is a command line (args) the arena must refuse as a usage
// error, with a message on stderr that names want.
type usageCase struct {
	name string
	args []string
	want string
}

// runUsageCases runs each case as a parallel subtest: the arena must exit
// with exitUsage and name tc.want on stderr; more, if not nil, checks
// what else the case needs of the output.
func runUsageCases(t *testing.T, cases []usageCase, more func(t *testing.T, tc usageCase, stdout, stderr string)) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := arena(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d naming %q", code, stderr, exitUsage, tc.want)
			}
			if more != nil {
				more(t, tc, stdout, stderr)
			}
		})
	}
}

func TestUsageErrorsExit2WithOneClearLine(t *testing.T) {
	t.Parallel()
	cases := []usageCase{
		{"unknown game", []string{"match", "--game", "chess", "--bot", "a=arena bot random", "--bot", "b=arena bot random"}, `unknown game "chess"`},
		{"unknown option", []string{"match", "--game", "banqi", "--option", "colour=blue", "--bot", "a=arena bot random", "--bot", "b=arena bot random"}, `no option "colour"`},
		{"bad option value", []string{"match", "--game", "banqi", "--option", "ranks=fr", "--bot", "a=arena bot random", "--bot", "b=arena bot random"}, "ranks"},
		{"too few seats", []string{"match", "--game", "banqi", "--bot", "a=arena bot random"}, "needs 2 seats"},
		{"bot without command", []string{"match", "--game", "banqi", "--bot", "a", "--bot", "b=arena bot random"}, "NAME=CMD"},
		{"missing program", []string{"match", "--game", "banqi", "--bot", "a=./no-such-bot", "--bot", "b=arena bot random"}, `"./no-such-bot" not found`},
		{"duplicate names", []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "a=arena bot random"}, "used twice"},
		{"bad tc", []string{"match", "--game", "banqi", "--tc", "fast", "--bot", "a=arena bot random", "--bot", "b=arena bot random"}, "--tc"},
		{"bad policy", []string{"match", "--game", "banqi", "--on-timeout", "shrug", "--bot", "a=arena bot random", "--bot", "b=arena bot random"}, "--on-timeout"},
		{"bad flag", []string{"match", "--gmae", "banqi"}, "gmae"},
		{"unknown bundled bot", []string{"bot", "clever"}, `unknown bot "clever"`},
		{"unknown command", []string{"tournement"}, `unknown command "tournement"`},
		{"verify without files", []string{"replay", "verify"}, "at least one FILE"},
		{"html without files", []string{"replay", "html"}, "at least one FILE"},
		{"html of no file", []string{"replay", "html", "missing.jsonl.zst"}, "missing.jsonl.zst: no such file"},
		{"html of two files to one page", []string{"replay", "html", "a.jsonl.zst", "b.jsonl.zst", "-o", "one.html"}, "-o must be a directory"},
		{"html for a negative seat", []string{"replay", "html", "--seat", "-3", "a.jsonl.zst"}, "--seat -3"},
	}
	runUsageCases(t, cases, nil)
}

func TestGamesListsBanqiOptions(t *testing.T) {
	t.Parallel()
	out, _, code := arena(t, "games")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"banqi (2 seats)", "ranks", "taiwan", "no_progress_plies", "180", "repetition", "chain_capture", "capture_facedown", "max_plies"} {
		if !strings.Contains(out, want) {
			t.Errorf("arena games output lacks %q", want)
		}
	}
}

// TestMatchJSONAndFiles runs the README's kind of match and checks every
// promised output: the JSON summary, results.jsonl, replays that verify.
func TestMatchJSONAndFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out, stderr, code := arena(t, "match", "--game", "banqi", "--bot", "greedy=arena bot greedy", "--bot", "random=arena bot random",
		"--games", "6", "--seed", "11", "--out", dir, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var sum struct {
		Game  string `json:"game"`
		Games int    `json:"games"`
		Seed  uint64 `json:"seed"`
		Out   string `json:"out"`
		Bots  []struct {
			Name                                 string
			Games, Wins, Draws, Losses, Forfeits int
			Score                                float64
		} `json:"bots"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if sum.Game != "banqi" || sum.Games != 6 || sum.Seed != 11 || sum.Out != dir || len(sum.Bots) != 2 {
		t.Fatalf("summary header wrong: %+v", sum)
	}
	for _, b := range sum.Bots {
		if b.Games != 6 || b.Wins+b.Draws+b.Losses != 6 || b.Forfeits != 0 {
			t.Errorf("bot %s tally inconsistent: %+v", b.Name, b)
		}
	}
	if got := sum.Bots[0].Score + sum.Bots[1].Score; got != 6 {
		t.Errorf("scores add to %v, want 6", got)
	}
	lines := readLines(t, filepath.Join(dir, "results.jsonl"))
	if len(lines) != 6 {
		t.Fatalf("results.jsonl has %d lines, want 6", len(lines))
	}
	var ids []string
	packs := map[string]bool{}
	for i, l := range lines {
		var r ledger.Record
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Index != i || len(r.Bots) != 2 || len(r.Ranks) != 2 || r.Reason == "" || r.Replay == "" || r.ReplayAt == nil {
			t.Errorf("line %d incomplete: %s", i, l)
		}
		ids = append(ids, r.GameID)
		packs[filepath.Join(dir, r.Replay)] = true
	}
	var paths []string
	for p := range packs {
		paths = append(paths, p)
	}
	out, stderr, code = arena(t, append([]string{"replay", "verify"}, paths...)...)
	if code != 0 || strings.Count(out, "ok ") != 6 {
		t.Fatalf("verify exit %d:\n%s\n%s", code, out, stderr)
	}
	out, _, code = arena(t, "replay", "show", "--seat", "1", dir, "--game", ids[0])
	if code != 0 || !strings.Contains(out, "a b c d") || !strings.Contains(out, ids[0]) {
		t.Fatalf("replay show: exit %d, no board:\n%.500s", code, out)
	}
	pages := filepath.Join(dir, "pages") + string(filepath.Separator)
	out, stderr, code = arena(t, append([]string{"replay", "html", "-o", pages, "--seat", "1"}, paths...)...)
	if code != 0 || strings.Count(out, "wrote ") != 6 {
		t.Fatalf("replay html: exit %d:\n%s\n%s", code, out, stderr)
	}
	page, err := os.ReadFile(filepath.Join(pages, ids[0]+".seat1.html"))
	if err != nil || !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) || !bytes.Contains(page, []byte(`"game":"banqi"`)) {
		t.Fatalf("replay html: no viewer page for seat 1 (%v): %.200s", err, page)
	}
	if _, stderr, code = arena(t, "replay", "html", "--seat", "2", dir, "--game", ids[0]); code != exitUsage || !strings.Contains(stderr, "seat 2") {
		t.Fatalf("replay html --seat 2 of a 2-seat game: exit %d, %s", code, stderr)
	}
	if _, stderr, code = arena(t, "replay", "show", paths[0]); code != exitUsage || !strings.Contains(stderr, "--game") {
		t.Fatalf("replay show of a pack of 6 games without --game: exit %d, %s", code, stderr)
	}
	if _, stderr, code = arena(t, "replay", "show", dir, "--game", "nope"); code != exitUsage || !strings.Contains(stderr, `"nope"`) {
		t.Fatalf("replay show of a game the directory does not have: exit %d, %s", code, stderr)
	}
}

// TestPythonBotPlays proves the protocol is language-neutral: the
// standard-library Python bot plays whole games against the Go bot.
func TestPythonBotPlays(t *testing.T) {
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	script, _ := filepath.Abs("../../bots/python/random_bot.py")
	dir := t.TempDir()
	_, stderr, code := arena(t, "match", "--game", "banqi", "--bot", "py="+python+" "+script, "--bot", "go=arena bot random",
		"--games", "4", "--seed", "5", "--out", dir, "--startup-time", "20s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, l := range readLines(t, filepath.Join(dir, "results.jsonl")) {
		var r ledger.Record
		json.Unmarshal([]byte(l), &r)
		if len(r.Forfeits) != 0 {
			t.Errorf("game %s: forfeits %+v", r.GameID, r.Forfeits)
		}
	}
	// The Python bot logs to stderr, which lands in its per-game logs.
	// It writes one line per game on "end": a line the bot writes only
	// once its next game has begun (a bot that is slow to read its end)
	// lands in that game's log, so a game may have none, but no line may
	// be lost.
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "py", "*.stderr.log"))
	if len(logs) == 0 || len(logs) > 4 {
		t.Fatalf("want 1 to 4 per-game stderr logs for py, got %v", logs)
	}
	var all string
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		all += string(b)
	}
	if got := strings.Count(all, "over:"); got != 4 {
		t.Errorf("python bot's stderr: %d of 4 end lines captured: %q", got, all)
	}
}

// TestEachBotSeesExactlyItsOwnSeat replays every game and checks that each
// line a bot received is exactly what its seat may know: hello for its
// seat, and turns whose view and legal list equal the engine's View(seat)
// and Legal() at that ply, and nothing else.
func TestEachBotSeesExactlyItsOwnSeat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	spy := t.TempDir()
	cmd := exec.Command(os.Args[0], "match", "--game", "banqi", "--bot", "s0="+os.Args[0], "--bot", "s1="+os.Args[0],
		"--games", "2", "--seed", "3", "--out", dir, "--bot-isolate", "no", "--bot-env", "ARENA_SPY_DIR")
	// The spies write what they receive into ARENA_SPY_DIR, which isolated
	// bots could not. The arena process and its bot children share this environment; the
	// bots are started without arguments, which is how spyBot tells them
	// from the arena.
	cmd.Env = append(os.Environ(), "ARENA_SPY_DIR="+spy)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("match failed: %v\n%s", err, out)
	}
	records := readLines(t, filepath.Join(dir, "results.jsonl"))
	if len(records) != 2 {
		t.Fatalf("want 2 games, got %d", len(records))
	}
	received := map[string][]string{} // pid file -> lines
	files, _ := filepath.Glob(filepath.Join(spy, "*.log"))
	for _, f := range files {
		received[f] = readLines(t, f)
	}
	// The second game replays the first's deal with the seats swapped, so
	// each bot plays it in a fresh process: 2 bots, 2 processes each.
	if len(files) != 4 {
		t.Fatalf("want one spy log per bot process (a new one for the replayed deal), got %d", len(files))
	}
	checked := 0
	for _, lines := range received {
		checked += checkSpyLog(t, dir, lines)
	}
	if checked < 100 {
		t.Fatalf("only %d turns checked", checked)
	}
}

func checkSpyLog(t *testing.T, outDir string, lines []string) int {
	t.Helper()
	var (
		state engine.State
		game  engine.Game
		rep   *replays.Replay
		seat  int
		ply   int
		turns int
	)
	for _, line := range lines {
		typ, err := protocol.PeekType([]byte(line))
		if err != nil {
			t.Fatalf("bot received a non-protocol line: %q", line)
		}
		switch typ {
		case protocol.TypeHello:
			var h protocol.Hello
			json.Unmarshal([]byte(line), &h)
			src, err := ledger.FindReplay(outDir, h.GameID)
			if err != nil {
				t.Fatal(err)
			}
			rep, err = src.Read()
			if err != nil {
				t.Fatal(err)
			}
			if h.Seed == rep.Header.Seed {
				t.Errorf("hello carries the game's deal seed: a bot could re-deal the hidden pieces")
			}
			game, _ = engine.Lookup(h.Game)
			state, _ = game.New(len(rep.Header.Seats), rep.Header.Seed, rep.Header.Options)
			seat, ply = h.Seat, 0
			if rep.Header.Seats[seat].Bot != h.Players[seat] {
				t.Errorf("hello seat %d names %q, replay says %q", seat, h.Players[seat], rep.Header.Seats[seat].Bot)
			}
		case protocol.TypeTurn:
			var tn protocol.Turn
			json.Unmarshal([]byte(line), &tn)
			// Advance the re-simulation to this seat's next turn.
			for ; state.ToMove() != seat; ply++ {
				applyReplayMove(t, game, state, rep, ply)
			}
			wantView, _ := json.Marshal(state.View(seat))
			if !bytes.Equal(wantView, tn.View) {
				t.Fatalf("turn %d: view differs from View(%d):\n got %s\nwant %s", tn.ID, seat, tn.View, wantView)
			}
			for i, a := range state.Legal() {
				b, _ := json.Marshal(a)
				if !bytes.Equal(b, tn.Legal[i]) {
					t.Fatalf("turn %d: legal[%d] = %s, engine says %s", tn.ID, i, tn.Legal[i], b)
				}
			}
			applyReplayMove(t, game, state, rep, ply)
			ply++
			turns++
		case protocol.TypeEnd, protocol.TypeBye:
		default:
			t.Errorf("unexpected message type %q", typ)
		}
	}
	return turns
}

func applyReplayMove(t *testing.T, g engine.Game, st engine.State, rep *replays.Replay, ply int) {
	t.Helper()
	var mv *replays.Move
	for _, e := range rep.Events {
		if e.Move != nil && e.Move.Ply == ply {
			mv = e.Move
		}
	}
	if mv == nil {
		t.Fatalf("replay has no move at ply %d", ply)
	}
	a, err := g.ParseAction(mv.Action)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Apply(a); err != nil {
		t.Fatal(err)
	}
}

// spyBot plays random moves and appends every line it receives to a log
// named after its pid.
func spyBot(dir string) int {
	if len(os.Args) > 1 {
		return runMain(os.Args) // the arena itself, not a bot
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%d.log", os.Getpid())))
	if err != nil {
		return 1
	}
	defer f.Close()
	bot, _ := bots.New("random")
	pr, pw, _ := os.Pipe()
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		sc.Buffer(nil, 1<<20)
		// ARENA_SPY_DELAY makes it a slow bot: it thinks that long on
		// every turn (a game that lasts, for tests that act mid-game).
		delay, _ := time.ParseDuration(os.Getenv("ARENA_SPY_DELAY"))
		for sc.Scan() {
			f.Write(append(sc.Bytes(), '\n'))
			if delay > 0 && bytes.Contains(sc.Bytes(), []byte(`"type":"turn"`)) {
				time.Sleep(delay)
			}
			pw.Write(append(sc.Bytes(), '\n'))
		}
		pw.Close()
	}()
	if err := sdk.Run(pr, os.Stdout, bot, sdk.Options{}); err != nil {
		return 1
	}
	return 0
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// TestMultiSeatForfeit: with more than 2 seats a failing bot ranks last,
// the referee plays random legal moves for it so the others finish, and
// the replay (with its by-referee moves) verifies.
func TestMultiSeatForfeit(t *testing.T) {
	t.Parallel()
	falseCmd, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false(1)")
	}
	dir := t.TempDir()
	_, stderr, code := arena(t, "match", "--game", "boon", "--bot", "dead="+falseCmd, "--bot", "a=arena bot random",
		"--bot", "b=arena bot greedy", "--bot", "c=arena bot random", "--games", "4", "--seed", "8", "--out", dir, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var paths []string
	for _, l := range readLines(t, filepath.Join(dir, "results.jsonl")) {
		var r ledger.Record
		json.Unmarshal([]byte(l), &r)
		dead := -1
		for s, b := range r.Bots {
			if b == "dead" {
				dead = s
			}
		}
		if len(r.Forfeits) != 1 || r.Forfeits[0].Bot != "dead" || r.Forfeits[0].Reason != "crash" {
			t.Fatalf("game %s: forfeits %+v, want dead's crash", r.GameID, r.Forfeits)
		}
		for s, rank := range r.Ranks {
			if s != dead && rank >= r.Ranks[dead] {
				t.Errorf("game %s: seat %d ranks %d, not above the forfeiting seat's %d", r.GameID, s, rank, r.Ranks[dead])
			}
		}
		if r.Plies < 20 {
			t.Errorf("game %s ended after %d plies: the others should play on", r.GameID, r.Plies)
		}
		paths = append(paths, filepath.Join(dir, r.Replay))
	}
	out, stderr, code := arena(t, append([]string{"replay", "verify"}, paths...)...)
	if code != 0 {
		t.Fatalf("verify: %s %s", out, stderr)
	}
}
