//go:build !linux

package sandbox_test

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
)

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked()
	os.Exit(m.Run())
}

// TestUnconfinedSaysSo: without Linux nothing is enforced, and the
// sandbox says so: a warning, every protection missing, and a refusal of
// every option that needs a mechanism.
func TestUnconfinedSaysSo(t *testing.T) {
	sb, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := sb.Describe(); !strings.HasPrefix(d, "warning: bots run unconfined: the sandbox is not available on "+runtime.GOOS) {
		t.Errorf("Describe() = %q, want the warning", d)
	}
	if sum := sb.Summary(); !strings.HasPrefix(sum, "warning: bots run unconfined") || len(sum) > 120 {
		t.Errorf("Summary() = %q (%d characters), want a short warning", sum, len(sum))
	}
	for _, p := range sb.Protections() {
		if p.Missing == "" {
			t.Errorf("protection %s is said to be in place", p.Name)
		}
	}
	var ce *sandbox.ContestError
	if _, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Contest: true}); !errors.As(err, &ce) {
		t.Errorf("contest: %v, want a *ContestError", err)
	}
	for option, o := range map[string]sandbox.Options{
		"User":    {User: "nobody"},
		"Isolate": {Isolate: sandbox.IsolateYes},
		"Network": {Network: sandbox.NetworkNone},
	} {
		var oe *sandbox.OptionError
		if _, err := sandbox.New(sandbox.DefaultLimits, o); !errors.As(err, &oe) || oe.Option != option {
			t.Errorf("%+v: %v, want an *OptionError for %s", o, err, option)
		}
	}
}

// TestUnconfinedBotRuns: a bot runs (where processes can) with the
// sandbox's environment, in a directory of its own that goes with it.
func TestUnconfinedBotRuns(t *testing.T) {
	sb, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := sb.Start("echo", transport.ProcessConfig{Argv: []string{"/bin/sh", "-c", `echo "$ARENA_BOT_NAME $TMPDIR"; read x`}})
	if runtime.GOOS == "windows" {
		if err == nil || !strings.Contains(err.Error(), "bots cannot run on windows") {
			t.Fatalf("Start on windows: %v, want the refusal", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	line, err := p.Receive(time.Now().Add(10 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	name, dir, _ := strings.Cut(string(line), " ")
	if name != "echo" {
		t.Errorf("ARENA_BOT_NAME %q, want echo", name)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("the bot's TMPDIR %q: %v", dir, err)
	}
	p.Close()
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the bot's directory %s outlived it: %v", dir, err)
	}
}
