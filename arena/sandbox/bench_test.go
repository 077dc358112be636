//go:build linux

package sandbox_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkBotStart is what confinement costs a bot process's start: the
// time from starting `sh -c 'echo up'` to its first line and its end,
// bare (the baseline, measured in the same run), in a sandbox without
// isolation, isolated (root, overlays, two stages) and isolated through
// the small wrapper program (cmd/arena-sandbox, "small") rather than this
// test binary. It reports each as a ratio to bare, and the isolated
// wrapper's resident memory, which a bot carries for as long as it runs.
// (The test binary is 7 MB; the arena's is 37 MB, whose starts cost more.)
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
	modes := []struct {
		name  string
		start func() (*transport.Process, error)
	}{
		{"bare", func() (*transport.Process, error) { return transport.Start(transport.ProcessConfig{Argv: argv}) }},
		{"sandbox", func() (*transport.Process, error) { return bareSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"isolated", func() (*transport.Process, error) { return isoSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"isolated-small", func() (*transport.Process, error) { return smallSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"isolated-arena", func() (*transport.Process, error) { return arenaSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
	}
	took := make([]time.Duration, len(modes))
	rssKiB := map[string]int64{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for m, mode := range modes {
			t0 := time.Now()
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
		}
	}
	for m, mode := range modes {
		b.ReportMetric(float64(took[m].Microseconds())/float64(b.N), mode.name+"-µs/start")
		if m > 0 {
			b.ReportMetric(float64(took[m])/float64(took[0]), mode.name+"/bare")
		}
	}
	for name, kib := range rssKiB {
		b.ReportMetric(float64(kib), name+"-wrapper-KiB")
	}
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
