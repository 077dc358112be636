//go:build linux

package sandbox_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/testkit"
)

// TestWrapperPassesOnNoDescriptor: the wrapper is the last program before
// the bot, so whatever it was started with beyond stdin, stdout and stderr
// (and an isolated bot's status pipe), the bot does not get: through
// either wrapper (this binary re-executed, arena-sandbox), isolated or
// not. The wrapper is started here as the transport starts it, but
// without the transport's own marking of the arena's descriptors, and with
// a host file open read-write, a pipe and a directory beside the Box's
// own descriptors, as an arena started from a shell with 7<>notes.txt
// would pass them if it did not mark them.
func TestWrapperPassesOnNoDescriptor(t *testing.T) {
	dir := t.TempDir()
	notes, err := os.OpenFile(filepath.Join(dir, "notes.txt"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer notes.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	passed := []*os.File{notes, pr, pw, d}
	small := testkit.Build(t, "./cmd/arena-sandbox")
	for _, tc := range []struct {
		name, wrapper string
		isolate       string
	}{
		{"arena re-executed, not isolated", "", sandbox.IsolateNo},
		{"arena re-executed, isolated", "", sandbox.IsolateYes},
		{"arena-sandbox, not isolated", small, sandbox.IsolateNo},
		{"arena-sandbox, isolated", small, sandbox.IsolateYes},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sb, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: tc.isolate, Wrapper: tc.wrapper})
			if oe := (*sandbox.OptionError)(nil); errors.As(err, &oe) && oe.Option == "Isolate" {
				t.Skip("no isolation here: ", err)
			}
			if err != nil {
				t.Fatal(err)
			}
			box, err := sb.Prepare("fds", []string{os.Args[0]}, "", []string{envMode + "=fds"})
			if err != nil {
				t.Fatal(err)
			}
			defer box.Release()
			cmd := exec.Command(box.Argv[0], box.Argv[1:]...)
			cmd.Env, cmd.Dir = box.Env, box.Dir
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
			box.Configure(cmd)
			cmd.ExtraFiles = append(cmd.ExtraFiles, passed...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			box.Started(cmd.Process.Pid)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%v: %s", err, stderr.String())
			}
			got := strings.Fields(strings.TrimPrefix(strings.TrimSpace(stdout.String()), "inherited"))
			if len(got) != 3 || !strings.HasPrefix(got[0], "0=") || !strings.HasPrefix(got[2], "2=") {
				t.Errorf("the bot inherited %q; want only 0, 1 and 2", got)
			}
		})
	}
}
