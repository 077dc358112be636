package referee_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/membot"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// spyConn copies every line the referee sends a bot.
type spyConn struct {
	transport.Conn
	mu   sync.Mutex
	sent [][]byte
}

func (c *spyConn) Send(line []byte, deadline time.Time) error {
	c.mu.Lock()
	c.sent = append(c.sent, bytes.Clone(line))
	c.mu.Unlock()
	return c.Conn.Send(line, deadline)
}

// noting answers as membot.Random does, with note(turn) as its note (raw
// JSON, spliced in as it is).
func noting(note func(t *protocol.Turn) string) memBot {
	return func(t *protocol.Turn, rng *rand.Rand) []byte {
		return fmt.Appendf(nil, `{"type":"action","id":%d,"index":%d,"note":%s}`, t.ID, rng.IntN(len(t.Legal)), note(t))
	}
}

// Bots' notes, honest and hostile, in a 4-seat Uno game: kept or dropped
// as docs/protocol.md says, the move counting either way (no strike, no
// forfeit), recorded with the move, and never sent to any bot.
func TestNotes(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", protocol.MaxNote)
	bots := []memBot{
		noting(func(t *protocol.Turn) string {
			return fmt.Sprintf(`"SECRET-zero-%d \u001b[2J <script>alert(1)</script>"`, t.ID)
		}),
		noting(func(t *protocol.Turn) string { return `{"SECRET":"one","depth":3}` }),
		noting(func(t *protocol.Turn) string { return `"SECRET-two` + huge + `"` }), // over the bound
		// A note that tries to be an action: the reply's own index counts.
		func(t *protocol.Turn, _ *rand.Rand) []byte {
			return fmt.Appendf(nil, `{"type":"action","id":%d,"index":0,"note":{"type":"action","id":%d,"index":%d,"SECRET":3}}`, t.ID, t.ID, len(t.Legal)+5)
		},
	}
	conns := make([]transport.Conn, len(bots))
	spies := make([]*spyConn, len(bots))
	for i, b := range bots {
		spies[i] = &spyConn{Conn: startMemBot(t, b)}
		conns[i] = spies[i]
	}
	res, rp := playConns(t, "uno", map[string]string{"target": "0", "voluntary_draw": "false"}, 3, relaxed, conns)
	if len(res.Forfeits)+len(res.Strikes) != 0 {
		t.Fatalf("a note cost a move: forfeits %+v strikes %+v", res.Forfeits, res.Strikes)
	}
	seen := make([]int, len(bots))
	for _, m := range moves(rp) {
		seen[m.Seat]++
		switch m.Seat {
		case 0:
			var s string
			if err := json.Unmarshal(m.Note, &s); err != nil || !strings.HasPrefix(s, "SECRET-zero-") || !strings.Contains(s, "\x1b[2J <script>") || m.NoteDropped != "" {
				t.Errorf("seat 0's note %s (%q)", m.Note, m.NoteDropped)
			}
		case 1:
			if string(m.Note) != `{"SECRET":"one","depth":3}` {
				t.Errorf("seat 1's note %s", m.Note)
			}
		case 2:
			if len(m.Note) != 0 || !strings.HasPrefix(m.NoteDropped, "note is over the bound: 1036 bytes of JSON, at most 1024") {
				t.Errorf("seat 2's huge note: %s, dropped %q", m.Note, m.NoteDropped)
			}
		case 3:
			if !strings.Contains(string(m.Note), `"SECRET":3`) {
				t.Errorf("seat 3's note %s", m.Note)
			}
		}
	}
	for s, n := range seen {
		if n == 0 {
			t.Errorf("seat %d never moved: the test shows nothing of its notes", s)
		}
	}
	for s, spy := range spies {
		for _, line := range spy.sent {
			if bytes.Contains(line, []byte("SECRET")) {
				t.Errorf("seat %d was sent a note: %s", s, line)
			}
		}
	}
}

// A note counts in the reply's line limit: a line it makes too long is a
// line too long, as any other (bad_message, a forfeit).
func TestNoteCountsInTheLineLimit(t *testing.T) {
	t.Parallel()
	const maxLine = 4096
	long := noting(func(*protocol.Turn) string { return `"` + strings.Repeat("y", maxLine) + `"` })
	conns := []transport.Conn{startMemBot(t, randomMove), membot.Start(long, nil, maxLine)}
	t.Cleanup(func() { conns[1].Close() })
	res, _ := playConns(t, "banqi", nil, 7, relaxed, conns)
	if len(res.Forfeits) != 1 || res.Forfeits[0].Seat != 1 || res.Forfeits[0].Reason != protocol.ReasonBadMessage {
		t.Fatalf("forfeits %+v, want seat 1's bad_message", res.Forfeits)
	}
}

// A note is never a choice: a reply whose only action is in its note has
// neither "action" nor "index", a bad_message.
func TestNoteIsNoChoice(t *testing.T) {
	t.Parallel()
	bot := func(t *protocol.Turn, _ *rand.Rand) []byte {
		return fmt.Appendf(nil, `{"type":"action","id":%d,"note":{"type":"action","id":%d,"index":0}}`, t.ID, t.ID)
	}
	res, _ := playMem(t, "banqi", nil, 7, relaxed, []memBot{randomMove, bot})
	if len(res.Forfeits) != 1 || res.Forfeits[0].Seat != 1 || res.Forfeits[0].Reason != protocol.ReasonBadMessage ||
		res.Forfeits[0].Detail != `action message has neither "action" nor "index"` {
		t.Fatalf("forfeits %+v, want seat 1's bad_message for no choice", res.Forfeits)
	}
}
