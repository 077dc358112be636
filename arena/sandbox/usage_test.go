//go:build linux

package sandbox_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/testkit"
)

// A confined bot's Usage (what the referee's fair clock reads): a bot that
// spins on a CPU it shares with three other spinners runs part of the time
// and waits the rest, and its wait is reported; a bot held back by its own
// CPU rate limit is not waiting for the machine, and that is not reported
// as a wait.
func TestUsageReportsWaitingForACPU(t *testing.T) {
	// readSlack is the most the test's own wall time may exceed the span
	// of the bot's two readings (it is measured around the second one).
	const readSlack = 5 * time.Millisecond
	cpu := testkit.LastCPU(t)
	if sb := newSandbox(t, sandbox.Limits{}, sandbox.Options{}); !sb.FairClock() {
		t.Skip("no cgroup v2 with cpu.pressure here: Usage reports nothing")
	}
	measure := func(t *testing.T, sb *sandbox.Sandbox, spinners int) (wall time.Duration, u transport.Usage) {
		var p *transport.Process
		testkit.Pinned(t, cpu, func() {
			for range spinners {
				cmd := exec.Command(os.Args[0])
				cmd.Env = append(os.Environ(), envMode+"=spin")
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
			}
			p, _ = start2(t, sb, "spin")
		})
		// Wait for the bot to run: on a loaded CPU its start takes a while.
		var u0 transport.Usage
		for deadline := time.Now().Add(20 * time.Second); u0.Ran < 20*time.Millisecond; time.Sleep(10 * time.Millisecond) {
			var ok bool
			if u0, ok = p.Usage(); !ok && time.Now().After(deadline) {
				t.Fatal("no usage for a confined bot")
			}
			if time.Now().After(deadline) {
				t.Fatalf("the bot has run %v in 20 s", u0.Ran)
			}
		}
		start := time.Now()
		time.Sleep(600 * time.Millisecond)
		u1, ok := p.Usage()
		wall = time.Since(start)
		if !ok {
			t.Fatal("no usage for a confined bot")
		}
		u = u1.Since(u0)
		t.Logf("in %v: ran %v, waited %v, throttled %v", wall.Round(time.Millisecond), u.Ran.Round(time.Millisecond), u.Waited.Round(time.Millisecond), u.Throttled.Round(time.Millisecond))
		return wall, u
	}
	t.Run("shared CPU", func(t *testing.T) {
		sb := newSandbox(t, sandbox.Limits{}, sandbox.Options{})
		wall, u := measure(t, sb, 3)
		if u.Ran > wall/2 || u.Ran <= 0 {
			t.Errorf("ran %v of %v on a CPU shared four ways", u.Ran, wall)
		}
		if u.Waited < wall/3 {
			t.Errorf("waited %v of %v on a CPU shared four ways", u.Waited, wall)
		}
	})
	t.Run("rate limit", func(t *testing.T) {
		sb := newSandbox(t, sandbox.Limits{CPUs: 0.2}, sandbox.Options{})
		if strings.Contains(sb.Describe(), "NOT ENFORCED") {
			t.Skip("no cpu cgroup: " + sb.Describe())
		}
		wall, u := measure(t, sb, 0)
		if u.Ran > wall/2 {
			t.Errorf("ran %v of %v under a 0.2-CPU limit", u.Ran, wall)
		}
		if u.Rate != 0.2 {
			t.Errorf("usage says a rate limit of %v CPUs, want 0.2", u.Rate)
		}
		// At 0.2 CPU it needed at least ran/0.2 of wall time for the CPU
		// it ran: that much its own limit held it back, and none of it is
		// forgiven; what is, is the machine's other load, if any (on a
		// loaded machine it may not get its 0.2). The kernel counts the
		// limit's hold-back as waiting, and (short of it, when the
		// machine is loaded) as throttled.
		own := time.Duration(float64(u.Ran) / 0.2)
		if f := clock.Forgiven(wall, u.Ran, u.Waited, u.Throttled, u.Rate); f > max(0, wall-own)+readSlack {
			t.Errorf("forgiven %v of %v: it ran %v, which took it %v at its own 0.2-CPU limit", f, wall, u.Ran, own)
		}
		// A bot that never reaches its 20 ms in a period is never
		// throttled: on a loaded machine it may not get the CPU for that.
		// One that ran (nearly) its whole share did reach it, period
		// after period, and must have been.
		if share := time.Duration(0.2 * float64(wall)); u.Ran >= share*9/10 && u.Throttled <= 0 {
			t.Errorf("ran %v in %v at 0.2 CPU (%v, its 20 ms a period, nearly all) and was never throttled", u.Ran, wall, share)
		} else if u.Throttled <= 0 {
			t.Logf("ran %v in %v, short of its 0.2 CPU (the machine was busy): not throttled, as it never reached its limit", u.Ran, wall)
		}
	})
}

// TestUsageSaysWhenABotIsAtItsMemoryLimit: a bot that writes more than
// its memory limit through the page cache makes the kernel reclaim its
// own memory, and Usage says it is at its limit (the referee then
// forgives no memory or I/O stall of that move); one that stays well
// within its limit is not.
func TestUsageSaysWhenABotIsAtItsMemoryLimit(t *testing.T) {
	sb := newSandbox(t, sandbox.Limits{Memory: 48 << 20}, sandbox.Options{Isolate: sandbox.IsolateNo})
	if !sb.FairClock() {
		t.Skip("no cgroup v2 with cpu.pressure here: Usage reports nothing")
	}
	if strings.Contains(sb.Describe(), "memory limit NOT ENFORCED") {
		t.Skip("no memory cgroup: " + sb.Describe())
	}
	for _, tc := range []struct {
		mib     int
		reaches bool
	}{{4, false}, {160, true}} {
		t.Run(fmt.Sprintf("%d MiB", tc.mib), func(t *testing.T) {
			p, _ := start(t, sb, "pagecache", t.TempDir(), fmt.Sprintf("SANDBOX_TEST_MIB=%d", tc.mib))
			if l, err := p.Receive(time.Now().Add(20 * time.Second)); err != nil || string(l) != "ready" {
				t.Fatalf("got %q, %v; stderr %s", l, err, p.StderrTail())
			}
			before, ok := p.Usage()
			if !ok {
				t.Fatal("no usage for a confined bot")
			}
			if err := p.Send([]byte("go"), time.Now().Add(5*time.Second)); err != nil {
				t.Fatal(err)
			}
			if l, err := p.Receive(time.Now().Add(60 * time.Second)); err != nil || string(l) != "wrote <nil>" {
				t.Fatalf("got %q, %v; stderr %s", l, err, p.StderrTail())
			}
			after, ok := p.Usage()
			if !ok {
				t.Fatal("no usage for a confined bot")
			}
			t.Logf("%d MiB written: at the memory limit before %v, after %v; stalled %v", tc.mib, before.AtMemoryLimit, after.AtMemoryLimit, after.Stalled-before.Stalled)
			if before.AtMemoryLimit || after.AtMemoryLimit != tc.reaches {
				t.Errorf("at the memory limit before %v and after %v writing %d MiB under a 48 MiB limit", before.AtMemoryLimit, after.AtMemoryLimit, tc.mib)
			}
		})
	}
}

// A confined bot's process keeps a reading from its start
// (transport.Remembered), so that the referee has one from before every
// move, and each later reading replaces it; an unconfined one, which is
// not metered, has none.
func TestProcessKeepsAReadingFromItsStart(t *testing.T) {
	sb := newSandbox(t, sandbox.Limits{}, sandbox.Options{})
	if !sb.FairClock() {
		t.Skip("no cgroup v2 with cpu.pressure here: Usage reports nothing")
	}
	before := time.Now()
	p, _ := start2(t, sb, "spin")
	_, at, ok := p.LastUsage()
	if !ok || at.Before(before) || at.After(time.Now()) {
		t.Fatalf("a confined bot's last reading: taken %v (ok %v), want one taken as it started", at, ok)
	}
	u, ok := p.Usage()
	last, at2, _ := p.LastUsage()
	if !ok || last != u || !at2.After(at) {
		t.Errorf("after Usage (%+v): last reading %+v taken %v, want that reading, after %v", u, last, at2, at)
	}
	plain, err := transport.Start(transport.ProcessConfig{Argv: []string{"sleep", "10"}})
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, _, ok := plain.LastUsage(); ok {
		t.Error("an unconfined bot, which is not metered, has a reading")
	}
}
