package bench

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"

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
