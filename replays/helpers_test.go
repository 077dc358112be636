package replays_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/replaytest"
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

// play runs a game the way the referee does and records it
// (replaytest.Play): the bots' moves a fixed function of the ply and
// seat, the referee's drawn from the seed.
func play(t testing.TB, sc script) (*replays.Recorder, replays.Result) {
	t.Helper()
	if sc.game == "" {
		sc.game = "testnim"
	}
	if sc.seats == 0 {
		sc.seats = 2
	}
	return replaytest.Play(t, replaytest.Game{
		Name: sc.game, Seats: sc.seats, Seed: sc.seed, Options: sc.options,
		ForfeitAt: sc.forfeitAt, StrikeAt: sc.strikeAt,
		Rand:  rand.New(rand.NewPCG(sc.seed, 99)),
		Pick:  func(ply, seat int, legal []engine.Action) engine.Action { return legal[(ply*7+seat*3)%len(legal)] },
		Think: func(ply int) time.Duration { return time.Duration(1000+ply*37) * time.Microsecond },
	})
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
	return replaytest.Lines(t, path)
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
