package match

import (
	"reflect"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
)

// TestSummaryTally checks the W/D/L, score and mean-rank rules documented
// on BotStats, for 2 and 4 seats, with seats rotating between games.
func TestSummaryTally(t *testing.T) {
	s := NewSummary([]string{"a", "b", "c", "d"})
	// Game 0: seats hold bots a b c d; a wins alone, c and d tie last.
	s.add(GameRecord{Index: 0, Bots: []string{"a", "b", "c", "d"}, Ranks: []int{1, 2, 3, 3}})
	// Game 1: seats hold bots b c d a (rotated); b and c share first,
	// a forfeited (seat 3).
	s.add(GameRecord{Index: 1, Bots: []string{"b", "c", "d", "a"}, Ranks: []int{1, 1, 3, 4}, Forfeits: []SeatFailure{{Seat: 3, Bot: "a", Reason: "crash"}}})
	want := []BotStats{
		{Name: "a", Games: 2, Wins: 1, Losses: 1, Forfeits: 1, Score: 1 + 0, MeanRank: 2.5, rankSum: 5},
		{Name: "b", Games: 2, Draws: 1, Losses: 1, Score: 2.0/3 + 2.5/3, MeanRank: 1.5, rankSum: 3},
		{Name: "c", Games: 2, Draws: 1, Losses: 1, Score: 0.5/3 + 2.5/3, MeanRank: 2, rankSum: 4},
		{Name: "d", Games: 2, Losses: 2, Score: 0.5/3 + 1.0/3, MeanRank: 3, rankSum: 6},
	}
	for i := range want {
		got := s.Bots[i]
		if got.Games != want[i].Games || got.Wins != want[i].Wins || got.Draws != want[i].Draws || got.Losses != want[i].Losses ||
			got.Forfeits != want[i].Forfeits || got.MeanRank != want[i].MeanRank || abs(got.Score-want[i].Score) > 1e-9 {
			t.Errorf("bot %s: %+v, want %+v", want[i].Name, got, want[i])
		}
	}
	// Two seats: a draw is equal ranks.
	two := NewSummary([]string{"x", "y"})
	two.add(GameRecord{Index: 0, Bots: []string{"x", "y"}, Ranks: []int{1, 1}})
	two.add(GameRecord{Index: 1, Bots: []string{"y", "x"}, Ranks: []int{2, 1}}) // x wins
	if got := []int{two.Bots[0].Wins, two.Bots[0].Draws, two.Bots[0].Losses}; !reflect.DeepEqual(got, []int{1, 1, 0}) {
		t.Errorf("x W/D/L %v, want [1 1 0]", got)
	}
	if w := two.WDL(1); w != (struct{ W, D, L int }{0, 1, 1}) {
		t.Errorf("y WDL %+v", w)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestFreshDealsGiveEveryGameItsOwnDeal(t *testing.T) {
	secret := deal.New()
	dup := Config{Seed: 5, Secret: secret}
	fresh := Config{Seed: 5, Secret: secret, FreshDeals: true}
	if dup.gameSeed(0, 2) != dup.gameSeed(1, 2) || dup.gameSeed(1, 2) == dup.gameSeed(2, 2) {
		t.Error("duplicate deals: games 0 and 1 must share a deal, game 2 must not")
	}
	seen := map[uint64]bool{}
	for g := range 8 {
		s := fresh.gameSeed(g, 2)
		if seen[s] {
			t.Fatalf("fresh deals: game %d repeats a deal", g)
		}
		seen[s] = true
	}
}
