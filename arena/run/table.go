package run

import (
	"errors"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/seed"
)

// Table is one game to play: a scheduled game (its id in the schedule,
// round, deal number and bot per seat) as this run plays it.
type Table struct {
	schedule.Game
	Index  int
	GameID string // the run's id for it: results, replays and logs are named by it
	Seed   uint64 // the deal; no bot session plays one deal twice (pool.Pool)
	// Recorded is, for a game a resumed run finds already recorded, its
	// record: the game is counted, not played.
	Recorded *ledger.Record
	// BotSeeds, if set, are the seeds of the seats' bots (SeatSeeds): for
	// a table whose Seats index another list of bots than the run's (a
	// distributed worker's own).
	BotSeeds []uint64 `json:",omitempty"`
	// Absent, if set, says by seat why the seat's bot takes no part
	// ("" for one that plays): it was suspended (Settings.
	// MaxStartupFailures) or withdrawn (Config.Absent). It forfeits at
	// startup without being started (referee.Player.Absent); a game with
	// fewer than two bots taking part starts none (referee.Walkover).
	Absent []string `json:",omitempty"`
}

// players are t's seats as the referee sees them before any process is
// given them: each bot's name, and why it takes no part, if it does not.
func (t Table) players(bots *Roster) []referee.Player {
	players := make([]referee.Player, len(t.Seats))
	for s, b := range t.Seats {
		players[s].Name = bots.Name(b)
		if s < len(t.Absent) {
			players[s].Absent = t.Absent[s]
		}
	}
	return players
}

// ErrAbandoned: the game was cut short (its context ended) and is not
// kept. An Executor's Play returns it for a game it did not finish.
var ErrAbandoned = errors.New("the game was cut short")

// SeatSeeds are the seeds the table's bots get, by seat: BotSeeds, or
// derived from the deal and each seat's bot. A bot's seed follows the
// bot, not the seat: in a swapped pair each bot keeps its own random
// stream, so the pair differs only by seat.
func (t Table) SeatSeeds() []uint64 {
	if t.BotSeeds != nil {
		return t.BotSeeds
	}
	out := make([]uint64, len(t.Seats))
	for s, b := range t.Seats {
		out[s] = seed.Bot(t.Seed, b)
	}
	return out
}
