//go:build linux

package bench

import (
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"

	_ "github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// unoHand is the game of BenchmarkPerMove: Uno, two seats, one hand.
var unoHand = map[string]string{"target": "0"}

// BenchmarkPerMove is the referee's cost per move against what the same
// traffic costs without it, all measured in one run, in interleaved rounds
// so that the machine's load weighs on every figure alike. The game is a
// single hand of two-seat Uno; every figure alternates between two child
// processes, as a game's moves alternate between its seats.
//
//   - raw-us/rt: a few bytes there and back with raw read(2)/write(2) on
//     blocking pipe ends (the floor: two context switches and four
//     syscalls);
//   - json-us/rt: the referee's own turn lines out and the reply decoded
//     with encoding/json, over blocking pipe ends, to the minimal bot;
//   - referee-us/move: whole games through the referee, two minimal bots
//     (they answer a random index without decoding the view);
//   - random-us/move: the same with the bundled random bot (the Go SDK) on
//     both seats.
//
// The ratios, with the targets: referee/json (<= 1.0),
// referee/raw (<= 2.5), random/referee (<= 1.2).
//
//	go test -run '^$' -bench PerMove -benchtime 5000x ./arena/bench
func BenchmarkPerMove(b *testing.B) {
	turns := testkit.Turns(b, "uno", 2, unoHand, 0, 400)
	n := max(b.N, 400)
	const rounds = 5
	var raw, js, ref, rnd time.Duration
	refMoves, rndMoves := 0, 0
	rawKids, jsonKids := blockingChildren(b, "raw"), blockingChildren(b, "minimal")
	refConns, rndConns := processes(b, "minimal"), processes(b, "1")
	for r := range rounds {
		per := n / rounds
		raw += rawPingPongBlocking(b, rawKids, per)
		js += jsonPingPong(b, jsonKids, turns, r*per, per)
		d, m := refereeGames(b, refConns, per)
		ref, refMoves = ref+d, refMoves+m
		d, m = refereeGames(b, rndConns, per)
		rnd, rndMoves = rnd+d, rndMoves+m
	}
	perRT := func(d time.Duration, k int) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(k) }
	total := rounds * (n / rounds)
	rawUs, jsUs := perRT(raw, total), perRT(js, total)
	refUs, rndUs := perRT(ref, refMoves), perRT(rnd, rndMoves)
	b.ReportMetric(rawUs, "raw-us/rt")
	b.ReportMetric(jsUs, "json-us/rt")
	b.ReportMetric(refUs, "referee-us/move")
	b.ReportMetric(rndUs, "random-us/move")
	b.ReportMetric(refUs/jsUs, "referee/json")
	b.ReportMetric(refUs/rawUs, "referee/raw")
	b.ReportMetric(rndUs/refUs, "random/referee")
}

// blockingChild is a child process on blocking pipe ends the benchmark
// reads and writes with raw syscalls (no runtime poller).
type blockingChild struct {
	in, out int // the child's stdin (to write) and stdout (to read)
	buf     []byte
}

// blockingChildren starts two children of mode ("raw": the raw echo;
// "minimal": the minimal bot).
func blockingChildren(b *testing.B, mode string) [2]*blockingChild {
	var kids [2]*blockingChild
	for i := range kids {
		var inFds, outFds [2]int
		if err := syscall.Pipe2(inFds[:], syscall.O_CLOEXEC); err != nil {
			b.Fatal(err)
		}
		if err := syscall.Pipe2(outFds[:], syscall.O_CLOEXEC); err != nil {
			b.Fatal(err)
		}
		childIn, childOut := os.NewFile(uintptr(inFds[0]), "stdin"), os.NewFile(uintptr(outFds[1]), "stdout")
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "ARENA_BENCH_BOT="+mode)
		cmd.Stdin, cmd.Stdout = childIn, childOut
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		childIn.Close()
		childOut.Close()
		k := &blockingChild{in: inFds[1], out: outFds[0], buf: make([]byte, 64<<10)}
		b.Cleanup(func() {
			syscall.Close(k.in)
			syscall.Close(k.out)
			_ = cmd.Wait()
		})
		kids[i] = k
	}
	return kids
}

// roundTrip writes line and reads until a newline; it returns the reply.
func (k *blockingChild) roundTrip(b *testing.B, line []byte) []byte {
	for len(line) > 0 {
		n, err := syscall.Write(k.in, line)
		if err != nil {
			b.Fatal(err)
		}
		line = line[n:]
	}
	got := 0
	for {
		n, err := syscall.Read(k.out, k.buf[got:])
		if err != nil || n == 0 {
			b.Fatalf("read: %d, %v", n, err)
		}
		got += n
		if k.buf[got-1] == '\n' {
			return k.buf[:got]
		}
	}
}

func rawPingPongBlocking(b *testing.B, kids [2]*blockingChild, n int) time.Duration {
	msg := []byte("x\n")
	start := time.Now()
	for i := range n {
		kids[i%2].roundTrip(b, msg)
	}
	return time.Since(start)
}

// jsonPingPong sends the referee's turn lines (turns[from:], wrapping) and
// decodes each reply with encoding/json, as a referee without the arena's
// fast path would.
func jsonPingPong(b *testing.B, kids [2]*blockingChild, turns [][]byte, from, n int) time.Duration {
	lines := make([][]byte, len(turns))
	for i, t := range turns {
		lines[i] = append(append([]byte(nil), t...), '\n')
	}
	start := time.Now()
	for i := range n {
		reply := kids[i%2].roundTrip(b, lines[(from+i)%len(lines)])
		var a protocol.Action
		if err := json.Unmarshal(reply, &a); err != nil || a.Index == nil {
			b.Fatalf("reply %q: %v", reply, err)
		}
	}
	return time.Since(start)
}

// processes starts two children of mode through the arena's transport.
func processes(b *testing.B, mode string) []referee.Player {
	var players []referee.Player
	for i := range 2 {
		cfg := botConfig()
		cfg.Env = append(os.Environ(), "ARENA_BENCH_BOT="+mode)
		p, err := transport.Start(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { p.Close() })
		players = append(players, referee.Player{Name: strconv.Itoa(i), Conn: p})
	}
	return players
}

// refereeGames plays single Uno hands until at least n moves were made.
func refereeGames(b *testing.B, players []referee.Player, n int) (time.Duration, int) {
	g, opts := testkit.Setup(b, "uno", 2, unoHand)
	return playGames(b, players, g, opts, n)
}
