package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/protocol"
)

// The children of BenchmarkPerMove (ARENA_BENCH_BOT, see TestMain).

// rawEcho is the "raw" child: it answers each read with a short line.
func rawEcho() {
	buf := make([]byte, 4096)
	reply := []byte("y\n")
	for {
		// The os package reads and writes a blocking stdin and stdout
		// with plain syscalls (no poller).
		n, err := os.Stdin.Read(buf)
		if err != nil || n == 0 {
			return
		}
		if _, err := os.Stdout.Write(reply); err != nil {
			return
		}
	}
}

// minimalBot is the "minimal" child: the least a bot can do. It answers
// hello, and each turn with a random index into its legal list, which it
// counts without decoding the view; it ignores end and leaves at bye.
func minimalBot() {
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriter(os.Stdout)
	rng := rand.New(rand.NewPCG(1, 2))
	var reply []byte
	for {
		line, err := in.ReadSlice('\n')
		if err != nil {
			return
		}
		switch {
		case bytes.HasPrefix(line, []byte(`{"type":"turn","id":`)):
			id, _, _ := protocol.CutInt(line[len(`{"type":"turn","id":`):])
			reply = protocol.AppendIndexAction(reply[:0], id, rng.IntN(countLegal(line)))
			out.Write(reply)
		case bytes.HasPrefix(line, []byte(`{"type":"hello"`)):
			out.WriteString(`{"type":"ready"}` + "\n")
		case bytes.HasPrefix(line, []byte(`{"type":"bye"`)):
			out.Flush()
			return
		default:
			continue // end, and anything else
		}
		out.Flush()
	}
}

// countLegal counts the entries of a turn line's legal array, the last
// array before "clock", by its commas outside strings and nesting.
func countLegal(line []byte) int {
	start := bytes.LastIndex(line, []byte(`,"legal":[`)) + len(`,"legal":[`)
	depth, n, inString, escaped := 0, 1, false, false
	for _, c := range line[start:] {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
		case c == '}':
			depth--
		case c == ']':
			if depth == 0 {
				return n
			}
			depth--
		case c == ',' && depth == 0:
			n++
		}
	}
	return n
}

// echoReply is the nats-echo child's answer: an action line of the
// minimal bot's size.
var echoReply = []byte(`{"type":"action","id":1,"index":0}`)

// natsEcho is the "nats-echo" child: it answers every request on
// ARENA_BENCH_SUBJECT of the server at ARENA_BENCH_NATS with echoReply,
// from its message callback, and says "subscribed" once it is.
func natsEcho() {
	nc, err := nats.Connect(os.Getenv("ARENA_BENCH_NATS"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if _, err := nc.Subscribe(os.Getenv("ARENA_BENCH_SUBJECT"), func(m *nats.Msg) { m.Respond(echoReply) }); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := nc.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println("subscribed")
	select {} // until killed
}
