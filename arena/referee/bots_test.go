package referee_test

// Helper bots: the test binary re-executes itself with ARENA_TEST_BOT set
// (the os/exec TestHelperProcess pattern) and plays one of the behaviours
// below instead of running the tests. Every bot speaks the wire protocol
// directly, so a misbehaviour can be exactly one wrong byte sequence.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/protocol"
)

const (
	envBot      = "ARENA_TEST_BOT"      // bot mode, "name" or "name:N"
	envToken    = "ARENA_TEST_TOKEN"    // per-test token, to find survivors
	envChildPid = "ARENA_TEST_CHILDPID" // file the fork modes write their child's pid to
	envHello    = "ARENA_TEST_HELLO"    // file the random bot writes each hello line to
)

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // the fair-clock tests' confined bots
	if mode := os.Getenv(envBot); mode != "" {
		os.Exit(runBot(mode))
	}
	// Become a child subreaper: a grandchild orphaned by a killed bot is
	// re-parented to this process instead of PID 1, so the process-group
	// test can reap it at once and check it died of SIGKILL. (PID 1 of
	// the development sandbox, process_api, reaps orphans only about every
	// 2s; a container without an init may never reap them.)
	if err := setSubreaper(); err != nil {
		fmt.Fprintln(os.Stderr, "warning: PR_SET_CHILD_SUBREAPER:", err)
	}
	os.Exit(m.Run())
}

func setSubreaper() error {
	const prSetChildSubreaper = 36
	_, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// helperBot is one bot process: it reads protocol lines from stdin and
// answers on stdout, misbehaving as its mode says.
type helperBot struct {
	mode string
	n    int // the mode's parameter (a turn number), 0 if none
	// workTurn is the turn a fair-clock mode works on ("cpu:40:2": the
	// second), from 1.
	workTurn int
	lr       *protocol.LineReader
	rng      *rand.Rand
	turn     int // turns seen in the current game, from 1
	// pending is a turn the bot left unanswered on purpose (mode "late"):
	// it is answered, late, when the next turn arrives.
	pending int64
}

func runBot(mode string) int {
	name, arg, _ := strings.Cut(mode, ":")
	arg, turn, _ := strings.Cut(arg, ":")
	n, _ := strconv.Atoi(arg)
	workTurn, err := strconv.Atoi(turn)
	if err != nil {
		workTurn = 1
	}
	b := &helperBot{mode: name, n: n, workTurn: workTurn, rng: rand.New(rand.NewPCG(1, 2))}
	switch name {
	case "exit-now":
		return 3
	case "no-read":
		// Never reads stdin, never writes.
		time.Sleep(time.Hour)
		return 0
	case "spin":
		spinForever() // load for the fair-clock tests
	case "sleeper":
		// A grandchild started by a fork mode.
		time.Sleep(300 * time.Second)
		return 0
	case "fork-garbage", "fork-exit":
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), envBot+"=sleeper") // same process group, same token
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "fork:", err)
			return 1
		}
		if err := os.WriteFile(os.Getenv(envChildPid), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "fork:", err)
			return 1
		}
	}
	b.lr = protocol.NewLineReader(os.Stdin, protocol.DefaultMaxLine)
	for {
		line, err := b.lr.ReadLine()
		if err != nil {
			return 0
		}
		typ, err := protocol.PeekType(line)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad line from referee:", err)
			return 1
		}
		switch typ {
		case protocol.TypeHello:
			if code, exit := b.hello(line); exit {
				return code
			}
		case protocol.TypeTurn:
			var t protocol.Turn
			if err := json.Unmarshal(line, &t); err != nil {
				fmt.Fprintln(os.Stderr, "bad turn:", err)
				return 1
			}
			b.turn++
			if code, exit := b.act(&t); exit {
				return code
			}
		case protocol.TypeBye:
			return 0
		}
	}
}

func (b *helperBot) send(s string) {
	if _, err := os.Stdout.WriteString(s + "\n"); err != nil {
		os.Exit(4)
	}
}

func hang() { time.Sleep(time.Hour) }

func (b *helperBot) hello(line []byte) (int, bool) {
	var h protocol.Hello
	if err := json.Unmarshal(line, &h); err != nil {
		fmt.Fprintln(os.Stderr, "bad hello:", err)
		return 1, true
	}
	b.turn, b.pending = 0, 0
	b.rng = rand.New(rand.NewPCG(h.Seed, uint64(h.Seat)))
	if f := os.Getenv(envHello); f != "" {
		_ = os.WriteFile(f+"."+strconv.Itoa(h.Seat), line, 0o644)
	}
	switch b.mode {
	case "silent-hello":
		hang()
	case "hello-error":
		b.send(`{"type":"error","message":"unsupported protocol"}`)
		return 0, false
	case "stderr-flood":
		// Enough before ready to pass any cap deterministically, the rest
		// while the game is played.
		chunk := []byte(strings.Repeat("x", 63) + "\n")
		block := make([]byte, 0, 64<<10)
		for len(block) < cap(block) {
			block = append(block, chunk...)
		}
		for range 16 { // 1 MiB
			os.Stderr.Write(block)
		}
		go func() {
			for range 19 * 16 { // 19 MiB more
				os.Stderr.Write(block)
			}
		}()
	}
	b.send(`{"type":"ready","name":"helper-` + b.mode + `"}`)
	return 0, false
}

func (b *helperBot) answer(id int64, legal int) {
	b.send(fmt.Sprintf(`{"type":"action","id":%d,"index":%d}`, id, b.rng.IntN(legal)))
}

// act answers (or fails to answer) one turn.
func (b *helperBot) act(t *protocol.Turn) (int, bool) {
	first := b.turn == 1
	switch b.mode {
	case "cpu", "cpu4", "nap":
		if b.turn == b.workTurn {
			work(b.mode, time.Duration(b.n)*time.Millisecond)
		}
	case "timeout":
		if b.turn == b.n {
			hang()
		}
	case "index9999":
		if first {
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"index":9999}`, t.ID))
			return 0, false
		}
	case "illegal-object":
		if first {
			// Well-formed, but no Banqi move is legal on a full board.
			a := `{"type":"move","from":"a1","to":"a2"}`
			for _, l := range t.Legal {
				if string(l) == a {
					fmt.Fprintln(os.Stderr, "the illegal action is legal?")
					return 1, true
				}
			}
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"action":%s}`, t.ID, a))
			return 0, false
		}
	case "unreadable-object":
		if first {
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"action":{"type":"teleport"}}`, t.ID))
			return 0, false
		}
	case "no-choice":
		if first {
			b.send(fmt.Sprintf(`{"type":"action","id":%d}`, t.ID))
			return 0, false
		}
	case "garbage":
		if first {
			b.send("hello world")
			return 0, false
		}
	case "wrong-id":
		if first {
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"index":0}`, t.ID+1000))
			return 0, false
		}
	case "bad-utf8":
		if first {
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"note":"%s"}`, t.ID, "\xff\xfe\xc3"))
			return 0, false
		}
	case "oversize":
		if first {
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"pad":"%s"}`, t.ID, strings.Repeat("a", 10<<10)))
			return 0, false
		}
	case "nested":
		if first {
			const depth = 100000
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"index":0,"deep":%s%s}`, t.ID,
				strings.Repeat("[", depth), strings.Repeat("]", depth)))
			return 0, false
		}
	case "crash", "fork-exit":
		if b.turn == 3 {
			return 3, true
		}
	case "fork-garbage":
		if first {
			b.send("not json")
			hang()
		}
	case "close-stdout":
		if b.turn == 3 {
			os.Stdout.Close()
			hang()
		}
	case "half-line":
		if first {
			os.Stdout.WriteString(fmt.Sprintf(`{"type":"action","id":%d,"in`, t.ID))
			hang()
		}
	case "duplicate":
		if first {
			b.answer(t.ID, len(t.Legal))
			b.answer(t.ID, len(t.Legal))
			return 0, false
		}
	case "late":
		// Skips every second turn up to turn 2*n, answering it only
		// once the next turn shows the referee has moved on.
		if b.pending != 0 {
			b.send(fmt.Sprintf(`{"type":"action","id":%d,"index":0}`, b.pending))
			b.pending = 0
		}
		if b.turn%2 == 0 && b.turn <= 2*b.n {
			b.pending = t.ID
			return 0, false
		}
	case "stderr-flood":
		fmt.Fprintf(os.Stderr, "turn %d\n", b.turn)
	}
	b.answer(t.ID, len(t.Legal))
	return 0, false
}
