//go:build linux

package bench

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"

	_ "github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/internal/procfs"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// unoHand is the game of BenchmarkPerMove: Uno, two seats, one hand.
var unoHand = map[string]string{"target": "0"}

// roundMoves is how many round trips or moves each figure of
// BenchmarkPerMove makes in one round: short rounds, many of them, so that
// a burst of load on the machine spoils a few rounds' ratios, which the
// median leaves out, rather than one figure of a long run.
const roundMoves = 250

// BenchmarkPerMove is the referee's cost per move against what the same
// traffic costs without it, all measured in one run, in short interleaved
// rounds (roundMoves each, the figures' order rotating from round to
// round) so that the machine's load weighs on every figure alike. The game
// is a single hand of two-seat Uno; every figure alternates between two
// child processes, as a game's moves alternate between its seats.
//
// The figures, each the median over the rounds of its time per round trip
// or move in a round:
//
//   - raw-us/rt: a few bytes there and back with raw read(2)/write(2) on
//     blocking pipe ends (the floor: two context switches and four
//     syscalls);
//   - json-us/rt: the referee's own turn lines out and the reply decoded
//     with encoding/json, over blocking pipe ends, to the minimal bot;
//   - referee-us/move: whole games through the referee, two minimal bots
//     (they answer a random index without decoding the view);
//   - random-us/move: the same with the bundled random bot on both seats:
//     `arena bot random`, the arena binary built once for the run.
//
// The ratios, with the targets, each the median of the rounds'
// own ratios: referee/json (<= 1.0), referee/raw (<= 2.5), random/referee
// (<= 1.2).
//
// Wall time per move on a machine that runs other work is mostly
// scheduling: how soon a process that was woken gets a CPU. So the
// benchmark also prints the CPU time the figures cost, which load moves
// far less: the test process's (getrusage) and its children's (the
// kernel's schedstat of their threads, in nanoseconds), summed over all
// rounds and divided by the round trips or moves:
//
//   - raw-cpu-us/rt, json-cpu-us/rt, referee-cpu-us/move and
//     random-cpu-us/move: the test process and the figure's two children
//     together;
//   - referee-self-cpu-us/move: of that, the referee's own (the test
//     process in the games of the minimal bots);
//   - minimal-cpu-us/move and random-bots-cpu-us/move: of that, the two
//     bots' own (the minimal bots, the bundled random bots);
//   - minimal-slices/move and random-slices/move: how often the bots'
//     threads were given a CPU, per move (a Go runtime's thread hand-offs
//     around a blocking read show here);
//   - cpu-referee/json, cpu-referee/raw and cpu-random/referee: the
//     ratios of those totals, as the three ratios above.
//
// And what the machine did meanwhile (reportMachine): stolen-ms/cpu, the
// time the hypervisor held each CPU, and a line on the log where idle
// CPUs halt at once, which raises random/referee by itself
// (docs/performance.md, per-move cost).
//
// Run it as:
//
//	go test -run '^$' -bench PerMove -benchtime 20000x ./arena/bench
func BenchmarkPerMove(b *testing.B) {
	turns := testkit.Turns(b, "uno", 2, unoHand, 0, 400)
	n := max(b.N, 400)
	rounds := max(n/roundMoves, 5)
	per := n / rounds
	rawKids, jsonKids := blockingChildren(b, "raw"), blockingChildren(b, "minimal")
	refConns := processes(b, []string{os.Args[0]}, "minimal")
	rndConns := processes(b, []string{testkit.Build(b, "./cmd/arena"), "bot", "random"}, "")
	g, opts := testkit.Setup(b, "uno", 2, unoHand)
	sent := 0 // turn lines of the JSON ping-pong so far
	figs := []*figure{
		{name: "raw", kids: blockingPids(rawKids), run: func(n int) int { return rawPingPongBlocking(b, rawKids, n) }},
		{name: "json", kids: blockingPids(jsonKids), run: func(n int) int {
			sent += jsonPingPong(b, jsonKids, turns, sent, n)
			return n
		}},
		{name: "referee", kids: processPids(refConns), run: func(n int) int {
			_, moves := playGames(b, refConns, g, opts, n)
			return moves
		}},
		{name: "random", kids: processPids(rndConns), run: func(n int) int {
			_, moves := playGames(b, rndConns, g, opts, n)
			return moves
		}},
	}
	raw, js, ref, rnd := figs[0], figs[1], figs[2], figs[3]
	steal := startStealMeter()
	b.ResetTimer()
	for r := range rounds {
		for i := range figs {
			figs[(r+i)%len(figs)].round(b, per)
		}
	}
	b.StopTimer()
	reportMachine(b, steal.machine())
	for _, f := range []*figure{raw, js, ref, rnd} {
		unit := "-us/move"
		if f == raw || f == js {
			unit = "-us/rt"
		}
		b.ReportMetric(median(f.wall), f.name+unit)
		b.ReportMetric(f.cpuPer(f.self+f.bots), f.name+"-cpu"+unit)
	}
	b.ReportMetric(ref.cpuPer(ref.self), "referee-self-cpu-us/move")
	b.ReportMetric(ref.cpuPer(ref.bots), "minimal-cpu-us/move")
	b.ReportMetric(rnd.cpuPer(rnd.bots), "random-bots-cpu-us/move")
	b.ReportMetric(float64(ref.slices)/float64(ref.units), "minimal-slices/move")
	b.ReportMetric(float64(rnd.slices)/float64(rnd.units), "random-slices/move")
	b.ReportMetric(medianRatio(ref, js), "referee/json")
	b.ReportMetric(medianRatio(ref, raw), "referee/raw")
	b.ReportMetric(medianRatio(rnd, ref), "random/referee")
	total := func(f *figure) float64 { return f.cpuPer(f.self + f.bots) }
	b.ReportMetric(total(ref)/total(js), "cpu-referee/json")
	b.ReportMetric(total(ref)/total(raw), "cpu-referee/raw")
	b.ReportMetric(total(rnd)/total(ref), "cpu-random/referee")
}

// reportMachine reports what the machine did during a benchmark, for the
// figures to be read by: stolen-ms/cpu, the hypervisor's steal time, and
// a line on the log if the machine's idle CPUs halt at once.
func reportMachine(b *testing.B, m Machine) {
	if m.StolenKnown {
		b.ReportMetric(float64(m.Stolen.Milliseconds()), "stolen-ms/cpu")
	}
	if m.IdleHalts && !idleHaltsLogged.Swap(true) { // once, not for every b.N tried
		b.Log("this machine's idle CPUs halt at once (cpuidle haltpoll, guest_halt_poll_ns 0): every reply that finds its reader's CPU idle waits for the hypervisor (docs/performance.md, per-move cost)")
	}
}

var idleHaltsLogged atomic.Bool

// figure is one measure of BenchmarkPerMove: what it ran, round by round.
type figure struct {
	name string
	kids []int           // the pids of its two children
	run  func(n int) int // n round trips or moves, at least; how many it made
	// Per round: the wall time per round trip or move, in microseconds.
	wall []float64
	// Summed over the rounds: round trips or moves; the CPU time of the
	// test process and of the children; the children's time slices.
	units      int
	self, bots time.Duration
	slices     int64
}

// round runs one round of f, of n round trips or moves.
func (f *figure) round(b *testing.B, n int) {
	self, kids := selfCPU(b), kidsSched(b, f.kids)
	start := time.Now()
	units := f.run(n)
	wall := time.Since(start)
	kidsAfter := kidsSched(b, f.kids).Sub(kids)
	f.self += selfCPU(b) - self
	f.bots += kidsAfter.Run
	f.slices += kidsAfter.Slices
	f.units += units
	f.wall = append(f.wall, float64(wall.Nanoseconds())/1e3/float64(units))
}

// cpuPer is d in microseconds per round trip or move of f.
func (f *figure) cpuPer(d time.Duration) float64 {
	return float64(d.Nanoseconds()) / 1e3 / float64(f.units)
}

// medianRatio is the median over the rounds of f's time over base's.
func medianRatio(f, base *figure) float64 {
	ratios := make([]float64, len(f.wall))
	for i := range ratios {
		ratios[i] = f.wall[i] / base.wall[i]
	}
	return median(ratios)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// selfCPU is the CPU time of the test process so far.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// kidsSched is the scheduler's counts for the processes pids, summed.
func kidsSched(b *testing.B, pids []int) procfs.Sched {
	var sum procfs.Sched
	for _, pid := range pids {
		s, err := procfs.ReadSched(pid)
		if err != nil {
			b.Fatal(err)
		}
		sum.Run, sum.Wait, sum.Slices = sum.Run+s.Run, sum.Wait+s.Wait, sum.Slices+s.Slices
	}
	return sum
}

// blockingChild is a child process on blocking pipe ends the benchmark
// reads and writes with raw syscalls (no runtime poller).
type blockingChild struct {
	in, out int // the child's stdin (to write) and stdout (to read)
	pid     int
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
		k := &blockingChild{in: inFds[1], out: outFds[0], pid: cmd.Process.Pid, buf: make([]byte, 64<<10)}
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

// rawPingPongBlocking makes n raw round trips, alternating between kids.
func rawPingPongBlocking(b *testing.B, kids [2]*blockingChild, n int) int {
	msg := []byte("x\n")
	for i := range n {
		kids[i%2].roundTrip(b, msg)
	}
	return n
}

func blockingPids(kids [2]*blockingChild) []int { return []int{kids[0].pid, kids[1].pid} }

// jsonPingPong sends the referee's turn lines (turns[from:], wrapping) and
// decodes each reply with encoding/json, as a referee without the arena's
// fast path would; it returns n.
func jsonPingPong(b *testing.B, kids [2]*blockingChild, turns [][]byte, from, n int) int {
	lines := make([][]byte, len(turns))
	for i, t := range turns {
		lines[i] = append(append([]byte(nil), t...), '\n')
	}
	for i := range n {
		reply := kids[i%2].roundTrip(b, lines[(from+i)%len(lines)])
		var a protocol.Action
		if err := json.Unmarshal(reply, &a); err != nil || a.Index == nil {
			b.Fatalf("reply %q: %v", reply, err)
		}
	}
	return n
}

// processes starts two processes of argv through the arena's transport,
// with ARENA_BENCH_BOT=mode unless mode is "".
func processes(b *testing.B, argv []string, mode string) []referee.Player {
	var players []referee.Player
	for i := range 2 {
		cfg := transport.ProcessConfig{Argv: argv, Env: os.Environ()}
		if mode != "" {
			cfg.Env = append(cfg.Env, "ARENA_BENCH_BOT="+mode)
		}
		p, err := transport.Start(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { p.Close() })
		players = append(players, referee.Player{Name: strconv.Itoa(i), Conn: p})
	}
	return players
}

func processPids(players []referee.Player) []int {
	var pids []int
	for _, p := range players {
		pids = append(pids, p.Conn.(*transport.Process).Pid())
	}
	return pids
}
