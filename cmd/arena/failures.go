package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/tournament"
)

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

// tournamentEvents are the lines a tournament's progress prints as they
// happen, whatever its throttle: a line for each game with a forfeit or
// a strike (failuresText, as arena match says it; a forfeit of a bot
// that took no part is said once, when it was suspended, not game after
// game), and one for each bot suspended.
func tournamentEvents(p tournament.Progress) []string {
	var lines []string
	r := p.Last
	r.Forfeits = slices.DeleteFunc(slices.Clone(r.Forfeits), func(f ledger.SeatFailure) bool { return f.Absent })
	if text := failuresText(r, true); text != "" {
		lines = append(lines, fmt.Sprintf("%s game %s:%s", p.Count(), r.GameID, text))
	}
	for _, s := range p.Suspended {
		lines = append(lines, fmt.Sprintf("arena: %s (a resume keeps it out; --readmit %s lets it play again)", s, s.Name))
	}
	return lines
}
