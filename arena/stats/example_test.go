package stats_test

import (
	"fmt"

	"github.com/arena-dev/arena/arena/stats"
)

// A round robin of three bots, each result a pair's totals over 100 games,
// rated all at once and shown as a standings table.
func ExampleBradleyTerry() {
	names := []string{"alpha", "beta", "gamma"}
	results := []stats.PairResult{
		// alpha-beta: 45 wins, 30 draws, 25 losses for alpha.
		{A: 0, B: 1, ScoreA: 1, Weight: 45},
		{A: 0, B: 1, ScoreA: 0.5, Weight: 30},
		{A: 0, B: 1, ScoreA: 0, Weight: 25},
		// beta-gamma: 40-30-30.
		{A: 1, B: 2, ScoreA: 1, Weight: 40},
		{A: 1, B: 2, ScoreA: 0.5, Weight: 30},
		{A: 1, B: 2, ScoreA: 0, Weight: 30},
		// gamma-alpha: 25-30-45.
		{A: 2, B: 0, ScoreA: 1, Weight: 25},
		{A: 2, B: 0, ScoreA: 0.5, Weight: 30},
		{A: 2, B: 0, ScoreA: 0, Weight: 45},
	}
	ratings, err := stats.BradleyTerry(len(names), results)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, r := range ratings {
		fmt.Printf("%-6s %+7.1f +/- %.1f\n", names[i], r.Elo, r.Err95)
	}
	// Output:
	// alpha    +46.8 +/- 32.7
	// beta     -11.7 +/- 32.3
	// gamma    -35.1 +/- 32.5
}

// Four bots play one free-for-all game; the second listed wins, the first
// and fourth share second place.
func ExamplePlackettLuce() {
	players := []stats.Skill{
		stats.DefaultSkill(),
		stats.DefaultSkill(),
		{Mu: 30, Sigma: 4},
		{Mu: 22, Sigma: 6},
	}
	ranks := []int{2, 1, 4, 2}
	for i, s := range stats.PlackettLuce(players, ranks, stats.DefaultParams()) {
		fmt.Printf("bot %d: mu %.3f sigma %.3f ordinal %.3f\n", i, s.Mu, s.Sigma, s.Ordinal())
	}
	// Output:
	// bot 0: mu 24.778 sigma 8.102 ordinal 0.471
	// bot 1: mu 28.278 sigma 8.228 ordinal 3.592
	// bot 2: mu 29.254 sigma 3.986 ordinal 17.297
	// bot 3: mu 22.094 sigma 5.946 ordinal 4.257
}

// The likelihood of superiority of 60 wins and 40 losses (the 20 draws do
// not count): the chance that a bot that wins a decisive game with
// probability p, p uniform a priori, has p > 1/2, P(X > 40) for X ~
// Binomial(101, 1/2).
func ExampleLOS() {
	fmt.Printf("%.4f\n", stats.LOS(stats.WDL{W: 60, D: 20, L: 40}))
	// Output:
	// 0.9770
}
