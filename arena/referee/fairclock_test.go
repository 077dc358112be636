package referee_test

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// The fair clock (protocol.md, the clock): a bot is charged the wall time
// of a move less the time it waited for a CPU, never less than the CPU it
// used. Each case runs the bot confined (its cgroup is what is read), on
// one CPU with four spinning processes, so it gets about a fifth of that
// CPU, and has it work on its first turn. A bot that needs 40 ms of CPU
// then takes about 200 ms, more than its 100 ms (+20 ms): charged fairly,
// it is on time. A bot that sleeps, or computes for longer than its clock
// (on one thread or four, all within the wall cap), loses on time as it
// would on a quiet machine.
//
// Four spinners, not more: the wall cap (1.12 s here) ends a move however
// long the bot waited, so the 40 ms bot is on time only while its CPU has
// fewer than about 28 runnable processes in all, 23 of them the machine's
// other work (a 2-core machine at load 46).
func TestFairClockUnderLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the run-queue wait is read from Linux cgroups")
	}
	sb, err := sandbox.New(sandbox.Limits{}, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !sb.FairClock() {
		t.Skip("no cgroup v2 with cpu.pressure here: bots are charged their wall time (" + sb.Describe() + ")")
	}
	limits := clock.Limits{Startup: 20 * time.Second, Move: 100 * time.Millisecond, Margin: 20 * time.Millisecond}
	for _, tc := range []struct {
		mode   string
		onTime bool
	}{
		{"cpu:40", true},
		{"nap:300", false},
		{"cpu:130", false},  // about 0.65 s of wall time, within the 1.12 s cap
		{"cpu4:200", false}, // four threads, 50 ms of CPU each
	} {
		t.Run(tc.mode, func(t *testing.T) {
			token := newToken()
			t.Cleanup(func() { checkNoSurvivors(t, token) })
			cpu := testkit.LastCPU(t)
			var bot *transport.Process
			testkit.Pinned(t, cpu, func() {
				for range 4 {
					startSpinner(t, token)
				}
				bot = startConfined(t, sb, token, tc.mode)
			})
			other := startBot(t, token, "random", setup{})
			pl := playWith(t, setup{limits: limits, maxPlies: 6}, [2]*transport.Process{bot, other}, [2]string{tc.mode, "random"})
			if !tc.onTime {
				wantForfeit(t, pl, 0, protocol.ReasonTimeout, "no reply within 100ms")
				if d := pl.res.Forfeits[0].Detail; !strings.Contains(d, "on a CPU") {
					t.Errorf("timeout detail %q does not say how the bot used the CPU", d)
				}
				return
			}
			if len(pl.res.Forfeits) != 0 {
				t.Fatalf("forfeits %+v: a bot that needed 40 ms of CPU lost on time", pl.res.Forfeits)
			}
			m := pl.replay.Events[0].Move
			wall := time.Duration(m.ThinkUs+m.WaitUs) * time.Microsecond
			t.Logf("first move: charged %v, waited %v", m.Think(), time.Duration(m.WaitUs)*time.Microsecond)
			if wall <= limits.Move+limits.Margin {
				t.Fatalf("the move took %v of wall time, within its clock: the load did not delay the bot, so this proves nothing", wall)
			}
			if m.Think() > limits.Move+limits.Margin || m.WaitUs == 0 {
				t.Errorf("charged %v, waited %dus: want the wait not charged", m.Think(), m.WaitUs)
			}
		})
	}
}

// startConfined starts a helper bot in sb; cleanup closes it.
func startConfined(t *testing.T, sb *sandbox.Sandbox, token, mode string) *transport.Process {
	t.Helper()
	p, err := sb.Start("fair", transport.ProcessConfig{Argv: []string{os.Args[0]}, Env: []string{envBot + "=" + mode, envToken + "=" + token}})
	if err != nil {
		t.Fatalf("starting bot %s: %v", mode, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// startSpinner starts a process that spins until the test ends.
func startSpinner(t *testing.T, token string) {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), envBot+"=spin", envToken+"="+token)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
}

func spinForever() {
	for x := uint64(1); ; x = x*6364136223846793005 + 1 {
	}
}

// work is a bot's first turn in the fair-clock tests: "cpu" computes for d
// of its own CPU time, "cpu4" for d in all over four threads, "nap"
// sleeps d.
func work(mode string, d time.Duration) {
	switch mode {
	case "nap":
		time.Sleep(d)
	case "cpu":
		burn(d)
	case "cpu4":
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				burn(d / 4)
			}()
		}
		wg.Wait()
	}
}

// burn computes until its thread has used d of CPU time.
func burn(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	x := uint64(1)
	for threadCPU()-start < d {
		for range 10000 {
			x = x*6364136223846793005 + 1
		}
	}
	if x == 0 {
		println() // keeps x alive
	}
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}
