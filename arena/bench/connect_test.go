//go:build linux

package bench

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkConnectPerMove is a remote bot's cost per move the way a user
// pays it, every part a process of its own on TCP over loopback: an
// `arena serve`, two `arena connect` each serving a minimal bot (the
// "minimal" child, through a script, since a bot's environment is the
// arena's few variables), and the referee as a real `arena match --nats`
// seating them as nats:a and nats:b, two-seat Uno at concurrency 1 (to
// a target no game reaches: each game ends at its max_actions, so that
// it is long and its length known). The
// referee is the user's own command, not one in the test process, since
// what the issue measured (2.4-3.2x the raw request-reply) was the
// commands, not the packages: BenchmarkRefereeOverNATS (arena/remote)
// covers the referee and the session protocol in one process.
//
// In the same run, in rounds (interleaved so that the machine's load
// weighs on every figure alike), it measures the baselines:
//
//   - request-us/rt: a raw NATS request-reply (nats.go's Request) from
//     the test process to two responder processes (the "nats-echo"
//     child) on the same server, alternating as the seats do, with the
//     turn lines of such Uno games out and an action line back;
//   - stdio-us/rt: the JSON ping-pong to the minimal bot over blocking
//     pipes (jsonPingPong, as BenchmarkPerMove's json): the hop from
//     arena connect to its bot, alone;
//   - move-us: a move through arena match and arena connect. Each round
//     runs the match twice, G games each (-benchtime Gx), with max_actions
//     shortPlies and longPlies (the order alternating), and takes the
//     difference in time over the difference in plies, so that all a
//     game costs beyond its moves (process starts, connecting, opening
//     the sessions, hello and ready, the ledger: BenchmarkGameStart's
//     figure) cancels out;
//
// the ratios (medians of the rounds' own):
//
//   - move/request: move-us over request-us/rt (the target: at
//     most 1.25);
//   - move/(request+stdio): move-us over the two hops it is made of, what
//     the arena's own code adds to them;
//
// game-us, what a remote game costs beyond its moves, as
// BenchmarkGameStart measures it over stdio: two-ply Banqi games
// (max_plies=2), 5G and 10G of them a round (the order alternating), the
// difference over 5G, less two moves at move-us. Every game needs a new
// session of each bot (no process plays a deal twice), that is a bot
// process started by arena connect, its hello and ready; what the issue
// first measured (325-341 us a ply, whole Banqi games) was the moves and
// this together;
//
// the CPU time per move of the parts, summed over the rounds' matches
// (the kernel's schedstat of their threads): match-cpu-us/move,
// connect-cpu-us/move (both arena connect, not their bots),
// echo-cpu-us/rt (both nats-echo children, per request: what a bare
// nats.go responder costs, beside arena connect's), requester-cpu-us/rt
// (the test process making the requests, beside the match's),
// server-cpu-us/move (arena serve; it serves the
// baselines too, so this is over every round's work: read it as an upper
// bound); and, from one more match with a subscriber on ">", msgs/move:
// the messages the server carried per move (the log says of which
// subjects).
//
// Run it as:
//
//	go test -run '^$' -bench ConnectPerMove -benchtime 10x ./arena/bench
//
// With ARENA_BENCH_ARENA=PATH it measures that arena binary instead of
// building this tree's (to compare two builds in the same minutes).
//
// Measured 2026-12-05 (2x, five pairs at load 19-136 on 2 cores):
// game-us 62-130 ms before a busy server held open requests, 24-46 ms
// after; the moves' code unchanged, move/request 1.29-1.40 and
// move/(request+stdio) 1.05-1.25 in the two quietest pairs
// (docs/performance.md, a remote bot over NATS).
func BenchmarkConnectPerMove(b *testing.B) {
	games := max(b.N, 2)
	arena := arenaUnderTest(b)
	dir := b.TempDir()
	server := startArena(b, arena, regexp.MustCompile(`NATS server at (nats://\S+)`),
		"serve", "--listen", "127.0.0.1:0", "--store", filepath.Join(dir, "store"))
	url := server.match
	script := minimalScript(b, dir)
	var connects []int
	for _, id := range []string{"a", "b"} {
		p := startArena(b, arena, regexp.MustCompile(`(serving bot)`), "connect", "--nats", url, "--bot", id, "-q", "--bot-isolate", "no", "--", script)
		connects = append(connects, p.pid)
	}
	nc, err := nats.Connect(url)
	if err != nil {
		b.Fatal(err)
	}
	defer nc.Close()
	echoes := natsEchoes(b, url)
	kids := blockingChildren(b, "minimal")
	turns := testkit.Turns(b, "uno", 2, unoGame, 0, 400)
	m := &remoteMatch{arena: arena, url: url, dir: dir, connects: connects}
	const rounds, roundTrips = 5, 2000
	var move, req, stdio, ratio, ratioBoth, starts []float64
	var echoCPU, requesterCPU time.Duration
	sent := 0
	for r := range rounds {
		mv := m.round(b, games, r%2 == 1)
		gm := m.gameStart(b, 5*games, r%2 == 0)
		echo, self := kidsSched(b, echoes).Run, selfCPU(b)
		start := time.Now()
		requestReply(b, nc, turns, roundTrips)
		echoCPU += kidsSched(b, echoes).Run - echo
		requesterCPU += selfCPU(b) - self
		rq := float64(time.Since(start).Nanoseconds()) / 1e3 / roundTrips
		start = time.Now()
		sent += jsonPingPong(b, kids, turns, sent, roundTrips)
		st := float64(time.Since(start).Nanoseconds()) / 1e3 / roundTrips
		move, req, stdio = append(move, mv), append(req, rq), append(stdio, st)
		ratio, ratioBoth = append(ratio, mv/rq), append(ratioBoth, mv/(rq+st))
		starts = append(starts, gm-2*mv)
	}
	b.ReportMetric(median(req), "request-us/rt")
	b.ReportMetric(median(stdio), "stdio-us/rt")
	b.ReportMetric(median(move), "move-us")
	b.ReportMetric(median(ratio), "move/request")
	b.ReportMetric(median(ratioBoth), "move/(request+stdio)")
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(m.plies) }
	b.ReportMetric(per(m.matchCPU), "match-cpu-us/move")
	b.ReportMetric(per(m.connectCPU), "connect-cpu-us/move")
	b.ReportMetric(float64(echoCPU.Nanoseconds())/1e3/(rounds*roundTrips), "echo-cpu-us/rt")
	b.ReportMetric(float64(requesterCPU.Nanoseconds())/1e3/(rounds*roundTrips), "requester-cpu-us/rt")
	b.ReportMetric(median(starts), "game-us")
	b.ReportMetric(per(kidsSched(b, []int{server.pid}).Run), "server-cpu-us/move")
	b.ReportMetric(m.messagesPerMove(b, nc), "msgs/move")
	b.ReportMetric(0, "ns/op")
}

// envArena names an arena binary the benchmarks that run the arena
// command (BenchmarkConnectPerMove, BenchmarkGameStart) measure instead
// of building this tree's: two builds compared in the same minutes.
const envArena = "ARENA_BENCH_ARENA"

// arenaUnderTest is the arena binary to measure: envArena's, or this
// tree's, built.
func arenaUnderTest(b *testing.B) string {
	if arena := os.Getenv(envArena); arena != "" {
		return arena
	}
	return testkit.Build(b, "./cmd/arena")
}

// unoGame is the game of BenchmarkConnectPerMove's matches: Uno to a
// target random movers do not reach in longPlies actions.
var unoGame = map[string]string{"target": "100000"}

// The max_actions of BenchmarkConnectPerMove's two matches, and of the
// one that counts messages.
const shortPlies, longPlies, countPlies = 50, 3000, 500

// remoteMatch runs arena match against the two arena connect processes.
type remoteMatch struct {
	arena, url, dir string
	connects        []int
	runs            int
	// Summed over the rounds' differences: plies, and CPU time.
	plies                int
	matchCPU, connectCPU time.Duration
}

// matchRun is one arena match: its wall time, plies and CPU times.
type matchRun struct {
	took, match, connect time.Duration
	plies                int
}

// round runs the match of games games with max_plies shortPlies and
// longPlies (swapped: the other order) and returns the difference's
// time per ply in microseconds.
func (m *remoteMatch) round(b *testing.B, games int, swapped bool) float64 {
	var one, two matchRun
	if swapped {
		two, one = m.uno(b, games, longPlies), m.uno(b, games, shortPlies)
	} else {
		one, two = m.uno(b, games, shortPlies), m.uno(b, games, longPlies)
	}
	plies := two.plies - one.plies
	if plies <= 0 {
		b.Fatalf("max_actions %d played %d plies, max_actions %d %d", longPlies, two.plies, shortPlies, one.plies)
	}
	m.plies += plies
	m.matchCPU += two.match - one.match
	m.connectCPU += two.connect - one.connect
	return float64((two.took - one.took).Nanoseconds()) / 1e3 / float64(plies)
}

// gameStart runs n and 2n two-ply Banqi games (swapped: the other
// order) and returns the difference's time per game in microseconds.
func (m *remoteMatch) gameStart(b *testing.B, n int, swapped bool) float64 {
	var one, two matchRun
	if swapped {
		two, one = m.run(b, 2*n, "banqi", "max_plies=2"), m.run(b, n, "banqi", "max_plies=2")
	} else {
		one, two = m.run(b, n, "banqi", "max_plies=2"), m.run(b, 2*n, "banqi", "max_plies=2")
	}
	return float64((two.took - one.took).Nanoseconds()) / 1e3 / float64(n)
}

// uno plays n games of unoGame of some maxActions plies.
func (m *remoteMatch) uno(b *testing.B, n, maxActions int) matchRun {
	return m.run(b, n, "uno", "target="+unoGame["target"], "max_actions="+strconv.Itoa(maxActions))
}

// run plays n games of game with options (k=v) and reads what they took.
func (m *remoteMatch) run(b *testing.B, n int, game string, options ...string) matchRun {
	m.runs++
	out := filepath.Join(m.dir, "out"+strconv.Itoa(m.runs))
	args := []string{"match", "--nats", m.url, "--game", game, "--games", strconv.Itoa(n), "--seed", "1",
		"--bot", "a=nats:a", "--bot", "b=nats:b", "--out", out, "-q", "--bot-isolate", "no"}
	for _, o := range options {
		args = append(args, "--option", o)
	}
	cmd := exec.Command(m.arena, args...)
	connect := kidsSched(b, m.connects)
	start := time.Now()
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %v\n%s", cmd.Args, err, msg)
	}
	r := matchRun{took: time.Since(start), connect: kidsSched(b, m.connects).Run - connect.Run,
		match: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	results, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	if played := bytes.Count(results, []byte(`"forfeits":[]`)); played != n {
		b.Fatalf("%d of %d games played without a forfeit:\n%s", played, n, results)
	}
	for _, p := range regexp.MustCompile(`"plies":(\d+)`).FindAllSubmatch(results, -1) {
		k, _ := strconv.Atoi(string(p[1]))
		r.plies += k
	}
	return r
}

// messagesPerMove plays one more match of two games with a subscriber on
// every subject, and returns the messages the server carried per ply
// (the subscriber's own not counted); the log says of which subjects.
func (m *remoteMatch) messagesPerMove(b *testing.B, nc *nats.Conn) float64 {
	counts := map[string]int{}
	var total atomic.Int64
	sub, err := nc.Subscribe(">", func(msg *nats.Msg) {
		total.Add(1)
		counts[subjectKind(msg.Subject)]++ // one goroutine delivers a subscription's messages
	})
	if err != nil {
		b.Fatal(err)
	}
	nc.Flush()
	r := m.uno(b, 2, countPlies)
	nc.Flush()
	sub.Unsubscribe()
	n := total.Load()
	b.Logf("messages in a 2-game match of %d plies: %d (%v)", r.plies, n, counts)
	return float64(n) / float64(r.plies)
}

// subjectKind is a subject with its bot and session ids and its inbox
// tokens left out.
func subjectKind(s string) string {
	parts := strings.Split(s, ".")
	switch {
	case strings.HasPrefix(parts[0], "_INBOX"):
		return "inbox"
	case parts[0] == "arena" && len(parts) >= 3:
		parts[2] = "ID"
		if len(parts) >= 4 && len(parts[3]) == 22 { // a NUID
			parts[3] = "SESSION"
		}
	}
	return strings.Join(parts, ".")
}

// started is a process startArena started, and what its want matched.
type started struct {
	pid   int
	match string
}

// startArena starts arena with args, waits until a line of its stderr
// matches want and returns the match's first group; the process is
// killed when the benchmark ends.
func startArena(b *testing.B, arena string, want *regexp.Regexp, args ...string) started {
	cmd := exec.Command(arena, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	var said []string
	for sc.Scan() {
		said = append(said, sc.Text())
		if m := want.FindStringSubmatch(sc.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return started{pid: cmd.Process.Pid, match: m[1]}
		}
	}
	b.Fatalf("arena %s ended before saying %v:\n%s", strings.Join(args, " "), want, strings.Join(said, "\n"))
	return started{}
}

// echoSubject is where the nats-echo child seat answers.
func echoSubject(seat int) string { return "bench.seat" + strconv.Itoa(seat) }

// natsEchoes starts two nats-echo children on the server at url and
// returns their pids once both are subscribed.
func natsEchoes(b *testing.B, url string) []int {
	var pids []int
	for seat := range 2 {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), "ARENA_BENCH_BOT=nats-echo", "ARENA_BENCH_NATS="+url, "ARENA_BENCH_SUBJECT="+echoSubject(seat))
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "subscribed\n" {
			b.Fatalf("nats-echo: %q, %v", line, err)
		}
		pids = append(pids, cmd.Process.Pid)
	}
	return pids
}

// requestReply makes n requests of the turn lines, alternating between
// the two nats-echo children.
func requestReply(b *testing.B, nc *nats.Conn, turns [][]byte, n int) {
	for i := range n {
		if _, err := nc.Request(echoSubject(i%2), turns[i%len(turns)], 10*time.Second); err != nil {
			b.Fatal(err)
		}
	}
}
