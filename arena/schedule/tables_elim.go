package schedule

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// TableElimination is an elimination for k-seat games: rounds of full
// tables of Config.Seats bots, the best Config.Advance of each table going
// through, until a final table decides the winner.
//
// Field split. A round with a alive bots (a > k) seats floor(a/k) full
// tables; the a mod k best-seeded alive bots get byes (they go through
// without playing), since every game needs all k seats filled. Through go
// the byes plus Advance from each table. Should that leave fewer than k
// bots (say 5 bots at 4 seats, Advance 1: one table and one bye would
// leave 2), the tables send more through instead, one more per table in
// table order, until exactly k are left. A round of exactly k bots is the
// final table. The whole plan depends only on the counts, so Total is
// known: the sum over rounds of tables * GamesPerEncounter.
//
// Seating. Seed order is Config.Seeding (default index order) throughout.
// The bots who play are dealt to the tables in snake order by seed (table
// 1, 2, ..., t, t, ..., 2, 1, 1, 2, ...), so every table gets a spread of
// seeds; the first seat of a table's first game is its best seed. Each
// table plays every seat rotation of one deal, GamesPerEncounter/k times.
//
// Advancement. A game gives each bot the share of its opponents it
// beat, ties counting half (first of 4 scores 1, last 0, a two-way tie
// for first 5/6 each). The bots of a table are ordered by the sum of
// those points over the table's games, then by their best single-game rank,
// then by seed; the first ones go through, and the final table's order is
// the final ranking.
//
// Rounds are numbered from 1 (Game.Round); Game IDs are "e2-t03-g4"
// (round 2, table 3, game 4). Deal = (round-1)*gpe/k + game/k: every table
// of a round plays the same deals. A round is seated once every result of
// the one before is in.
func TableElimination(c Config) (Scheduler, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	k := c.Seats
	if c.GamesPerEncounter%k != 0 {
		return nil, fmt.Errorf("games per encounter must be a multiple of %d seats (every seat rotation of a deal), got %d", k, c.GamesPerEncounter)
	}
	adv := c.Advance
	if adv == 0 {
		adv = max(1, k/2)
	}
	if adv < 1 || adv >= k {
		return nil, fmt.Errorf("advance must be between 1 and %d (seats-1), got %d", k-1, c.Advance)
	}
	order, seedOf, err := seedOrder(c)
	if err != nil {
		return nil, err
	}
	x := &TableKnockout{c: c, adv: adv, order: order, seedOf: seedOf, pending: pendings{}}
	for a := c.Bots; ; {
		t := a / k
		p := tablePlan{alive: a, tables: t, byes: a - t*k}
		if a == k {
			p.advance = []int{0}
			x.plan = append(x.plan, p)
			break
		}
		p.advance = make([]int, t)
		next := p.byes
		for i := range p.advance {
			p.advance[i] = adv
			next += adv
		}
		for i := 0; next < k; i = (i + 1) % t {
			if p.advance[i] < k-1 {
				p.advance[i]++
				next++
			}
		}
		x.plan = append(x.plan, p)
		a = next
	}
	return x, nil
}

type tablePlan struct {
	alive, tables, byes int
	advance             []int // per table; the final's is 0
}

// TableKnockout is the table elimination scheduler; View shows its state.
type TableKnockout struct {
	c       Config
	adv     int
	order   []int
	seedOf  []int
	plan    []tablePlan
	rounds  []*tableRound
	pending pendings
}

type tableRound struct {
	alive  []int   // by seed
	byes   []int   // by seed
	tables [][]int // bots, best seed first
	done   []bool  // per game: table*gpe + game
	issued []bool
	units  [][]int // per table, per position: placement points in 1/(2(k-1))
	best   [][]int // per table, per position: best single-game rank
	played []int   // per table: finished games
	next   int
	open   int
	ids    map[string]int
}

// Total is known from the plan.
func (x *TableKnockout) Total() int {
	t := 0
	for _, p := range x.plan {
		t += max(p.tables, 1) * x.c.GamesPerEncounter
	}
	return t
}

func (x *TableKnockout) gameOf(r, i int) Game {
	gpe, k := x.c.GamesPerEncounter, x.c.Seats
	rd := x.rounds[r]
	t, g := i/gpe, i%gpe
	seats := make([]int, k)
	for s := range k {
		seats[s] = rd.tables[t][(s+g)%k]
	}
	return Game{
		ID:    fmt.Sprintf("e%d-t%02d-g%d", r+1, t+1, g+1),
		Round: r + 1,
		Deal:  uint64(r*gpe/k + g/k),
		Seats: seats,
	}
}

// Next hands out the current round's games; the next round is seated when
// the current one is complete.
func (x *TableKnockout) Next() (Game, Status) {
	for {
		if n := len(x.rounds); n > 0 {
			rd := x.rounds[n-1]
			for rd.next < len(rd.done) {
				i := rd.next
				rd.next++
				if !rd.done[i] {
					rd.issued[i] = true
					return x.gameOf(n-1, i), Ready
				}
			}
			if n == len(x.plan) {
				return Game{}, Done
			}
			if rd.open > 0 {
				return Game{}, Wait
			}
		}
		x.startRound()
	}
}

// Result records a finished game.
func (x *TableKnockout) Result(g Game, ranks []int) {
	if len(ranks) != x.c.Seats || len(g.Seats) != x.c.Seats {
		return
	}
	if n := len(x.rounds); n > 0 {
		rd := x.rounds[n-1]
		if i, ok := rd.ids[g.ID]; ok {
			if !rd.done[i] && slices.Equal(x.gameOf(n-1, i).Seats, g.Seats) {
				x.record(rd, i, g.Seats, ranks)
			}
			return
		}
	}
	x.pending.hold(g, ranks)
}

func (x *TableKnockout) record(rd *tableRound, i int, seats, ranks []int) {
	gpe, k := x.c.GamesPerEncounter, x.c.Seats
	rd.done[i] = true
	rd.open--
	t, g := i/gpe, i%gpe
	rd.played[t]++
	for s := range k {
		pos := (s + g) % k // seats[s] = tables[t][(s+g)%k]
		u := 0
		for o := range k {
			switch {
			case o == s:
			case ranks[s] < ranks[o]:
				u += 2
			case ranks[s] == ranks[o]:
				u++
			}
		}
		rd.units[t][pos] += u
		if rd.best[t][pos] == 0 || ranks[s] < rd.best[t][pos] {
			rd.best[t][pos] = ranks[s]
		}
	}
}

// standing orders a table's positions: placement points, best single-game
// rank, seed.
func (x *TableKnockout) standing(rd *tableRound, t int) []int {
	pos := make([]int, len(rd.tables[t]))
	for i := range pos {
		pos[i] = i
	}
	slices.SortFunc(pos, func(a, b int) int {
		return cmp.Or(cmp.Compare(rd.units[t][b], rd.units[t][a]), cmp.Compare(rd.best[t][a], rd.best[t][b]),
			cmp.Compare(x.seedOf[rd.tables[t][a]], x.seedOf[rd.tables[t][b]]))
	})
	out := make([]int, len(pos))
	for i, p := range pos {
		out[i] = rd.tables[t][p]
	}
	return out
}

func (x *TableKnockout) startRound() {
	r := len(x.rounds)
	p := x.plan[r]
	var alive []int
	if r == 0 {
		alive = slices.Clone(x.order)
	} else {
		prev := x.rounds[r-1]
		alive = slices.Clone(prev.byes)
		for t := range prev.tables {
			alive = append(alive, x.standing(prev, t)[:x.plan[r-1].advance[t]]...)
		}
		slices.SortFunc(alive, func(a, b int) int { return cmp.Compare(x.seedOf[a], x.seedOf[b]) })
	}
	k, gpe := x.c.Seats, x.c.GamesPerEncounter
	nt := max(p.tables, 1)
	rd := &tableRound{alive: alive, byes: alive[:p.byes], tables: make([][]int, nt), ids: map[string]int{}}
	for i, b := range alive[p.byes:] {
		t := i % (2 * nt)
		if t >= nt {
			t = 2*nt - 1 - t
		}
		rd.tables[t] = append(rd.tables[t], b)
	}
	rd.done = make([]bool, nt*gpe)
	rd.issued = make([]bool, nt*gpe)
	rd.open = nt * gpe
	rd.played = make([]int, nt)
	rd.units = make([][]int, nt)
	rd.best = make([][]int, nt)
	for t := range nt {
		rd.units[t] = make([]int, k)
		rd.best[t] = make([]int, k)
	}
	x.rounds = append(x.rounds, rd)
	for i := range rd.done {
		g := x.gameOf(r, i)
		rd.ids[g.ID] = i
		if ranks, ok := x.pending.claim(g.ID, g.Seats); ok {
			x.record(rd, i, g.Seats, ranks)
		}
	}
}

// TableView is a table elimination's state, for printing and JSON.
type TableView struct {
	Seats   int   `json:"seats"`
	Advance int   `json:"advance"` // per table, before any top-up to fill the final
	Seeding []int `json:"seeding"` // bot indexes, best first
	// Rounds holds the planned rounds; those not seated yet have only
	// their counts.
	Rounds []TableRoundView `json:"rounds"`
	Winner int              `json:"winner"` // -1 while open
	// Ranking is the final table's order, once it is complete.
	Ranking []int  `json:"ranking,omitempty"`
	Status  string `json:"status"` // "playing" or "done"
}

// TableRoundView is one round.
type TableRoundView struct {
	Round  int         `json:"round"`
	Final  bool        `json:"final"`
	Alive  int         `json:"alive"`
	Byes   []int       `json:"byes"` // bot indexes going through without playing
	Tables []TableSeat `json:"tables"`
}

// TableSeat is one table of a round.
type TableSeat struct {
	ID      string `json:"id"`   // "e2-t03"
	Bots    []int  `json:"bots"` // best seed first
	Advance int    `json:"advance"`
	// Points per bot of Bots: placement points over finished games.
	Points []float64 `json:"points"`
	Games  int       `json:"games"` // finished games
	// Order is the table's standing (bot indexes), once complete.
	Order  []int  `json:"order,omitempty"`
	Status string `json:"status"` // "waiting", "playing", "done"
}

// View returns the elimination as it stands.
func (x *TableKnockout) View() TableView {
	v := TableView{Seats: x.c.Seats, Advance: x.adv, Seeding: slices.Clone(x.order), Winner: -1, Status: "playing"}
	gpe, k := x.c.GamesPerEncounter, x.c.Seats
	for r, p := range x.plan {
		rv := TableRoundView{Round: r + 1, Final: r == len(x.plan)-1, Alive: p.alive, Byes: []int{}}
		if r < len(x.rounds) {
			rd := x.rounds[r]
			rv.Byes = slices.Clone(rd.byes)
			for t, bots := range rd.tables {
				ts := TableSeat{ID: fmt.Sprintf("e%d-t%02d", r+1, t+1), Bots: slices.Clone(bots), Advance: p.advance[t], Games: rd.played[t], Status: "playing"}
				for i := range bots {
					ts.Points = append(ts.Points, float64(rd.units[t][i])/float64(2*(k-1)))
				}
				if rd.played[t] == gpe {
					ts.Status = "done"
					ts.Order = x.standing(rd, t)
					if rv.Final {
						v.Winner, v.Ranking, v.Status = ts.Order[0], ts.Order, "done"
					}
				} else if rd.played[t] == 0 && !slices.Contains(rd.issued[t*gpe:(t+1)*gpe], true) {
					ts.Status = "waiting"
				}
				rv.Tables = append(rv.Tables, ts)
			}
		}
		v.Rounds = append(v.Rounds, rv)
	}
	return v
}

// Text renders the view round by round; names maps bot indexes to names.
func (v TableView) Text(names []string) string {
	name := func(b int) string {
		if b >= 0 && b < len(names) {
			return names[b]
		}
		return fmt.Sprintf("bot %d", b)
	}
	var sb strings.Builder
	for _, r := range v.Rounds {
		label := fmt.Sprintf("Round %d", r.Round)
		if r.Final {
			label += " (final table)"
		}
		fmt.Fprintf(&sb, "%s: %d bots\n", label, r.Alive)
		if len(r.Tables) == 0 {
			continue
		}
		if len(r.Byes) > 0 {
			var bs []string
			for _, b := range r.Byes {
				bs = append(bs, name(b))
			}
			fmt.Fprintf(&sb, "  byes: %s\n", strings.Join(bs, ", "))
		}
		for _, t := range r.Tables {
			var bs []string
			for i, b := range t.Bots {
				bs = append(bs, fmt.Sprintf("%s %.2f", name(b), t.Points[i]))
			}
			fmt.Fprintf(&sb, "  %s  %s  (%s, %d games)", t.ID, strings.Join(bs, ", "), t.Status, t.Games)
			if len(t.Order) > 0 && !r.Final {
				var adv []string
				for _, b := range t.Order[:t.Advance] {
					adv = append(adv, name(b))
				}
				fmt.Fprintf(&sb, "  -> %s", strings.Join(adv, ", "))
			}
			sb.WriteString("\n")
		}
	}
	if v.Winner >= 0 {
		fmt.Fprintf(&sb, "Winner: %s\n", name(v.Winner))
	}
	return sb.String()
}

// Details is the elimination as it stands.
func (x *TableKnockout) Details() Details {
	v := x.View()
	return Details{Tables: &v}
}

// Stage names the round in play and how many of its tables are done; no
// estimate, since Total is known.
func (x *TableKnockout) Stage(int) (string, int) {
	v := x.View()
	for _, r := range v.Rounds {
		done := 0
		for _, t := range r.Tables {
			if t.Status == "done" {
				done++
			}
		}
		if len(r.Tables) == 0 || done < len(r.Tables) {
			if r.Final {
				return "final table", 0
			}
			return fmt.Sprintf("round %d of %d: %d of %d tables done", r.Round, len(v.Rounds), done, len(r.Tables)), 0
		}
	}
	return "", 0
}

// tiers: a bot is out in the round whose table it did not advance from,
// at its place there; the final table, once complete, places everyone
// at it.
func (v *TableView) tiers(n int) []Tier {
	t := make([]Tier, n)
	for i := range t {
		t[i].Alive = true
	}
	for _, r := range v.Rounds {
		for _, tb := range r.Tables {
			if tb.Status != "done" {
				continue
			}
			if r.Final {
				for place, b := range tb.Order {
					out := "final table"
					if place == 0 {
						out = ""
					}
					if b >= 0 && b < n {
						t[b] = Tier{Round: r.Round, Place: place, Out: out}
					}
				}
				continue
			}
			for place, b := range tb.Order[min(tb.Advance, len(tb.Order)):] {
				if b >= 0 && b < n {
					t[b] = Tier{Round: r.Round, Place: tb.Advance + place, Out: fmt.Sprintf("round %d", r.Round)}
				}
			}
		}
	}
	return t
}
