package schedule

import (
	"fmt"
	"slices"
)

// Gauntlet plays each of the Gauntlet bots against all the other bots
// (gauntlet bots do not meet each other), Rounds times. With 2 seats each
// encounter is GamesPerEncounter games as seat-swapped pairs on shared
// deals; with k seats a gauntlet bot sits with k-1 of the others at a
// time, cycling through them, and each table plays every seat rotation.
func Gauntlet(c Config) (Scheduler, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if len(c.Gauntlet) == 0 {
		return nil, fmt.Errorf("a gauntlet needs at least one gauntlet bot")
	}
	var others []int
	for b := range c.Bots {
		if !slices.Contains(c.Gauntlet, b) {
			others = append(others, b)
		}
	}
	for _, g := range c.Gauntlet {
		if g < 0 || g >= c.Bots {
			return nil, fmt.Errorf("gauntlet bot %d out of range", g)
		}
	}
	if len(others) < c.Seats-1 {
		return nil, fmt.Errorf("a %d-seat gauntlet needs at least %d opponents, got %d", c.Seats, c.Seats-1, len(others))
	}
	if c.GamesPerEncounter%c.Seats != 0 {
		return nil, fmt.Errorf("games per encounter must be a multiple of %d seats, got %d", c.Seats, c.GamesPerEncounter)
	}
	// Each gauntlet bot's opponents, k-1 at a time, wrapping around so
	// every table is full.
	var tables [][]int
	per := c.Seats - 1
	groups := (len(others) + per - 1) / per
	for _, g := range c.Gauntlet {
		for i := range groups {
			table := []int{g}
			for j := range per {
				table = append(table, others[(i*per+j)%len(others)])
			}
			tables = append(tables, table)
		}
	}
	return &gauntlet{c: c, tables: tables}, nil
}

type gauntlet struct {
	c      Config
	tables [][]int // one round's tables (small: gauntlet bots x groups)
	next   int
}

func (g *gauntlet) Total() int { return g.c.Rounds * len(g.tables) * g.c.GamesPerEncounter }

func (g *gauntlet) Next() (Game, Status) {
	gpe := g.c.GamesPerEncounter
	if g.next >= g.Total() {
		return Game{}, Done
	}
	idx := g.next
	g.next++
	round, rest := idx/(len(g.tables)*gpe), idx%(len(g.tables)*gpe)
	t, game := rest/gpe, rest%gpe
	return Game{
		ID:    fmt.Sprintf("r%d-t%03d-g%d", round+1, t+1, game+1),
		Round: round + 1,
		Deal:  uint64(round*gpe/g.c.Seats + game/g.c.Seats),
		Seats: rotations(g.tables[t], gpe)[game],
	}, Ready
}

func (g *gauntlet) Result(Game, []int) {}
