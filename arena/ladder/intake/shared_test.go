package intake_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
)

// With envUser set this test binary is a contestant of
// TestSharedMachine, run as a user of its own: it does what envArgs
// (JSON) says and prints what came of it.
const (
	envUser = "ARENA_INTAKE_USER"
	envArgs = "ARENA_INTAKE_ARGS"
)

func contestant(what string) int {
	var args []string
	json.Unmarshal([]byte(os.Getenv(envArgs)), &args)
	switch what {
	case "submit": // ladder, name, bot directory
		id, err := intake.Submit(args[0], args[1], args[2], "python3 bot.py")
		if err != nil {
			fmt.Println(err)
			return 1
		}
		fmt.Println(id)
	case "status": // ladder, id
		rep, err := intake.Status(args[0], args[1])
		fmt.Println(rep.Verdict, err)
	case "probe": // paths to read (files), or list, write in and rename (directories)
		for _, p := range args {
			st, err := os.Lstat(p)
			if err == nil && st.IsDir() {
				_, err := os.ReadDir(p)
				fmt.Printf("list %s: %v\n", p, err)
				fmt.Printf("write in %s: %v\n", p, os.WriteFile(filepath.Join(p, "planted"), nil, 0o644))
				fmt.Printf("rename %s: %v\n", p, os.Rename(p, p+".x"))
				continue
			}
			if err == nil {
				_, err = os.ReadFile(p)
			}
			fmt.Printf("read %s: %v\n", p, err)
		}
	}
	return 0
}

// as runs this binary as contestant uid doing what with args.
func runAs(t *testing.T, exe string, uid int, what string, args ...string) string {
	t.Helper()
	data, _ := json.Marshal(args)
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), envUser+"="+what, envArgs+"="+string(data))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("uid %d %s %v: %v\n%s", uid, what, args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestSharedMachine: contestants who are real users of the machine
// (this binary run as uids of their own), not in the ladder's group:
// one submits; the other cannot list incoming, read, change or move
// the submission, or read the ladder's files, and their submission
// under the first one's name is refused.
func TestSharedMachine(t *testing.T) {
	t.Parallel()
	needRoot(t)
	base := t.TempDir()
	for _, d := range []string{filepath.Dir(base), base} {
		os.Chmod(d, 0o711) // other users may go through the test's directories
	}
	exe := filepath.Join(base, "contestant")
	copyExe(t, exe)
	dir := newLadderIn(t, base)
	bot := filepath.Join(base, "alice-bot")
	os.Mkdir(bot, 0o700)
	os.WriteFile(filepath.Join(bot, "bot.py"), []byte(goodBot(t)), 0o600)
	os.Lchown(bot, uidAlice, uidAlice)
	os.Lchown(filepath.Join(bot, "bot.py"), uidAlice, uidAlice)

	id := runAs(t, exe, uidAlice, "submit", dir, "alice", bot)
	incoming := filepath.Join(dir, ladder.IncomingDir)
	sub := filepath.Join(incoming, id)
	st, err := os.Stat(sub)
	if err != nil {
		t.Fatal(err)
	}
	ladderGid := stat(t, incoming).Gid
	if s := st.Sys().(*syscall.Stat_t); s.Uid != uidAlice || s.Gid != ladderGid || st.Mode().Perm() != 0o770 {
		t.Errorf("alice's submission: uid %d gid %d mode %v; want alice's, the ladder's group (%d), 0770", s.Uid, s.Gid, st.Mode().Perm(), ladderGid)
	}
	if s := stat(t, filepath.Join(sub, intake.FilesName, "bot.py")); s.Gid != ladderGid {
		t.Errorf("alice's bot.py: gid %d, want the ladder's %d (what the run reads by)", s.Gid, ladderGid)
	}

	probe := []string{incoming, sub, filepath.Join(sub, intake.ManifestName), filepath.Join(sub, intake.FilesName, "bot.py"),
		dir, filepath.Join(dir, "deal-secret"), filepath.Join(dir, ladder.RosterName), filepath.Join(dir, "results.jsonl"),
		filepath.Join(dir, ladder.FileName), filepath.Join(dir, ladder.BotsDir)}
	out := runAs(t, exe, uidMal, "probe", probe...)
	t.Log(out)
	for _, line := range strings.Split(out, "\n") {
		if line == "write in "+incoming+": <nil>" {
			continue // what incoming is for (a file there is no submission)
		}
		if !strings.Contains(line, "permission denied") && !strings.Contains(line, "operation not permitted") {
			t.Errorf("another contestant: %s (want permission denied)", line)
		}
	}

	process(t, dir) // the organiser's run
	if out := runAs(t, exe, uidAlice, "status", dir, id); out != "admitted <nil>" {
		t.Errorf("alice's status: %s", out)
	}
	malBot := filepath.Join(base, "mal-bot")
	os.Mkdir(malBot, 0o755)
	os.WriteFile(filepath.Join(malBot, "bot.py"), []byte(goodBot(t)), 0o644)
	malID := runAs(t, exe, uidMal, "submit", dir, "alice", malBot)
	reps := process(t, dir)
	if len(reps) != 1 || reps[0].ID != malID || !strings.Contains(reps[0].Text, "belongs to another user") {
		t.Errorf("another's submission under alice's name: %+v", reps)
	}
	if _, err := os.Stat(sub); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("alice's submission left in incoming: %v", err)
	}
}

func stat(t *testing.T, path string) *syscall.Stat_t {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Sys().(*syscall.Stat_t)
}

// copyExe copies this test binary to path, for other users to run.
func copyExe(t *testing.T, path string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// newLadderIn inits a ladder of ladderFile in base/cup.
func newLadderIn(t *testing.T, base string) string {
	t.Helper()
	file := filepath.Join(base, "ladder.yaml")
	if err := os.WriteFile(file, []byte(ladderFile), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		t.Fatal(err)
	}
	return dir
}
