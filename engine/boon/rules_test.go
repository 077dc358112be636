package boon

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// The point table of the rules reference (2.1), written independently of
// the engine: plain suits 0,0,0,4,10,11; Gold 1-6 the same, 7-10 two, 11-14
// three; 120 in all, also for the 3-seat deck.
func TestPointTable(t *testing.T) {
	want := map[string]int{"B1": 0, "B3": 0, "B4": 4, "B5": 10, "B6": 11, "G4": 4, "R6": 11,
		"Au1": 0, "Au3": 0, "Au4": 4, "Au5": 10, "Au6": 11, "Au7": 2, "Au10": 2, "Au11": 3, "Au14": 3}
	for name, p := range want {
		if got := card(name).Points(); got != p {
			t.Errorf("%s = %d points, want %d", name, got, p)
		}
	}
	if got := FullDeck.Points(); got != TotalPoints {
		t.Fatalf("deck totals %d, want %d", got, TotalPoints)
	}
	if got := Deck(3).Points(); got != TotalPoints {
		t.Fatalf("3-seat deck totals %d, want %d", got, TotalPoints)
	}
	if FullDeck.Len() != 32 || (FullDeck&SuitSet(Gold)).Len() != 14 {
		t.Fatal("deck shape")
	}
}

func TestCardNotation(t *testing.T) {
	for c := range Card(NumCards) {
		got, err := ParseCard(c.String())
		if err != nil || got != c {
			t.Fatalf("%s: %v %v", c, got, err)
		}
	}
	for _, bad := range []string{"", "B", "B0", "B7", "G14", "Au0", "Au15", "A5", "Au", "X3", "B05", "B+5", "Au-1", "B5 "} {
		if _, err := ParseCard(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if c, err := ParseCard("au12"); err != nil || c != MakeCard(Gold, 12) {
		t.Fatal("case-insensitive gold")
	}
}

// Rule: the 3-seat deck has no Green 1 and no Red 1 (30 cards), 9 cards
// each and 3 in the Boon; 4 seats: 32 cards, 7 each and 4 in the Boon.
func TestDeal3And4Seats(t *testing.T) {
	for _, c := range []struct{ seats, deck, hand, boon int }{{3, 30, 9, 3}, {4, 32, 7, 4}, {5, 32, 6, 2}} {
		for seed := range uint64(200) {
			s := NewState(c.seats, seed, DefaultRules())
			var all Set
			for i := range c.seats {
				if s.hands[i].Len() != c.hand {
					t.Fatalf("%d seats: hand %d has %d cards", c.seats, i, s.hands[i].Len())
				}
				all |= s.hands[i]
			}
			if s.boon.Len() != c.boon || all&s.boon != 0 {
				t.Fatalf("%d seats: boon %v", c.seats, s.boon)
			}
			all |= s.boon
			if all.Len() != c.deck || all != Deck(c.seats) {
				t.Fatalf("%d seats: dealt %d cards", c.seats, all.Len())
			}
			if c.seats == 3 && (all.Has(card("G1")) || all.Has(card("R1"))) {
				t.Fatal("3 seats: Green 1 or Red 1 dealt")
			}
			v := s.ViewOf(0)
			if v.BoonSize != c.boon || v.TricksPerRound != c.hand {
				t.Fatalf("view boon_size %d tricks %d", v.BoonSize, v.TricksPerRound)
			}
		}
	}
}

func TestFirstDealerRandomAndRotates(t *testing.T) {
	seen := map[int]bool{}
	for seed := range uint64(100) {
		s := NewState(4, seed, DefaultRules())
		seen[s.dealer] = true
		if s.toMove != (s.dealer+1)%4 {
			t.Fatal("the seat left of the dealer does not decide first")
		}
	}
	if len(seen) != 4 {
		t.Fatalf("first dealers seen: %v", seen)
	}
	r := DefaultRules()
	r.NoPick = NoPickRedeal
	s := NewState(4, 3, r)
	d := s.dealer
	for range 4 {
		mustPlay(t, s, Pass())
	}
	if s.dealer != (d+1)%4 || s.round != 2 {
		t.Fatalf("dealer %d round %d after a redeal from dealer %d", s.dealer, s.round, d)
	}
}

// Rule: Gold is a suit of its own. When Gold is led, a seat holding Gold
// must play Gold; a seat without Gold may play anything; the highest Gold
// wins.
func TestFollowSuitGoldLed(t *testing.T) {
	s := mustPos(t, position{seats: 4, dealer: 3, picker: 0, leader: 0, tricksDone: 5,
		hands: []string{"Au3 B1", "Au5 B6", "B2 R6", "Au1 G2"}, points: []int{0, 0, 0, 0}})
	plays(t, s, "Au3")
	if got := legalStrings(s); got != "[play Au5]" {
		t.Fatalf("seat 1 holding Au5 B6 may %s", got)
	}
	if err := s.Play(Play(card("B6"))); err == nil || !strings.Contains(err.Error(), "must follow gold") {
		t.Fatalf("B6 on a Gold lead: %v", err)
	}
	plays(t, s, "Au5")
	if got := legalStrings(s); got != "[play B2 play R6]" {
		t.Fatalf("seat 2 without Gold may %s", got)
	}
	plays(t, s, "R6")
	if got := legalStrings(s); got != "[play Au1]" {
		t.Fatalf("seat 3 holding Au1 G2 may %s", got)
	}
	plays(t, s, "Au1")
	if s.won[1] != 1 || s.points[1] != 21 || s.toMove != 1 {
		t.Fatalf("Au5 should win 21 points and lead: won %v points %v to move %d", s.won, s.points, s.toMove)
	}
}

// Rule: a plain-suit lead must be followed if able, trumps or not; a seat
// void in the suit may play anything, trump or not (must_trump=false).
func TestFollowSuitPlainLead(t *testing.T) {
	for _, mustTrump := range []bool{false, true} {
		s := mustPos(t, position{seats: 4, dealer: 3, picker: 0, leader: 0, tricksDone: 5,
			hands: []string{"B2 R1", "B4 Au9", "G6 Au2", "R3 G5"}, rules: Rules{MustTrump: mustTrump}})
		plays(t, s, "B2")
		if got := legalStrings(s); got != "[play B4]" {
			t.Fatalf("must_trump=%v: seat 1 holding B4 Au9 may %s", mustTrump, got)
		}
		plays(t, s, "B4")
		want := "[play G6 play Au2]"
		if mustTrump {
			want = "[play Au2]"
		}
		if got := legalStrings(s); got != want {
			t.Fatalf("must_trump=%v: seat 2 void in blue may %s, want %s", mustTrump, got, want)
		}
		if mustTrump {
			if err := s.Play(Play(card("G6"))); err == nil || !strings.Contains(err.Error(), "must play gold") {
				t.Fatalf("G6 accepted under must_trump: %v", err)
			}
		}
		plays(t, s, "Au2")
		// Seat 3 holds neither blue nor gold: anything, under both rules.
		if got := legalStrings(s); got != "[play G5 play R3]" {
			t.Fatalf("seat 3 may %s", got)
		}
	}
}

// Rule: the highest Gold wins; without Gold the highest card of the led
// suit wins (higher cards of other plain suits do not); the winner leads.
func TestTrickWinner(t *testing.T) {
	cases := []struct {
		name  string
		cards string // in play order from seat 0
		win   int
	}{
		{"no_trump_highest_of_led_suit", "B2 B6 G6 B4", 1},
		{"no_trump_offsuit_higher_rank_loses", "G3 B6 R6 G1", 0},
		{"no_trump_leader_keeps", "R5 B6 G6 Au-none", 0},
		{"lowest_trump_beats_plain", "R1 G6 B6 Au1", 3},
		{"highest_trump_of_two", "B6 Au1 B5 Au2", 3},
		{"trump_led_highest_gold", "Au14 Au1 B6 Au13", 0},
		{"trump_led_gold_rank_order", "Au7 Au12 Au6 Au11", 1},
		{"first_trump_holds_against_plain", "G2 Au8 G6 G5", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cards := strings.Fields(strings.Replace(c.cards, "Au-none", "B1", 1))
			hands := make([]string, 4)
			copy(hands, cards)
			s := mustPos(t, position{seats: 4, dealer: 3, least: true, leader: 0, tricksDone: 6, hands: hands})
			plays(t, s, cards...)
			// The round ended: the only trick taker is the trick winner.
			if !s.hasLast || s.last.tricks[c.win] != 1 {
				t.Fatalf("winner: tricks %v, want seat %d", s.last.tricks, c.win)
			}
		})
	}
	// The winner of a trick leads the next one.
	s := mustPos(t, position{seats: 4, dealer: 3, picker: 0, leader: 0, tricksDone: 5,
		hands: []string{"B2 B1", "B6 G1", "B3 G2", "B4 G3"}})
	plays(t, s, "B2", "B6", "B3", "B4")
	if s.toMove != 1 || s.cur.leader != 1 {
		t.Fatalf("seat 1 won and should lead, to move %d", s.toMove)
	}
}

// lastTrickPicker sets up the last trick of a 4-seat picker round (seat 0
// picked, dealer 3) in which the picker has pts points before the last
// trick, which is pointless and won by seat 2 (a defender).
func lastTrickPicker(t *testing.T, pts, pickerTricks, defTricks int, vc []int, r Rules) *State {
	s := mustPos(t, position{seats: 4, dealer: 3, picker: 0, leader: 0, tricksDone: 6, buried: "G2 G3 R2 R3",
		hands: []string{"B1", "B2", "B3", "G1"}, points: []int{pts, 0, 0, 0}, won: []int{pickerTricks, defTricks, 0, 0},
		vc: vc, rules: r})
	plays(t, s, "B1", "B2", "B3", "G1")
	return s
}

// Rule: payout bands by picker points (tricks + buried), each edge, in both
// tier modes; per defender, positive when the picker receives.
func TestPayoutBandEdges(t *testing.T) {
	cases := []struct {
		tiers Tiers
		pts   int
		want  int
	}{
		{TiersBoon, 0, -2}, {TiersBoon, 29, -2}, {TiersBoon, 30, -1}, {TiersBoon, 60, -1},
		{TiersBoon, 61, 1}, {TiersBoon, 90, 1}, {TiersBoon, 91, 2}, {TiersBoon, 120, 2},
		{TiersSheepshead, 0, -2}, {TiersSheepshead, 30, -2}, {TiersSheepshead, 31, -1}, {TiersSheepshead, 60, -1},
		{TiersSheepshead, 61, 1}, {TiersSheepshead, 90, 1}, {TiersSheepshead, 91, 2}, {TiersSheepshead, 120, 2},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s_%d", [...]string{"boon", "sheepshead"}[c.tiers], c.pts)
		t.Run(name, func(t *testing.T) {
			if got := Band(c.tiers, c.pts, 3, 4); got != c.want {
				t.Fatalf("Band = %d, want %d", got, c.want)
			}
			// End to end: the picker's points are its tricks plus its burial.
			s := lastTrickPicker(t, c.pts, 1, 5, []int{10, 10, 10, 10}, Rules{Tiers: c.tiers})
			want := []int{10 + 3*c.want, 10 - c.want, 10 - c.want, 10 - c.want}
			if s.last.pickerPoints != c.pts || !reflect.DeepEqual(s.vc[:4], want) || s.last.perDefender != c.want {
				t.Fatalf("picker points %d, vc %v, want %v", s.last.pickerPoints, s.vc[:4], want)
			}
		})
	}
}

// Rule (tiers=sheepshead): a picker who took no trick pays 3 to each
// defender; a picker who took every trick receives 3 from each.
func TestSheepsheadNoTrickTier(t *testing.T) {
	if Band(TiersSheepshead, 45, 0, 7) != -3 || Band(TiersSheepshead, 120, 7, 0) != 3 {
		t.Fatal("no-trick tier")
	}
	if Band(TiersBoon, 45, 0, 7) != -1 || Band(TiersBoon, 120, 7, 0) != 2 {
		t.Fatal("boon tiers have no no-trick tier")
	}
	s := lastTrickPicker(t, 40, 0, 6, []int{10, 10, 10, 10}, Rules{Tiers: TiersSheepshead})
	if !reflect.DeepEqual(s.vc[:4], []int{1, 13, 13, 13}) {
		t.Fatalf("vc %v", s.vc[:4])
	}
}

// Rule: buried cards count for the picker.
func TestBuriedPointsCount(t *testing.T) {
	s := mustPos(t, position{seats: 4, dealer: 3, picker: 0, leader: 0, tricksDone: 6, buried: "B6 G6 R6 Au5",
		hands: []string{"B1", "B2", "B3", "G1"}, points: []int{20, 0, 0, 0}, won: []int{1, 5, 0, 0},
		vc: []int{10, 10, 10, 10}})
	plays(t, s, "B1", "B2", "B3", "G1")
	if s.last.buriedPoints != 43 || s.last.pickerPoints != 63 || s.vc[0] != 13 {
		t.Fatalf("buried %d picker %d vc %v", s.last.buriedPoints, s.last.pickerPoints, s.vc[:4])
	}
}

// Rule: a short payer (cap) hands over what it has, one card at a time
// round-robin clockwise among its payees; with short_pay=negative victory
// cards go below zero.
func TestShortPayer(t *testing.T) {
	// The picker (seat 0, 2 VC) scores 0 and owes 2 to each defender.
	s := lastTrickPicker(t, 0, 1, 5, []int{2, 5, 5, 5}, Rules{})
	if !reflect.DeepEqual(s.vc[:4], []int{0, 6, 6, 5}) {
		t.Fatalf("cap: picker pays round-robin from its left: vc %v", s.vc[:4])
	}
	if !s.over || s.outcome.Ranks[0] != 4 {
		t.Fatalf("a seat at 0 VC ends the game: over %v %+v", s.over, s.outcome)
	}
	s = lastTrickPicker(t, 0, 1, 5, []int{2, 5, 5, 5}, Rules{NegativeVC: true})
	if !reflect.DeepEqual(s.vc[:4], []int{-4, 7, 7, 7}) || !s.over {
		t.Fatalf("negative: vc %v", s.vc[:4])
	}
	// A defender with 1 VC owes the picker 2.
	s = lastTrickPicker(t, 100, 1, 5, []int{5, 5, 1, 5}, Rules{})
	if !reflect.DeepEqual(s.vc[:4], []int{10, 3, 0, 3}) || !s.over {
		t.Fatalf("cap: short defender: vc %v", s.vc[:4])
	}
	s = lastTrickPicker(t, 100, 1, 5, []int{5, 5, 1, 5}, Rules{NegativeVC: true})
	if !reflect.DeepEqual(s.vc[:4], []int{11, 3, -1, 3}) || !s.over {
		t.Fatalf("negative: short defender: vc %v", s.vc[:4])
	}
	if s.outcome.Scores[2] != -1 || s.outcome.Ranks[2] != 4 || s.outcome.Ranks[0] != 1 {
		t.Fatalf("outcome %+v", s.outcome)
	}
}

// lastTrickLeast sets up the last trick of a 4-seat Least round, dealer 3:
// seat 0 leads B1, seats play B2 B3 B4: seat 3 wins it (4 points).
func lastTrickLeast(t *testing.T, points, won, vc []int, r Rules) *State {
	s := mustPos(t, position{seats: 4, dealer: 3, least: true, leader: 0, tricksDone: 6,
		hands: []string{"B1", "B2", "B3", "B4"}, points: points, won: won, vc: vc, rules: r})
	plays(t, s, "B1", "B2", "B3", "B4")
	return s
}

// Rule: in Least mode the winner has the fewest points among the seats
// that took at least one trick; a seat with no trick (seat 1, 0 points)
// cannot win; every other seat gives the winner 1 VC.
func TestLeastModeWinner(t *testing.T) {
	s := lastTrickLeast(t, []int{10, 0, 5, 20}, []int{1, 0, 1, 4}, nil, Rules{})
	if !reflect.DeepEqual(s.vc[:4], []int{4, 4, 8, 4}) {
		t.Fatalf("vc %v", s.vc[:4])
	}
	v := s.ViewOf(1).LastRound
	if v.Mode != "least" || !reflect.DeepEqual(v.Winners, []int{2}) || !strings.Contains(v.Summary, "seat 2 wins with 5 points") {
		t.Fatalf("last round %+v", v)
	}
}

// Rule: a tie for the fewest points: least_tie=void moves nothing;
// split: the others pay 1 each, dealt round-robin to the tied seats, the
// remainder staying with the payers; random: one tied seat takes all.
func TestLeastModeTie(t *testing.T) {
	pts, won := []int{5, 0, 5, 20}, []int{1, 0, 1, 4}
	s := lastTrickLeast(t, pts, won, nil, Rules{LeastTie: LeastTieVoid})
	if !reflect.DeepEqual(s.vc[:4], []int{5, 5, 5, 5}) || !reflect.DeepEqual(s.ViewOf(0).LastRound.Winners, []int{0, 2}) {
		t.Fatalf("void: vc %v", s.vc[:4])
	}
	s = lastTrickLeast(t, pts, won, nil, Rules{LeastTie: LeastTieSplit})
	if !reflect.DeepEqual(s.vc[:4], []int{6, 4, 6, 4}) {
		t.Fatalf("split: vc %v", s.vc[:4])
	}
	// Three tied, one payer: 1/3 rounds down, nothing moves.
	s = lastTrickLeast(t, []int{5, 5, 5, 20}, []int{1, 1, 1, 3}, nil, Rules{LeastTie: LeastTieSplit})
	if !reflect.DeepEqual(s.vc[:4], []int{5, 5, 5, 5}) {
		t.Fatalf("split 3 ways: vc %v", s.vc[:4])
	}
	got := map[int]bool{}
	for seed := range uint64(40) {
		s := mustPos(t, position{seats: 4, dealer: 3, least: true, leader: 0, tricksDone: 6,
			hands: []string{"B1", "B2", "B3", "B4"}, points: pts, won: won, rules: Rules{LeastTie: LeastTieRandom}})
		s.pcg.Seed(seed, 1)
		plays(t, s, "B1", "B2", "B3", "B4")
		switch {
		case reflect.DeepEqual(s.vc[:4], []int{8, 4, 4, 4}):
			got[0] = true
		case reflect.DeepEqual(s.vc[:4], []int{4, 4, 8, 4}):
			got[2] = true
		default:
			t.Fatalf("random: vc %v", s.vc[:4])
		}
	}
	if !got[0] || !got[2] {
		t.Fatalf("random tie-break never chose both: %v", got)
	}
}

// Rule: every seat passing leads to Least mode (default): the Boon is set
// aside and the seat left of the dealer leads; with no_pick=redeal the
// next dealer deals again and no victory cards move.
func TestAllPass(t *testing.T) {
	s := NewState(4, 9, DefaultRules())
	d, boon := s.dealer, s.boon
	for range 4 {
		mustPlay(t, s, Pass())
	}
	if s.mode != ModeLeast || s.phase != PhasePlay || s.toMove != (d+1)%4 || s.picker != -1 {
		t.Fatalf("least: mode %v phase %v to move %d", s.mode, s.phase, s.toMove)
	}
	for i := range 4 {
		if s.hands[i]&boon != 0 || s.hands[i].Len() != 7 {
			t.Fatal("the set-aside Boon reached a hand")
		}
		if v := s.ViewOf(i); v.Team != "self" || v.Boon != nil || v.Mode != "least" {
			t.Fatalf("least view %+v", v)
		}
	}
	r := DefaultRules()
	r.NoPick = NoPickRedeal
	s = NewState(4, 9, r)
	for range 4 {
		mustPlay(t, s, Pass())
	}
	lr := s.ViewOf(0).LastRound
	if s.round != 2 || s.dealer != (d+1)%4 || s.phase != PhasePick || lr.Mode != "redeal" || s.vc != NewState(4, 9, r).vc {
		t.Fatalf("redeal: round %d dealer %d phase %v %+v", s.round, s.dealer, s.phase, lr)
	}
	// Endless passing stops at the rounds cap.
	r.Rounds = 5
	s = NewState(4, 9, r)
	for !s.Over() {
		mustPlay(t, s, Pass())
	}
	if s.round != 5 || !strings.HasPrefix(s.outcome.Reason, "round cap 5 reached") || s.outcome.Ranks[0] != 1 || s.outcome.Ranks[3] != 1 {
		t.Fatalf("cap: round %d %+v", s.round, s.outcome)
	}
}

// Rule: the picker takes the Boon sight unseen, adds it to the hand and
// buries exactly |Boon| cards (4 with 4 seats, 3 with 3), one per action.
func TestTakeAndBury(t *testing.T) {
	for _, seats := range []int{3, 4} {
		s := NewState(seats, 21, DefaultRules())
		mustPlay(t, s, Pass())
		p := s.toMove
		hand, boon := s.hands[p], s.boon
		if v := s.ViewOf(p); v.Boon != nil || v.Decision != "take_or_pass" || v.Team != "undecided" {
			t.Fatalf("Boon shown before taking: %+v", v)
		}
		mustPlay(t, s, Take())
		if s.hands[p] != hand|boon || s.phase != PhaseBury || s.toMove != p || s.buryLeft != s.boonSize {
			t.Fatalf("after take: hand %v phase %v", s.hands[p], s.phase)
		}
		v := s.ViewOf(p)
		if v.Decision != "bury" || v.Team != "picker" || v.BuryLeft != s.boonSize || strings.Join(v.Boon, " ") != boon.String() {
			t.Fatalf("picker view %+v", v)
		}
		if got := len(s.AppendLegal(nil)); got != hand.Len()+boon.Len() {
			t.Fatalf("%d bury choices", got)
		}
		if err := s.Play(Play(s.hands[p].Cards()[0])); err == nil {
			t.Fatal("play accepted during the burial")
		}
		var buried Set
		for range s.boonSize {
			if s.phase != PhaseBury {
				t.Fatal("burial ended early")
			}
			c := s.hands[p].Cards()[s.hands[p].Len()-1] // bury the highest
			buried |= SetOf(c)
			mustPlay(t, s, Bury(c))
		}
		if s.phase != PhasePlay || s.buried != buried || s.hands[p].Len() != s.handSize || s.toMove != s.next(s.dealer) {
			t.Fatalf("after burial: phase %v buried %v hand %d", s.phase, s.buried, s.hands[p].Len())
		}
		if got := s.ViewOf(p).Buried; strings.Join(got, " ") != buried.String() {
			t.Fatalf("picker's buried %v", got)
		}
		for i := range seats {
			if i != p {
				if v := s.ViewOf(i); v.Buried != nil || v.Boon != nil || v.Team != "defender" {
					t.Fatalf("defender %d view %+v", i, v)
				}
			}
		}
	}
}

// Rule: the game ends after the payout in which a seat reaches 0 VC; the
// most VC wins, ties shared (final_tie=shared) or played on (play_on).
func TestFinalTie(t *testing.T) {
	// Picker seat 0 with 1 VC scores 0: pays 1 to seat 1 and is out.
	vc := []int{1, 5, 7, 7}
	s := lastTrickPicker(t, 0, 1, 5, vc, Rules{})
	if !s.over || !reflect.DeepEqual(s.outcome.Ranks, []int{4, 3, 1, 1}) || !reflect.DeepEqual(s.outcome.Scores, []float64{0, 6, 7, 7}) {
		t.Fatalf("shared: %+v", s.outcome)
	}
	if !strings.Contains(s.outcome.Reason, "seat 0 is out of victory cards after round 1") || !strings.Contains(s.outcome.Reason, "seats 2 and 3 share first with 7") {
		t.Fatalf("reason %q", s.outcome.Reason)
	}
	s = lastTrickPicker(t, 0, 1, 5, vc, Rules{FinalPlayOn: true})
	if s.over || s.round != 2 || !s.ending {
		t.Fatalf("play_on: over %v round %d", s.over, s.round)
	}
	// Without a tie the game ends either way.
	s = lastTrickPicker(t, 0, 1, 5, []int{1, 5, 8, 7}, Rules{FinalPlayOn: true})
	if !s.over || !reflect.DeepEqual(s.outcome.Ranks, []int{4, 3, 1, 2}) || !strings.Contains(s.outcome.Reason, "seat 2 wins with 8") {
		t.Fatalf("play_on, single leader: %+v", s.outcome)
	}
	// play_on continues until one leader remains.
	s = lastTrickPicker(t, 0, 1, 5, vc, Rules{FinalPlayOn: true})
	for !s.Over() {
		l := s.AppendLegal(nil)
		mustPlay(t, s, l[0])
	}
	top := 0
	for _, r := range s.outcome.Ranks {
		if r == 1 {
			top++
		}
	}
	if top != 1 {
		t.Fatalf("play_on ended with a shared lead: %+v", s.outcome)
	}
}

// Rule: an illegal action is rejected with a reason and leaves the state
// unchanged.
func TestIllegalActionRejected(t *testing.T) {
	s := NewState(4, 5, DefaultRules())
	p := s.toMove
	mine := s.hands[p].Cards()[0]
	other := s.hands[(p+1)%4].Cards()[0]
	check := func(a Action, want string) {
		t.Helper()
		before := s.Clone()
		bj, _ := json.Marshal(s.ViewOf(engine.Spectator))
		err := s.Play(a)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%v: error %v, want %q", a, err, want)
		}
		aj, _ := json.Marshal(s.ViewOf(engine.Spectator))
		if string(aj) != string(bj) || !sameState(before, s) {
			t.Fatalf("%v changed the state", a)
		}
	}
	check(Play(mine), "must take or pass")
	check(Bury(mine), "must take or pass")
	check(Action{Kind: 9}, "invalid action")
	mustPlay(t, s, Take())
	check(Take(), "must bury")
	check(Bury(other), "not in the picker's hand")
	check(Play(mine), "must bury")
	for range 4 {
		mustPlay(t, s, s.AppendLegal(nil)[0])
	}
	check(Pass(), "must play")
	leader := s.toMove
	check(Play(s.hands[(leader+1)%4].Cards()[0]), "not in seat")
	check(Play(Card(40)), "invalid action")
	if err := s.Apply(Pass()); err == nil {
		t.Fatal("Apply accepted a pass")
	}
	if err := s.Apply(nil); err == nil {
		t.Fatal("Apply accepted nil")
	}
	for !s.Over() {
		mustPlay(t, s, s.AppendLegal(nil)[0])
	}
	check(Pass(), "game is over")
}

// sameState compares two states field by field (the RNG by its state).
func sameState(a, b *State) bool {
	x, y := *a, *b
	pa, _ := a.pcg.MarshalBinary()
	pb, _ := b.pcg.MarshalBinary()
	x.pcg, y.pcg, x.rng, y.rng = nil, nil, nil, nil
	return reflect.DeepEqual(x, y) && string(pa) == string(pb)
}

// Rule: the seat left of the dealer leads the first trick (picker mode and
// Least mode) and also decides first in the pick.
func TestLeftOfDealerLeads(t *testing.T) {
	for seed := range uint64(30) {
		s := NewState(4, seed, DefaultRules())
		first := s.next(s.dealer)
		if seed%2 == 0 {
			mustPlay(t, s, Take())
			for range 4 {
				mustPlay(t, s, s.AppendLegal(nil)[0])
			}
		} else {
			for range 4 {
				mustPlay(t, s, Pass())
			}
		}
		if s.toMove != first || int(s.cur.leader) != first {
			t.Fatalf("seed %d: seat %d leads, want %d", seed, s.toMove, first)
		}
	}
}
