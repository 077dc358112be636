//go:build linux

package sandbox_test

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkBotStart is what confinement costs a bot process's start: the
// time from starting `sh -c 'echo up'` to its first line and its end,
// bare (the baseline, measured in the same run), in a sandbox without
// isolation, isolated (root, overlays, two stages) through this test
// binary, through the small wrapper program (cmd/arena-sandbox, "small")
// and through the arena binary, and "restart": what --restart-bots pays
// for each game's fresh process of a bot that already has one running
// (isolated, through the small wrapper, another process of the same bot
// alive meanwhile). It reports each as a ratio to bare, in wall time and
// in CPU time (the arena's and every process it reaped: wrappers and
// bots; not the kernel's workers, which free a network namespace after
// its last process), and the isolated wrapper's resident memory, which a
// bot carries for as long as it runs. (The test binary is 7 MB; the
// arena's is 37 MB and linked with the C library, whose starts cost more.)
func BenchmarkBotStart(b *testing.B) {
	bareSB, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateNo})
	if err != nil {
		b.Fatal(err)
	}
	isoSB, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateYes})
	if err != nil {
		b.Skip("no isolation here: ", err)
	}
	smallSB, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateYes, Wrapper: testkit.Build(b, "./cmd/arena-sandbox")})
	if err != nil {
		b.Fatal(err)
	}
	arenaSB, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateYes, Wrapper: testkit.Build(b, "./cmd/arena")})
	if err != nil {
		b.Fatal(err)
	}
	argv := []string{"sh", "-c", "echo up; read x"}
	// The restarted bot's first process, alive through the whole run.
	running, err := smallSB.Start("restarted", transport.ProcessConfig{Argv: argv})
	if err != nil {
		b.Fatal(err)
	}
	defer running.Close()
	modes := []struct {
		name  string
		start func() (*transport.Process, error)
	}{
		{"bare", func() (*transport.Process, error) { return transport.Start(transport.ProcessConfig{Argv: argv}) }},
		{"sandbox", func() (*transport.Process, error) { return bareSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"isolated", func() (*transport.Process, error) { return isoSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"isolated-small", func() (*transport.Process, error) { return smallSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"isolated-arena", func() (*transport.Process, error) { return arenaSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"restart", func() (*transport.Process, error) {
			return smallSB.Start("restarted", transport.ProcessConfig{Argv: argv})
		}},
	}
	took, cpu := make([]time.Duration, len(modes)), make([]time.Duration, len(modes))
	rssKiB := map[string]int64{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for m, mode := range modes {
			t0, cpu0 := time.Now(), cpuTime()
			p, err := mode.start()
			if err != nil {
				b.Fatal(err)
			}
			if l, err := p.Receive(time.Now().Add(10 * time.Second)); err != nil || string(l) != "up" {
				b.Fatalf("%s: %q %v %s", mode.name, l, err, p.StderrTail())
			}
			if strings.HasPrefix(mode.name, "isolated") && i == 0 {
				rssKiB[mode.name] = vmRSS(p.Pid())
			}
			p.Close()
			took[m] += time.Since(t0)
			cpu[m] += cpuTime() - cpu0
		}
	}
	for m, mode := range modes {
		b.ReportMetric(float64(took[m].Microseconds())/float64(b.N), mode.name+"-µs/start")
		b.ReportMetric(float64(cpu[m].Microseconds())/float64(b.N), mode.name+"-cpu-µs/start")
		if m > 0 {
			b.ReportMetric(float64(took[m])/float64(took[0]), mode.name+"/bare")
			b.ReportMetric(float64(cpu[m])/float64(cpu[0]), mode.name+"-cpu/bare")
		}
	}
	for name, kib := range rssKiB {
		b.ReportMetric(float64(kib), name+"-wrapper-KiB")
	}
}

// cpuTime is the user and system time of this process and of every
// process it has reaped, with theirs.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}

// vmRSS is a process's resident memory.
func vmRSS(pid int) int64 {
	data, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
