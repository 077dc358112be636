//go:build linux

package sandbox_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/proctest"
	"github.com/arena-dev/arena/internal/testkit"
)

// isolated returns an isolating sandbox, or skips where the machine has no
// namespaces for bots (checking the message of --bot-isolate yes).
func isolated(t *testing.T, l sandbox.Limits, o sandbox.Options) *sandbox.Sandbox {
	t.Helper()
	o.Isolate = sandbox.IsolateYes
	sb, err := sandbox.New(l, o)
	if sandbox.Detect().CanIsolate() != nil {
		if err == nil || !strings.Contains(err.Error(), "need root or unprivileged user namespaces") {
			t.Fatalf("without namespaces: want a clear error, got %v", err)
		}
		t.Skip("no namespaces for bots here: checked the message only")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Log(sb.Describe())
	return sb
}

func TestIsolatedBotSeesOnlyItsOwn(t *testing.T) {
	hidden, writable := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(hidden, "replay"), []byte("the deal"), 0o644); err != nil {
		t.Fatal(err)
	}
	sb := isolated(t, sandbox.DefaultLimits, sandbox.Options{Hide: []string{hidden}})
	p, _ := start(t, sb, "view", "", "SANDBOX_TEST_HIDDEN="+hidden, "SANDBOX_TEST_DIR="+writable)
	got, _ := lines(p, 5*time.Second)
	view := strings.Join(got, "\n")
	for _, want := range []string{
		"\x00" + sandbox.Command + "\x00--\x00", // its own PID namespace, whose init (pid 1) is the wrapper
		"write /etc/arena-test open /etc/arena-test: read-only file system",
		"write " + writable + "/x open " + writable + "/x: no such file or directory", // not in its root at all
		"/x <nil>\nwrite /dev/shm/x <nil>",                                            // its own directory and /dev/shm
		"hidden 0 open " + hidden + ": no such file or directory",
		"umount operation not permitted",
		"remount operation not permitted",
		"CapEff: 0000000000000000",
		"CapBnd: 0000000000000000",
		"NoNewPrivs: 1",
	} {
		if !strings.Contains(view, want) {
			t.Errorf("the bot's view lacks %q:\n%s", want, view)
		}
	}
	var procs int
	for _, l := range got {
		fmt.Sscanf(l, "procs %d", &procs)
	}
	if procs < 2 || procs > 3 {
		t.Errorf("the bot sees %d processes, want only its own", procs)
	}
	if ents, _ := os.ReadDir(writable); len(ents) != 0 {
		t.Errorf("the bot wrote into %s", writable)
	}
}

func TestDiskLimit(t *testing.T) {
	sb := isolated(t, sandbox.Limits{Disk: 8 << 20}, sandbox.Options{})
	p, _ := start(t, sb, "fill", "")
	got, _ := lines(p, 10*time.Second)
	var n int
	if len(got) == 1 {
		fmt.Sscanf(got[0], "wrote %d", &n)
	}
	if len(got) != 1 || n > 8 || n < 6 || !strings.Contains(got[0], "no space left on device") {
		t.Fatalf("want about 8 files of 1 MiB and then ENOSPC, got %v", got)
	}
}

// TestIsolationCatchesEveryDescendant: a descendant that left the process
// group and cleared its environment dies with the bot, by the PID
// namespace alone (the transport leaves descendants, as for arena check,
// so no cgroup kill runs). Without isolation it outlives the bot there.
func TestIsolationCatchesEveryDescendant(t *testing.T) {
	for _, isolate := range []bool{true, false} {
		t.Run(fmt.Sprint("isolated=", isolate), func(t *testing.T) {
			sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateNo})
			if isolate {
				sb = isolated(t, sandbox.DefaultLimits, sandbox.Options{})
			}
			sleep := fmt.Sprintf("%d.%06d", 30, rand.IntN(1e6))
			p := startCfg(t, sb, transport.ProcessConfig{Argv: []string{os.Args[0]},
				Env: []string{envMode + "=escape-env", "SANDBOX_TEST_SLEEP=" + sleep}, LeaveDescendants: true})
			if l, err := p.Receive(time.Now().Add(5 * time.Second)); err != nil || string(l) != "started" {
				t.Fatalf("%s %v", l, err)
			}
			pid := 0
			for deadline := time.Now().Add(5 * time.Second); pid == 0; time.Sleep(time.Millisecond) {
				pid = findProcess("sleep\x00" + sleep + "\x00")
				if time.Now().After(deadline) {
					t.Fatal("the descendant did not start")
				}
			}
			desc := proctest.Hold(pid, "sleep\x00"+sleep+"\x00", "")
			if desc == nil {
				t.Fatalf("pid %d is no longer the descendant", pid)
			}
			defer desc.Kill()
			// The bot's process (its wrapper when isolated), not its group.
			if err := syscall.Kill(p.Pid(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			exited(t, p, 5*time.Second)
			// The kernel ends a PID namespace's processes before its pid 1
			// can be reaped: by now the descendant is gone, or (bare) it
			// lives on.
			if desc.Alive() == isolate {
				t.Fatalf("isolated %v: descendant %d alive %v after the bot's end", isolate, pid, desc.Alive())
			}
		})
	}
}

func TestUserNamespaceIsolation(t *testing.T) {
	if os.Getenv("SANDBOX_TEST_USERNS") == "" {
		// A process of its own: forcing the user-namespace path changes
		// what Detect found for the whole test binary.
		cmd := testCommand(t, "TestUserNamespaceIsolation|TestIsolatedBotSeesOnlyItsOwn|TestDiskLimit|TestIsolationCatchesEveryDescendant|TestNoNetwork|TestNoChannelBetweenProcesses|TestSecretsAreOutOfReach|TestDevicesAreOutOfReach|TestContestRefusesMissingProtections")
		cmd.Env = append(os.Environ(), "SANDBOX_TEST_USERNS=1")
		out, err := cmd.CombinedOutput()
		t.Logf("%s", out)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(out), "in a user namespace") && !strings.Contains(string(out), "SKIP") {
			t.Fatal("the user-namespace path did not run")
		}
		return
	}
}

// testCommand runs tests matching pattern in a new process of this binary.
func testCommand(t *testing.T, pattern string) *exec.Cmd {
	t.Helper()
	return exec.Command(os.Args[0], "-test.run", "^("+pattern+")$", "-test.v", "-test.count=1")
}

// findProcess returns the pid of a live process whose command line is
// cmdline (NUL-separated), or 0.
func findProcess(cmdline string) int {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if data, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && string(data) == cmdline && alive(pid) {
			return pid
		}
	}
	return 0
}

// TestBotInsideHiddenDirectory: a bot whose directory lies in the output
// directory could not run once that is hidden; the start says why.
func TestBotInsideHiddenDirectory(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, "bots")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sb := isolated(t, sandbox.DefaultLimits, sandbox.Options{Hide: []string{out}})
	_, err := sb.Start("tester", transport.ProcessConfig{Argv: []string{os.Args[0]}, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "the bot's "+dir+" lies in "+out+", which bots may not see") {
		t.Fatalf("got %v", err)
	}
}

// TestIsolatedBotStartsThroughTheSmallWrapper: with arena-sandbox as the
// wrapper, an isolated bot runs under it (its stage 1 stays as the bot's
// parent) and plays as through the arena executable.
func TestIsolatedBotStartsThroughTheSmallWrapper(t *testing.T) {
	wrapper := testkit.Build(t, "./cmd/arena-sandbox")
	sb, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateYes, Wrapper: wrapper})
	if oe := (*sandbox.OptionError)(nil); errors.As(err, &oe) && oe.Option == "Wrapper" {
		t.Fatal(err) // the wrapper this test is about was refused
	}
	if err != nil {
		t.Skip("no isolation here: ", err)
	}
	if d := sb.Describe(); !strings.Contains(d, "wrapper: "+wrapper) {
		t.Errorf("Describe does not name the wrapper %s: %s", wrapper, d)
	}
	p, err := sb.Start("small", transport.ProcessConfig{Argv: []string{"sh", "-c", "echo up; read x; echo got $x"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", p.Pid()))
	if err != nil {
		t.Fatal(err)
	}
	if exe != wrapper {
		t.Errorf("the bot's wrapper runs %s, want %s", exe, wrapper)
	}
	deadline := time.Now().Add(10 * time.Second)
	if l, err := p.Receive(deadline); err != nil || string(l) != "up" {
		t.Fatalf("first line %q, %v (%s)", l, err, p.StderrTail())
	}
	if err := p.Send([]byte("ping"), deadline); err != nil {
		t.Fatal(err)
	}
	if l, err := p.Receive(deadline); err != nil || string(l) != "got ping" {
		t.Fatalf("second line %q, %v (%s)", l, err, p.StderrTail())
	}
}
