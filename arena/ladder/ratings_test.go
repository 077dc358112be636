package ladder

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/protocol"
)

// games are random records of 2 to 4 of six versions, with ties and
// forfeits (the forfeiting seat ranked last, as the ledger has it).
func games(n int) []ledger.Record {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a.v1", "b.v1", "b.v2", "c.v1", "d.v1", "e.v3"}
	var out []ledger.Record
	for i := range n {
		k := 2 + rng.IntN(3)
		perm := rng.Perm(len(names))[:k]
		rec := ledger.Record{Index: i, GameID: "g", Reason: "end"}
		for _, p := range perm {
			rec.Bots = append(rec.Bots, names[p])
			rec.Ranks = append(rec.Ranks, 1+rng.IntN(k)) // ties when two draw the same
			rec.Scores = append(rec.Scores, 0)
		}
		if i%5 == 0 { // seat 0 forfeits: last, alone
			for s := range rec.Ranks {
				rec.Ranks[s] = 1
			}
			rec.Ranks[0] = 2
			rec.Forfeits = []ledger.SeatFailure{ledger.FailureOf(protocol.Failure{Seat: 0, Reason: protocol.Reason("timeout")}, rec.Bots[0])}
		}
		out = append(out, rec)
	}
	return out
}

// TestIncrementalEqualsFold: the ratings a live ladder keeps game by game,
// as it appends each game to the ledger, equal (==, to the last bit) a
// fold of the ledger read back after any number of games, and a resumed
// ladder (a fold of the first games, then live again) keeps equal too.
func TestIncrementalEqualsFold(t *testing.T) {
	p, init := stats.Params{Beta: 25.0 / 6, Kappa: 0.0001, Tau: 0.1}, stats.DefaultSkill()
	path := filepath.Join(t.TempDir(), ledger.FileName)
	w, err := ledger.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	live := NewRatings(p, init)
	recs := games(300)
	for n, rec := range recs {
		if err := w.Append(rec); err != nil {
			t.Fatal(err)
		}
		if !live.Add(rec) {
			t.Fatalf("game %d not rated", n)
		}
		if n%37 != 0 && n != len(recs)-1 {
			continue
		}
		read, _, err := ledger.Read[ledger.Record](path)
		if err != nil {
			t.Fatal(err)
		}
		folded := Fold(p, init, read)
		if !folded.Equal(live) {
			t.Fatalf("after %d games the fold of the ledger differs from the live ratings", n+1)
		}
		for _, name := range live.Names() {
			if a, b := live.Get(name), folded.Get(name); a != b {
				t.Fatalf("%s: live %+v, folded %+v", name, a, b)
			}
		}
	}
	// Resumed after 150 games.
	resumed := Fold(p, init, recs[:150])
	for _, rec := range recs[150:] {
		resumed.Add(rec)
	}
	if !resumed.Equal(live) {
		t.Error("a resumed ladder's ratings differ from the live ones")
	}
}

func TestRatingsAdd(t *testing.T) {
	r := NewRatings(stats.DefaultParams(), stats.DefaultSkill())
	if r.Add(ledger.Record{Bots: []string{"a.v1"}, Ranks: []int{1}}) || r.Add(ledger.Record{Bots: []string{"a.v1", "b.v1"}, Ranks: []int{1}}) {
		t.Error("a game of one bot, or with ranks missing, was rated")
	}
	r.Add(ledger.Record{Bots: []string{"a.v1", "b.v1"}, Ranks: []int{1, 2}})
	a, b := r.Get("a.v1"), r.Get("b.v1")
	if a.Games != 1 || a.Mu <= b.Mu || a.Display() != a.Mu-3*a.Sigma {
		t.Errorf("a %+v b %+v", a, b)
	}
	if lo, hi := a.Interval(); lo != a.Mu-3*a.Sigma || hi != a.Mu+3*a.Sigma {
		t.Errorf("interval %g %g", lo, hi)
	}
	if n := r.Get("new.v1"); n.Skill != stats.DefaultSkill() || n.Games != 0 {
		t.Errorf("an unrated version %+v", n)
	}
	// A tie moves equal ratings alike.
	r.Add(ledger.Record{Bots: []string{"c.v1", "d.v1"}, Ranks: []int{1, 1}})
	if c, d := r.Get("c.v1"), r.Get("d.v1"); c != d {
		t.Errorf("tie: %+v %+v", c, d)
	}
}
