package output

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/engine"

	"github.com/arena-dev/arena/internal/words"
)

// Match is arena match's text: a line per game on Progress (GameLine),
// and at the end the summary table with the Elo and LOS lines on Out
// (Summary), when a game was played.
type Match struct {
	Warnings
	Progress, Out io.Writer
	// Kept is true when the run keeps each bot's whole stderr (--out):
	// a forfeit then says where, else how to keep it.
	Kept bool
}

// Game writes the game's progress line.
func (m Match) Game(g Game) { fmt.Fprintln(m.Progress, GameLine(g.Record, g.Total, m.Kept)) }

// End writes the summary of a run that played a game.
func (m Match) End(e End) error {
	if e.Summary != nil && e.Summary.Games > 0 {
		Summary(m.Out, e.Summary, e.Took)
	}
	return nil
}

// GameLine is a game's progress line: the bots by seat with their ranks,
// the plies, how it ended, and for each bot that forfeited why (with
// what it last wrote to stderr, and where its whole log is: kept is true
// with --out), and for each bot struck (--on-timeout random) its strikes.
func GameLine(r ledger.Record, total int, kept bool) string {
	line := fmt.Sprintf("game %d/%d %s: %s, %s, %s", r.Index+1, total, r.GameID, PlacesText(r.Bots, r.Ranks), words.Count(r.Plies, "ply", "plies"), engine.NameSeats(r.Reason, r.Bots))
	return line + failuresText(r, kept)
}

// PlacesText lists a game's bots by finishing place, best first, seat
// order among equals: "random 1st, me 2nd"; bots sharing a place are
// named together: "me and random tied 1st", "a 1st, b, c and d tied 2nd".
func PlacesText(bots []string, ranks []int) string {
	order := make([]int, len(bots))
	for s := range order {
		order[s] = s
	}
	slices.SortStableFunc(order, func(a, b int) int { return ranks[a] - ranks[b] })
	var parts []string
	for i := 0; i < len(order); {
		var names []string
		j := i
		for ; j < len(order) && ranks[order[j]] == ranks[order[i]]; j++ {
			names = append(names, bots[order[j]])
		}
		place := words.Ordinal(ranks[order[i]])
		if len(names) == 1 {
			parts = append(parts, names[0]+" "+place)
		} else {
			parts = append(parts, words.List(names)+" tied "+place)
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// failuresText is what a game's progress line says of its forfeits and
// strikes, for arena match and arena tournament alike: for each bot
// that forfeited why (with what it last wrote to stderr, and where its
// whole log is: kept is true with --out), and for each bot struck
// (--on-timeout random) its strikes. "" for a game without either.
func failuresText(r ledger.Record, kept bool) string {
	var b strings.Builder
	for _, f := range r.Forfeits {
		b.WriteString(" [" + forfeitText(f, kept) + "]")
	}
	return b.String() + strikesText(r.Strikes)
}

// forfeitText is one forfeit, "BOT forfeited: REASON: DETAIL", with
// the hint, what the bot last wrote to stderr and where its whole log is
// (kept: with --out).
func forfeitText(f ledger.SeatFailure, kept bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s forfeited: %s: %s", f.Bot, f.Reason, f.Detail)
	if h := f.Hint(); h != "" {
		b.WriteString("; " + h)
	}
	if f.StderrLast != "" {
		fmt.Fprintf(&b, "; its stderr ends with %q", f.StderrLast)
		switch {
		case f.Log != "":
			b.WriteString("; whole log: " + f.Log)
		case !kept:
			b.WriteString(" (--out DIR keeps each bot's whole stderr)")
		}
	}
	return b.String()
}

// strikesText describes a game's strikes, per bot in the order they
// first struck: " [r struck 2 times: timeout, illegal_action; last: DETAIL]".
func strikesText(strikes []ledger.SeatFailure) string {
	var order []string
	per := map[string][]ledger.SeatFailure{}
	for _, f := range strikes {
		if per[f.Bot] == nil {
			order = append(order, f.Bot)
		}
		per[f.Bot] = append(per[f.Bot], f)
	}
	var b strings.Builder
	for _, bot := range order {
		fs := per[bot]
		reasons := make([]string, len(fs))
		for i, f := range fs {
			reasons[i] = string(f.Reason)
		}
		times := "once"
		if len(fs) > 1 {
			times = fmt.Sprintf("%d times", len(fs))
		}
		fmt.Fprintf(&b, " [%s struck %s: %s; last: %s]", bot, times, strings.Join(reasons, ", "), fs[len(fs)-1].Detail)
	}
	return b.String()
}

// strikeTotals is " (strikes: a 3, b 1)" for the bots of sum that were
// struck, "" if none was.
func strikeTotals(sum *match.Summary) string {
	if sum == nil || sum.Strikes() == 0 {
		return ""
	}
	var parts []string
	for _, b := range sum.Bots {
		if b.Strikes > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", b.Name, b.Strikes))
		}
	}
	return " (strikes: " + strings.Join(parts, ", ") + ")"
}

// maxTotalsBots bounds the bots forfeitTotals names.
const maxTotalsBots = 5

// forfeitTotals is " (forfeits: crash5 32, sleeper 3)" for the bots of
// sum that forfeited, most first, the first maxTotalsBots of them named;
// "" if none did.
func forfeitTotals(sum *match.Summary) string {
	if sum == nil {
		return ""
	}
	var bots []match.BotStats
	for _, b := range sum.Bots {
		if b.Forfeits > 0 {
			bots = append(bots, b)
		}
	}
	if len(bots) == 0 {
		return ""
	}
	slices.SortStableFunc(bots, func(a, b match.BotStats) int { return b.Forfeits - a.Forfeits })
	var parts []string
	for _, b := range bots[:min(len(bots), maxTotalsBots)] {
		parts = append(parts, fmt.Sprintf("%s %d", b.Name, b.Forfeits))
	}
	if more := len(bots) - maxTotalsBots; more > 0 {
		parts = append(parts, fmt.Sprintf("%d more bots", more))
	}
	return " (forfeits: " + strings.Join(parts, ", ") + ")"
}

// Summary writes a match's table, a bot a row, then with two bots the
// Elo and LOS lines, then the games, the time they took and where their
// results are.
func Summary(w io.Writer, sum *match.Summary, took time.Duration) {
	t := tablewriter.NewWriter(w)
	// Strikes (--on-timeout random) get a column when there are any: a
	// bot that was helped out of failed turns should be seen to be.
	struck := sum.Strikes() > 0
	header := []any{"bot", "games", "wins", "draws", "losses", "forfeits"}
	if struck {
		header = append(header, "strikes")
	}
	t.Header(append(header, "score", "score %", "mean rank")...)
	for _, b := range sum.Bots {
		row := []any{b.Name, b.Games, b.Wins, b.Draws, b.Losses, b.Forfeits}
		if struck {
			row = append(row, b.Strikes)
		}
		t.Append(append(row, fmt.Sprintf("%.1f", b.Score), fmt.Sprintf("%.1f", b.ScorePct()), fmt.Sprintf("%.2f", b.MeanRank))...)
	}
	t.Render()
	if e, ok := sum.EloEstimate(); ok {
		fmt.Fprintln(w, eloLine(sum.Bots[0].Name, sum.Bots[1].Name, e))
		fmt.Fprintln(w, losLine(sum.Bots[0].Name, sum.Bots[1].Name, e))
	}
	fmt.Fprintf(w, "%s in %v", words.Count(sum.Games, "game", "games"), took.Round(time.Millisecond))
	if sum.Out != "" {
		fmt.Fprintf(w, "; results in %s", filepath.Join(sum.Out, "results.jsonl"))
	}
	fmt.Fprintln(w)
}

// eloLine is the match's Elo line: a's Elo difference to b with its 95%
// interval, computed on the score scale and converted, so asymmetric, and
// open where the score's interval passes 0 or 1 ("+381.7, at least
// +159.0"); when one bot won every game, the exact bound, phrased on the
// side it bounds whichever bot is named first ("a vs b: at most -278" when
// b won all 20), and said to be inconclusive when it does not exclude the
// loser being the stronger (2 of 2 gives only "at least -291"). The
// parenthesis says what was counted: game pairs (one deal, seats swapped,
// pentanomial error bars, as arena sprt) or games.
func eloLine(a, b string, e match.EloEstimate) string {
	head := fmt.Sprintf("Elo difference %s vs %s: ", a, b)
	basis := fmt.Sprintf("%d games, unpaired", e.Units)
	if e.Paired {
		basis = fmt.Sprintf("%d game pairs", e.Units)
		if e.Units == 1 {
			basis = "1 game pair"
		}
	}
	if e.Left > 0 {
		basis += "; the last game, without its pair, left out"
	}
	if math.IsInf(e.Elo, 0) {
		return allWonText(head, a, b, e)
	}
	lo, hi := e.EloLow, e.EloHigh
	switch {
	case e.Units < 2:
		return fmt.Sprintf("%s%+.1f (%s: too few for an interval)", head, e.Elo, basis)
	case lo == hi:
		return fmt.Sprintf("%s%+.1f (%s, all scored alike: no spread to put an interval on)", head, e.Elo, basis)
	case stats.Symmetric(e.Elo, lo, hi):
		return fmt.Sprintf("%s%+.1f +/- %.1f (95%%; %s)", head, e.Elo, (hi-lo)/2, basis)
	case !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
		return fmt.Sprintf("%s%+.1f, 95%% interval [%+.1f, %+.1f] (%s)", head, e.Elo, lo, hi, basis)
	case !math.IsInf(lo, 0):
		return fmt.Sprintf("%s%+.1f, at least %+.1f (95%%; %s)", head, e.Elo, lo, basis)
	case !math.IsInf(hi, 0):
		return fmt.Sprintf("%s%+.1f, at most %+.1f (95%%; %s)", head, e.Elo, hi, basis)
	}
	return fmt.Sprintf("%s%+.1f, not bounded either way at 95%% (%s: too few games)", head, e.Elo, basis)
}

// allWonText is eloLine when one bot won every game: the exact bound.
func allWonText(head, a, b string, e match.EloEstimate) string {
	winner, bound, word := a, e.EloLow, "at least"
	if e.Elo < 0 {
		winner, bound, word = b, e.EloHigh, "at most"
	}
	all := fmt.Sprintf("all %d games", e.Games)
	switch e.Games {
	case 1:
		all = "the only game"
	case 2:
		all = "both games"
	}
	note := ""
	if (e.Elo > 0) != (bound > 0) {
		note = ": too few to tell which bot is stronger"
	}
	return fmt.Sprintf("%s%s %+.0f (95%%; %s won %s%s)", head, word, bound, winner, all, note)
}

// losLine is the match's likelihood of superiority of a over b, exact
// from the decisive games of the Elo estimate (stats.LOS): "LOS a vs b:
// 99.95% (the chance that the stronger is a, from the decisive games: 10
// won, 0 lost; draws do not count)".
func losLine(a, b string, e match.EloEstimate) string {
	return fmt.Sprintf("LOS %s vs %s: %s (the chance that the stronger is %s, from the decisive games: %d won, %d lost; draws do not count)",
		a, b, stats.FormatLOS(e.LOS), a, e.WDL.W, e.WDL.L)
}
