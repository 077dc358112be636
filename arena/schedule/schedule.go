// Package schedule decides who plays whom: one Scheduler per tournament
// format. Schedulers are lazy (a 100,000-game round-robin is never
// materialised) and deterministic, so a resumed tournament sees exactly the
// same games: the runner feeds the results already in the ledger back
// through Result and plays only what is missing. Adaptive formats (Swiss,
// brackets) decide each round from the results of the previous one.
package schedule

import (
	"fmt"
	"strings"
)

// Game is one scheduled game.
type Game struct {
	// ID is unique and stable within the tournament ("r1-p0003-g1"); the
	// ledger records it, and resume matches on it.
	ID    string
	Round int
	// Deal numbers the deal: games with the same Deal replay the same cards
	// (seats rotated), so seat and card luck cancel.
	Deal uint64
	// Seats holds the bot index for each seat.
	Seats []int
}

// Encounter names the encounter g belongs to: its ID without the game's
// number ("c1-r01-1-2" for "c1-r01-1-2-g3"). Every format's IDs end in
// "-gN", N the game's number within its encounter, so the games of one
// encounter (its seat rotations, and the games a tie adds) share it and
// no two encounters do.
func (g Game) Encounter() string {
	i := strings.LastIndex(g.ID, "-g")
	if i < 0 {
		return g.ID
	}
	return g.ID[:i]
}

// Status says what Next has to offer.
type Status int

const (
	// Ready: the returned game can start now.
	Ready Status = iota
	// Wait: nothing can start until a result of a game in flight arrives.
	Wait
	// Done: the tournament is complete once the games in flight finish.
	Done
)

// Scheduler hands out a tournament's games.
type Scheduler interface {
	// Next returns the next game to start.
	Next() (Game, Status)
	// Result reports a finished game: ranks per seat (1 is best).
	Result(g Game, ranks []int)
	// Total is the number of games in the tournament, or -1 when it is not
	// known in advance (elimination ties extend encounters).
	Total() int
}

// Config is what every format needs.
type Config struct {
	Bots  int // number of bots
	Seats int // seats per game
	// Rounds repeats a round-robin (2 = double round-robin); the number of
	// rounds of a Swiss.
	Rounds int
	// GamesPerEncounter is the number of games each time bots meet: with 2
	// seats a multiple of 2 (game pairs with seats swapped); with k seats,
	// a multiple of k (every seat rotation of one deal).
	GamesPerEncounter int
	// Gauntlet lists the bot indexes that play against all the others.
	Gauntlet []int
	// Seed makes table draws reproducible.
	Seed uint64
	// Seeding lists bot indexes in seed order, best first, for the formats
	// that seed (Swiss: round 1 and the order within a score; elimination
	// brackets; table elimination).
	// Bots left out follow in index order; empty means index order.
	Seeding []int
	// Advance is how many bots of each table go through to the next round
	// of a table elimination (1..Seats-1); 0 means Seats/2.
	Advance int
	// MaxGames caps an elimination encounter that is still tied after its
	// GamesPerEncounter games and is being extended game pair by game
	// pair: at MaxGames games the higher seed goes through. 0 means
	// TieCapFactor times GamesPerEncounter; otherwise an even number of
	// at least GamesPerEncounter.
	MaxGames int
}

// TieCapFactor is how many times its planned games an elimination
// encounter still tied is played to when Config.MaxGames is 0: a cap
// there must be, or two bots that always draw (deterministic bots at a
// ply cap, two that fail alike) would play one encounter for ever.
const TieCapFactor = 10

// maxGames is the cap on an elimination encounter (Config.MaxGames).
func (c Config) maxGames() int {
	if c.MaxGames > 0 {
		return c.MaxGames
	}
	return TieCapFactor * c.GamesPerEncounter
}

// Validate checks the parts every format shares.
func (c Config) Validate() error {
	switch {
	case c.Seats < 2:
		return fmt.Errorf("seats must be at least 2, got %d", c.Seats)
	case c.Bots < c.Seats:
		return fmt.Errorf("%d bots cannot fill a %d-seat table", c.Bots, c.Seats)
	case c.GamesPerEncounter < 1:
		return fmt.Errorf("games per encounter must be at least 1, got %d", c.GamesPerEncounter)
	case c.Rounds < 1:
		return fmt.Errorf("rounds must be at least 1, got %d", c.Rounds)
	}
	return nil
}

// rotations returns the seatings of one encounter: the table's bots
// rotated through every seat, repeated to fill games games.
func rotations(table []int, games int) [][]int {
	k := len(table)
	out := make([][]int, games)
	for g := range games {
		seats := make([]int, k)
		for s := range k {
			seats[s] = table[(s+g)%k]
		}
		out[g] = seats
	}
	return out
}
