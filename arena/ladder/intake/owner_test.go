package intake_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
)

// Two contestants, played by uids the tests (root) give submissions.
const (
	uidAlice = 4101
	uidMal   = 4102
)

// needRoot skips a test that plays other users by chown.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("plays other users by chown: needs root")
	}
}

// as makes submission id look written by uid: its directory and every
// file in it owned by uid, as Submit run by that user leaves them.
func as(t *testing.T, dir, id string, uid int) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join(dir, ladder.IncomingDir, id), func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, -1)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func submitAs(t *testing.T, dir string, uid int, name string, files map[string]string) string {
	t.Helper()
	id := submit(t, dir, name, files, "python3 bot.py")
	if uid >= 0 {
		as(t, dir, id, uid)
	}
	return id
}

// TestOwners: a name belongs to the user who first submitted under it;
// another user's submission under it is refused, the organiser's (the
// ladder's user: root here) is taken.
func TestOwners(t *testing.T) {
	t.Parallel()
	needRoot(t)
	dir := newLadder(t)
	good := func(v string) map[string]string { return map[string]string{"bot.py": goodBot(t) + "# " + v + "\n"} }
	steps := []struct {
		uid           int // -1: the organiser's
		name, version string
		verdict, says string
	}{
		{uidAlice, "alice", "1", intake.VerdictAdmitted, ""},
		{uidMal, "alice", "mal", intake.VerdictRefused, "bot alice belongs to another user"},
		{uidAlice, "alice", "2", intake.VerdictAdmitted, ""},
		{-1, "alice", "3", intake.VerdictAdmitted, ""}, // the organiser may
		{-1, "house", "1", intake.VerdictAdmitted, ""},
		{uidMal, "house", "mal", intake.VerdictRefused, "bot house belongs to another user"},
	}
	for _, s := range steps {
		id := submitAs(t, dir, s.uid, s.name, good(s.version))
		reps := process(t, dir)
		if len(reps) != 1 || reps[0].ID != id || reps[0].Verdict != s.verdict || !strings.Contains(reps[0].Text, s.says) {
			t.Fatalf("uid %d submits %s (%s): %+v; want %s saying %q", s.uid, s.name, s.version, reps, s.verdict, s.says)
		}
	}
	r := roster(t, dir)
	if a := r.Bot("alice"); a.Owner != "4101" || len(a.Versions) != 3 || len(a.Refusals) != 0 {
		t.Errorf("alice: owner %q, %d versions, refusals %+v; want 4101's, 3, none (another's attempt is not hers)", a.Owner, len(a.Versions), a.Refusals)
	}
	if h := r.Bot("house"); h.Owner != "0" {
		t.Errorf("house: owner %q, want the organiser's (0)", h.Owner)
	}
}

// TestAttacks: what a contestant may leave in incoming to make the run
// copy what is not theirs into their bot's directory, or stall it.
func TestAttacks(t *testing.T) {
	t.Parallel()
	needRoot(t)
	dir := newLadder(t)
	secret := filepath.Join(dir, "deal-secret")
	incoming := filepath.Join(dir, ladder.IncomingDir)
	tests := []struct {
		name   string
		attack func(t *testing.T, sub string) // sub: the submission, written as uidMal
		says   string
	}{
		{"a hard link to the ladder's file", func(t *testing.T, sub string) {
			if err := os.Link(secret, filepath.Join(sub, intake.FilesName, "secret.txt")); err != nil {
				t.Fatal(err)
			}
		}, "a file the submitter does not own"},
		{"a link put in after Submit", func(t *testing.T, sub string) {
			os.Symlink(secret, filepath.Join(sub, intake.FilesName, "secret.txt"))
		}, "an absolute link"},
		{"a link through links", func(t *testing.T, sub string) {
			bot := filepath.Join(sub, intake.FilesName)
			os.MkdirAll(filepath.Join(bot, "d1", "d2"), 0o755)
			os.Symlink("../..", filepath.Join(bot, "d1", "d2", "s")) // the bot's directory: inside
			os.Symlink("d2/s/..", filepath.Join(bot, "d1", "t"))     // written inside, leads out
		}, "through other links it leads out"},
		{"a pipe for a manifest", func(t *testing.T, sub string) {
			os.Remove(filepath.Join(sub, intake.ManifestName))
			if err := syscall.Mkfifo(filepath.Join(sub, intake.ManifestName), 0o644); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := submit(t, dir, "mal", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
			sub := filepath.Join(incoming, id)
			tt.attack(t, sub)
			filepath.WalkDir(sub, func(path string, _ fs.DirEntry, err error) error {
				if path != filepath.Join(sub, intake.FilesName, "secret.txt") { // a hard link's owner is the file's
					os.Lchown(path, uidMal, -1)
				}
				return err
			})
			reps := process(t, dir)
			if len(reps) != 1 || reps[0].Verdict != intake.VerdictRefused || !strings.Contains(reps[0].Text, tt.says) {
				t.Fatalf("%+v; want refused saying %q", reps, tt.says)
			}
		})
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, ladder.BotsDir, "mal")); len(entries) != 0 {
		t.Errorf("refused submissions left files in bots/mal: %v", entries)
	}

	// The submission directory itself a link (to the organiser's own
	// directory, which would make the submission the organiser's): not
	// taken.
	decoy := submit(t, dir, "mal", map[string]string{"bot.py": goodBot(t)}, "python3 bot.py")
	link := filepath.Join(incoming, "20261205T000000000000000Z-0000000000000001")
	if err := os.Symlink(filepath.Join(incoming, decoy), link); err != nil {
		t.Fatal(err)
	}
	os.Lchown(link, uidMal, -1)
	for _, r := range process(t, dir) {
		if r.ID != decoy {
			t.Errorf("a link in incoming taken: %+v", r)
		}
	}
}

// TestModes: what Init, Submit and Process leave is closed to other
// contestants (the ladder's files; another's submission, on its way or
// admitted) and open where it must be (incoming, to create in; a
// version's files, to a bot running as a user of its own).
func TestModes(t *testing.T) {
	t.Parallel()
	dir := newLadder(t)
	for name, want := range ladder.Modes {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.Mode()&(fs.ModePerm|fs.ModeSticky|fs.ModeSetgid) != want {
			t.Errorf("%s: %v, %v; want %v", name, st.Mode(), err, want)
		}
	}
	id := submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t), "run.sh": "#!/bin/sh\n"}, "python3 bot.py")
	sub := filepath.Join(dir, ladder.IncomingDir, id)
	want := map[string]fs.FileMode{".": 0o770, intake.ManifestName: 0o640, intake.FilesName: 0o770,
		filepath.Join(intake.FilesName, "bot.py"): 0o640, filepath.Join(intake.FilesName, "run.sh"): 0o750}
	checkModes(t, sub, want)
	process(t, dir)
	v := roster(t, dir).Bot("alice").Versions[0]
	checkModes(t, filepath.Join(dir, ladder.BotsDir), map[string]fs.FileMode{"alice": 0o711})
	checkModes(t, filepath.Join(dir, v.Dir), map[string]fs.FileMode{".": 0o755, "bot.py": 0o644, "run.sh": 0o755})
}

func checkModes(t *testing.T, root string, want map[string]fs.FileMode) {
	t.Helper()
	for name, mode := range want {
		if st, err := os.Lstat(filepath.Join(root, name)); err != nil || st.Mode().Perm() != mode {
			t.Errorf("%s: %v, %v; want %v", filepath.Join(root, name), st.Mode(), err, mode)
		}
	}
}

// TestRemoteByOrganiserOnly: a contestant's submission of a bot served
// from elsewhere is refused (whoever serves nats:alice may not be the
// contestant who names it: the first to submit would own another's
// bot); the organiser enters such bots.
func TestRemoteByOrganiserOnly(t *testing.T) {
	t.Parallel()
	needRoot(t)
	dir := newLadder(t)
	id, err := intake.SubmitManifest(dir, "", intake.Manifest{Name: "alice", Command: "nats:alice"})
	if err != nil {
		t.Fatal(err)
	}
	as(t, dir, id, uidMal)
	reps := process(t, dir)
	if len(reps) != 1 || reps[0].Verdict != intake.VerdictRefused || !strings.Contains(reps[0].Text, "entered by the organiser") {
		t.Fatalf("a contestant's nats:alice: %+v; want refused, entered by the organiser", reps)
	}
	if b := roster(t, dir).Bot("alice"); b != nil && b.Owner == strconv.Itoa(uidMal) {
		t.Errorf("alice belongs to the contestant who named another's bot: %+v", b)
	}
}
