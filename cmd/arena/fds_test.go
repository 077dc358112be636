package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/proctest"

	"github.com/arena-dev/arena/internal/testkit"
)

// fdsInherited is what badBot's mode "fds" does first thing (from this
// binary's init): it lists the bot's open descriptors, says them on stderr
// ("FDS 0=... 1=... 2=...", those it inherited, then "OWN ...", those it
// opened itself), and returns the inherited ones beyond stdin, stdout and
// stderr.
func fdsInherited() []string {
	inherited, own, err := proctest.Descriptors()
	if err != nil {
		fmt.Fprintln(os.Stderr, "FDS", err)
		return []string{err.Error()}
	}
	fmt.Fprintf(os.Stderr, "FDS %s\nOWN %s\n", strings.Join(inherited, " "), strings.Join(own, " "))
	return slices.DeleteFunc(inherited, func(d string) bool {
		fd, _ := strconv.Atoi(strings.SplitN(d, "=", 2)[0])
		return fd <= 2
	})
}

// inheritableFiles opens what an arena may be started with beyond stdin,
// stdout and stderr, for exec.Cmd.ExtraFiles (its descriptors 3 to 7): a
// host file read-write (a shell's 7<>notes.txt) and read-only, the two
// ends of a pipe (a CI runner's log pipe), a directory.
func inheritableFiles(t *testing.T) []*os.File {
	t.Helper()
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("the organiser's notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rw, err := os.OpenFile(notes, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	ro, err := os.Open(notes)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := []*os.File{rw, ro, pr, pw, d}
	t.Cleanup(func() {
		for _, f := range files {
			f.Close()
		}
	})
	return files
}

// arenaWithFiles runs the CLI with files as its descriptors 3 and up and
// returns its stderr and exit code.
func arenaWithFiles(t *testing.T, files []*os.File, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.ExtraFiles = files
	var stderr strings.Builder
	cmd.Stderr = &stderr
	code := exitCode(t, cmd.Run())
	return stderr.String(), code
}

// TestBotsInheritNoDescriptors: an arena started with descriptors 3-7
// open (a host file read-write and read-only, a pipe, a directory), as a
// shell's `7<>notes.txt` or a CI runner leaves them, hands none of them
// to a bot, isolated or not, started by arena match or by arena connect:
// every bot process finds only its stdin, stdout and stderr open.
func TestBotsInheritNoDescriptors(t *testing.T) {
	t.Parallel()
	files := inheritableFiles(t)
	canIsolate := sandbox.Detect().CanIsolate()
	for _, tc := range []struct {
		name, isolate string
		remote        bool
	}{
		{"match, not isolated", "no", false},
		{"match, isolated", "yes", false},
		{"connect, not isolated", "no", true},
		{"connect, isolated", "yes", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.isolate == "yes" && canIsolate != nil {
				t.Skipf("bots cannot be isolated here: %v", canIsolate)
			}
			out := t.TempDir()
			args := []string{"match", "--game", "banqi", "--games", "2", "--seed", "5", "--out", out, "--bot", "r=arena bot random", "-q"}
			// The bot fd is badBot in mode "fds": a stdio bot's stderr says
			// what it inherited, and any bot forfeits naming it.
			botFlags := []string{"--bot-isolate", tc.isolate, "--bot-env", "ARENA_SANDBOX_TEST_BOT=fd:fds"}
			if tc.remote {
				url := natsServer(t)
				startArenaCmdWith(t, serving, func(cmd *exec.Cmd) { cmd.ExtraFiles = files },
					append(append([]string{"connect", "--nats", url, "--bot", "fd", "--sessions", "2"}, botFlags...), "--", os.Args[0])...)
				args = append(args, "--nats", url, "--bot", "f=nats:fd", "--startup-time", "20s")
			} else {
				args = append(append(args, "--bot", "fd="+os.Args[0]), botFlags...)
			}
			stderr, code := arenaWithFiles(t, files, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			playedWithoutForfeit(t, out, 2)
			if tc.remote {
				return // its stderr stays with arena connect: the forfeits say it
			}
			logs, _ := filepath.Glob(filepath.Join(out, "logs", "fd", "*.stderr.log"))
			if len(logs) == 0 {
				t.Fatal("the bot left no stderr log")
			}
			for _, log := range logs {
				data, _ := os.ReadFile(log)
				for _, line := range strings.Split(string(data), "\n") {
					if fds, ok := strings.CutPrefix(line, "FDS "); ok && len(strings.Fields(fds)) != 3 {
						t.Errorf("%s: the bot inherited %s; want only 0, 1 and 2", filepath.Base(log), fds)
					}
				}
				if !strings.Contains(string(data), "FDS 0=") {
					t.Errorf("%s: no descriptor list: %q", filepath.Base(log), data)
				}
			}
		})
	}
}

// arenaReached is what badBot's mode "arena-fds" does first thing: a bot
// not isolated, of the arena's own user, reaches for the arena (its
// parent: the wrapper exec'd it) through /proc, and returns what it
// could open there ("fd/7", "environ"), saying it on stderr.
func arenaReached() []string {
	arena := fmt.Sprintf("/proc/%d", os.Getppid())
	var reached []string
	fds, err := os.ReadDir(arena + "/fd")
	fmt.Fprintf(os.Stderr, "ARENA %s: %d descriptors listed (%v)\n", arena, len(fds), err)
	for _, fd := range fds {
		if f, err := os.OpenFile(arena+"/fd/"+fd.Name(), os.O_RDONLY, 0); err == nil {
			f.Close()
			reached = append(reached, "fd/"+fd.Name())
		}
	}
	if data, err := os.ReadFile(arena + "/environ"); err == nil && len(data) > 0 {
		reached = append(reached, "environ")
	}
	fmt.Fprintf(os.Stderr, "REACHED %s\n", strings.Join(reached, " "))
	return reached
}

// TestBotOfTheArenasUserCannotReachIntoIt: an arena run by an ordinary
// user, its bots not isolated (so running as that user too), keeps its
// descriptors and environment from them: a bot that reaches for its
// parent's /proc/PID/fd (the ledger, the replay pack, what the arena was
// started with) and /proc/PID/environ opens nothing there. (As root the
// test becomes uid 65534 with setpriv; elsewhere it is skipped.)
func TestBotOfTheArenasUserCannotReachIntoIt(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("needs root, to run the arena as another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv (util-linux)")
	}
	// The arena, and where it writes, where uid 65534 may reach them.
	dir := t.TempDir()
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(dir, 0o777)
	self := filepath.Join(dir, "arena")
	testkit.CopyExecutable(t, os.Args[0], self)
	out := filepath.Join(dir, "out")
	cmd := exec.Command(setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups", "--",
		self, "match", "--game", "banqi", "--games", "2", "--seed", "5", "--out", out, "-q",
		"--bot", "r=arena bot random", "--bot", "fd="+self, "--bot-isolate", "no", "--bot-env", "ARENA_SANDBOX_TEST_BOT=fd:arena-fds")
	cmd.Dir = dir
	cmd.ExtraFiles = inheritableFiles(t)[:1] // the organiser's notes, read-write
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	playedWithoutForfeit(t, out, 2)
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "fd", "*.stderr.log"))
	if len(logs) == 0 {
		t.Fatal("the bot left no stderr log")
	}
	for _, log := range logs {
		data, _ := os.ReadFile(log)
		if !strings.Contains(string(data), "REACHED ") {
			t.Errorf("%s: the bot did not try: %s", filepath.Base(log), data)
		}
	}
}
