package intake_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
	"github.com/arena-dev/arena/arena/sandbox"
	_ "github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/internal/testkit"
)

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // validation confines the bots: this binary is their wrapper
	if user := os.Getenv(envUser); user != "" {
		os.Exit(contestant(user)) // TestSharedMachine's other users
	}
	os.Exit(m.Run())
}

const ladderFile = `name: cup
game: uno
seats: 2
options:
  max_actions: 300 # short games: the checks, not the games, are tested
clock:
  move: 2s
  startup: 2s
submissions:
  validation_games: 2
  build_time: 2s
bots:
  - name: random
    command: arena bot random
`

// goodBot is the repository's bots/python/random_bot.py (docs/protocol.md's
// first bot), standard library only.
func goodBot(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testkit.ModuleRoot(t), "bots", "python", "random_bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// newLadder inits a ladder of ladderFile in a temporary directory.
func newLadder(t *testing.T) string {
	t.Helper()
	return initLadder(t, ladderFile)
}

// initLadder inits a ladder of the ladder file given in a temporary
// directory.
func initLadder(t *testing.T, ladderFile string) string {
	t.Helper()
	tmp := t.TempDir()
	file := filepath.Join(tmp, "ladder.yaml")
	if err := os.WriteFile(file, []byte(ladderFile), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(tmp, "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		t.Fatal(err)
	}
	return dir
}

// botDir writes files (name to content; executable if the name ends in
// .sh) into a new directory.
func botDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(name, ".sh") {
			mode = 0o755
		}
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func submit(t *testing.T, dir, name string, files map[string]string, command string) string {
	t.Helper()
	id, err := intake.Submit(dir, name, botDir(t, files), command)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func process(t *testing.T, dir string) []intake.Report {
	t.Helper()
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	reps, err := intake.Process(context.Background(), l, intake.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return reps
}

func roster(t *testing.T, dir string) *ladder.Roster {
	t.Helper()
	r, _, err := ladder.ReadRoster(filepath.Join(dir, ladder.RosterName))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestVerdicts(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	good := submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t), "lib/data.txt": "x"}, "python3 bot.py")
	exits := submit(t, dir, "bob", map[string]string{"bot.sh": "#!/bin/sh\nexit 3\n"}, "./bot.sh")
	garbage := submit(t, dir, "carol", map[string]string{"bot.sh": "#!/bin/sh\nwhile read line; do echo 'hello there'; done\n"}, "./bot.sh")
	if rep, err := intake.Status(dir, good); err != nil || rep.Verdict != intake.VerdictWaiting {
		t.Errorf("status before the run: %+v, %v", rep, err)
	}

	reps := process(t, dir)
	if len(reps) != 3 {
		t.Fatalf("%d reports, want 3: %+v", len(reps), reps)
	}
	tests := []struct {
		id, bot, verdict string
		says             string // in the report
	}{
		{good, "alice", intake.VerdictAdmitted, "compliant"},
		{exits, "bob", intake.VerdictRefused, "FAIL"},
		{garbage, "carol", intake.VerdictRefused, "FAIL ready"},
	}
	r := roster(t, dir)
	for i, tt := range tests {
		rep, err := intake.Status(dir, tt.id)
		if err != nil {
			t.Fatalf("%s: %v", tt.bot, err)
		}
		t.Logf("%s: %s\n%s", tt.bot, rep.Verdict, rep.Text)
		if rep != reps[i] || rep.Bot != tt.bot || rep.Verdict != tt.verdict || !strings.Contains(rep.Text, tt.says) {
			t.Errorf("%s: report %+v (returned %+v), want %s saying %q", tt.bot, rep, reps[i], tt.verdict, tt.says)
		}
		b := r.Bot(tt.bot)
		if b == nil || len(b.Pending) != 0 {
			t.Fatalf("%s in the roster: %+v", tt.bot, b)
		}
		if tt.verdict == intake.VerdictAdmitted {
			if b.ActiveName() != tt.bot+".v1" || b.Versions[0].Build != rep.Build || rep.Build == "" {
				t.Errorf("%s admitted as %+v", tt.bot, b)
			}
			if _, err := os.Stat(filepath.Join(dir, b.Versions[0].Dir, "lib", "data.txt")); err != nil {
				t.Errorf("its files: %v", err)
			}
		} else if b.Active != 0 || len(b.Refusals) != 1 || b.Refusals[0].Report != rep.Text {
			t.Errorf("%s refused as %+v", tt.bot, b)
		}
		if _, err := os.Stat(filepath.Join(dir, ladder.IncomingDir, tt.id)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: incoming copy left: %v", tt.bot, err)
		}
	}

	// Run again: nothing is judged twice.
	if reps := process(t, dir); len(reps) != 0 {
		t.Errorf("a second Process decided %+v", reps)
	}
	if n := len(roster(t, dir).Bot("alice").Versions); n != 1 {
		t.Errorf("alice has %d versions after a second Process", n)
	}

	// A second version retires the first.
	v2 := submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t) + "# version 2\n"}, "python3 bot.py")
	var admitted []ladder.Event
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	reps, err = intake.Process(context.Background(), l, intake.Options{Admitted: func(e ladder.Event) { admitted = append(admitted, e) }})
	l.Close()
	if err != nil || len(reps) != 1 || reps[0].ID != v2 || reps[0].Version != 2 {
		t.Fatalf("the second version: %+v, %v", reps, err)
	}
	b := roster(t, dir).Bot("alice")
	if b.ActiveName() != "alice.v2" || !b.Versions[0].Retired || b.Versions[0].Build == b.Versions[1].Build {
		t.Errorf("after v2: %+v", b)
	}
	if len(admitted) != 1 || admitted[0].Version != 2 {
		t.Errorf("Options.Admitted told %+v", admitted)
	}
}

// A crash between steps: the roster log decides what is done again.
func TestCrashBetweenSteps(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	broken := map[string]string{"bot.sh": "#!/bin/sh\nexit 3\n"}

	// Submitted logged, no verdict: judged.
	id := submit(t, dir, "bob", broken, "./bot.sh")
	appendEvent(t, dir, ladder.Event{Kind: ladder.Submitted, Bot: "bob", Submission: id, Command: "./bot.sh"})
	if reps := process(t, dir); len(reps) != 1 || reps[0].Verdict != intake.VerdictRefused {
		t.Errorf("a submission logged without a verdict: %+v", reps)
	}
	if b := roster(t, dir).Bot("bob"); len(b.Refusals) != 1 || len(b.Pending) != 0 {
		t.Errorf("bob: %+v", b)
	}

	// Verdict logged, incoming copy and report not yet tidied: not judged again.
	id = submit(t, dir, "bob", broken, "./bot.sh")
	appendEvent(t, dir, ladder.Event{Kind: ladder.Submitted, Bot: "bob", Submission: id})
	appendEvent(t, dir, ladder.Event{Kind: ladder.Refused, Bot: "bob", Submission: id, Report: "judged before the crash"})
	if reps := process(t, dir); len(reps) != 0 {
		t.Errorf("a decided submission judged again: %+v", reps)
	}
	rep, err := intake.Status(dir, id)
	if err != nil || rep.Text != "judged before the crash" {
		t.Errorf("its report: %+v, %v", rep, err)
	}
	if b := roster(t, dir).Bot("bob"); len(b.Refusals) != 2 {
		t.Errorf("bob refused %d times, want 2", len(b.Refusals))
	}
}

// bound sets *p to v for the test.
func bound[T any](t *testing.T, p *T, v T) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

func appendEvent(t *testing.T, dir string, e ladder.Event) {
	t.Helper()
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Roster.Append(e); err != nil {
		t.Fatal(err)
	}
}

// A half-written submission is not taken; an abandoned one is removed.
func TestHalfCopied(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	incoming := filepath.Join(dir, ladder.IncomingDir)
	young, old := filepath.Join(incoming, "20261205T000000000000000Z-00000001.tmp"), filepath.Join(incoming, "20261205T000000000000000Z-00000002.tmp")
	for _, d := range []string{young, old} {
		if err := os.MkdirAll(filepath.Join(d, intake.FilesName), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-time.Hour)
	os.Chtimes(old, long, long)
	if reps := process(t, dir); len(reps) != 0 {
		t.Errorf("half-copied submissions taken: %+v", reps)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a young .tmp (maybe still being written) removed: %v", err)
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an abandoned .tmp left: %v", err)
	}
	if _, err := intake.Status(dir, filepath.Base(strings.TrimSuffix(young, ".tmp"))); !errors.Is(err, intake.ErrUnknown) {
		t.Errorf("status of a half-copied submission: %v, want ErrUnknown", err)
	}
	if n := len(roster(t, dir).Bots); n != 1 {
		t.Errorf("%d bots in the roster, want the bundled one", n)
	}

	// A complete directory without a manifest (not Submit's): refused,
	// with no bot to log it under.
	bare := "20261205T000000000000000Z-00000003"
	os.MkdirAll(filepath.Join(incoming, bare, intake.FilesName), 0o755)
	if reps := process(t, dir); len(reps) != 1 || reps[0].Verdict != intake.VerdictRefused || !strings.Contains(reps[0].Text, "manifest") {
		t.Errorf("a submission without a manifest: %+v", reps)
	}
	if n := len(roster(t, dir).Bots); n != 1 {
		t.Errorf("%d bots in the roster, want the bundled one", n)
	}
}

func TestSubmitRefuses(t *testing.T) {
	dir := newLadder(t)
	outside := t.TempDir()
	tests := []struct {
		name  string
		bot   string
		setup func(t *testing.T, bot string)
		is    error
	}{
		{"a link out", "alice", func(t *testing.T, bot string) { os.Symlink(outside, filepath.Join(bot, "out")) }, intake.ErrUnsafe},
		{"a relative link out", "alice", func(t *testing.T, bot string) { os.Symlink("../..", filepath.Join(bot, "up")) }, intake.ErrUnsafe},
		{"a pipe", "alice", func(t *testing.T, bot string) {
			if err := syscall.Mkfifo(filepath.Join(bot, "fifo"), 0o644); err != nil {
				t.Skip(err)
			}
		}, intake.ErrUnsafe},
		{"too many files", "alice", func(t *testing.T, bot string) {
			bound(t, &intake.Bounds.Files, 3)
			for i := range 4 {
				os.WriteFile(filepath.Join(bot, "f"+strconv.Itoa(i)), nil, 0o644)
			}
		}, intake.ErrTooLarge},
		{"too many bytes", "alice", func(t *testing.T, bot string) {
			bound(t, &intake.Bounds.Bytes, 100)
			os.WriteFile(filepath.Join(bot, "big"), make([]byte, 101), 0o644)
		}, intake.ErrTooLarge},
		{"too deep", "alice", func(t *testing.T, bot string) {
			bound(t, &intake.Bounds.Depth, 2)
			os.MkdirAll(filepath.Join(bot, "a", "b", "c", "d"), 0o755)
		}, intake.ErrTooLarge},
		{"a version's name", "alice.v2", func(*testing.T, string) {}, intake.ErrName},
		{"a path for a name", "../alice", func(*testing.T, string) {}, intake.ErrName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bot := botDir(t, map[string]string{"bot.sh": "#!/bin/sh\n"})
			tt.setup(t, bot)
			if _, err := intake.Submit(dir, tt.bot, bot, "./bot.sh"); !errors.Is(err, tt.is) {
				t.Errorf("Submit: %v, want %v", err, tt.is)
			}
		})
	}
	entries, _ := os.ReadDir(filepath.Join(dir, ladder.IncomingDir))
	if len(entries) != 0 {
		t.Errorf("refused submissions left %v", entries)
	}
	// A link that stays inside is kept as a link.
	bot := botDir(t, map[string]string{"bot.sh": "#!/bin/sh\n"})
	os.Symlink("bot.sh", filepath.Join(bot, "run.sh"))
	id, err := intake.Submit(dir, "alice", bot, "./run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if to, err := os.Readlink(filepath.Join(dir, ladder.IncomingDir, id, intake.FilesName, "run.sh")); err != nil || to != "bot.sh" {
		t.Errorf("inner link copied as %q, %v", to, err)
	}
}

// Where an admitted version's files go, and a refused one's do not stay.
func TestPlacement(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	first := submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t), "lib.txt": "1"}, "python3 bot.py")
	// The same script (the same build hash) beside another library.
	second := submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t), "lib.txt": "2"}, "python3 bot.py")
	bundled := submit(t, dir, "random", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
	broken := submit(t, dir, "bob", map[string]string{"bot.sh": "#!/bin/sh\nexit 3\n"}, "./bot.sh")
	missing := submit(t, dir, "carol", map[string]string{"bot.sh": "#!/bin/sh\n"}, "./nothere.sh")
	reps := process(t, dir)
	verdicts := map[string]string{}
	for _, r := range reps {
		verdicts[r.ID] = r.Verdict
	}
	want := map[string]string{first: intake.VerdictAdmitted, second: intake.VerdictAdmitted, bundled: intake.VerdictRefused,
		broken: intake.VerdictRefused, missing: intake.VerdictRefused}
	for id, v := range want {
		if verdicts[id] != v {
			t.Errorf("%s: %q, want %q", id, verdicts[id], v)
		}
	}
	a := roster(t, dir).Bot("alice")
	if len(a.Versions) != 2 || a.Versions[0].Build != a.Versions[1].Build || a.Versions[0].Dir == a.Versions[1].Dir {
		t.Fatalf("alice: %+v", a)
	}
	for i, v := range a.Versions {
		data, err := os.ReadFile(filepath.Join(dir, v.Dir, "lib.txt"))
		if err != nil || string(data) != strconv.Itoa(i+1) {
			t.Errorf("version %d's lib.txt: %q, %v", i+1, data, err)
		}
	}
	if r := roster(t, dir).Bot("random"); len(r.Versions) != 1 || len(r.Refusals) != 1 {
		t.Errorf("a submission under a bundled bot's name: %+v", r)
	}
	for _, bot := range []string{"bob", "carol"} {
		if entries, _ := os.ReadDir(filepath.Join(dir, ladder.BotsDir, bot)); len(entries) != 0 {
			t.Errorf("a refused version's files kept: %v", entries)
		}
	}
}

func TestBuildStep(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	tests := []struct {
		name, make, verdict, says string
	}{
		{"built", "set -e\ncp bot.tmpl bot.py\necho building\n", intake.VerdictAdmitted, "compliant"},
		{"failed", "echo oops >&2\nexit 2\n", intake.VerdictRefused, "oops"},
		{"too long", "sleep 30\n", intake.VerdictRefused, "still running after 2s"},
	}
	ids := map[string]string{}
	for _, tt := range tests {
		id, err := intake.SubmitManifest(dir, botDir(t, map[string]string{"make.sh": tt.make, "bot.tmpl": goodBot(t)}),
			intake.Manifest{Name: strings.ReplaceAll(tt.name, " ", "-"), Command: "python3 bot.py", Build: "sh make.sh"})
		if err != nil {
			t.Fatal(err)
		}
		ids[tt.name] = id
	}
	process(t, dir)
	for _, tt := range tests {
		rep, err := intake.Status(dir, ids[tt.name])
		if err != nil || rep.Verdict != tt.verdict || !strings.Contains(rep.Text, tt.says) {
			t.Errorf("%s: %+v, %v; want %s saying %q", tt.name, rep, err, tt.verdict, tt.says)
		}
	}
	b := roster(t, dir).Bot("built")
	if b == nil || b.Active != 1 {
		t.Fatalf("built: %+v", b)
	}
	if st, err := os.Stat(filepath.Join(dir, b.Versions[0].Dir, "bot.py")); err != nil || st.Mode().Perm()&0o022 != 0 {
		t.Errorf("what the build made: %v, %v (writable by others?)", st, err)
	}
}

// Submissions arrive while the run takes them: each is decided once.
func TestConcurrentSubmit(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	const n = 8
	ids := make(chan string, n)
	var wg sync.WaitGroup
	src := botDir(t, map[string]string{"bot.sh": "#!/bin/sh\nexit 3\n"})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id, err := intake.Submit(dir, "bot"+strconv.Itoa(i%3), src, "./bot.sh")
			if err != nil {
				t.Error(err)
			}
			ids <- id
		}()
	}
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	decided := map[string]int{}
	for deadline := time.Now().Add(time.Minute); len(decided) < n && time.Now().Before(deadline); {
		reps, err := intake.Process(context.Background(), l, intake.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range reps {
			decided[r.ID]++
		}
	}
	wg.Wait()
	close(ids)
	for id := range ids {
		if decided[id] != 1 {
			t.Errorf("%s decided %d times", id, decided[id])
		}
	}
	refusals := 0
	for _, b := range l.Roster.State().Bots {
		refusals += len(b.Refusals)
	}
	if refusals != n {
		t.Errorf("%d refusals logged, want %d", refusals, n)
	}
}

// TestOutsideFiles: a command naming a file outside the submitted
// directory is refused, saying so in the submitter's terms, and the run
// goes on. Before, the deal secret as
// an argument reached the sandbox, whose refusal to show it to the bot
// stopped the run, at every restart.
func TestOutsideFiles(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	elsewhere := botDir(t, map[string]string{"bot.py": goodBot(t), "m.bin": "weights"})
	tests := []struct {
		name, command, says string
	}{
		{"the deal secret", "python3 bot.py " + filepath.Join(dir, "deal-secret"), "deal-secret, outside the bot's directory"},
		{"a script elsewhere", "python3 " + filepath.Join(elsewhere, "bot.py"), "bot.py, outside the bot's directory"},
		{"a flag's file elsewhere", "python3 bot.py --model=" + filepath.Join(elsewhere, "m.bin"), "m.bin, outside the bot's directory"},
		{"a program in the ladder", filepath.Join(dir, "deal-secret"), "deal-secret, outside the bot's directory"},
		{"a path through the bot's directory", "python3 mybot/bot.py", "there is no mybot/bot.py in the directory you submitted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := submit(t, dir, "out", map[string]string{"bot.py": goodBot(t)}, tt.command)
			reps := process(t, dir)
			if len(reps) != 1 || reps[0].ID != id || reps[0].Verdict != intake.VerdictRefused ||
				!strings.Contains(reps[0].Text, tt.says) || strings.Contains(reps[0].Text, ".tmp") {
				t.Fatalf("%+v; want refused saying %q, and not the ladder's copy", reps, tt.says)
			}
		})
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, ladder.BotsDir, "out")); len(entries) != 0 {
		t.Errorf("refused submissions left files in bots/out: %v", entries)
	}
}
