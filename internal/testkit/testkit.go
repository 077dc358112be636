// Package testkit holds small helpers that tests in several of the
// arena's packages need alike, so that each is written (and fixed) once.
package testkit

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// SyncBuffer is a bytes.Buffer safe for concurrent use: a warning or log
// sink written by the code's goroutines while the test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Setup looks up the registered game by name and sets up its options for
// seats seats (engine.Setup), failing the test on any error: the first
// step of every test that plays a game by name.
func Setup(t testing.TB, game string, seats int, options map[string]string) (engine.Game, engine.Options) {
	t.Helper()
	g, err := engine.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	opts, err := engine.Setup(g, seats, options)
	if err != nil {
		t.Fatal(err)
	}
	return g, opts
}

// BanqiTurns are count real Banqi turn lines from the middle of games
// (seeded, moves chosen by the seed), so that a benchmark's baseline
// moves the bytes the referee does.
func BanqiTurns(tb testing.TB, count int) [][]byte {
	return Turns(tb, "banqi", 2, nil, 11, count)
}

// Turns is like BanqiTurns for any game, seat count and options: count
// turn lines, of plies from on in each game.
func Turns(tb testing.TB, game string, seats int, options map[string]string, from, count int) [][]byte {
	g, err := engine.Lookup(game)
	if err != nil {
		tb.Fatal(err)
	}
	opts, err := engine.Setup(g, seats, options)
	if err != nil {
		tb.Fatal(err)
	}
	var lines [][]byte
	for seed := uint64(1); len(lines) < count; seed++ {
		st, _ := g.New(seats, seed, opts)
		for ply := 0; !st.Over() && len(lines) < count; ply++ {
			legal := st.Legal()
			lj := make([]json.RawMessage, len(legal))
			for i, a := range legal {
				lj[i], _ = json.Marshal(a)
			}
			view, _ := json.Marshal(st.View(st.ToMove()))
			line, _ := json.Marshal(protocol.Turn{Type: protocol.TypeTurn, ID: int64(len(lines) + 1), View: view, Legal: lj, Clock: protocol.TurnClock{MoveMs: 1000}})
			if ply >= from {
				lines = append(lines, line)
			}
			st.Apply(legal[int(seed+uint64(ply))%len(legal)])
		}
	}
	return lines
}
