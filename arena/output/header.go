package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/tournament"

	"github.com/arena-dev/arena/internal/words"
)

// A run's first lines, "arena: ...", say what it is about to play before
// its bots start: the game, how many games, the seed, where the deal
// secret is (runplan.Run.SecretNote) and the clocks. How the bots are
// confined comes next (sandbox.Sandbox.Summary), said by the command.

// MatchHeader is arena match's first line.
func MatchHeader(w io.Writer, game string, games int, seed uint64, secret string, lim clock.Limits) {
	fmt.Fprintf(w, "arena: %s, %d games, seed %d, %s, %s\n", game, games, seed, secret, lim)
}

// PlayHeader is arena play's first line: the person at seat, the bots on
// the clock lim.
func PlayHeader(w io.Writer, game string, games int, seed uint64, seat int, lim clock.Limits) {
	fmt.Fprintf(w, "arena: %s, %s, seed %d, you at seat %d; bots: %s\n", game, words.Count(games, "game", "games"), seed, seat, lim)
}

// SPRTHeader is arena sprt's first line: the bots, the test's hypotheses
// and bounds, its caps.
func SPRTHeader(w io.Writer, cfg *sprt.Config, secret string) {
	lo, hi := cfg.SPRT.Bounds()
	mode := "game pairs (pentanomial)"
	if !cfg.Paired {
		mode = "independent games (trinomial)"
	}
	maxText := "no game cap"
	if cfg.MaxGames > 0 {
		maxText = fmt.Sprintf("at most %d games", cfg.MaxGames)
	}
	if cfg.MaxTime > 0 {
		maxText += fmt.Sprintf(", at most %v", cfg.MaxTime)
	}
	fmt.Fprintf(w, "arena: sprt %s (test) vs %s (base), %s, %d seats, %s, nElo H0 <= %g H1 >= %g, alpha %g beta %g, LLR bounds [%.2f, %.2f], %s, concurrency %d, seed %d, %s, %s\n",
		cfg.Test.Name, cfg.Base.Name, cfg.Game.Info().Name, cfg.Seats, mode, cfg.SPRT.Elo0, cfg.SPRT.Elo1, cfg.SPRT.Alpha, cfg.SPRT.Beta,
		lo, hi, maxText, cfg.Concurrency, cfg.Seed, secret, cfg.Limits)
}

// TournamentHeader is a tournament run's first line, into out.
func TournamentHeader(w io.Writer, cfg *tournament.Config, secret, out string) {
	fmt.Fprintf(w, "arena: tournament %s: %s %s, %d bots, %d seats, concurrency %d, seed %d, %s, results in %s\n",
		cfg.Name, cfg.Game.Info().Name, cfg.Format, len(cfg.Bots), cfg.Seats, cfg.Concurrency, cfg.Seed, secret, out)
}

// Roster says what a tournament run changed of who plays (notes, as
// tournament.Plan has them), and which bots take no part in it.
func Roster(w io.Writer, notes []string, cfg *tournament.Config) {
	for _, n := range notes {
		fmt.Fprintf(w, "arena: %s\n", n)
	}
	var out []string
	for i, b := range cfg.Bots {
		if why, ok := cfg.Absent[i]; ok {
			out = append(out, fmt.Sprintf("%s (%s)", b.Name, why))
		}
	}
	switch len(out) {
	case 0:
	case 1:
		fmt.Fprintf(w, "arena: not playing: %s; its remaining games are forfeits, recorded without starting it (--readmit NAME lets it play again)\n", out[0])
	default:
		fmt.Fprintf(w, "arena: not playing: %s; their remaining games are forfeits, recorded without starting them (--readmit NAME lets one play again)\n",
			strings.Join(out, ", "))
	}
}
