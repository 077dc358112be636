package viewer_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/replaytest"
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
	// forfeitAt lists, per ply, the seats that forfeit before its move.
	forfeitAt map[int][]int
	// note is what a bot says with its move (nil: nothing).
	note func(ply, seat int) protocol.Note
}

var botNames = replaytest.BotNames

// play records g (replaytest.Play, every move drawn from the seed) and
// returns it as read back from the file's bytes.
func play(tb testing.TB, g game) *replays.Replay {
	tb.Helper()
	rec, _ := replaytest.Play(tb, replaytest.Game{Name: g.name, Seats: g.seats, Seed: g.seed, Options: g.options,
		Bots: g.bots, ForfeitAt: g.forfeitAt, StrikeAt: g.strikeAt, Note: g.note})
	r, _ := replaytest.ReadBack(tb, rec)
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
