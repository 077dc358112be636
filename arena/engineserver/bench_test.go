package engineserver_test

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/engineserver"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/internal/testkit"
)

// echoChild, set, makes this test binary the ping-pong baseline's child:
// it answers each line with a short JSON line, doing nothing else.
const echoChild = "ARENA_ENGINE_BENCH_ECHO"

func echo() {
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for {
		if _, err := in.ReadSlice('\n'); err != nil {
			return
		}
		out.WriteString(`{"id":1}` + "\n")
		out.Flush()
	}
}

// child is a process spoken to in lines over its stdio.
type child struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	out *bufio.Reader
	w   io.Closer
}

func start(b *testing.B, env []string, argv ...string) *child {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	w, _ := cmd.StdinPipe()
	r, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	c := &child{cmd, bufio.NewWriter(w), bufio.NewReaderSize(r, 1<<20), w}
	b.Cleanup(func() { c.w.Close(); c.cmd.Wait() })
	return c
}

// roundTrip sends line and waits for its response line.
func (c *child) roundTrip(b *testing.B, line string) string {
	c.in.WriteString(line)
	c.in.WriteByte('\n')
	c.in.Flush()
	resp, err := c.out.ReadString('\n')
	if err != nil {
		b.Fatal(err)
	}
	return resp
}

// timed is the mean time of n round trips of line.
func (c *child) timed(b *testing.B, n int, line string) time.Duration {
	start := time.Now()
	for range n {
		c.roundTrip(b, line)
	}
	return time.Since(start) / time.Duration(n)
}

// BenchmarkEngineRoundTrip measures `arena engine` against the limit of
// its pipe, in one run: the JSON ping-pong with a child that only echoes
// (pingpong-us/rt); one operation a line (engine1-us/rt); a batch of 32
// a line, per operation (batch-us/op) and its ratio to the ping-pong;
// and random 4-seat Uno playouts (one hand) through the server
// (server-playouts/s) against the same playouts in Go in this process
// (go-playouts/s), the rate the SDKs are held to within 2x of.
func BenchmarkEngineRoundTrip(b *testing.B) {
	const batch = 32
	pp := start(b, []string{echoChild + "=1"}, os.Args[0])
	eng := start(b, nil, testkit.Build(b, "./cmd/arena"), "engine")
	eng.roundTrip(b, `{"op":"create","game":"uno","seats":4,"seed":1,"options":{"target":"0"}}`)
	ops := make([]string, batch)
	for i := range ops {
		ops[i] = []string{`{"op":"legal","state":1}`, `{"op":"view","state":1,"seat":0}`}[i%2]
	}
	g, _ := engine.Lookup("uno")
	opts, _ := engine.Setup(g, 4, map[string]string{"target": "0"})
	first, err := g.New(4, 1, opts)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 0))
	const playouts = 50
	var ping, one, many, served, inGo time.Duration
	b.ResetTimer()
	// Rounds of each measure in turn, so that a machine busy with other
	// work slows them alike.
	for range b.N {
		ping += pp.timed(b, 200, `{"id":1,"op":"legal","state":1}`)
		one += eng.timed(b, 200, ops[0])
		many += eng.timed(b, 200/batch, "["+strings.Join(ops, ",")+"]") / batch
		served += eng.timed(b, 1, fmt.Sprintf(`{"op":"playout","state":1,"n":%d,"seed":3}`, playouts)) / playouts
		inGo += goPlayouts(b, first.(*uno.State), rng, playouts)
	}
	b.ReportMetric(us(ping), "pingpong-us/rt")
	b.ReportMetric(us(one), "engine1-us/rt")
	b.ReportMetric(us(many), "batch-us/op")
	b.ReportMetric(float64(many)/float64(ping), "batch-op/pingpong")
	b.ReportMetric(float64(b.N)/served.Seconds(), "server-playouts/s")
	b.ReportMetric(float64(b.N)/inGo.Seconds(), "go-playouts/s")
	b.ReportMetric(float64(served)/float64(inGo), "server/go")
}

// goPlayouts is the mean time of one random playout in Go from a copy of
// first, as the server plays them.
func goPlayouts(b *testing.B, first *uno.State, rng *rand.Rand, n int) time.Duration {
	start := time.Now()
	for range n {
		if _, _, err := engineserver.Playout(first.Clone(), rng, 0); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / time.Duration(n)
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
