// Package replaytest plays a game the way the arena's referee does and
// records it, for the tests of package replays and of what reads replays
// (the viewer): forfeits and strikes where a test asks for them, the
// referee moving for a forfeited or struck seat, play going on while two
// seats are in, and the result the referee would give.
package replaytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
	"github.com/klauspost/compress/zstd"
)

// BotNames are the seats' bots where Game.Bots names none.
var BotNames = []string{"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy"}

// Game describes a game to play and record.
type Game struct {
	Name    string // a registered game
	Seats   int
	Seed    uint64
	Options map[string]string
	Bots    []string // by seat; BotNames beyond
	// ForfeitAt lists, per ply, the seats that forfeit (a timeout) before
	// that ply's move; the referee moves for them from then on.
	ForfeitAt map[int][]int
	// StrikeAt strikes the seat to move at that ply (an illegal action,
	// under the random policy): the referee moves for it.
	StrikeAt map[int]bool
	// Rand draws the referee's moves, and the bots' when Pick is nil
	// (nil: a PCG seeded by Seed).
	Rand *rand.Rand
	// Pick is a bot's move among legal (nil: drawn from Rand).
	Pick func(ply, seat int, legal []engine.Action) engine.Action
	// Think is a move's think time (nil: 0.5 to 20.5 ms, drawn from Rand).
	Think func(ply int) time.Duration
	// Note is what the bot says with its move, as the referee judged it
	// (nil, or the zero Note: nothing); never asked of a referee move.
	Note func(ply, seat int) protocol.Note
}

// header is the replay header Play records for g: a fixed match, clock
// and start time, so that recordings of one Game are byte for byte alike.
func header(g Game, opts engine.Options) replays.Header {
	h := replays.Header{
		Arena: "v0.0.0-test", Game: g.Name, Options: opts, Seed: g.Seed,
		Match: "m-test", GameID: fmt.Sprintf("g-%d", g.Seed),
		Clock:   protocol.Clock{StartupMs: 2000, MoveMs: 100, MarginMs: 20},
		Started: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
	}
	for i := range g.Seats {
		name := BotNames[i]
		if i < len(g.Bots) {
			name = g.Bots[i]
		}
		h.Seats = append(h.Seats, replays.SeatInfo{Seat: i, Bot: name})
	}
	return h
}

// Play plays g and returns its finished recorder and result (Plies set):
// Outcome().WithForfeits when the game is over, else ForfeitOutcome once
// fewer than two seats are in.
func Play(tb testing.TB, g Game) (*replays.Recorder, replays.Result) {
	tb.Helper()
	eg, opts := testkit.Setup(tb, g.Name, g.Seats, g.Options)
	st, err := eg.New(g.Seats, g.Seed, opts)
	if err != nil {
		tb.Fatal(err)
	}
	rng := g.Rand
	if rng == nil {
		rng = rand.New(rand.NewPCG(g.Seed, 7))
	}
	think := g.Think
	if think == nil {
		think = func(int) time.Duration { return time.Duration(500+rng.IntN(20000)) * time.Microsecond }
	}
	rec := replays.NewRecorder(header(g, opts))
	forfeited := make([]bool, g.Seats)
	in, ply := g.Seats, 0
	for !st.Over() && in >= 2 {
		for _, s := range g.ForfeitAt[ply] {
			if !forfeited[s] {
				forfeited[s] = true
				in--
				rec.Forfeit(protocol.Failure{Ply: ply, Seat: s, Reason: protocol.ReasonTimeout, Detail: "no reply within 100ms"})
			}
		}
		if in < 2 {
			break
		}
		seat := st.ToMove()
		legal := st.Legal()
		var a engine.Action
		byRef := false
		switch {
		case forfeited[seat]:
			a, byRef = legal[rng.IntN(len(legal))], true
		case g.StrikeAt[ply]:
			rec.Strike(protocol.Failure{Ply: ply, Seat: seat, Reason: protocol.ReasonIllegalAction, Detail: "not a legal action"})
			a, byRef = legal[rng.IntN(len(legal))], true
		case g.Pick != nil:
			a = g.Pick(ply, seat, legal)
		default:
			a = legal[rng.IntN(len(legal))]
		}
		raw, err := json.Marshal(a)
		if err != nil {
			tb.Fatal(err)
		}
		if err := st.Apply(a); err != nil {
			tb.Fatal(err)
		}
		var note protocol.Note
		if g.Note != nil && !byRef {
			note = g.Note(ply, seat)
		}
		if note.IsZero() {
			rec.Move(ply, seat, raw, think(ply), 0, byRef)
		} else {
			rec.MoveNote(ply, seat, raw, think(ply), 0, note)
		}
		ply++
	}
	var o engine.Outcome
	if st.Over() {
		o = st.Outcome().WithForfeits(forfeited)
	} else {
		o = engine.ForfeitOutcome(forfeited, "only one seat left")
	}
	res := replays.ResultOf(o)
	rec.Finish(res)
	res.Plies = ply
	return rec, res
}

// ReadBack is rec's replay as read back from its file's bytes, and the
// bytes; a replay that does not read or re-simulate fails tb.
func ReadBack(tb testing.TB, rec *replays.Recorder) (*replays.Replay, []byte) {
	tb.Helper()
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
	return r, data
}

// Lines are the JSON lines of the replay file at path, decompressed by
// a plain zstd decoder, independent of package replays' reader.
func Lines(tb testing.TB, path string) []string {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		tb.Fatal(err)
	}
	defer dec.Close()
	text, err := dec.DecodeAll(data, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
}
