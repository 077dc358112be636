package schedule

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// RoundRobin is every bot against every other, Rounds times.
//
// With 2 seats it walks the circle method (Berger tables), so after any
// prefix every bot has played about as many games; each pairing plays
// GamesPerEncounter games as pairs with seats swapped on one deal, and
// every pairing plays the same deals, so card luck cancels across the
// whole table too.
//
// With k > 2 seats, each table round splits the bots into tables of k,
// choosing tablemates greedily to even out how often every pair has shared
// a table; each table plays every seat rotation of one deal. When k does
// not divide the number of bots, the bots that sat out least sit out next.
func RoundRobin(c Config) (Scheduler, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if c.Seats == 2 {
		if c.GamesPerEncounter%2 != 0 {
			return nil, fmt.Errorf("games per encounter must be even with 2 seats (game pairs with seats swapped), got %d", c.GamesPerEncounter)
		}
		return &pairRR{c: c, n: c.Bots + c.Bots%2}, nil
	}
	if c.GamesPerEncounter%c.Seats != 0 {
		return nil, fmt.Errorf("games per encounter must be a multiple of %d seats (every seat rotation of a deal), got %d", c.Seats, c.GamesPerEncounter)
	}
	return newTableRR(c), nil
}

// pairRR is the two-seat round-robin; n is the bot count rounded up to
// even (the extra "bot" is a bye).
type pairRR struct {
	c    Config
	n    int
	next int // index of the next game in the whole schedule
}

func (r *pairRR) perRound() int { return (r.n - 1) * (r.n / 2) } // pairings per cycle, byes included

func (r *pairRR) Total() int {
	pairs := r.c.Bots * (r.c.Bots - 1) / 2
	return r.c.Rounds * pairs * r.c.GamesPerEncounter
}

func (r *pairRR) Next() (Game, Status) {
	gpe := r.c.GamesPerEncounter
	for {
		idx := r.next
		slot, game := idx/gpe, idx%gpe
		cycle, inCycle := slot/r.perRound(), slot%r.perRound()
		if cycle >= r.c.Rounds {
			return Game{}, Done
		}
		r.next++
		round, match := inCycle/(r.n/2), inCycle%(r.n/2)
		a, b := berger(r.n, round, match)
		if a >= r.c.Bots || b >= r.c.Bots {
			r.next += gpe - 1 // a bye: skip the whole encounter
			continue
		}
		if game%2 == 1 {
			a, b = b, a
		}
		return Game{
			ID:    fmt.Sprintf("c%d-r%02d-%d-%d-g%d", cycle+1, round+1, min(a, b), max(a, b), game+1),
			Round: cycle*(r.n-1) + round + 1,
			Deal:  uint64(cycle*gpe/2 + game/2),
			Seats: []int{a, b},
		}, Ready
	}
}

func (r *pairRR) Result(Game, []int) {}

// RoundRobinCycle is the cycle (from 0) of game g of the round-robin c
// schedules, from its Round: with 2 seats, the Berger tables it is part
// of, after which every pair has met once more; with k seats, a cycle is
// the ceil((n-1)/(k-1)) table rounds in which every pair shares a table
// about once (the plan balances pairs over all of them, so a cycle's
// pairs are even only as far as the sit-outs and the plan allow, and
// the last cycle may be short).
func RoundRobinCycle(c Config, g Game) int {
	if c.Seats == 2 {
		n := c.Bots + c.Bots%2
		return (g.Round - 1) / max(n-1, 1)
	}
	per := max(1, (c.Bots-1+c.Seats-2)/(c.Seats-1))
	return (g.Round - 1) / per
}

// berger gives the match'th pairing of a round of the circle method for n
// (even) players: player n-1 stays put, the others rotate.
func berger(n, round, match int) (int, int) {
	if match == 0 {
		other := round % (n - 1)
		if round%2 == 1 { // alternate who has the fixed player's first seat
			return n - 1, other
		}
		return other, n - 1
	}
	a := (round + match) % (n - 1)
	b := (round - match + n - 1) % (n - 1)
	return a, b
}

// tableRR is the k-seat round-robin. Its table plan (which bots share a
// table in each table round) is small (rounds x bots numbers) and is made
// up front so it can be balanced globally; the games themselves are still
// handed out lazily.
type tableRR struct {
	c     Config
	plan  [][][]int // table round -> tables -> bots
	round int       // next table round
	table int       // next table of that round
	game  int       // next game of that table
}

func newTableRR(c Config) *tableRR {
	// Every pair should share a table Rounds times: that takes about
	// Rounds*(n-1)/(k-1) table rounds.
	rounds := max(1, (c.Rounds*(c.Bots-1)+c.Seats-2)/(c.Seats-1))
	// Small plans get stuck in poor local optima; several starts are cheap
	// for them, so the work stays about the same for every field size.
	starts := max(1, min(32, 20000/(c.Bots*rounds)))
	var best [][][]int
	bestCost := -1
	for s := range starts {
		plan, cost := planTables(c.Bots, c.Seats, rounds, c.Seed+uint64(s))
		if bestCost < 0 || cost < bestCost {
			best, bestCost = plan, cost
		}
	}
	return &tableRR{c: c, plan: best}
}

func (t *tableRR) Total() int {
	return len(t.plan) * (t.c.Bots / t.c.Seats) * t.c.GamesPerEncounter
}

func (t *tableRR) Next() (Game, Status) {
	if t.round == len(t.plan) {
		return Game{}, Done
	}
	gpe, k := t.c.GamesPerEncounter, t.c.Seats
	g := Game{
		ID:    fmt.Sprintf("r%03d-t%02d-g%d", t.round+1, t.table+1, t.game+1),
		Round: t.round + 1,
		// Every table of a round plays the same deals.
		Deal:  uint64(t.round*gpe/k + t.game/k),
		Seats: rotations(t.plan[t.round][t.table], gpe)[t.game],
	}
	t.game++
	if t.game == gpe {
		t.game = 0
		t.table++
		if t.table == len(t.plan[t.round]) {
			t.table = 0
			t.round++
		}
	}
	return g, Ready
}

func (t *tableRR) Result(Game, []int) {}

// planTables splits n bots into tables of k for each of rounds rounds.
// Sit-outs (when k does not divide n) go round-robin. Then a swap search
// over the whole plan moves bots between two tables of the same round
// while that lowers the sum over pairs of (times they share a table)^2,
// which evens pair counts out.
func planTables(n, k, rounds int, seed uint64) ([][][]int, int) {
	rng := rand.New(rand.NewPCG(seed, 0x7ab1e))
	together := make([][]int, n)
	for i := range together {
		together[i] = make([]int, n)
	}
	add := func(table []int, d int) {
		for _, a := range table {
			for _, b := range table {
				if a != b {
					together[a][b] += d
				}
			}
		}
	}
	out := n % k
	plan := make([][][]int, rounds)
	next := 0 // next bot to sit out
	for r := range plan {
		order := rng.Perm(n)
		sitting := map[int]bool{}
		for range out {
			sitting[next] = true
			next = (next + 1) % n
		}
		var playing []int
		for _, b := range order {
			if !sitting[b] {
				playing = append(playing, b)
			}
		}
		for i := 0; i+k <= len(playing); i += k {
			table := append([]int(nil), playing[i:i+k]...)
			plan[r] = append(plan[r], table)
			add(table, 1)
		}
	}
	// delta of sum of squares when a leaves table x for y and b leaves y for x.
	gain := func(x, y []int, i, j int) int {
		a, b := x[i], y[j]
		d := 0
		for ii, m := range x {
			if ii != i { // a leaves m, b joins m
				d += sq(together[a][m]-1) - sq(together[a][m]) + sq(together[b][m]+1) - sq(together[b][m])
			}
		}
		for jj, m := range y {
			if jj != j {
				d += sq(together[b][m]-1) - sq(together[b][m]) + sq(together[a][m]+1) - sq(together[a][m])
			}
		}
		return d
	}
	for pass := 0; pass < 50; pass++ {
		improved := false
		for _, tables := range plan {
			for x := range tables {
				for y := x + 1; y < len(tables); y++ {
					for i := range tables[x] {
						for j := range tables[y] {
							if gain(tables[x], tables[y], i, j) < 0 {
								add(tables[x], -1)
								add(tables[y], -1)
								tables[x][i], tables[y][j] = tables[y][j], tables[x][i]
								add(tables[x], 1)
								add(tables[y], 1)
								improved = true
							}
						}
					}
				}
			}
		}
		if !improved {
			break
		}
	}
	cost := 0
	for _, tables := range plan {
		for _, table := range tables {
			slices.Sort(table)
		}
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			cost += sq(together[a][b])
		}
	}
	return plan, cost
}

func sq(x int) int { return x * x }
