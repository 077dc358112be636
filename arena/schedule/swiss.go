package schedule

import (
	"cmp"
	"fmt"
	"slices"
)

// Swiss plays Config.Rounds rounds; each round pairs bots with equal or
// near scores who have not met yet. Only 2 seats.
//
// Encounters. Each pairing plays GamesPerEncounter games as pairs of games
// with seats swapped on one deal, so an encounter scores 0..gpe points (a
// game is 1 point for the better rank, 1/2 each for equal ranks). All
// boards of a round play the same deals: Deal = (round-1)*gpe/2 + pair.
// Game IDs are "s03-p02-g1": round 3, board 2, game 1. Game.Round is the
// Swiss round.
//
// Ranking for pairing: points (byes included), then seed (Config.Seeding,
// default index order). Tie-breaks play no part in pairing.
//
// Bye. With an odd number of bots one bot sits out each round: the
// lowest-ranked bot among those with the fewest byes, moving up the ranking
// only if the rest cannot then be paired without rematches. A bye scores
// as a won encounter, GamesPerEncounter points (FIDE gives 1 point for a
// one-game round), and adds nothing to Buchholz or Sonneborn-Berger.
//
// Pairing, in priority order: (1) byes as above; (2) no rematches, if any
// pairing avoids them; (3) score groups, Dutch style. The ranked bots are
// paired top-down: the highest-ranked unpaired bot takes the first
// acceptable opponent in this preference order: if m unpaired bots share
// its score (itself included), the one m/2 places below it, then those
// further down that group, then those between (closest first), then the
// bots of lower scores in ranking order (so the odd one out of a score
// group floats down to the top of the next group). In round 1 that is the
// top half against the bottom half (1-5, 2-6, 3-7, 4-8), as in the Dutch
// system. A choice that leads to a dead end (some bot left with only
// opponents it has met) is undone and the next candidate tried
// (depth-first search with a step budget). The search first also refuses
// pairs that would push a bot's seat balance (below) to 3, then drops that
// wish; if no rematch-free pairing is found at all, the same order is used
// with rematches allowed, preferring the pairs that have met least.
//
// Seats. Seat balance is over who has seat 0 in the first game of each
// game pair (with swapped pairs every bot has seat 0 in exactly half its
// games anyway). The bot that has started fewer encounters starts; when
// even, the one that did not start its last encounter; when still even,
// in round 1 the higher-ranked bot on odd boards (1, 3, ...) and the lower
// on even boards, later the higher-ranked bot gets the alternation (it
// starts unless it started its last encounter).
//
// Each round is paired once all results of the previous round are in, and
// the pairing depends only on those results, never on their order.
func Swiss(c Config) (Scheduler, error) {
	if err := checkPairConfig(c, "a Swiss"); err != nil {
		return nil, err
	}
	order, seedOf, err := seedOrder(c)
	if err != nil {
		return nil, err
	}
	return &SwissScheduler{c: c, order: order, seedOf: seedOf,
		half: make([]int, c.Bots), byes: make([]int, c.Bots), starts: make([]int, c.Bots),
		encounters: make([]int, c.Bots), lastStart: make([]int8, c.Bots),
		met: make([]uint8, c.Bots*c.Bots), pending: pendings{}}, nil
}

// SwissScheduler is the Swiss scheduler; Standings shows its tables.
type SwissScheduler struct {
	c          Config
	order      []int // seed position -> bot
	seedOf     []int // bot -> seed position
	half       []int // points in half-points, byes included
	byes       []int
	starts     []int   // encounters started (seat 0 in the first game)
	encounters []int   // encounters paired
	lastStart  []int8  // +1 started the last encounter, -1 did not, 0 none yet
	met        []uint8 // times each pair met (saturating), Bots x Bots
	rounds     []*swissRound
	pending    pendings
}

type swissRound struct {
	pairs [][2]int // [starter, other], board order
	bye   int      // -1 for none
	games []sgame  // pair*gpe + game
	score [][2]int // half-points per pair, per side
	next  int      // first game not handed out
	open  int      // games without a result
	ids   map[string]int
}

type sgame struct {
	issued, done bool
}

// Total is Rounds * floor(Bots/2) * GamesPerEncounter.
func (s *SwissScheduler) Total() int {
	return s.c.Rounds * (s.c.Bots / 2) * s.c.GamesPerEncounter
}

func (s *SwissScheduler) gameOf(r, i int) Game {
	gpe := s.c.GamesPerEncounter
	rd := s.rounds[r]
	p, g := i/gpe, i%gpe
	a, b := rd.pairs[p][0], rd.pairs[p][1]
	if g%2 == 1 {
		a, b = b, a
	}
	return Game{
		ID:    fmt.Sprintf("s%02d-p%02d-g%d", r+1, p+1, g+1),
		Round: r + 1,
		Deal:  uint64(r*gpe/2 + g/2),
		Seats: []int{a, b},
	}
}

// Next hands out the current round's games, pairing a round when the
// previous one is complete.
func (s *SwissScheduler) Next() (Game, Status) {
	for {
		if n := len(s.rounds); n > 0 {
			rd := s.rounds[n-1]
			for rd.next < len(rd.games) {
				i := rd.next
				rd.next++
				if !rd.games[i].done {
					rd.games[i].issued = true
					return s.gameOf(n-1, i), Ready
				}
			}
			if n == s.c.Rounds {
				return Game{}, Done
			}
			if rd.open > 0 {
				return Game{}, Wait
			}
		}
		s.startRound()
	}
}

// Result records a finished game.
func (s *SwissScheduler) Result(g Game, ranks []int) {
	if len(ranks) != 2 || len(g.Seats) != 2 {
		return
	}
	if n := len(s.rounds); n > 0 {
		rd := s.rounds[n-1]
		if i, ok := rd.ids[g.ID]; ok {
			want := s.gameOf(n-1, i)
			if !rd.games[i].done && slices.Equal(want.Seats, g.Seats) {
				s.record(rd, i, g.Seats, ranks)
			}
			return
		}
	}
	s.pending.hold(g, ranks)
}

func (s *SwissScheduler) record(rd *swissRound, i int, seats, ranks []int) {
	rd.games[i].done = true
	rd.open--
	p := i / s.c.GamesPerEncounter
	sc := pairScore(ranks)
	side := 0
	if seats[0] != rd.pairs[p][0] {
		side = 1
	}
	rd.score[p][side] += sc
	rd.score[p][1-side] += 2 - sc
	s.half[seats[0]] += sc
	s.half[seats[1]] += 2 - sc
}

// ranked is the bots by points, then seed.
func (s *SwissScheduler) ranked() []int {
	r := slices.Clone(s.order)
	slices.SortStableFunc(r, func(a, b int) int { return cmp.Compare(s.half[b], s.half[a]) })
	return r
}

func (s *SwissScheduler) startRound() {
	r := len(s.rounds)
	gpe := s.c.GamesPerEncounter
	ranked := s.ranked()
	bye, pairs := s.pair(ranked)
	rd := &swissRound{bye: bye, ids: map[string]int{}}
	if bye >= 0 {
		s.byes[bye]++
		s.half[bye] += 2 * gpe
	}
	rank := make([]int, s.c.Bots)
	for i, b := range ranked {
		rank[b] = i
	}
	slices.SortFunc(pairs, func(x, y [2]int) int {
		return cmp.Compare(min(rank[x[0]], rank[x[1]]), min(rank[y[0]], rank[y[1]]))
	})
	for board, p := range pairs {
		a, b := p[0], p[1]
		if rank[b] < rank[a] {
			a, b = b, a
		}
		da, db := 2*s.starts[a]-s.encounters[a], 2*s.starts[b]-s.encounters[b]
		switch {
		case da > db, da == db && s.lastStart[a] > s.lastStart[b]:
			a, b = b, a
		case da == db && s.lastStart[a] == s.lastStart[b]:
			if (r == 0 && board%2 == 1) || s.lastStart[a] > 0 {
				a, b = b, a
			}
		}
		s.starts[a]++
		s.encounters[a]++
		s.encounters[b]++
		s.lastStart[a], s.lastStart[b] = 1, -1
		if s.met[a*s.c.Bots+b] < 255 {
			s.met[a*s.c.Bots+b]++
			s.met[b*s.c.Bots+a]++
		}
		rd.pairs = append(rd.pairs, [2]int{a, b})
	}
	rd.games = make([]sgame, len(pairs)*gpe)
	rd.score = make([][2]int, len(pairs))
	rd.open = len(rd.games)
	s.rounds = append(s.rounds, rd)
	for i := range rd.games {
		g := s.gameOf(r, i)
		rd.ids[g.ID] = i
		if ranks, ok := s.pending.claim(g.ID, g.Seats); ok {
			s.record(rd, i, g.Seats, ranks)
		}
	}
}

// Search budgets, in candidates tried (each costs O(bots)) per round: a
// try that also keeps seat balance gets a small one; the rematch-free
// tries share the rest. A search that runs out counts as failed.
const (
	colourBudget = 2000
	roundBudget  = 50000
)

// pair chooses the bye (or -1) and the pairs of a round.
func (s *SwissScheduler) pair(ranked []int) (int, [][2]int) {
	budget := roundBudget
	try := func(field []int) ([][2]int, bool) {
		cb := colourBudget
		if pairs, ok := s.search(field, false, true, &cb); ok {
			return pairs, true
		}
		return s.search(field, false, false, &budget)
	}
	if len(ranked)%2 == 0 {
		if pairs, ok := try(ranked); ok {
			return -1, pairs
		}
		pairs, _ := s.search(ranked, true, false, nil)
		return -1, pairs
	}
	fewest := slices.Min(s.byes)
	var cands []int
	for i := len(ranked) - 1; i >= 0; i-- {
		if s.byes[ranked[i]] == fewest {
			cands = append(cands, ranked[i])
		}
	}
	without := func(b int) []int {
		return slices.DeleteFunc(slices.Clone(ranked), func(x int) bool { return x == b })
	}
	for _, b := range cands {
		if budget <= 0 {
			break
		}
		if pairs, ok := try(without(b)); ok {
			return b, pairs
		}
	}
	pairs, _ := s.search(without(cands[0]), true, false, nil)
	return cands[0], pairs
}

// search pairs the ranked bots top-down (see Swiss). Without rematches it
// may fail; with them (and no budget) it always succeeds. With colours it
// also refuses to pair two bots that have both started two encounters
// more than they followed (or both two fewer), one of which would go to
// three.
func (s *SwissScheduler) search(ranked []int, rematches, colours bool, budget *int) ([][2]int, bool) {
	n := s.c.Bots
	clash := func(a, b int) bool {
		if !colours {
			return false
		}
		da, db := 2*s.starts[a]-s.encounters[a], 2*s.starts[b]-s.encounters[b]
		return (da >= 2 && db >= 2) || (da <= -2 && db <= -2)
	}
	ok := func(a, b int) bool { return (rematches || s.met[a*n+b] == 0) && !clash(a, b) }
	// avail[b]: unpaired bots b could still be paired with.
	avail := make([]int, n)
	if !rematches {
		for _, a := range ranked {
			for _, b := range ranked {
				if a != b && ok(a, b) {
					avail[a]++
				}
			}
		}
	}
	var pairs [][2]int
	var rec func(rest []int) bool
	rec = func(rest []int) bool {
		if len(rest) == 0 {
			return true
		}
		a := rest[0]
		m := 1
		for m < len(rest) && s.half[rest[m]] == s.half[a] {
			m++
		}
		var cands []int
		if m >= 2 {
			h := m / 2
			cands = append(cands, rest[h:m]...)
			for i := h - 1; i >= 1; i-- {
				cands = append(cands, rest[i])
			}
		}
		cands = append(cands, rest[m:]...)
		if rematches {
			slices.SortStableFunc(cands, func(x, y int) int { return cmp.Compare(s.met[a*n+x], s.met[a*n+y]) })
		}
		next := make([]int, 0, len(rest)-2)
		for _, c := range cands {
			if !ok(a, c) {
				continue
			}
			if budget != nil {
				if *budget--; *budget < 0 {
					return false
				}
			}
			next = next[:0]
			for _, b := range rest[1:] {
				if b != c {
					next = append(next, b)
				}
			}
			// a and c leave the pool: everyone left must keep a partner.
			dead := false
			if !rematches {
				for _, x := range next {
					if ok(a, x) {
						avail[x]--
					}
					if ok(c, x) {
						avail[x]--
					}
					dead = dead || avail[x] == 0
				}
			}
			if !dead {
				pairs = append(pairs, [2]int{a, c})
				if rec(next) {
					return true
				}
				pairs = pairs[:len(pairs)-1]
			}
			if !rematches {
				for _, x := range next {
					if ok(a, x) {
						avail[x]++
					}
					if ok(c, x) {
						avail[x]++
					}
				}
			}
			if budget != nil && *budget < 0 {
				return false
			}
		}
		return false
	}
	found := rec(ranked)
	return pairs, found
}

// SwissRow is one bot's line of the Swiss standings. Points count finished
// games (1 a win, 1/2 a draw) plus GamesPerEncounter for each bye.
// Buchholz is the sum of the points of the opponents met (once per
// encounter; byes add nothing). Sonneborn-Berger is the sum over
// encounters of the opponent's points times the share of the encounter's
// points this bot took (a won encounter counts the opponent's points in
// full, a drawn one half).
type SwissRow struct {
	Rank            int     `json:"rank"` // 1-based: points, Buchholz, Sonneborn-Berger, then seed
	Bot             int     `json:"bot"`
	Seed            int     `json:"seed"` // 1-based
	Points          float64 `json:"points"`
	Buchholz        float64 `json:"buchholz"`
	SonnebornBerger float64 `json:"sonneborn_berger"`
	// Opponents per round paired so far: a bot index, -1 for a bye.
	Opponents []int `json:"opponents"`
	Byes      int   `json:"byes"`
	// Starts counts encounters in which the bot had seat 0 in the first
	// game.
	Starts int `json:"starts"`
}

// SwissStandings returns the standings of a Swiss scheduler, nil for any
// other.
func SwissStandings(s Scheduler) []SwissRow {
	if sw, ok := s.(*SwissScheduler); ok {
		return sw.Standings()
	}
	return nil
}

// Details are the Swiss standings, with their tie-breaks.
func (s *SwissScheduler) Details() Details { return Details{Swiss: s.Standings()} }

// Standings returns the Swiss table as it stands, best first.
func (s *SwissScheduler) Standings() []SwissRow {
	n := s.c.Bots
	gpe := float64(s.c.GamesPerEncounter)
	pts := func(b int) float64 { return float64(s.half[b]) / 2 }
	rows := make([]SwissRow, n)
	for b := range rows {
		rows[b] = SwissRow{Bot: b, Seed: s.seedOf[b] + 1, Points: pts(b), Byes: s.byes[b], Starts: s.starts[b], Opponents: []int{}}
	}
	for _, rd := range s.rounds {
		if rd.bye >= 0 {
			rows[rd.bye].Opponents = append(rows[rd.bye].Opponents, -1)
		}
		for p, pr := range rd.pairs {
			for side, b := range pr {
				o := pr[1-side]
				rows[b].Opponents = append(rows[b].Opponents, o)
				rows[b].Buchholz += pts(o)
				rows[b].SonnebornBerger += pts(o) * float64(rd.score[p][side]) / 2 / gpe
			}
		}
	}
	slices.SortFunc(rows, func(x, y SwissRow) int {
		return cmp.Or(cmp.Compare(y.Points, x.Points), cmp.Compare(y.Buchholz, x.Buchholz),
			cmp.Compare(y.SonnebornBerger, x.SonnebornBerger), cmp.Compare(x.Seed, y.Seed))
	})
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return rows
}
