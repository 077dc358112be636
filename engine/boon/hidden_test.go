package boon

import (
	"encoding/json"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/arena-dev/arena/engine"

	"github.com/arena-dev/arena/internal/testkit"
)

// observed is everything seat may receive now: its view and, when it is
// to move, the legal list, as JSON.
func observed(t *testing.T, s *State, seat int) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	if seat == s.toMove {
		for _, a := range s.Legal() {
			x, _ := json.Marshal(a)
			b = append(b, x...)
		}
	}
	return string(b)
}

// known is the set of cards of the current round that seat may know:
// its hand, the cards played to tricks, and for the picker the Boon it
// took and its burial.
func known(s *State, seat int) Set {
	k := s.played
	if seat >= 0 {
		k |= s.hands[seat]
		if seat == s.picker {
			k |= s.boon | s.buried
		}
	}
	return k
}

// permuteUnknown applies a random permutation of the cards seat may not
// know to every hidden place of the state (hands, Boon, burial): a state
// seat cannot tell apart from s.
func permuteUnknown(s *State, seat int, rng *rand.Rand) *State {
	c := s.Clone()
	var hidden Set
	for i := range s.n {
		hidden |= s.hands[i]
	}
	hidden |= s.boon | s.buried
	u := (hidden &^ known(s, seat)).Cards()
	perm := slices.Clone(u)
	rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	var to [NumCards]Card
	for i := range to {
		to[i] = Card(i)
	}
	for i, x := range u {
		to[x] = perm[i]
	}
	m := func(x Set) Set {
		var out Set
		for b := uint32(x); b != 0; b &= b - 1 {
			out |= 1 << to[bits.TrailingZeros32(b)]
		}
		return out
	}
	for i := range s.n {
		c.hands[i] = m(s.hands[i])
	}
	c.boon, c.buried = m(s.boon), m(s.buried)
	return c
}

// No view reveals a card its seat may not know: every view (each seat and
// the spectator) and every legal list is byte-identical between the state
// and a state whose unknown cards (other hands, the Boon, the burial, the
// set-aside Boon) are permuted at random. Checked at random points of
// thousands of games with 3, 4 and 5 seats.
func TestViewsIndependentOfUnknownCards(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	games := 1500
	if testkit.Quick() {
		games = 200
	}
	points := 0
	for g := range games {
		seats := 3 + g%3
		r := DefaultRules()
		if g%2 == 1 {
			r = randomRules(rng)
		}
		s := NewState(seats, rng.Uint64(), r)
		for !s.Over() {
			if rng.IntN(4) == 0 {
				for seat := -1; seat < seats; seat++ {
					p := permuteUnknown(s, seat, rng)
					if a, b := observed(t, s, seat), observed(t, p, seat); a != b {
						t.Fatalf("seat %d can tell hidden cards apart:\n%s\n%s", seat, a, b)
					}
					points++
				}
			}
			l := s.AppendLegal(nil)
			mustPlay(t, s, l[rng.IntN(len(l))])
		}
	}
	t.Logf("%d views compared", points)
}

// Direct check of every card a view shows against the true state: the
// hand is exactly the seat's own; the Boon and the burial appear only in
// the picker's own view; trick cards are cards played this round; event
// cards are cards played this round or the last.
func TestViewCardsAllowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	games := 400
	if testkit.Quick() {
		games = 50
	}
	for g := range games {
		seats := 3 + g%2
		s := NewState(seats, uint64(g), randomRules(rng))
		var prevPlayed Set
		round := s.round
		for !s.Over() {
			check := rng.IntN(5) == 0
			for seat := -1; seat < seats && check; seat++ {
				var v View
				b, _ := json.Marshal(s.View(seat))
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				set := func(xs []string) Set {
					out, err := ParseSet(joinComma(xs))
					if err != nil {
						t.Fatal(err)
					}
					return out
				}
				if seat < 0 && len(v.Hand) != 0 || seat >= 0 && set(v.Hand) != s.hands[seat] {
					t.Fatalf("seat %d hand %v", seat, v.Hand)
				}
				isPicker := seat >= 0 && seat == s.picker
				if !isPicker && (v.Boon != nil || v.Buried != nil) {
					t.Fatalf("seat %d (picker %d) sees boon %v buried %v", seat, s.picker, v.Boon, v.Buried)
				}
				if isPicker && (set(v.Boon) != s.boon || set(v.Buried) != s.buried) {
					t.Fatal("picker's boon/buried wrong")
				}
				for _, tr := range append(slices.Clone(v.Tricks), v.Trick) {
					if x := set(tr.Cards); x&^s.played != 0 {
						t.Fatalf("trick shows unplayed %v", x&^s.played)
					}
				}
				for _, e := range v.Events {
					if e.Card == "" {
						continue
					}
					if e.Type != "play" || !(s.played | prevPlayed).Has(card(e.Card)) {
						t.Fatalf("event %+v shows an unplayed card", e)
					}
				}
				if v.LastRound != nil && s.hasLast && !reflect.DeepEqual(v.LastRound, s.last.view(seats)) {
					t.Fatal("last round differs")
				}
			}
			played := s.played
			l := s.AppendLegal(nil)
			mustPlay(t, s, l[rng.IntN(len(l))])
			if s.round != round {
				prevPlayed, round = played|s.last.playedLastTrick(s), s.round
			}
		}
	}
}

// playedLastTrick is the last trick's cards of a finished round (the
// state has moved to the next deal).
func (r *roundResult) playedLastTrick(s *State) Set {
	var out Set
	t := &s.tricks[s.tricksPer-1]
	if r.mode == ModeRedeal {
		return 0
	}
	for _, c := range t.cards[:t.n] {
		out |= SetOf(c)
	}
	return out
}

func joinComma(xs []string) string {
	b := []byte{}
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, x...)
	}
	return string(b)
}

// Design guard: the view's fields. A new field must be reviewed against
// the hidden-information rule (and added here).
func TestViewFields(t *testing.T) {
	want := []string{"seat", "seats", "round", "dealer", "vc", "phase", "to_move", "decision", "mode", "picker",
		"team", "passed", "hand", "hand_sizes", "boon_size", "boon", "buried", "bury_left", "tricks_per_round",
		"trick_no", "trick", "tricks", "trick_points", "tricks_won", "events", "last_round"}
	var got []string
	ty := reflect.TypeFor[View]()
	for i := range ty.NumField() {
		tag := ty.Field(i).Tag.Get("json")
		if j := len(tag); j > 0 {
			for k := range tag {
				if tag[k] == ',' {
					j = k
					break
				}
			}
			tag = tag[:j]
		}
		got = append(got, tag)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("View fields changed: %v", got)
	}
	// The spectator sees no hand.
	s := NewState(4, 1, DefaultRules())
	if v := s.ViewOf(engine.Spectator); len(v.Hand) != 0 || v.Team != "none" || v.Decision != "wait" {
		t.Fatalf("spectator view %+v", v)
	}
}
