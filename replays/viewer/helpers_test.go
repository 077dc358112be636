package viewer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

// game describes a game for the test referee, which plays random legal
// moves (from the seed) the way the arena's referee records them.
type game struct {
	name    string
	seats   int
	seed    uint64
	options map[string]string
	bots    []string // default alice, bob, ...
	// strikeAt strikes the seat to move at that ply (the referee moves).
	strikeAt map[int]bool
	// forfeitAt makes a seat forfeit before that ply's move.
	forfeitAt map[int]int
}

var botNames = []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"}

// play records g and returns it as read back from the file's bytes.
func play(tb testing.TB, g game) *replays.Replay {
	tb.Helper()
	eg, opts := testkit.Setup(tb, g.name, g.seats, g.options)
	st, err := eg.New(g.seats, g.seed, opts)
	if err != nil {
		tb.Fatal(err)
	}
	h := replays.Header{
		Arena: "v0.0.0-test", Game: g.name, Options: opts, Seed: g.seed,
		Match: "m-test", GameID: fmt.Sprintf("g-%d", g.seed),
		Clock:   protocol.Clock{StartupMs: 2000, MoveMs: 100, MarginMs: 20},
		Started: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
	}
	for i := range g.seats {
		name := botNames[i]
		if i < len(g.bots) {
			name = g.bots[i]
		}
		h.Seats = append(h.Seats, replays.SeatInfo{Seat: i, Bot: name})
	}
	rec := replays.NewRecorder(h)
	rng := rand.New(rand.NewPCG(g.seed, 7))
	forfeited := make([]bool, g.seats)
	in := g.seats
	ply := 0
	for !st.Over() && in >= 2 {
		if s, ok := g.forfeitAt[ply]; ok && !forfeited[s] {
			forfeited[s] = true
			in--
			rec.Forfeit(protocol.Failure{Ply: ply, Seat: s, Reason: protocol.ReasonTimeout, Detail: "no reply within 100ms"})
			if in < 2 {
				break
			}
		}
		seat := st.ToMove()
		legal := st.Legal()
		a := legal[rng.IntN(len(legal))]
		byRef := forfeited[seat]
		if g.strikeAt[ply] && !byRef {
			rec.Strike(protocol.Failure{Ply: ply, Seat: seat, Reason: protocol.ReasonIllegalAction, Detail: "not a legal action"})
			byRef = true
		}
		raw, err := json.Marshal(a)
		if err != nil {
			tb.Fatal(err)
		}
		if err := st.Apply(a); err != nil {
			tb.Fatal(err)
		}
		rec.Move(ply, seat, raw, time.Duration(500+rng.IntN(20000))*time.Microsecond, 0, byRef)
		ply++
	}
	if st.Over() {
		rec.Finish(replays.ResultOf(st.Outcome().WithForfeits(forfeited)))
	} else {
		rec.Finish(replays.ResultOf(engine.ForfeitOutcome(forfeited, "only one seat left")))
	}
	data, err := rec.Compressed()
	if err != nil {
		tb.Fatal(err)
	}
	r, err := replays.Read(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	if err := replays.Verify(r); err != nil {
		tb.Fatal(err)
	}
	return r
}

// page writes r's viewer page into dir and returns its path.
func page(tb testing.TB, dir, name string, r *replays.Replay, opts viewer.Options) string {
	tb.Helper()
	var buf bytes.Buffer
	if err := viewer.WriteHTML(&buf, r, opts); err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, name)
	writeFile(tb, path, buf.Bytes())
	return path
}

// dataOf is the page's embedded JSON data.
func dataOf(tb testing.TB, html []byte) []byte {
	tb.Helper()
	const open = `<script type="application/json" id="replay-data">`
	s := string(html)
	i := strings.Index(s, open)
	if i < 0 {
		tb.Fatal("no data element in the page")
	}
	s = s[i+len(open):]
	j := strings.Index(s, "</script>")
	if j < 0 {
		tb.Fatal("data element not closed")
	}
	return []byte(s[:j])
}

// position is what the engine shows at one position of a replay (the
// start, then after each move): the public view and every seat's, as
// decoded JSON.
type position struct {
	pub   map[string]any
	seats []map[string]any
}

// positions re-simulates r and returns every position, independently of
// the package's own collection.
func positions(tb testing.TB, r *replays.Replay) []position {
	tb.Helper()
	var out []position
	decode := func(v any) map[string]any {
		b, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			tb.Fatal(err)
		}
		return m
	}
	err := replays.Walk(r, func(st replays.Step) error {
		if st.Event >= 0 && r.Events[st.Event].Move == nil {
			return nil
		}
		p := position{pub: decode(st.State.View(engine.Spectator))}
		for s := range r.Header.Seats {
			p.seats = append(p.seats, decode(st.State.View(s)))
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// jsonOf is v's compact JSON, as a page's data holds it.
func jsonOf(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func writeBytes(path string, data []byte) error { return os.WriteFile(path, data, 0o644) }
