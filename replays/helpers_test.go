package replays_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
	"github.com/klauspost/compress/zstd"
)

// script describes a game for the test referee.
type script struct {
	game    string // default "testnim"
	seats   int    // default 2
	seed    uint64
	options map[string]string
	// forfeitAt lists, per ply, seats that forfeit before that ply's move.
	forfeitAt map[int][]int
	// strikeAt makes the seat to move fail at that ply (random policy):
	// a strike, then a referee move.
	strikeAt map[int]bool
}

var botNames = []string{"alice", "bob", "carol", "dave"}

// play runs a game the way the referee does and records it: it keeps
// playing while at least two seats are in, the referee moves for
// forfeited seats, and the result is Outcome().WithForfeits when the game
// is over, else ForfeitOutcome.
func play(t testing.TB, sc script) (*replays.Recorder, replays.Result) {
	t.Helper()
	if sc.game == "" {
		sc.game = "testnim"
	}
	if sc.seats == 0 {
		sc.seats = 2
	}
	g, opts := testkit.Setup(t, sc.game, sc.seats, sc.options)
	st, err := g.New(sc.seats, sc.seed, opts)
	if err != nil {
		t.Fatal(err)
	}
	h := replays.Header{
		Arena:   "v0.0.0-test",
		Game:    sc.game,
		Options: opts,
		Seed:    sc.seed,
		Match:   "m-test",
		GameID:  fmt.Sprintf("g-%d", sc.seed),
		Clock:   protocol.Clock{StartupMs: 2000, MoveMs: 100, MarginMs: 20},
		Started: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
	}
	for i := range sc.seats {
		h.Seats = append(h.Seats, replays.SeatInfo{Seat: i, Bot: botNames[i]})
	}
	rec := replays.NewRecorder(h)
	refRNG := rand.New(rand.NewPCG(sc.seed, 99))
	forfeited := make([]bool, sc.seats)
	in := sc.seats
	ply := 0
	for !st.Over() && in >= 2 {
		for _, s := range sc.forfeitAt[ply] {
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
			a, byRef = legal[refRNG.IntN(len(legal))], true
		case sc.strikeAt[ply]:
			rec.Strike(protocol.Failure{Ply: ply, Seat: seat, Reason: protocol.ReasonIllegalAction, Detail: "not a legal action"})
			a, byRef = legal[refRNG.IntN(len(legal))], true
		default:
			a = legal[(ply*7+seat*3)%len(legal)]
		}
		raw, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Apply(a); err != nil {
			t.Fatal(err)
		}
		rec.Move(ply, seat, raw, time.Duration(1000+ply*37)*time.Microsecond, 0, byRef)
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

// record plays sc and writes it to a file in dir, returning the path.
func record(t testing.TB, dir string, sc script) string {
	t.Helper()
	rec, _ := play(t, sc)
	path := filepath.Join(dir, fmt.Sprintf("game-%d%s", sc.seed, replays.Ext))
	if err := rec.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// decompress returns the JSON lines of a replay file.
func decompress(t testing.TB, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	text, err := dec.DecodeAll(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
}

// testEncoder is a plain zstd encoder, independent of the package's.
var testEncoder = sync.OnceValue(func() *zstd.Encoder {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err)
	}
	return enc
})

// compress turns text into a zstd stream.
func compress(t testing.TB, text string) []byte {
	t.Helper()
	return testEncoder().EncodeAll([]byte(text), nil)
}

// joinLines is the file text of lines.
func joinLines(lines []string) string { return strings.Join(lines, "\n") + "\n" }

// editJSON decodes line, lets f change it, and re-encodes it.
func editJSON(t testing.TB, line string, f func(m map[string]any)) string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader([]byte(line)))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("editJSON %s: %v", line, err)
	}
	f(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
