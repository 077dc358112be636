package bots

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/boon"
)

func boonPlay(t testing.TB, seats int, seed uint64, opts map[string]string, greedySeat int, rng *rand.Rand) engine.Outcome {
	return playVsRandom(t, "boon", seats, seed, opts, greedySeat, GreedyBoon, rng)
}

type boonStats struct {
	games, first, sole int
	vc, randVC         float64
	randFirst, randies int
}

func boonGreedyVsRandom(t *testing.T, seats, deals int, opts map[string]string) boonStats {
	var st boonStats
	for i := range deals {
		seed := uint64(5000 + i)
		for seat := range seats { // duplicate deals: same seed, greedy in every seat
			o := boonPlay(t, seats, seed, opts, seat, rand.New(rand.NewPCG(seed, uint64(seat))))
			st.games++
			st.vc += o.Scores[seat]
			if o.Ranks[seat] == 1 {
				st.first++
				if o.Ranks[(seat+1)%seats] != 1 && o.Ranks[(seat+2)%seats] != 1 && (seats < 4 || o.Ranks[(seat+3)%seats] != 1) && (seats < 5 || o.Ranks[(seat+4)%seats] != 1) {
					st.sole++
				}
			}
			for j := range seats {
				if j != seat {
					st.randVC += o.Scores[j]
					st.randies++
					if o.Ranks[j] == 1 {
						st.randFirst++
					}
				}
			}
		}
	}
	t.Logf("greedy vs %d random, %d seats %v: %d games; greedy first (ties shared) %.3f, sole first %.3f, mean VC %.2f; random first %.3f, mean VC %.2f",
		seats-1, seats, opts, st.games, float64(st.first)/float64(st.games), float64(st.sole)/float64(st.games), st.vc/float64(st.games),
		float64(st.randFirst)/float64(st.randies), st.randVC/float64(st.randies))
	return st
}

// Greedy must clearly beat uniform random choosers: 400 four-seat games
// (100 deals, greedy in each seat), full games.
func TestGreedyBoonBeatsRandom(t *testing.T) {
	deals := 100
	if testing.Short() {
		deals = 25
	}
	st := boonGreedyVsRandom(t, 4, deals, nil)
	first := float64(st.first) / float64(st.games)
	if first <= 0.4 || st.vc/float64(st.games) <= st.randVC/float64(st.randies) {
		t.Fatalf("greedy first-place rate %.3f, mean VC %.2f vs random %.2f", first, st.vc/float64(st.games), st.randVC/float64(st.randies))
	}
}

// 3 seats and the variants must not break the bot (legal indices,
// parsing), and it should still come out ahead.
func TestGreedyBoonVariants(t *testing.T) {
	for _, c := range []struct {
		seats int
		opts  map[string]string
	}{
		{3, nil},
		{5, nil},
		{4, map[string]string{"must_trump": "true", "no_pick": "redeal", "tiers": "sheepshead", "short_pay": "negative"}},
		{4, map[string]string{"least_tie": "split", "final_tie": "play_on"}},
	} {
		st := boonGreedyVsRandom(t, c.seats, 30, c.opts)
		if st.vc/float64(st.games) <= st.randVC/float64(st.randies) {
			t.Errorf("%d seats %v: greedy mean VC %.2f not above random %.2f", c.seats, c.opts, st.vc/float64(st.games), st.randVC/float64(st.randies))
		}
	}
}

// Hand-made decisions: win cheaply, smear on the team's trick, throw low,
// duck in Least mode, bury points, take on a strong hand only.
func TestGreedyBoonDecisions(t *testing.T) {
	base := func() boon.View {
		return boon.View{Seat: 2, Seats: 4, Phase: "play", Decision: "play", Mode: "picker", Picker: 1, Team: "defender",
			TricksPerRound: 7, TricksWon: []int{0, 0, 0, 0}, TrickPoints: []int{0, 0, 0, 0}}
	}
	plays := func(cards ...string) []json.RawMessage {
		var out []json.RawMessage
		for _, c := range cards {
			out = append(out, json.RawMessage(`{"type":"play","card":"`+c+`"}`))
		}
		return out
	}
	cases := []struct {
		name  string
		view  func() boon.View
		legal []json.RawMessage
		want  int
	}{
		{"trump_cheaply_over_the_picker", func() boon.View {
			v := base()
			v.Hand = []string{"G1", "Au2", "Au14"}
			v.Trick = boon.Trick{Leader: 0, Led: "B", Cards: []string{"B4", "B5"}, Winner: 1, Points: 14}
			return v
		}, plays("G1", "Au2", "Au14"), 1},
		{"smear_points_on_partner", func() boon.View {
			v := base()
			v.Hand = []string{"G1", "G5", "Au3"}
			v.Trick = boon.Trick{Leader: 3, Led: "B", Cards: []string{"B1", "B6", "B2"}, Winner: 0, Points: 11}
			return v
		}, plays("G1", "G5", "Au3"), 1},
		{"throw_low_when_beaten", func() boon.View {
			v := base()
			v.Hand = []string{"Au1", "Au5"}
			v.Trick = boon.Trick{Leader: 1, Led: "Au", Cards: []string{"Au14"}, Winner: 1, Points: 3}
			return v
		}, plays("Au1", "Au5"), 0},
		{"least_duck", func() boon.View {
			v := base()
			v.Seat, v.Mode, v.Team, v.Picker = 1, "least", "self", -1
			v.TricksWon = []int{0, 1, 0, 0}
			v.Hand = []string{"B1", "B6", "G2"}
			v.Trick = boon.Trick{Leader: 0, Led: "B", Cards: []string{"B3"}, Winner: 0, Points: 0}
			return v
		}, plays("B1", "B6"), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vb, _ := json.Marshal(c.view())
			for i := range 10 {
				k, err := GreedyBoon(vb, c.legal, rand.New(rand.NewPCG(uint64(i), 0)))
				if err != nil {
					t.Fatal(err)
				}
				if k != c.want {
					t.Fatalf("chose %s, want %s", c.legal[k], c.legal[c.want])
				}
			}
		})
	}
	// Bury: the picker banks its most valuable plain card first, never a Gold.
	v := base()
	v.Seat, v.Phase, v.Decision, v.Team, v.Picker, v.BuryLeft = 1, "bury", "bury", "picker", 1, 4
	v.Hand = []string{"B5", "B6", "G4", "R1", "R2", "Au3", "Au9", "Au11", "Au12", "Au13", "Au14"}
	var legal []json.RawMessage
	for _, c := range v.Hand {
		legal = append(legal, json.RawMessage(`{"type":"bury","card":"`+c+`"}`))
	}
	vb, _ := json.Marshal(v)
	if k, _ := GreedyBoon(vb, legal, rand.New(rand.NewPCG(1, 1))); v.Hand[k] != "B6" {
		t.Fatalf("buried %s first", v.Hand[k])
	}
	// Pick: take on a strong hand, pass on a weak one.
	pick := []json.RawMessage{json.RawMessage(`{"type":"take"}`), json.RawMessage(`{"type":"pass"}`)}
	for _, c := range []struct {
		hand []string
		want int
	}{
		{[]string{"B6", "Au9", "Au10", "Au11", "Au12", "Au13", "Au14"}, 0},
		{[]string{"B1", "B2", "G1", "G2", "R1", "R2", "R3"}, 1},
	} {
		v := base()
		v.Phase, v.Decision, v.Mode, v.Team, v.Picker, v.Hand = "pick", "take_or_pass", "pick", "undecided", -1, c.hand
		vb, _ := json.Marshal(v)
		if k, _ := GreedyBoon(vb, pick, rand.New(rand.NewPCG(1, 1))); k != c.want {
			t.Fatalf("hand %v: %s", c.hand, pick[k])
		}
	}
}
