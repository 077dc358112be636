package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/arena-dev/arena/arena/bot"
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

// Served is what arena serve prints once its server is up: where it is,
// its JetStream bounds, and how bots and arenas connect to it (a's).
func Served(w io.Writer, a remote.Access) {
	fmt.Fprintf(w, "arena: NATS server at %s (JetStream store %s, at most %s on disk, %s in memory)\n", a.URL, a.Store, a.MaxStore, a.MaxMemory)
	if a.Open {
		fmt.Fprintf(w, "arena: warning: no --keys: anyone who reaches %s can connect, read every bot's lines and speak for any bot; use it only on a network you trust\n", a.Listen)
		fmt.Fprintf(w, "arena: bots:  arena connect --nats %s --bot BOTID -- CMD\n", a.URL)
		fmt.Fprintf(w, "arena: games: arena match --nats %s --bot NAME=nats:BOTID ...\n", a.URL)
		return
	}
	fmt.Fprintf(w, "arena: %d bot keys from %s\n", a.BotKeys, a.KeysDir)
	fmt.Fprintf(w, "arena: bots:  arena connect --nats %s --creds %s --bot BOTID -- CMD\n", a.URL, a.BotCreds)
	fmt.Fprintf(w, "arena: games: arena match --nats %s --nats-creds %s --bot NAME=nats:BOTID ...\n", a.URL, a.ArenaCreds)
}

// Worker is arena worker's first line: its name, the server it takes
// jobs from, how many games it plays at once, and the bots it plays.
func Worker(w io.Writer, name, url string, concurrency int, bots []bot.Spec) {
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.Name
	}
	fmt.Fprintf(w, "arena: worker %s at %s, %d game(s) at once, bots: %s\n", name, url, concurrency, strings.Join(names, ", "))
}
