package stop

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// init makes this test binary, started with ARENA_STOP_PROBE, a probe of
// Context: it says "ready", and once its context ends, what ended
// it; then it waits to be killed.
func init() {
	if os.Getenv("ARENA_STOP_PROBE") == "" {
		return
	}
	ctx, release := Context(os.Stderr)
	defer release()
	fmt.Println("ready")
	<-ctx.Done()
	var s By
	fmt.Printf("stopped by %v (a cancellation: %v)\n", context.Cause(ctx), errors.As(context.Cause(ctx), &s) && errors.Is(context.Cause(ctx), context.Canceled))
	select {} // only a signal ends it now
}

// The first SIGINT or SIGTERM ends the command's context, naming the
// signal; the second kills the process at once, by the signal's default
// action, whichever of the two each is.
func TestSecondSignalKills(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ first, second syscall.Signal }{
		{syscall.SIGINT, syscall.SIGINT},
		{syscall.SIGTERM, syscall.SIGTERM},
		{syscall.SIGTERM, syscall.SIGINT},
	} {
		t.Run(fmt.Sprintf("%s then %s", Name(tc.first), Name(tc.second)), func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), "ARENA_STOP_PROBE=1")
			errPipe, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			lines := bufio.NewScanner(out)
			next := func() string {
				if !lines.Scan() {
					t.Fatalf("the probe's output ended: %v", lines.Err())
				}
				return lines.Text()
			}
			if l := next(); l != "ready" {
				t.Fatalf("probe: %q, want ready", l)
			}
			cmd.Process.Signal(tc.first)
			if l, want := next(), fmt.Sprintf("stopped by %s (a cancellation: true)", Name(tc.first)); l != want {
				t.Fatalf("after %v: %q, want %q", tc.first, l, want)
			}
			// Said at once, so that nobody presses again for want of an answer.
			errLines := bufio.NewScanner(errPipe)
			errLines.Scan()
			if said := fmt.Sprintf("arena: %s: stopping cleanly, which may take a few seconds; a second signal stops at once", Name(tc.first)); !strings.HasPrefix(errLines.Text(), said) {
				t.Errorf("after %v the probe said %q, want %q", tc.first, errLines.Text(), said)
			}
			cmd.Process.Signal(tc.second)
			err = cmd.Wait()
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != tc.second {
				t.Fatalf("after a second signal: %v, want killed by %v", err, tc.second)
			}
		})
	}
}
