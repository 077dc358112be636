package output

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"

	"github.com/arena-dev/arena/internal/words"
)

// Person is the seat of a person playing (arena/human's Seat), which
// shows them text between their turns.
type Person interface {
	// GameOver shows how game id ended.
	GameOver(id string, lines []string)
	// Say shows lines.
	Say(lines []string)
}

// Play is arena play's text, for the person at the table rather than a
// log: how each game ended in sentences (GameOverText), and after more
// than one game the outcome (PlaySummary). Its warnings go to Warnings.
type Play struct {
	Warnings
	Person Person
	// Name is the person's name in the games.
	Name string
	// Kept is true when the run keeps each bot's whole stderr (--out).
	Kept bool
}

// Game tells the person how the game ended.
func (p Play) Game(g Game) {
	p.Person.GameOver(g.Record.GameID, GameOverText(g.Record, g.Total, p.Name, p.Kept))
}

// End tells the person the outcome of more than one game.
func (p Play) End(e End) error {
	if e.Summary != nil && e.Summary.Games > 1 {
		p.Person.Say(PlaySummary(e.Summary))
	}
	return nil
}

// GameOverText is how a game of arena play ended, for the person (named
// person in it): who finished where and why, then each forfeit (but the
// person's leaving, said as they left) and strikes, in sentences the
// seat wraps to the screen (not the match's progress line: one long line
// of codes).
func GameOverText(r ledger.Record, total int, person string, kept bool) []string {
	head := "=== Game over: "
	if total > 1 {
		head = fmt.Sprintf("=== Game %d of %d over: ", r.Index+1, total)
	}
	text := head + resultWords(r) + "."
	// A game the forfeits cut short (one seat left, or none) ended for
	// them: the forfeits say why, and its reason would again.
	if len(r.Bots)-len(r.Forfeits) >= 2 {
		text += " " + sentence(engine.NameSeats(r.Reason, r.Bots))
	}
	out := []string{text}
	for _, f := range r.Forfeits {
		if f.Bot == person && f.Reason == protocol.ReasonLeft {
			continue
		}
		text := strings.TrimSuffix(forfeitText(f, kept), ".") + "."
		if f.Bot == person {
			text = sentence(text) // "You forfeited", a bot's name as given
		}
		out = append(out, text)
	}
	if s := strikesText(r.Strikes); s != "" {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

// resultWords is who won: "you won", "a draw", or the places with more
// than two players ("b 1st, you 2nd, a 3rd").
func resultWords(r ledger.Record) string {
	if len(r.Ranks) != 2 {
		return PlacesText(r.Bots, r.Ranks)
	}
	switch {
	case r.Ranks[0] == r.Ranks[1]:
		return "a draw"
	case r.Ranks[0] < r.Ranks[1]:
		return r.Bots[0] + " won"
	}
	return r.Bots[1] + " won"
}

// sentence is s with a capital first letter and a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return words.Capital(strings.TrimSuffix(s, ".")) + "."
}

// PlaySummary is the match's outcome for the person, after its games:
// a sentence each player, and the Elo difference with two players.
func PlaySummary(sum *match.Summary) []string {
	out := []string{fmt.Sprintf("=== After %s:", words.Count(sum.Games, "game", "games"))}
	for _, b := range sum.Bots {
		line := fmt.Sprintf("%s: %s, %s and %s", b.Name, words.Count(b.Wins, "win", "wins"), words.Count(b.Draws, "draw", "draws"), words.Count(b.Losses, "loss", "losses"))
		if b.Forfeits > 0 {
			line += fmt.Sprintf(" (%s)", words.Count(b.Forfeits, "forfeit", "forfeits"))
		}
		if len(sum.Bots) > 2 {
			line += fmt.Sprintf("; mean place %.2f", b.MeanRank)
		}
		out = append(out, line+".")
	}
	if e, ok := sum.EloEstimate(); ok {
		out = append(out, eloLine(sum.Bots[0].Name, sum.Bots[1].Name, e), losLine(sum.Bots[0].Name, sum.Bots[1].Name, e))
	}
	if sum.Out != "" {
		out = append(out, "Results: "+filepath.Join(sum.Out, "results.jsonl"))
	}
	return out
}
