package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// TestMain doubles as the bot: with ARENA_BENCH_BOT set, this test binary
// is the bundled random bot (sdk + encoding/json), the same child for the
// ping-pong baseline and the referee.
func TestMain(m *testing.M) {
	if os.Getenv("ARENA_BENCH_BOT") != "" {
		bot, _ := bots.New("random")
		if err := sdk.Run(os.Stdin, os.Stdout, bot, sdk.Options{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func botConfig() transport.ProcessConfig {
	return transport.ProcessConfig{Argv: []string{os.Args[0]}, Env: append(os.Environ(), "ARENA_BENCH_BOT=1")}
}

// sampleTurns are real Banqi turn lines from the middle of random games, so
// the baseline moves the same bytes the referee does.
func sampleTurns(tb testing.TB, count int) [][]byte {
	g, err := engine.Lookup("banqi")
	if err != nil {
		tb.Fatal(err)
	}
	opts, _ := engine.Setup(g, 2, nil)
	var lines [][]byte
	for seed := uint64(1); len(lines) < count; seed++ {
		st, _ := g.New(2, seed, opts)
		for ply := 0; !st.Over() && len(lines) < count; ply++ {
			legal := st.Legal()
			lj := make([]json.RawMessage, len(legal))
			for i, a := range legal {
				lj[i], _ = json.Marshal(a)
			}
			view, _ := json.Marshal(st.View(st.ToMove()))
			line, _ := json.Marshal(protocol.Turn{Type: protocol.TypeTurn, ID: int64(len(lines) + 1), View: view, Legal: lj, Clock: protocol.TurnClock{MoveMs: 1000}})
			if ply > 10 {
				lines = append(lines, line)
			}
			st.Apply(legal[int(seed+uint64(ply))%len(legal)])
		}
	}
	return lines
}

func hello() []byte {
	b, _ := json.Marshal(protocol.Hello{Type: protocol.TypeHello, Protocol: 1, Game: "banqi", Seats: 2, Players: []string{"a", "b"}, Clock: protocol.Clock{StartupMs: 10000}})
	return b
}

// rawPingPong is the baseline: os/exec pipes with bufio, one turn line out,
// one reply line back, nothing else.
func rawPingPong(b *testing.B, turns [][]byte, n int) time.Duration {
	cmd := exec.Command(os.Args[0])
	cmd.Env = botConfig().Env
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer cmd.Wait()
	defer in.Close()
	out := bufio.NewReader(outPipe)
	w := bufio.NewWriter(in)
	roundTrip := func(line []byte) {
		w.Write(line)
		w.WriteByte('\n')
		w.Flush()
		if _, err := out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	roundTrip(hello())
	start := time.Now()
	for i := range n {
		roundTrip(turns[i%len(turns)])
	}
	return time.Since(start)
}

type nopRecorder struct{}

func (nopRecorder) Move(int, int, json.RawMessage, time.Duration, bool) {}
func (nopRecorder) Strike(int, int, string, string)                     {}
func (nopRecorder) Forfeit(int, int, string, string)                    {}

// refereeMoves plays whole games through the referee with two children
// until at least n moves were played; it returns the time and move count.
func refereeMoves(b *testing.B, n int) (time.Duration, int) {
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	var conns []*transport.Process
	for range 2 {
		p, err := transport.Start(botConfig())
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		conns = append(conns, p)
	}
	players := []referee.Player{{Name: "a", Conn: conns[0]}, {Name: "b", Conn: conns[1]}}
	var total time.Duration
	moves := 0
	for seed := uint64(1); moves < n; seed++ {
		start := time.Now()
		res, err := referee.Play(referee.Config{
			Game: g, Options: opts, Seed: seed, Limits: clock.Limits{Startup: 10 * time.Second, Move: 10 * time.Second},
			Recorder: nopRecorder{},
		}, players)
		total += time.Since(start)
		if err != nil || len(res.Forfeits) > 0 {
			b.Fatalf("game %d: %v %v", seed, err, res.Forfeits)
		}
		moves += res.Plies
	}
	return total, moves
}

// BenchmarkRefereeOverhead reports the referee's cost per move next to a
// raw ping-pong round trip with the same child, and their ratio (target:
// at most 1.5).
func BenchmarkRefereeOverhead(b *testing.B) {
	turns := sampleTurns(b, 200)
	n := max(b.N, 200)
	raw := rawPingPong(b, turns, n)
	refTime, moves := refereeMoves(b, n)
	rawUs := float64(raw.Microseconds()) / float64(n)
	refUs := float64(refTime.Microseconds()) / float64(moves)
	b.ReportMetric(rawUs, "pingpong-us/rt")
	b.ReportMetric(refUs, "referee-us/move")
	b.ReportMetric(refUs/rawUs, "ratio")
}
