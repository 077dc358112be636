package bench

import (
	"bufio"
	"context"
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
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// TestMain doubles as the bots: with ARENA_BENCH_BOT set, this test binary
// is the bundled random bot (sdk + encoding/json, any value but these), the
// same child for the ping-pong baseline and the referee of
// BenchmarkRefereeOverhead; "minimal", the least a bot can do
// (minimalBot); "raw", a raw-syscall echo (rawEcho); or "nats-echo", a
// NATS responder (natsEcho, BenchmarkConnectPerMove's). (BenchmarkPerMove's
// random bot is `arena bot random` itself.)
func TestMain(m *testing.M) {
	switch os.Getenv("ARENA_BENCH_BOT") {
	case "":
	case "raw":
		rawEcho()
		os.Exit(0)
	case "minimal":
		minimalBot()
		os.Exit(0)
	case "nats-echo":
		natsEcho()
	default:
		bot, _ := bots.New("random")
		if err := sdk.Run(os.Stdin, os.Stdout, bot, sdk.Options{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

func botConfig() transport.ProcessConfig {
	return transport.ProcessConfig{Argv: []string{os.Args[0]}, Env: append(os.Environ(), "ARENA_BENCH_BOT=1")}
}

func hello() []byte {
	b, _ := json.Marshal(protocol.Hello{Type: protocol.TypeHello, Protocol: 1, Game: "banqi", Seats: 2, Players: []string{"a", "b"}, Clock: protocol.Clock{StartupMs: 10000}})
	return b
}

// rawPingPong is the baseline: os/exec pipes with bufio, one turn line out,
// one reply line back, nothing else. With children > 1 the round trips
// alternate between children, as the moves of a game alternate between
// seats.
func rawPingPong(b *testing.B, turns [][]byte, n, children int) time.Duration {
	type child struct {
		w   *bufio.Writer
		out *bufio.Reader
	}
	var cs []child
	for range children {
		cmd := exec.Command(os.Args[0])
		cmd.Env = botConfig().Env
		in, _ := cmd.StdinPipe()
		outPipe, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		defer cmd.Wait()
		defer in.Close()
		cs = append(cs, child{bufio.NewWriter(in), bufio.NewReader(outPipe)})
	}
	roundTrip := func(c child, line []byte) {
		c.w.Write(line)
		c.w.WriteByte('\n')
		c.w.Flush()
		if _, err := c.out.ReadSlice('\n'); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range cs {
		roundTrip(c, hello())
	}
	start := time.Now()
	for i := range n {
		roundTrip(cs[i%len(cs)], turns[i%len(turns)])
	}
	return time.Since(start)
}

// transportPingPong is the same exchange through the arena's stdio
// transport (blocking stdout pipe, reader goroutine, deadlines).
func transportPingPong(b *testing.B, turns [][]byte, n int) time.Duration {
	p, err := transport.Start(botConfig())
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	roundTrip := func(line []byte) {
		deadline := time.Now().Add(10 * time.Second)
		if err := p.Send(line, deadline); err != nil {
			b.Fatal(err)
		}
		if _, err := p.Receive(deadline); err != nil {
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

func (nopRecorder) Move(int, int, json.RawMessage, time.Duration, time.Duration, bool) {}
func (nopRecorder) Strike(protocol.Failure)                                            {}
func (nopRecorder) Forfeit(protocol.Failure)                                           {}

// refereeMoves plays whole Banqi games through the referee with two
// children until at least n moves were played; it returns the time and
// move count.
func refereeMoves(b *testing.B, n int) (time.Duration, int) {
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, nil)
	var players []referee.Player
	for _, name := range []string{"a", "b"} {
		p, err := transport.Start(botConfig())
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		players = append(players, referee.Player{Name: name, Conn: p})
	}
	return playGames(b, players, g, opts, n)
}

// playGames plays games of g between players, seeds 1, 2, ..., until at
// least n moves were played; it returns the time and the move count.
func playGames(b *testing.B, players []referee.Player, g engine.Game, opts engine.Options, n int) (time.Duration, int) {
	var total time.Duration
	moves := 0
	for seed := uint64(1); moves < n; seed++ {
		start := time.Now()
		res, err := referee.Play(context.Background(), referee.Config{
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
// raw ping-pong with the same child program, all in one run:
//
//   - pingpong-us/rt: one child, os/exec pipes + bufio (the usual Go way);
//   - pingpong2-us/rt: the same, alternating between two children as a
//     two-seat game does (each child idles while the other thinks);
//   - transport-us/rt: one child through the arena's stdio transport;
//   - referee-us/move: whole Banqi games through the referee, two children;
//   - ratio: referee-us/move over pingpong2-us/rt, the referee's overhead
//     for the same traffic pattern (target: at most 1.5);
//   - ratio1: referee-us/move over pingpong-us/rt, which also charges the
//     referee for the second child's wake-up latency.
func BenchmarkRefereeOverhead(b *testing.B) {
	turns := testkit.BanqiTurns(b, 200)
	n := max(b.N, 200)
	raw := rawPingPong(b, turns, n, 1)
	raw2 := rawPingPong(b, turns, n, 2)
	tr := transportPingPong(b, turns, n)
	refTime, moves := refereeMoves(b, n)
	us := func(d time.Duration, count int) float64 { return float64(d.Nanoseconds()) / 1000 / float64(count) }
	rawUs, raw2Us, refUs := us(raw, n), us(raw2, n), us(refTime, moves)
	b.ReportMetric(rawUs, "pingpong-us/rt")
	b.ReportMetric(raw2Us, "pingpong2-us/rt")
	b.ReportMetric(us(tr, n), "transport-us/rt")
	b.ReportMetric(refUs, "referee-us/move")
	b.ReportMetric(refUs/raw2Us, "ratio")
	b.ReportMetric(refUs/rawUs, "ratio1")
}
