package check

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/sdk"
)

// envCPU is the CPU the starved-exit bot moves to on bye, where the test
// keeps spinners.
const envCPU = "ARENA_CHECK_CPU"

func init() {
	extraModes["spin"] = func() int {
		for spin := 0; ; spin++ { // until killed
		}
	}
	// starved-exit plays as greedy, and on bye moves to the spinners' CPU
	// and needs 100 ms of CPU to exit: a runtime's teardown on a machine
	// that other work keeps busy.
	extraModes["starved-exit"] = func() int {
		b, _ := bots.New("greedy")
		if err := sdk.Run(os.Stdin, os.Stdout, b, sdk.Options{Name: "starved-exit"}); err != nil {
			return 1
		}
		runtime.LockOSThread() // the affinity is the thread's, and this goroutine burns the CPU
		cpu, _ := strconv.Atoi(os.Getenv(envCPU))
		var set unix.CPUSet
		set.Set(cpu)
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			return 2
		}
		used := func() time.Duration {
			var u unix.Rusage
			if unix.Getrusage(unix.RUSAGE_SELF, &u) != nil {
				return time.Hour
			}
			return time.Duration(u.Utime.Nano() + u.Stime.Nano())
		}
		for atBye := used(); used()-atBye < 100*time.Millisecond; {
		}
		return 0
	}
}

// TestByeGraceForgivesWaitingForACPU: a bot that exits on bye, but whose
// exit waits for a CPU (here ten spinners share its CPU, so its 100 ms
// of CPU take about 1.1 s), is judged by the fair clock's rule: the time
// it waited moves the grace on (up to the wall cap, 2 s), and so does the
// time its stdin stays open (its own 100 ms are less than the 250 ms it
// stays open for), and its exit passes. Only a machine whose other work
// keeps nine more processes runnable on that CPU would push the exit
// past the cap. On a machine without the fair clock nothing is forgiven and
// the test is skipped.
func TestByeGraceForgivesWaitingForACPU(t *testing.T) {
	sb, err := sandbox.New(sandbox.Limits{}, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !sb.FairClock() {
		t.Skip("no cgroup v2 with cpu.pressure here: a wait for a CPU is not told apart")
	}
	// The spinners are confined too: each a cgroup of its own beside the
	// bot's, so the bot gets an eleventh of the CPU whatever the
	// scheduler makes of cgroups.
	cpu := testkit.LastCPU(t)
	testkit.Pinned(t, cpu, func() {
		for range 10 {
			p, err := sb.Start("spin", transport.ProcessConfig{Argv: []string{os.Args[0]}, Env: []string{envBot + "=spin"}})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { p.Close() })
		}
	})
	cfg := config(t, "banqi", 2, "starved-exit")
	cfg.Games = 1
	cfg.Bot = stdio.Command{Argv: cfg.Command, Sandbox: sb,
		Env: []string{envBot + "=starved-exit", envCPU + "=" + strconv.Itoa(cpu), "GORACE=atexit_sleep_ms=0"}}
	rep, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.Checks {
		if r.Name == CheckBye {
			if r.Status != Pass || !strings.Contains(r.Detail, "exited with status 0 within") {
				t.Fatalf("bye: %s: %s (stderr: %s)", r.Status, r.Detail, rep.StderrTail)
			}
			t.Logf("bye: %s", r.Detail)
			return
		}
	}
	t.Fatalf("no bye check in %+v", rep.Checks)
}
