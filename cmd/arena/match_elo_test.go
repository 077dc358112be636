package main

import (
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/stats"
)

// matchOf builds the summary of a two-bot match from bot a's score in each
// game: with paired true consecutive games share a deal (seed) and swap
// seats, as arena match plays them; else every game has its own deal
// (--fresh-deals).
func matchOf(a, b string, scores []float64, paired bool) *match.Summary {
	sum := match.NewSummary([]string{a, b})
	for g, s := range scores {
		seed := uint64(1000 + g)
		if paired {
			seed = uint64(1000 + g/2)
		}
		bots := []string{a, b}
		ranks := map[float64][]int{1: {1, 2}, 0.5: {1, 1}, 0: {2, 1}}[s]
		if g%2 == 1 {
			bots = []string{b, a}
			ranks = []int{ranks[1], ranks[0]}
		}
		sum.Add(ledger.Record{Index: g, Seed: seed, Bots: bots, Ranks: ranks})
	}
	return sum
}

// eloOf is the Elo of a score, written out independently of stats.
func eloOf(p float64) float64 { return 400 * math.Log10(p/(1-p)) }

func repeat(n int, s ...float64) []float64 {
	var out []float64
	for range n {
		out = append(out, s...)
	}
	return out
}

func eloLineOf(sum *match.Summary) string {
	var b strings.Builder
	output.Summary(&b, sum, time.Second)
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "Elo difference") {
			return l
		}
	}
	return ""
}

func TestMatchEloLine(t *testing.T) {
	// 20 game pairs of a game where the deal and seat decide most games:
	// 16 pairs split 1-1, 3 swept by a, 1 by b. Counted by pairs (as arena
	// sprt counts them) the split pairs carry no noise; counted as 40
	// independent games (22-18) the error bar is much wider.
	seatLuck := append(repeat(16, 1, 0), repeat(3, 1, 1)...)
	seatLuck = append(seatLuck, 0, 0)
	pe := stats.EstimatePenta(stats.Penta{1, 0, 16, 0, 3}, stats.WDL{W: 22, L: 18})
	te := stats.EstimateTri(stats.WDL{W: 22, L: 18})
	if !(pe.EloHigh-pe.EloLow < 0.7*(te.EloHigh-te.EloLow)) {
		t.Fatalf("the example should make pairs narrower: paired %+v, independent %+v", pe, te)
	}
	cases := []struct {
		name string
		sum  *match.Summary
		want string
	}{
		{"paired error bars", matchOf("a", "b", seatLuck, true),
			fmt.Sprintf("Elo difference a vs b: %+.1f +/- %.1f (95%%; 20 game pairs)", pe.Elo, (pe.EloHigh-pe.EloLow)/2)},
		{"fresh deals: per game", matchOf("a", "b", seatLuck, false),
			fmt.Sprintf("Elo difference a vs b: %+.1f +/- %.1f (95%%; 40 games, unpaired)", te.Elo, (te.EloHigh-te.EloLow)/2)},
		// An asymmetric interval shows both ends: 7-3 over 10 games is
		// score 0.7 +/- 1.96 * 0.1449, [0.416, 0.984], which the Elo scale
		// stretches towards 1.
		{"asymmetric", matchOf("a", "b", append(repeat(7, 1), 0, 0, 0), false),
			fmt.Sprintf("Elo difference a vs b: +147.2, 95%% interval [%+.1f, %+.1f] (10 games, unpaired)", eloOf(0.7-1.959964*0.1449138), eloOf(0.7+1.959964*0.1449138))},
		// 9-1 over 10 games of fresh deals: the score interval [0.714,
		// 1.086] passes 1, so there is no upper bound (it was printed as
		// +381.7 +/- 1720.5).
		{"open upper end", matchOf("greedy", "random", append(repeat(9, 1), 0), false),
			"Elo difference greedy vs random: +381.7, at least +159.0 (95%; 10 games, unpaired)"},
		{"open lower end", matchOf("random", "greedy", append(repeat(9, 0), 1), false),
			"Elo difference random vs greedy: -381.7, at most -159.0 (95%; 10 games, unpaired)"},
		// The one-sided bounds read right whichever bot is named first,
		// and say when two games cannot tell.
		{"2 of 2, winner first", matchOf("js", "py", []float64{1, 1}, true),
			"Elo difference js vs py: at least -291 (95%; js won both games: too few to tell which bot is stronger)"},
		{"2 of 2, winner second", matchOf("py", "js", []float64{0, 0}, true),
			"Elo difference py vs js: at most +291 (95%; js won both games: too few to tell which bot is stronger)"},
		{"20 of 20, winner first", matchOf("js", "py", repeat(20, 1), true),
			"Elo difference js vs py: at least +277 (95%; js won all 20 games)"},
		{"20 of 20, winner second", matchOf("py", "js", repeat(20, 0), true),
			"Elo difference py vs js: at most -277 (95%; js won all 20 games)"},
		// No spread to bound: one game pair (it printed +0.0 +/- 0.0), and
		// ten games every one of them a draw.
		{"one game pair", matchOf("a", "b", []float64{1, 0}, true),
			"Elo difference a vs b: +0.0 (1 game pair: too few for an interval)"},
		{"all drawn", matchOf("a", "b", repeat(10, 0.5), false),
			"Elo difference a vs b: +0.0 (10 games, unpaired, all scored alike: no spread to put an interval on)"},
		// An odd number of games: the last one has no partner and is left
		// out of the paired estimate.
		{"a lone last game", matchOf("a", "b", append(append([]float64(nil), seatLuck...), 1), true),
			fmt.Sprintf("Elo difference a vs b: %+.1f +/- %.1f (95%%; 20 game pairs; the last game, without its pair, left out)", pe.Elo, (pe.EloHigh-pe.EloLow)/2)},
	}
	for _, tc := range cases {
		if got := eloLineOf(tc.sum); got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// The match's LOS line is the exact LOS of the decisive games (draws do
// not count): 99.95% for 10-0, not the normal approximation's 100%, and
// 0.6% (0.0059) for 1-9, not 1.2e-05.
func TestMatchLOSLine(t *testing.T) {
	for _, tc := range []struct {
		name string
		sum  *match.Summary
		want string
	}{
		{"10-0 in 5 pairs", matchOf("js", "py", repeat(10, 1), true),
			"LOS js vs py: 99.95% (the chance that the stronger is js, from the decisive games: 10 won, 0 lost; draws do not count)"},
		{"1-9, fresh deals", matchOf("a", "b", append([]float64{1}, repeat(9, 0)...), false),
			"LOS a vs b: 0.6% (the chance that the stronger is a, from the decisive games: 1 won, 9 lost; draws do not count)"},
		{"draws do not count", matchOf("a", "b", append(repeat(10, 1), repeat(4, 0.5)...), true),
			"LOS a vs b: 99.95% (the chance that the stronger is a, from the decisive games: 10 won, 0 lost; draws do not count)"},
		{"a lone last game is left out", matchOf("a", "b", append(repeat(10, 1), 0), true),
			"LOS a vs b: 99.95% (the chance that the stronger is a, from the decisive games: 10 won, 0 lost; draws do not count)"},
		{"even", matchOf("a", "b", repeat(6, 1, 0), false),
			"LOS a vs b: 50.0% (the chance that the stronger is a, from the decisive games: 6 won, 6 lost; draws do not count)"},
	} {
		var b strings.Builder
		output.Summary(&b, tc.sum, time.Second)
		if !strings.Contains(b.String(), tc.want+"\n") {
			t.Errorf("%s: want the line\n%s\nin\n%s", tc.name, tc.want, b.String())
		}
	}
}

// A real 10-game match that one bot wins every game of (the other exits
// at once and forfeits): the summary shows the exact LOS, 99.95%.
func TestMatchLOSTenGames(t *testing.T) {
	t.Parallel()
	falseCmd, err := exec.LookPath("false")
	if err != nil {
		t.Skip("no false(1)")
	}
	stdout, stderr, code := arena(t, "match", "--game", "banqi", "--bot", "random=arena bot random", "--bot", "dead="+falseCmd,
		"--games", "10", "--seed", "3", "-q")
	if code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", code, stdout, stderr)
	}
	if want := "LOS random vs dead: 99.95% (the chance that the stronger is random, from the decisive games: 10 won, 0 lost"; !strings.Contains(stdout, want) {
		t.Errorf("want %q in the summary:\n%s", want, stdout)
	}
}
