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
	"github.com/arena-dev/arena/replays"
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
	sb := fairSandbox(t)
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
			bot, other := loadedBots(t, sb, tc.mode)
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

// The fair clock when the referee itself is held back (issue 40: at 256
// games on 2 cores its timer for the first reading of a bot's cgroup, due
// MeterAfter into the move, fired 150-230 ms late, after the deadline, while
// the bot's cgroup saw it wait for a CPU all that time; the bot then lost on
// time, since only waits after the first reading were forgiven). Here the
// referee's first wait of every move returns only after the deadline
// (lateReferee), and the bot is loaded as in TestFairClockUnderLoad; it
// works on its second turn (the first, answered at once but read late,
// tells the referee it runs late, so the second's turn takes a baseline
// reading as it goes out). A bot that needs 40 ms of CPU is on time: what
// it waited before the late reading is forgiven. A bot that sleeps past its
// clock (200 ms: within what the late reading could otherwise have
// excused), or computes for longer than its clock, still loses on time.
func TestFairClockWhenTheRefereeIsLate(t *testing.T) {
	sb := fairSandbox(t)
	limits := clock.Limits{Startup: 20 * time.Second, Move: 100 * time.Millisecond, Margin: 20 * time.Millisecond}
	hold := limits.Move + limits.Margin + 30*time.Millisecond // past the deadline
	for _, tc := range []struct {
		mode   string
		onTime bool
	}{
		{"cpu:40:2", true},
		{"nap:300:2", false},
		{"nap:200:2", false},
		{"cpu:130:2", false},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			bot, other := loadedBots(t, sb, tc.mode)
			late := func(seat int, p *transport.Process) transport.Conn {
				if seat == 0 {
					return &lateReferee{Process: p, hold: hold}
				}
				return p
			}
			pl := playWith(t, setup{limits: limits, maxPlies: 6, conn: late}, [2]*transport.Process{bot, other}, [2]string{tc.mode, "random"})
			if !tc.onTime {
				wantForfeit(t, pl, 0, protocol.ReasonTimeout, "no reply within 100ms")
				return
			}
			if len(pl.res.Forfeits) != 0 {
				t.Fatalf("forfeits %+v: a bot that needed 40 ms of CPU lost on time because the referee was late", pl.res.Forfeits)
			}
			var m *replays.Move
			for i, seen := 0, 0; m == nil && i < len(pl.replay.Events); i++ {
				if e := pl.replay.Events[i].Move; e != nil && e.Seat == 0 && e.By == "" {
					if seen++; seen == 2 {
						m = e
					}
				}
			}
			if m == nil {
				t.Fatal("the bot did not make a second move")
			}
			t.Logf("its second move: charged %v, waited %v", m.Think(), time.Duration(m.WaitUs)*time.Microsecond)
			if m.Think() > limits.Move+limits.Margin {
				t.Errorf("charged %v: want the wait not charged", m.Think())
			}
		})
	}
}

// lateReferee is a bot's Conn as a referee held back by the machine sees
// it: the first wait for a reply after each Send (the one for the first
// reading of the bot's CPU use, MeterAfter in) returns no sooner than hold
// after the Send. The hold is the scenario, as a bot's think time is.
type lateReferee struct {
	*transport.Process
	hold   time.Duration
	sentAt time.Time // of the last Send; zero once the first wait has been held
}

func (c *lateReferee) Send(line []byte, deadline time.Time) error {
	c.sentAt = time.Now()
	return c.Process.Send(line, deadline)
}

func (c *lateReferee) Receive(deadline time.Time) ([]byte, error) {
	if !c.sentAt.IsZero() {
		time.Sleep(time.Until(c.sentAt.Add(c.hold)))
		c.sentAt = time.Time{}
	}
	return c.Process.Receive(deadline)
}

// fairSandbox is a sandbox whose bots' CPU use the fair clock reads; the
// test is skipped where there is none.
func fairSandbox(t *testing.T) *sandbox.Sandbox {
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
	return sb
}

// loadedBots starts a helper bot in mode, confined in sb on one CPU with
// four spinning processes, and a random bot to play it, unpinned.
func loadedBots(t *testing.T, sb *sandbox.Sandbox, mode string) (bot, other *transport.Process) {
	token := newToken()
	t.Cleanup(func() { checkNoSurvivors(t, token) })
	testkit.Pinned(t, testkit.LastCPU(t), func() {
		for range 4 {
			startSpinner(t, token)
		}
		bot = startConfined(t, sb, token, mode)
	})
	return bot, startBot(t, token, "random", setup{})
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
