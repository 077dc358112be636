package output

import (
	"fmt"

	"github.com/arena-dev/arena/arena/remote"

	"github.com/arena-dev/arena/internal/words"
)

// EventLine is the line arena connect (and arena bot --nats) prints for
// e, so that whoever serves a bot sees it play: "session 2 started (2
// running)", "session 2: game cup-c1-r01-0-1-g1 as far (seat 1): 1st of 2
// (far 1st, r1 2nd), all 16 red pieces captured", "session 2 ended: the
// arena needs it no more (bye) (1 running)".
func EventLine(e remote.Event) string {
	switch e.Kind {
	case remote.SessionStarted:
		return fmt.Sprintf("session %d started (%d running)", e.Session, e.Running)
	case remote.GameEnded:
		g := e.Game
		place, tied := g.Place()
		if place == 0 {
			return fmt.Sprintf("session %d: game %s ended: %s", e.Session, g.End.GameID, g.End.Reason)
		}
		word := words.Ordinal(place)
		if tied {
			word = "tied " + word
		}
		return fmt.Sprintf("session %d: game %s as %s (seat %d): %s of %d (%s), %s", e.Session, g.Hello.GameID,
			g.Hello.Players[g.Hello.Seat], g.Hello.Seat, word, len(g.End.Ranks), PlacesText(g.Hello.Players, g.End.Ranks), g.End.Reason)
	}
	in := ""
	if e.Game != nil {
		// The referee tells a bot that fails no result: it closes its
		// session, as it does every session when a run is stopped.
		in = fmt.Sprintf(" in game %s, before its end (the bot forfeited it, or the run stopped)", e.Game.Hello.GameID)
	}
	return fmt.Sprintf("session %d ended%s: %s (%d running)", e.Session, in, e.Why, e.Running)
}
