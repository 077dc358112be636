package boon

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

func randomRules(rng *rand.Rand) Rules {
	r := DefaultRules()
	r.MustTrump = rng.IntN(2) == 0
	r.NoPick = NoPick(rng.IntN(2))
	r.LeastTie = LeastTie(rng.IntN(3))
	r.NegativeVC = rng.IntN(2) == 0
	r.FinalPlayOn = rng.IntN(2) == 0
	r.Tiers = Tiers(rng.IntN(2))
	return r
}

// checkInvariants: every card of the deck is in exactly one place, the
// points of all places total 120, and victory cards are conserved.
func checkInvariants(t *testing.T, s *State) {
	t.Helper()
	var hands Set
	hp := 0
	for i := range s.n {
		if hands&s.hands[i] != 0 {
			t.Fatal("a card in two hands")
		}
		hands |= s.hands[i]
		hp += s.hands[i].Points()
	}
	var cur Set
	for _, c := range s.cur.cards[:s.cur.n] {
		cur |= SetOf(c)
	}
	if cur&^s.played != 0 {
		t.Fatal("current trick card not marked played")
	}
	places := []Set{hands, s.played, s.buried}
	if s.mode != ModePicker {
		places = append(places, s.boon)
	} else if s.boon&^(s.hands[s.picker]|s.buried|s.played) != 0 {
		t.Fatal("a Boon card left the picker")
	}
	var all Set
	pts := 0
	for _, p := range places {
		if all&p != 0 && !s.over {
			t.Fatalf("card in two places: %v", all&p)
		}
		all |= p
		pts += p.Points()
	}
	if !s.over && (all != s.deck || pts != TotalPoints) {
		t.Fatalf("cards %v (%d points), want the deck", all, pts)
	}
	// Trick points so far + points still out = 120.
	tp := 0
	for i := range s.n {
		tp += s.points[i]
	}
	out := hp + s.cur.points() + s.buried.Points()
	if s.mode != ModePicker {
		out += s.boon.Points()
	}
	if !s.over && tp+out != TotalPoints {
		t.Fatalf("trick points %d + outstanding %d != 120", tp, out)
	}
	sum := 0
	for i := range s.n {
		sum += s.vc[i]
		if s.vc[i] < 0 && !s.rules.NegativeVC {
			t.Fatalf("negative VC %v with short_pay=cap", s.vc[:s.n])
		}
	}
	if sum != s.vcTotal || s.vcTotal != s.n*startVC[s.n] {
		t.Fatalf("VC total %d, want %d", sum, s.vcTotal)
	}
}

// checkRoundResult: a scored round's points total 120 (tricks, burial,
// set-aside Boon), every trick was won by someone, and the payout follows
// the band.
func checkRoundResult(t *testing.T, s *State) {
	t.Helper()
	r := s.last
	if r.mode == ModeRedeal {
		if r.delta != [MaxSeats]int{} {
			t.Fatal("VC moved on a redeal")
		}
		return
	}
	tp, tw := 0, 0
	for i := range s.n {
		tp += r.points[i]
		tw += r.tricks[i]
	}
	if tw != s.tricksPer {
		t.Fatalf("%d tricks won, want %d", tw, s.tricksPer)
	}
	switch r.mode {
	case ModePicker:
		if tp+r.buriedPoints != TotalPoints {
			t.Fatalf("round points %d + buried %d != 120", tp, r.buriedPoints)
		}
		per := Band(s.rules.Tiers, r.pickerPoints, r.tricks[r.picker], tw-r.tricks[r.picker])
		if s.rules.NegativeVC && r.delta[r.picker] != per*(s.n-1) {
			t.Fatalf("picker %d points: delta %d, want %d", r.pickerPoints, r.delta[r.picker], per*(s.n-1))
		}
	case ModeLeast:
		if tp+r.asidePoints != TotalPoints {
			t.Fatalf("least round points %d + set aside %d != 120", tp, r.asidePoints)
		}
	default:
		t.Fatalf("round result mode %v", r.mode)
	}
}

// Thousands of seeded random games with 3, 4 and 5 seats, default and
// random rules: invariants after every action, round totals, every game
// ends, and the registry path replays each game exactly from its JSON
// actions.
func TestRandomGames(t *testing.T) {
	games := map[int]int{3: 2500, 4: 2500, 5: 600}
	if testkit.Quick() {
		games = map[int]int{3: 300, 4: 300, 5: 100}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	g := Game{}
	stats := map[string]int{}
	for seats := 3; seats <= 5; seats++ {
		for i := range games[seats] {
			r := DefaultRules()
			if i%2 == 1 {
				r = randomRules(rng)
			}
			seed := rng.Uint64()
			s := NewState(seats, seed, r)
			round := s.round
			picks := enginetest.PlayOut(t, s, seats, enginetest.Uniform[Action](rng), nil, func() {
				checkInvariants(t, s)
				if s.round != round || s.over {
					checkRoundResult(t, s)
					stats["rounds "+s.last.mode.String()]++
					round = s.round
				}
			})
			o := s.Outcome()
			if len(o.Ranks) != seats || len(o.Scores) != seats || o.Reason == "" {
				t.Fatalf("bad outcome %+v", o)
			}
			if !reflect.DeepEqual(o.Ranks, engine.RanksFromScores(o.Scores)) {
				t.Fatalf("ranks %v do not follow scores %v", o.Ranks, o.Scores)
			}
			switch {
			case strings.HasPrefix(o.Reason, "round cap"):
				stats["end: round cap"]++
			case strings.Contains(o.Reason, "out of victory cards"), strings.Contains(o.Reason, "tie for the lead was broken"):
				stats["end: out of victory cards"]++
				low := o.Scores[0]
				for _, x := range o.Scores {
					low = min(low, x)
				}
				if low > 0 && !r.FinalPlayOn {
					t.Fatalf("ended with nobody at 0: %+v", o)
				}
			default:
				t.Fatalf("reason %q", o.Reason)
			}
			if strings.Contains(o.Reason, "share first") {
				stats["end: shared first"]++
			}
			stats["games"]++
			stats["rounds"] += s.round
			stats["actions"] += s.ply

			// Determinism: the registry path, fed the same choices as JSON,
			// reproduces the game exactly.
			if i%10 == 0 {
				enginetest.SameGame(t, enginetest.Replay(t, g, seats, seed, r.Options(), picks, nil), s, engine.Spectator)
			}
		}
	}
	enginetest.LogCounts(t, stats)
	t.Logf("%8d games ended by the rounds cap", stats["end: round cap"])
	if stats["end: round cap"] > stats["games"]/1000 {
		t.Errorf("the rounds cap ended %d of %d random games", stats["end: round cap"], stats["games"])
	}
}

func TestRulesOptionsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		r := randomRules(rng)
		r.Rounds = 1 + rng.IntN(500)
		o, err := engine.Setup(Game{}, 4, r.Options())
		if err != nil {
			t.Fatal(err)
		}
		back, err := RulesFromOptions(o)
		if err != nil || back != r {
			t.Fatalf("%+v -> %v -> %+v (%v)", r, o, back, err)
		}
	}
	if _, err := engine.Setup(Game{}, 2, nil); err == nil {
		t.Fatal("2 seats accepted")
	}
	if _, err := (Game{}).New(6, 1, nil); err == nil {
		t.Fatal("6 seats accepted")
	}
}

// Clone gives an independent game that continues identically.
func TestCloneIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := NewState(4, 99, DefaultRules())
	for range 30 {
		l := s.AppendLegal(nil)
		mustPlay(t, s, l[rng.IntN(len(l))])
	}
	c := s.Clone()
	enginetest.CheckClone(t, s, c, enginetest.Uniform[Action](rng), func() bool { return sameState(s, c) })
}

// The in-process fast path does not allocate per action within a round.
func TestPlayNoAlloc(t *testing.T) {
	s := NewState(4, 3, DefaultRules())
	mustPlay(t, s, Take())
	buf := make([]Action, 0, 16)
	allocs := testing.AllocsPerRun(1, func() {
		for range 4 + 20 {
			buf = s.AppendLegal(buf[:0])
			if err := s.Play(buf[0]); err != nil {
				panic(err)
			}
		}
	})
	if allocs > 1 { // the event log may grow once
		t.Fatalf("%v allocations for 24 actions", allocs)
	}
}
