// Command chaosbot is a deliberately misbehaving arena bot for the chaos
// suite (arena/chaos): one program, one misbehaviour per -mode. Until its
// misbehaviour it plays like the random bot, speaking protocol v1 directly
// so a misbehaviour can be exactly one wrong byte sequence.
//
// The heavy modes are contained by the bot itself, so that even without
// any sandbox limits the machine survives: fork-bomb stops at -budget
// processes (or the first failed fork), mem-hog at -hog-mib MiB, and
// busy-loop only spins until the referee kills it.
//
//	chaosbot -mode garbage        # see modes below
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/protocol"
)

// modes lists every behaviour and what it does.
var modes = map[string]string{
	"good":         "plays random legal moves, never misbehaves",
	"crash-start":  "exits with status 3 before reading anything",
	"crash-mid":    "panics at turn -at (default 3)",
	"exit0":        "exits with status 0 at turn -at (default 1), mid-game",
	"no-hello":     "reads hello but never answers it",
	"no-read":      "never reads stdin nor writes stdout",
	"garbage":      "answers turn -at with a line that is not JSON",
	"bad-utf8":     "answers with a JSON line holding invalid UTF-8",
	"nested":       "answers with JSON nested 100000 deep (under the line limit)",
	"huge-json":    "answers with a valid 4 MiB JSON line (over the 1 MiB limit)",
	"big-ok":       "answers with a valid 900 KiB JSON line (under the limit: accepted)",
	"line-100mib":  "answers with a 100 MiB line",
	"half-line":    "writes half a reply, then silence",
	"twice":        "answers turn -at twice",
	"wrong-id":     "answers with the wrong id",
	"unasked":      "after answering turn -at, sends an action nobody asked for",
	"stop-reading": "stops reading stdin after ready (and never answers)",
	"sleep":        "sleeps -sleep (default 2s) before answering turn -at",
	"stderr-flood": "writes -flood-mib MiB (default 20) to stderr while playing well",
	"close-stdout": "closes stdout at turn -at and keeps running",
	"fork-child":   "starts a child that sleeps 300s (stdio on /dev/null), then exits at turn -at: the child outlives the bot",
	"fork-stdout":  "like fork-child, but the child keeps the bot's stdin, stdout and stderr",
	"fork-escape":  "like fork-child, but the child leaves the process group (setsid) first",
	"fork-bomb":    "at turn -at forks a tree of -budget processes (default 200; stops at EAGAIN), all sleeping",
	"mem-hog":      "at turn -at allocates and touches -hog-mib MiB (default 2048) in 64 MiB steps, then hangs",
	"busy-loop":    "at turn -at spins on every CPU and never answers",
	"bomb-child":   "(internal) one process of the fork-bomb tree",
	"sleeper":      "(internal) sleeps 300s",
}

var (
	mode     = flag.String("mode", "good", "behaviour (see -list)")
	at       = flag.Int("at", 0, "the turn of each game to misbehave at (0: the mode's default)")
	sleepFor = flag.Duration("sleep", 2*time.Second, "sleep mode: how long to sleep before answering")
	budget   = flag.Int("budget", 200, "fork-bomb: processes in the tree, the bot's own excluded")
	hogMiB   = flag.Int("hog-mib", 2048, "mem-hog: MiB to allocate and touch")
	floodMiB = flag.Int("flood-mib", 20, "stderr-flood: MiB to write to stderr")
	list     = flag.Bool("list", false, "list the modes and exit")
)

func main() {
	flag.Parse()
	if *list {
		for m, doc := range modes {
			fmt.Printf("%-13s %s\n", m, doc)
		}
		return
	}
	if _, ok := modes[*mode]; !ok {
		fmt.Fprintf(os.Stderr, "chaosbot: unknown mode %q (try -list)\n", *mode)
		os.Exit(2)
	}
	if *at == 0 {
		*at = map[string]int{"crash-mid": 3, "fork-child": 2, "fork-stdout": 2, "fork-escape": 2}[*mode]
		if *at == 0 {
			*at = 1
		}
	}
	switch *mode {
	case "crash-start":
		os.Exit(3)
	case "no-read":
		hang()
	case "sleeper":
		time.Sleep(300 * time.Second)
		return
	case "bomb-child":
		bomb(*budget)
		hang()
	}
	b := &bot{lr: protocol.NewLineReader(os.Stdin, 64<<20), rng: rand.New(rand.NewPCG(1, 2))}
	os.Exit(b.run())
}

type bot struct {
	lr   *protocol.LineReader
	rng  *rand.Rand
	turn int // turns of the current game, from 1
}

func hang() {
	for {
		time.Sleep(time.Hour)
	}
}

func send(s string) {
	if _, err := os.Stdout.WriteString(s + "\n"); err != nil {
		os.Exit(4)
	}
}

func (b *bot) run() int {
	for {
		line, err := b.lr.ReadLine()
		if err != nil {
			return 0
		}
		typ, err := protocol.PeekType(line)
		if err != nil {
			fmt.Fprintln(os.Stderr, "chaosbot: bad line from the referee:", err)
			return 1
		}
		switch typ {
		case protocol.TypeHello:
			var h protocol.Hello
			if err := json.Unmarshal(line, &h); err != nil {
				fmt.Fprintln(os.Stderr, "chaosbot: bad hello:", err)
				return 1
			}
			b.turn = 0
			b.rng = rand.New(rand.NewPCG(h.Seed, uint64(h.Seat)))
			b.hello()
		case protocol.TypeTurn:
			var t protocol.Turn
			if err := json.Unmarshal(line, &t); err != nil {
				fmt.Fprintln(os.Stderr, "chaosbot: bad turn:", err)
				return 1
			}
			b.turn++
			b.act(&t)
		case protocol.TypeBye:
			return 0
		}
	}
}

func (b *bot) hello() {
	switch *mode {
	case "no-hello":
		hang()
	case "stderr-flood":
		go flood(*floodMiB << 20)
	}
	send(`{"type":"ready","name":"chaos-` + *mode + `"}`)
	if *mode == "stop-reading" {
		hang()
	}
}

// flood writes n bytes of log lines to stderr.
func flood(n int) {
	line := []byte(strings.Repeat("flood ", 10) + "\n")
	block := make([]byte, 0, 64<<10)
	for len(block)+len(line) <= cap(block) {
		block = append(block, line...)
	}
	for w := 0; w < n; w += len(block) {
		if _, err := os.Stderr.Write(block); err != nil {
			return
		}
	}
}

func (b *bot) answer(t *protocol.Turn) {
	send(fmt.Sprintf(`{"type":"action","id":%d,"index":%d}`, t.ID, b.rng.IntN(len(t.Legal))))
}

func (b *bot) act(t *protocol.Turn) {
	if b.turn != *at {
		b.answer(t)
		return
	}
	switch *mode {
	case "crash-mid":
		panic(fmt.Sprintf("chaosbot: deliberate crash at turn %d", b.turn))
	case "exit0":
		os.Exit(0)
	case "garbage":
		send("hello world, this is not JSON")
	case "bad-utf8":
		send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"note":"%s"}`, t.ID, "\xff\xfe\xc3("))
	case "nested":
		const depth = 100000
		send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"deep":%s%s}`, t.ID, strings.Repeat("[", depth), strings.Repeat("]", depth)))
	case "huge-json":
		send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"pad":[%s0]}`, t.ID, strings.Repeat("0,", 2<<20)))
	case "big-ok":
		send(fmt.Sprintf(`{"type":"action","id":%d,"index":%d,"pad":"%s"}`, t.ID, b.rng.IntN(len(t.Legal)), strings.Repeat("x", 900<<10)))
	case "line-100mib":
		os.Stdout.WriteString(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"pad":"`, t.ID))
		chunk := []byte(strings.Repeat("a", 1<<20))
		for range 100 {
			if _, err := os.Stdout.Write(chunk); err != nil {
				os.Exit(4)
			}
		}
		send(`"}`)
	case "half-line":
		os.Stdout.WriteString(fmt.Sprintf(`{"type":"action","id":%d,"ind`, t.ID))
		hang()
	case "twice":
		b.answer(t)
		b.answer(t)
	case "wrong-id":
		send(fmt.Sprintf(`{"type":"action","id":%d,"index":0}`, t.ID+1000))
	case "unasked":
		b.answer(t)
		time.Sleep(10 * time.Millisecond)
		send(`{"type":"action","id":0,"index":0}`)
	case "sleep":
		time.Sleep(*sleepFor)
		b.answer(t)
	case "close-stdout":
		os.Stdout.Close()
		hang()
	case "fork-child", "fork-stdout", "fork-escape":
		cmd := exec.Command(os.Args[0], "-mode", "sleeper")
		switch *mode {
		case "fork-stdout":
			cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		case "fork-escape":
			if err := leaveGroup(cmd); err != nil {
				fmt.Fprintln(os.Stderr, "chaosbot:", err)
				os.Exit(1)
			}
		}
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "chaosbot: fork:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "chaosbot: started child %d, exiting\n", cmd.Process.Pid)
		os.Exit(5)
	case "fork-bomb":
		n := bomb(*budget)
		fmt.Fprintf(os.Stderr, "chaosbot: fork bomb: %d direct children\n", n)
		hang()
	case "mem-hog":
		hog(*hogMiB)
		hang()
	case "busy-loop":
		for range runtime.NumCPU() - 1 {
			go spin()
		}
		spin()
	default:
		b.answer(t)
	}
}

// bomb starts a binary tree of n processes below this one (each child
// gets its share of n-1 and does the same), stopping at the first fork
// that fails (EAGAIN under a pids limit). It returns the children started.
func bomb(n int) int {
	started := 0
	if n <= 0 {
		return 0
	}
	rest := n - 2 // the two children themselves
	shares := []int{1 + max(0, rest)/2, 1 + max(0, rest) - max(0, rest)/2}
	if n == 1 {
		shares = shares[:1]
		shares[0] = 1
	}
	for _, s := range shares {
		cmd := exec.Command(os.Args[0], "-mode", "bomb-child", "-budget", strconv.Itoa(s-1))
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "chaosbot: fork bomb stopped:", err)
			break
		}
		started++
	}
	return started
}

// hog allocates and touches mib MiB, 64 MiB at a time.
var hoard [][]byte

func hog(mib int) {
	for got := 0; got < mib; got += 64 {
		chunk := make([]byte, 64<<20)
		for i := 0; i < len(chunk); i += 4096 {
			chunk[i] = 1
		}
		hoard = append(hoard, chunk)
	}
}

func spin() {
	x := uint64(1)
	for {
		x = x*6364136223846793005 + 1442695040888963407
		if x == 0 { // once in 2^64 steps: the loop's work stays observable
			return
		}
	}
}
