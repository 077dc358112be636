package match

import (
	"encoding/json"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/protocol"
)

// TestSummaryTally checks the W/D/L, score and mean-rank rules documented
// on BotStats, for 2 and 4 seats, with seats rotating between games.
func TestSummaryTally(t *testing.T) {
	s := NewSummary([]string{"a", "b", "c", "d"})
	// Game 0: seats hold bots a b c d; a wins alone, c and d tie last.
	s.add(ledger.Record{Index: 0, Bots: []string{"a", "b", "c", "d"}, Ranks: []int{1, 2, 3, 3}})
	// Game 1: seats hold bots b c d a (rotated); b and c share first,
	// a forfeited (seat 3).
	s.add(ledger.Record{Index: 1, Bots: []string{"b", "c", "d", "a"}, Ranks: []int{1, 1, 3, 4}, Forfeits: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 3, Reason: "crash"}, Bot: "a"}}})
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
	two.add(ledger.Record{Index: 0, Bots: []string{"x", "y"}, Ranks: []int{1, 1}})
	two.add(ledger.Record{Index: 1, Bots: []string{"y", "x"}, Ranks: []int{2, 1}}) // x wins
	if got := []int{two.Bots[0].Wins, two.Bots[0].Draws, two.Bots[0].Losses}; !reflect.DeepEqual(got, []int{1, 1, 0}) {
		t.Errorf("x W/D/L %v, want [1 1 0]", got)
	}
	if w := two.WDL(1); w != (stats.WDL{W: 0, D: 1, L: 1}) {
		t.Errorf("y WDL %+v", w)
	}
}

// Scores are sums of fractions of opponents; they are summed exactly, so
// the JSON shows 21, not 20.999999999999993 (63 thirds summed as floats),
// and the percentage is the exact one, rounded once.
func TestSummaryScoreExact(t *testing.T) {
	for _, tc := range []struct {
		name      string
		seats     int
		ranks     []int // bot 0 in seat 0, every game
		games     int
		wantScore float64
		wantJSON  string
		wantPct   float64
	}{
		{"4 seats, a third a game", 4, []int{3, 1, 2, 4}, 63, 21, `"score":21,`, 100.0 / 3},
		{"4 seats, two thirds a game", 4, []int{2, 1, 3, 4}, 63, 42, `"score":42,`, 200.0 / 3},
		{"4 seats, a tie", 4, []int{1, 1, 2, 3}, 30, 25, `"score":25,`, 250.0 / 3},
		{"3 seats, a quarter a game", 3, []int{2, 2, 1}, 10, 2.5, `"score":2.5,`, 25},
		{"2 seats, draws", 2, []int{1, 1}, 7, 3.5, `"score":3.5,`, 50},
	} {
		names := []string{"a", "b", "c", "d"}[:tc.seats]
		s := NewSummary(names)
		for g := range tc.games {
			s.Add(ledger.Record{Index: g, Seed: uint64(g), Bots: names, Ranks: tc.ranks})
		}
		a := s.Bots[0]
		data, _ := json.Marshal(a)
		if a.Score != tc.wantScore || !strings.Contains(string(data), tc.wantJSON) || a.ScorePct() != tc.wantPct {
			t.Errorf("%s: score %v, %v%%, JSON %s; want %v, %v%%", tc.name, a.Score, a.ScorePct(), data, tc.wantScore, tc.wantPct)
		}
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
	fresh := Config{Seed: 5, Secret: secret, Settings: run.Settings{FreshDeals: true}}
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

// EloEstimate counts a match of game pairs (two games per deal, seats
// swapped) by pairs, and one of fresh deals by games; a lone last game is
// left out of the pairs.
func TestSummaryEloEstimate(t *testing.T) {
	game := func(i int, seed uint64, first string, ranks ...int) ledger.Record {
		bots := []string{"a", "b"}
		if first == "b" {
			bots = []string{"b", "a"}
		}
		return ledger.Record{Index: i, Seed: seed, Bots: bots, Ranks: ranks}
	}
	// a's scores: pair 1: win (seat 0), loss (seat 1); pair 2: win, draw;
	// pair 3: win, win; then a lone win.
	paired := []ledger.Record{
		game(0, 7, "a", 1, 2), game(1, 7, "b", 1, 2),
		game(2, 8, "a", 1, 2), game(3, 8, "b", 1, 1),
		game(4, 9, "a", 1, 2), game(5, 9, "b", 2, 1),
		game(6, 10, "a", 1, 2),
	}
	pairsWDL := stats.WDL{W: 4, D: 1, L: 1} // a's record in the three pairs
	triEstimate := func(r stats.WDL) EloEstimate {
		return EloEstimate{Estimate: stats.EstimateTri(r), Units: r.Games(), Games: r.Games(), WDL: r}
	}
	fresh := make([]ledger.Record, len(paired))
	for i, r := range paired {
		r.Seed = uint64(100 + i)
		fresh[i] = r
	}
	cases := []struct {
		name    string
		records []ledger.Record
		want    EloEstimate
	}{
		{"pairs", paired[:6], EloEstimate{Estimate: stats.EstimatePenta(stats.Penta{0, 0, 1, 1, 1}, pairsWDL), Paired: true, Units: 3, Games: 6, WDL: pairsWDL}},
		// The lone win is left out of LOS too: the record is the pairs'.
		{"pairs and a lone game", paired, EloEstimate{Estimate: stats.EstimatePenta(stats.Penta{0, 0, 1, 1, 1}, pairsWDL), Paired: true, Units: 3, Games: 6, Left: 1, WDL: pairsWDL}},
		{"fresh deals", fresh, triEstimate(stats.WDL{W: 5, D: 1, L: 1})},
		{"a lone game", paired[:1], triEstimate(stats.WDL{W: 1})},
		{"a deal played three times", append(slices.Clone(paired[:4]), game(4, 8, "a", 2, 1)), triEstimate(stats.WDL{W: 2, D: 1, L: 2})},
		{"pairs finished out of order", []ledger.Record{paired[0], paired[2], paired[1], paired[3]}, triEstimate(stats.WDL{W: 2, D: 1, L: 1})},
		{"pairs, then a deal played three times", append(slices.Clone(paired[:4]), game(4, 9, "a", 1, 2), game(5, 9, "b", 1, 2), game(6, 9, "a", 1, 2)),
			triEstimate(stats.WDL{W: 4, D: 1, L: 2})},
	}
	for _, tc := range cases {
		s := NewSummary([]string{"a", "b"})
		for _, r := range tc.records {
			s.Add(r)
		}
		got, ok := s.EloEstimate()
		if !ok || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, %v\nwant %+v", tc.name, got, ok, tc.want)
		}
	}
	if _, ok := NewSummary([]string{"a", "b", "c"}).EloEstimate(); ok {
		t.Error("three bots: want no estimate")
	}
	if _, ok := NewSummary([]string{"a", "b"}).EloEstimate(); ok {
		t.Error("no games: want no estimate")
	}
}

// A summary keeps no record of the games it counted: its memory is the
// same after a million games as after ten.
func TestSummaryHoldsNoRecords(t *testing.T) {
	s := NewSummary([]string{"a", "b"})
	rec := func(i int) ledger.Record {
		return ledger.Record{Index: i, GameID: "g", Seed: uint64(i / 2), Bots: []string{"a", "b"}, Ranks: []int{1 + i%2, 2 - i%2}}
	}
	s.Add(rec(0))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const games = 100_000
	for i := 1; i < games; i++ {
		s.Add(rec(i))
	}
	runtime.ReadMemStats(&after)
	// A record kept is well over 100 bytes: 100k of them, over 10 MB.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("%d games allocated %d bytes: the summary keeps what it counted", games, grew)
	}
	if e, ok := s.EloEstimate(); !ok || !e.Paired || e.Games != games-games%2 || s.Games != games {
		t.Errorf("estimate %+v, %v over %d games", e, ok, s.Games)
	}
}
