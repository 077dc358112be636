package matchmaking_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/internal/testkit"
)

func newMM(t testing.TB, p matchmaking.Params, seed uint64) *matchmaking.Matchmaker {
	t.Helper()
	mm, err := matchmaking.New(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	return mm
}

func seats(min, max int) matchmaking.Seats { return matchmaking.Seats{Min: min, Max: max} }

// spread returns n log-worths evenly spaced over [0, 3].
func spread(n int) []float64 {
	f := make([]float64, n)
	for i := range f {
		f[i] = 3 * float64(i) / float64(n-1)
	}
	return f
}

func TestNewRejects(t *testing.T) {
	for _, p := range []matchmaking.Params{
		{},
		{Seats: seats(1, 2)},
		{Seats: seats(4, 3)},
		{Seats: seats(2, 2), MaxGap: -1},
		{Seats: seats(2, 2), PlacementSigma: -1},
		{Seats: seats(2, 2), Beta: -1},
	} {
		if _, err := matchmaking.New(p, 1); !errors.Is(err, matchmaking.ErrParams) {
			t.Errorf("New(%+v) = %v, want ErrParams", p, err)
		}
	}
}

// (a) A newcomer joining a placed field is in every table until its
// Sigma falls to the placement bound (but those the due bots fill), and
// then leaves the spotlight.
func TestNewcomerPlaced(t *testing.T) {
	for _, k := range []int{2, 4} {
		t.Run(fmt.Sprintf("seats=%d", k), func(t *testing.T) {
			truth := append(spread(16), 1.5)
			s := newSim(truth[:16], 7, matchmaking.DefaultPlacementSigma)
			mm := newMM(t, matchmaking.Params{Seats: seats(k, k)}, 7)
			for s.games < 2000 {
				s.step(t, mm)
			}
			s.truth = truth
			s.join(16)
			placement := 0
			for s.bots[16].Skill.Sigma > matchmaking.DefaultPlacementSigma {
				tab, ok := s.step(t, mm)
				if !ok || !slices.Contains(tab.Bots, 16) && tab.Due < len(tab.Bots) {
					t.Fatalf("table %d %v (%v) without the newcomer (sigma %.2f)", tab.Seq, tab.Bots, tab.Reason, s.bots[16].Skill.Sigma)
				}
				if tab.Reason == matchmaking.Placement {
					placement++
				}
				if placement > 100 {
					t.Fatal("never placed")
				}
			}
			if placement == 0 {
				t.Fatal("no table gave Placement as its reason")
			}
			t.Logf("placed after %d games (%d placement tables)", s.bots[16].Games, placement)
			// Placed: it no longer plays every table.
			in := 0
			for range 50 {
				if tab, _ := s.step(t, mm); slices.Contains(tab.Bots, 16) {
					in++
				}
			}
			if in == 50 {
				t.Error("still in every table once placed")
			}
		})
	}
}

// (c) No bot that stays available waits more than G tables, whatever
// its rating: fields that all join at once, G at its least, bots coming
// and going, table ranges.
func TestNoStarvation(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		seats matchmaking.Seats
		gap   int // 0: the default
		flaky bool
	}{
		{"2-seat default G", 20, seats(2, 2), 0, false},
		{"2-seat tight G", 20, seats(2, 2), 10, false},
		{"2-seat large field", 200, seats(2, 2), 150, false},
		{"4-seat", 30, seats(4, 4), 12, false},
		{"3-5 range", 25, seats(3, 5), 8, false},
		{"2-10 range flaky", 40, seats(2, 10), 0, true},
		{"2-seat flaky", 20, seats(2, 2), 15, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSim(spread(c.n), 3, matchmaking.DefaultPlacementSigma)
			mm := newMM(t, matchmaking.Params{Seats: c.seats, MaxGap: c.gap}, 3)
			g := c.gap
			if g == 0 {
				g = 3 * ((c.n + c.seats.Max - 1) / c.seats.Max)
			}
			for range testkit.Pick(1500, 20000) {
				if c.flaky {
					// A few bots drop out and come back.
					for i := range s.bots {
						if s.rng.IntN(50) == 0 {
							s.bots[i].Available = !s.bots[i].Available
						}
					}
				}
				s.step(t, mm)
			}
			if s.maxGap > int64(g) {
				t.Errorf("a bot available throughout waited %d tables, bound %d", s.maxGap, g)
			}
			t.Logf("largest gap %d (bound %d)", s.maxGap, g)
		})
	}
}

// (d) Over a long run every bot has played every seat equally often,
// within one; with units cut to their first game (no rotation to help)
// the first seat order alone keeps the spread small.
func TestSeatBalance(t *testing.T) {
	for _, c := range []struct {
		k         int
		cut       bool
		maxSpread int
	}{
		{2, false, 1}, {4, false, 1}, {5, false, 1},
		{2, true, 2}, {4, true, 2},
	} {
		t.Run(fmt.Sprintf("seats=%d/cut=%v", c.k, c.cut), func(t *testing.T) {
			s := newSim(spread(13), 5, matchmaking.DefaultPlacementSigma)
			s.cut = c.cut
			mm := newMM(t, matchmaking.Params{Seats: seats(c.k, c.k)}, 5)
			for range testkit.Pick(2000, 20000) {
				s.step(t, mm)
			}
			if got := s.seatSpread(c.k); got > c.maxSpread {
				t.Errorf("seat spread %d, want <= %d", got, c.maxSpread)
			}
		})
	}
}

// (f) Bots that are unavailable or at capacity are never chosen, and
// with fewer than the smallest table free there is no table.
func TestSkipsUnfree(t *testing.T) {
	bot := func(id int, avail bool, inPlay, capacity int) matchmaking.Bot {
		return matchmaking.Bot{ID: id, Skill: stats.DefaultSkill(), Available: avail, InPlay: inPlay, Capacity: capacity}
	}
	for _, c := range []struct {
		name  string
		seats matchmaking.Seats
		bots  []matchmaking.Bot
		want  []int // the free bots: the table's must be among them; nil: no table
	}{
		{"unavailable", seats(2, 2), []matchmaking.Bot{bot(0, false, 0, 0), bot(1, true, 0, 0), bot(2, true, 0, 0)}, []int{1, 2}},
		{"busy", seats(2, 2), []matchmaking.Bot{bot(0, true, 1, 0), bot(1, true, 0, 0), bot(2, true, 0, 0)}, []int{1, 2}},
		{"capacity left", seats(2, 2), []matchmaking.Bot{bot(0, true, 1, 2), bot(1, true, 2, 2)}, nil},
		{"capacity 2", seats(2, 2), []matchmaking.Bot{bot(0, true, 1, 2), bot(1, true, 2, 2), bot(2, true, 0, 1)}, []int{0, 2}},
		{"too few", seats(3, 5), []matchmaking.Bot{bot(0, true, 0, 0), bot(1, true, 0, 0), bot(2, false, 0, 0)}, nil},
		{"none", seats(2, 2), nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			mm := newMM(t, matchmaking.Params{Seats: c.seats}, 1)
			for seq := int64(1); seq < 50; seq++ {
				tab, ok := mm.Next(seq, c.bots)
				if ok != (c.want != nil) {
					t.Fatalf("table %d: ok %v, want %v", seq, ok, c.want != nil)
				}
				for _, id := range tab.Bots {
					if !slices.Contains(c.want, id) {
						t.Fatalf("table %d %v: bot %d is not free", seq, tab.Bots, id)
					}
				}
			}
		})
	}
	// And in a long run where a third of the field is busy or away.
	s := newSim(spread(30), 9, matchmaking.DefaultPlacementSigma)
	mm := newMM(t, matchmaking.Params{Seats: seats(2, 4)}, 9)
	for range 2000 {
		for i := range s.bots {
			s.bots[i].Available = s.rng.IntN(6) != 0
			s.bots[i].InPlay = s.rng.IntN(6) / 5
		}
		s.step(t, mm) // fails the test if a chosen bot is not free
	}
}

// (e) Tables take every size of the range and no other, for 2-seat,
// k-seat and ranged games.
func TestTableSizes(t *testing.T) {
	for _, r := range []matchmaking.Seats{seats(2, 2), seats(4, 4), seats(3, 5), seats(2, 10)} {
		t.Run(fmt.Sprintf("%d-%d", r.Min, r.Max), func(t *testing.T) {
			s := newSim(spread(24), 11, matchmaking.DefaultPlacementSigma)
			mm := newMM(t, matchmaking.Params{Seats: r}, 11)
			sizes := map[int]int{}
			for range 1000 {
				tab, ok := s.step(t, mm)
				if !ok {
					t.Fatal("no table")
				}
				sizes[len(tab.Bots)]++
				if ids := slices.Clone(tab.Bots); len(slices.Compact(slices.Sorted(slices.Values(ids)))) != len(ids) {
					t.Fatalf("a bot seated twice: %v", tab.Bots)
				}
			}
			for k := range sizes {
				if k < r.Min || k > r.Max {
					t.Errorf("a table of %d seats, range %d-%d", k, r.Min, r.Max)
				}
			}
			for k := r.Min; k <= r.Max; k++ {
				if sizes[k] == 0 {
					t.Errorf("no table of %d seats in 1000", k)
				}
			}
		})
	}
}

// The same seed, sequence numbers and bots give the same tables; another
// seed gives others.
func TestDeterministic(t *testing.T) {
	run := func(seed uint64) [][]int {
		s := newSim(spread(40), 1, matchmaking.DefaultPlacementSigma)
		mm := newMM(t, matchmaking.Params{Seats: seats(2, 6)}, seed)
		var tabs [][]int
		for range 500 {
			tab, _ := s.step(t, mm)
			tabs = append(tabs, tab.Bots)
		}
		return tabs
	}
	a, b, c := run(1), run(1), run(2)
	for i := range a {
		if !slices.Equal(a[i], b[i]) {
			t.Fatalf("table %d: %v then %v from the same seed", i+1, a[i], b[i])
		}
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Error("seeds 1 and 2 chose the same 500 tables")
	}
	// A choice needs no state from the previous ones: a fresh
	// Matchmaker (a resumed ladder) chooses the same table.
	s := newSim(spread(40), 1, matchmaking.DefaultPlacementSigma)
	mm := newMM(t, matchmaking.Params{Seats: seats(2, 6)}, 1)
	for range 100 {
		s.step(t, mm)
	}
	x, _ := mm.Next(s.seq, s.bots)
	y, _ := newMM(t, matchmaking.Params{Seats: seats(2, 6)}, 1).Next(s.seq, s.bots)
	if !slices.Equal(x.Bots, y.Bots) {
		t.Errorf("resumed: %v, live: %v", y.Bots, x.Bots)
	}
}

// The matchmaking reaches the true order in fewer games than a round
// robin, for 2- and 4-seat tables (BenchmarkConvergence reports the
// figures; the long form takes more runs).
func TestConvergence(t *testing.T) {
	runs := testkit.Pick(5, 31)
	for _, c := range []struct {
		k        int
		maxRatio float64
	}{{2, 0.6}, {4, 0.8}} {
		t.Run(fmt.Sprintf("seats=%d", c.k), func(t *testing.T) {
			conv := convergenceRuns(t, c.k, 3, runs, 3000)
			mm, rr := conv.mm, conv.rr
			t.Logf("games to Spearman 0.9: matchmaking %d, round robin %d (%.2f)", mm, rr, float64(mm)/float64(rr))
			if float64(mm) > c.maxRatio*float64(rr) {
				t.Errorf("matchmaking %d games, round robin %d: ratio above %.1f", mm, rr, c.maxRatio)
			}
		})
	}
}
