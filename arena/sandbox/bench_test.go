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
)

// BenchmarkBotStart is what confinement costs a bot process's start: the
// time from starting `sh -c 'echo up'` to its first line and its end,
// bare (the baseline, measured in the same run), in a sandbox without
// isolation, and isolated (root, overlays, two stages). It reports each as
// a ratio to bare, and the isolated wrapper's resident memory, which a bot
// carries for as long as it runs.
func BenchmarkBotStart(b *testing.B) {
	bareSB, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateNo})
	if err != nil {
		b.Fatal(err)
	}
	isoSB, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateYes})
	if err != nil {
		b.Skip("no isolation here: ", err)
	}
	argv := []string{"sh", "-c", "echo up; read x"}
	modes := []struct {
		name  string
		start func() (*transport.Process, error)
	}{
		{"bare", func() (*transport.Process, error) { return transport.Start(transport.ProcessConfig{Argv: argv}) }},
		{"sandbox", func() (*transport.Process, error) { return bareSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
		{"isolated", func() (*transport.Process, error) { return isoSB.Start("bench", transport.ProcessConfig{Argv: argv}) }},
	}
	took := make([]time.Duration, len(modes))
	var rssKiB int64
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
			if mode.name == "isolated" && i == 0 {
				rssKiB = vmRSS(p.Pid())
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
	b.ReportMetric(float64(rssKiB), "wrapper-KiB")
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
