package uno

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/replays"

	"github.com/arena-dev/arena/internal/testkit"
)

// configs are the rule sets the property tests run: both presets and two
// mixes of every house rule.
var configs = []struct {
	name string
	game Game
	opts map[string]string
}{
	{"official", Uno, nil},
	{"bounce", Bounce, nil},
	{"house", Uno, map[string]string{"stack_draws": "true", "seven_zero": "true", "reverse_deflects_draw": "true",
		"jump_in": "true", "uno_call": "catch_window", "draw_until_playable": "true"}},
	{"house2", Uno, map[string]string{"play_to_last": "true", "scoring": "penalty_low_wins", "wd4_mode": "enforce",
		"voluntary_draw": "false", "uno_call": "off", "stack_draws": "true", "seven_zero": "true", "start_card": "number_only"}},
}

var seatCounts = []int{2, 3, 4, 7, 10}

// seatsFor is n capped at the most seats g takes: bounce's 10-seat runs
// play 8 seats.
func seatsFor(g Game, n int) int { return min(n, g.Info().MaxSeats) }

func newGame(t testing.TB, g Game, seats int, seed uint64, opts map[string]string) *State {
	t.Helper()
	o, err := engine.Setup(g, seats, opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(seats, seed, o)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// choose picks a legal action: uniformly at random, or (playful) with a
// preference for plays, which keeps random hands short.
func choose(l []Action, rng *rand.Rand, playful bool) int {
	if playful && rng.IntN(5) != 0 {
		var idx [512]int
		k := 0
		for i, a := range l {
			if a.Type == ActPlay || a.Type == ActJump || a.Type == ActChallenge || a.Type == ActCatch {
				idx[k] = i
				k++
			}
		}
		if k > 0 {
			return idx[rng.IntN(k)]
		}
	}
	return rng.IntN(len(l))
}

// checkView decodes the JSON a seat is served and compares it with the
// true state: its own hand exactly, public piles and counts, and cards in
// events only where the viewer may see them (its own draws; the reveal
// of a challenge it made).
func checkView(t testing.TB, s *State, seat int) {
	t.Helper()
	// The view struct is what is encoded (TestAppendJSONMatchesEncodingJSON
	// proves the bytes equal json.Marshal of it), so check the struct.
	v := s.ViewOf(seat)
	if seat == engine.Spectator {
		if v.You != nil || v.Hand != nil {
			t.Fatalf("spectator view has a seat or hand: %s", v.AppendJSON(nil))
		}
	} else {
		if v.You == nil || *v.You != seat || !slices.Equal(v.Hand, cardStrings(s.Hand(seat))) {
			t.Fatalf("seat %d view: wrong hand %v, holds %v", seat, v.Hand, s.Hand(seat))
		}
	}
	if !slices.Equal(v.Discard, cardStrings(s.discard)) || v.DrawPile != len(s.draw) || v.Top != s.Top().String() {
		t.Fatalf("seat %d view: piles differ", seat)
	}
	for i := range s.n {
		if v.Counts[i] != s.count[i] {
			t.Fatalf("seat %d view: count of seat %d", seat, i)
		}
	}
	for i, e := range v.Events {
		if len(e.Cards) == 0 {
			continue
		}
		switch {
		case e.Type == "draw" && e.Seat == seat:
		case e.Type == "reveal" && i > 0 && v.Events[i-1].Type == "challenge" && v.Events[i-1].Seat == seat &&
			*v.Events[i-1].Target == e.Seat:
		default:
			t.Fatalf("seat %d view shows cards of event %+v:\n%s", seat, e, v.AppendJSON(nil))
		}
	}
	if (v.Decision != nil) != (seat == s.cur && !s.over) {
		t.Fatalf("seat %d view: decision %v, to move %d", seat, v.Decision, s.cur)
	}
}

func quickConservation(t testing.TB, s *State) {
	total := len(s.draw) + len(s.discard)
	for i := range s.n {
		total += s.count[i]
	}
	if total != DeckSize {
		t.Fatalf("%d cards in play, want %d", total, DeckSize)
	}
}

// perturbed checks that the view of every seat but o does not change when
// o's hand and the draw pile exchange a card and the draw pile is
// reshuffled: no view depends on another seat's cards or the draw pile.
func perturbed(t testing.TB, s *State, rng *rand.Rand) {
	t.Helper()
	o := rng.IntN(s.n)
	c := s.Clone()
	if len(c.draw) > 0 && c.count[o] > 0 {
		h := c.Hand(o)
		x := h[rng.IntN(len(h))]
		j := rng.IntN(len(c.draw))
		y := c.draw[j]
		c.removeCard(o, x)
		c.addCard(o, y)
		c.draw[j] = x
	}
	c.shuffleDraw()
	for _, v := range append([]int{engine.Spectator}, seatsBut(s.n, o)...) {
		a, b := s.ViewOf(v).AppendJSON(nil), c.ViewOf(v).AppendJSON(nil)
		if !bytes.Equal(a, b) {
			t.Fatalf("view of seat %d depends on seat %d's hand or the draw pile:\n%s\n%s", v, o, a, b)
		}
		if v == s.cur {
			if la, lb := legalStrings(s), legalStrings(c); la != lb {
				t.Fatalf("legal list of seat %d depends on hidden cards: %s / %s", v, la, lb)
			}
		}
	}
}

func seatsBut(n, o int) []int {
	var out []int
	for i := range n {
		if i != o {
			out = append(out, i)
		}
	}
	return out
}

type runStats struct {
	games, actions, maxActions int
	reasons                    map[string]int
}

// playRandom plays one game to the end with every check; it returns the
// picks (indices into the legal list) for replaying.
func playRandom(t testing.TB, s *State, rng *rand.Rand, playful bool, viewEvery int) []int {
	t.Helper()
	var picks []int
	buf := make([]Action, 0, 512)
	for !s.Over() {
		if s.public > s.rules.MaxActions {
			t.Fatal("game ran past max_actions")
		}
		buf = s.AppendLegal(buf[:0])
		if len(buf) == 0 {
			t.Fatalf("no legal action in a game that is not over\n%s", s.RenderText(-1))
		}
		if viewEvery > 0 && rng.IntN(viewEvery) == 0 {
			for seat := -1; seat < s.n; seat++ {
				checkView(t, s, seat)
			}
			perturbed(t, s, rng)
		}
		// A seat passes only with nothing to play (and nothing to draw).
		if last := buf[len(buf)-1]; last == Pass && s.phase == phTurn && s.turnMask(s.cur) != 0 {
			t.Fatalf("seat %d may pass holding a playable card: %s", s.cur, legalStrings(s))
		}
		k := choose(buf, rng, playful)
		picks = append(picks, k)
		if err := s.Play(buf[k]); err != nil {
			t.Fatal(err)
		}
		if s.ply%16 == 0 {
			checkConservation(t, s)
		} else {
			quickConservation(t, s)
		}
	}
	checkConservation(t, s)
	for seat := -1; seat < s.n; seat++ {
		checkView(t, s, seat)
	}
	o := s.Outcome()
	if len(o.Ranks) != s.n || len(o.Scores) != s.n || o.Reason == "" {
		t.Fatalf("bad outcome %+v", o)
	}
	best := slices.Min(o.Ranks)
	if best != 1 {
		t.Fatalf("nobody ranked first: %+v", o)
	}
	return picks
}

// Thousands of seeded random games per preset and seat count: cards are
// conserved after every action, views never show hidden cards, every game
// ends, and the registry path replays each game exactly.
func TestRandomGames(t *testing.T) {
	// per config and seat count: single hands, and games to a target
	games, fullGames := testkit.Pick(100, 1000), testkit.Pick(2, 12)
	for ci, cf := range configs {
		for _, n := range seatCounts {
			n := seatsFor(cf.game, n)
			st := runStats{reasons: map[string]int{}}
			rng := rand.New(rand.NewPCG(uint64(ci), uint64(n)))
			for i := range games + fullGames {
				opts := map[string]string{"target": "0"}
				if i >= games {
					opts = map[string]string{}
				}
				for k, v := range cf.opts {
					opts[k] = v
				}
				seed := rng.Uint64()
				// Uniform choices make very long hands (a random walk);
				// under the house rules (swaps, stacking) they can go on
				// for ever, so those use the play-preferring chooser.
				uniform := i%16 == 0 && i < games && (cf.name == "official" || cf.name == "bounce")
				s := newGame(t, cf.game, n, seed, opts)
				picks := playRandom(t, s, rng, !uniform, 150)
				st.games++
				st.actions += s.Ply()
				if strings.HasPrefix(s.Outcome().Reason, "max_actions") {
					st.maxActions++
				}
				st.reasons[reasonKey(s.Outcome().Reason)]++
				if i%50 == 0 || (i >= games && i%3 == 0) {
					replay(t, cf.game, n, seed, opts, picks, s)
				}
			}
			t.Logf("%-8s %2d seats: %d games, %.0f actions/game, %d hit max_actions; %v", cf.name, n, st.games,
				float64(st.actions)/float64(st.games), st.maxActions, st.reasons)
			if st.maxActions > st.games/100 {
				t.Errorf("%s %d seats: %d of %d games hit max_actions", cf.name, n, st.maxActions, st.games)
			}
		}
	}
}

func reasonKey(r string) string {
	switch {
	case strings.HasPrefix(r, "max_actions"):
		return "max_actions"
	case strings.Contains(r, "reached"):
		return "target"
	}
	return "out"
}

// replay re-plays picks through the registry path with JSON actions, and
// through a recorded replay file checked by replays.Verify.
func replay(t testing.TB, g Game, n int, seed uint64, opts map[string]string, picks []int, want *State) {
	t.Helper()
	o, err := engine.Setup(g, n, opts)
	if err != nil {
		t.Fatal(err)
	}
	seats := make([]replays.SeatInfo, n)
	for i := range seats {
		seats[i] = replays.SeatInfo{Seat: i, Bot: fmt.Sprint("bot", i)}
	}
	rec := replays.NewRecorder(replays.Header{Game: g.name, Options: o, Seed: seed, Seats: seats})
	st := enginetest.Replay(t, g, n, seed, o, picks, func(ply, seat int, raw json.RawMessage) {
		rec.Move(ply, seat, raw, 0, 0, false)
	})
	enginetest.SameGame(t, st, want, 0)
	rec.Finish(replays.ResultOf(st.Outcome()))
	z, err := rec.Compressed()
	if err != nil {
		t.Fatal(err)
	}
	rp, err := replays.Read(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	if err := replays.Verify(rp); err != nil {
		t.Fatal(err)
	}
}

// Scores to 500 under each scoring mode: totals only grow, the game ends
// as soon as a total reaches the target, and the ranks follow the totals.
func TestFullGamesScoring(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, 78))
	for _, scoring := range []string{"winner_collects", "penalty_low_wins", "single_hand"} {
		for i := range 40 {
			n := seatCounts[i%len(seatCounts)]
			s := newGame(t, Uno, n, rng.Uint64(), map[string]string{"scoring": scoring})
			playRandom(t, s, rng, true, 0)
			o := s.Outcome()
			sum := make([]int, n)
			for _, h := range s.Hands() {
				for q, p := range h.Points {
					sum[q] += p
				}
			}
			for q := range n {
				if float64(sum[q]) != o.Scores[q] {
					t.Fatalf("%s: seat %d scored %v, hands add to %d", scoring, q, o.Scores[q], sum[q])
				}
			}
			switch scoring {
			case "single_hand":
				if len(s.Hands()) != 1 {
					t.Fatalf("single_hand played %d hands", len(s.Hands()))
				}
			default:
				top := slices.Max(o.Scores)
				if top < 500 {
					t.Fatalf("%s ended below 500: %+v", scoring, o)
				}
				// Every hand but the last left every total below 500.
				var ranks []int
				if scoring == "winner_collects" {
					ranks = engine.RanksFromScores(o.Scores)
				} else {
					neg := make([]float64, n)
					for q := range n {
						neg[q] = -o.Scores[q]
					}
					ranks = engine.RanksFromScores(neg)
				}
				if !slices.Equal(ranks, o.Ranks) {
					t.Fatalf("%s ranks %v, want %v", scoring, o.Ranks, ranks)
				}
			}
		}
	}
}

// Dealers rotate: hand h is dealt by seat (h-1) mod n.
func TestDealerRotates(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := newGame(t, Uno, 3, 9, nil)
	playRandom(t, s, rng, true, 0)
	hs := s.Hands()
	if len(hs) < 2 {
		t.Skip("one hand only")
	}
	for i, h := range hs {
		if h.Dealer != i%3 || h.Hand != i+1 {
			t.Fatalf("hand %d dealt by %d", h.Hand, h.Dealer)
		}
	}
}

// isLegal (Play's check) agrees with AppendLegal on every listed action
// and on variants of them (flag, colour, target and card changed).
func TestIsLegalMatchesAppendLegal(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for ci, cf := range configs {
		for g := range 60 {
			n := seatsFor(cf.game, seatCounts[g%len(seatCounts)])
			s := newGame(t, cf.game, n, uint64(g*10+ci), merge(cf.opts, map[string]string{"target": "0"}))
			for !s.Over() {
				l := s.AppendLegal(nil)
				cands := []Action{Draw, Keep, Pass, Challenge, Accept, Catch, NameColour(0), NameColour(3), Play(Card(rng.IntN(NumKinds)), -1)}
				for _, a := range l {
					cands = append(cands, a)
					b := a
					b.Uno = !b.Uno
					cands = append(cands, b)
					b = a
					b.Colour = int8(rng.IntN(6) - 1)
					cands = append(cands, b)
					b = a
					b.Target = int8(rng.IntN(12) - 1)
					cands = append(cands, b)
					b = a
					b.Card = Card(rng.IntN(NumKinds))
					cands = append(cands, b)
					b = a
					b.Type = ActionType(rng.IntN(10))
					cands = append(cands, b)
				}
				for _, a := range cands {
					if got, want := s.isLegal(a), slices.Contains(l, a); got != want {
						t.Fatalf("isLegal(%v) = %v, listed %v; legal %s", a, got, want, legalStrings(s))
					}
				}
				mustPlay(t, s, l[choose(l, rng, true)])
			}
		}
	}
}

// Reset gives exactly the game NewState deals.
func TestResetEqualsNewState(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	r := DefaultRules()
	r.Target = 0
	s := NewState(4, 0, r)
	for seed := range uint64(50) {
		s.Reset(seed)
		f := NewState(4, seed, r)
		for !f.Over() {
			if a, b := s.ViewOf(s.cur).AppendJSON(nil), f.ViewOf(f.cur).AppendJSON(nil); !bytes.Equal(a, b) {
				t.Fatalf("seed %d: Reset state differs:\n%s\n%s", seed, a, b)
			}
			l := f.AppendLegal(nil)
			a := l[choose(l, rng, true)]
			mustPlay(t, f, a)
			mustPlay(t, s, a)
		}
		if fmt.Sprint(s.Outcome()) != fmt.Sprint(f.Outcome()) {
			t.Fatal("outcomes differ")
		}
	}
}
