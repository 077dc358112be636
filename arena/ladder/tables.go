package ladder

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/schedule"
)

// tables is a ladder run's Source: the matchmaker's tables, each a unit
// of k games of one deal with seats rotated, handed out one game at a
// time and only while fewer than limit games are out (handed out and
// not counted). The runner reads up to run.Lookahead games ahead; a
// table chosen for later would be chosen on stale ratings and keep its
// bots busy, so the matchmaker is asked only when a game can start now,
// and Wait is the answer otherwise. It is used from Run's goroutine
// only.
//
// Versions admitted while the run goes on join between games: Next
// adds each to the run's roster and the matchmaker's bots, and retires
// the version it replaces. With no game out Wait would end the run
// (run.ErrStalled: nothing running could change the answer), so Next
// blocks then until a version joins or ctx ends: the runner needs no
// wake-up of its own, and a ladder with too few bots waits for them.
type tables struct {
	c       *Config
	secret  *deal.Secret
	mm      *matchmaking.Matchmaker
	ratings *Ratings
	// bots are the matchmaker's view of the run's bots, by roster index
	// (Bot.ID is the index); names their ledger names.
	bots  []matchmaking.Bot
	names []string
	seq   int64 // the next table's number (from 1)
	limit int
	out   int
	queue []*unit         // units with games left to hand out, first first
	open  map[int64]*unit // units with games not counted, by number

	ctx    context.Context
	live   *live
	roster *run.Roster
	active map[string]int // each bot's active version, by roster index
}

// unit is one table: its games, of one deal, seats rotated.
type unit struct {
	seq  int64
	bots []int // by seat of its first game (roster indices)
	seed uint64
	next []int // the games (0..k-1) still to hand out
	left int   // games handed out and not counted
}

// botState is what the ledger says of a version: its games, its last
// table and its games by seat.
type botState struct {
	games int
	last  int64
	seats []int
}

// newTables is the Source of a run whose bots are specs, resuming past
// (the ledger's ratings and each bot's state, folded by resume): the
// units the ledger leaves incomplete are queued first.
func newTables(c *Config, secret *deal.Secret, specs []bot.Spec, past *resumed) (*tables, error) {
	mm, err := matchmaking.New(c.Matchmaking, c.Seed)
	if err != nil {
		return nil, fmt.Errorf("ladder %s: %w", c.Name, err)
	}
	s := &tables{c: c, secret: secret, mm: mm, ratings: past.ratings, seq: past.seq,
		limit: max(c.Concurrency, 1), open: map[int64]*unit{}, active: map[string]int{}}
	byName := map[string]int{}
	for i, spec := range specs {
		b := matchmaking.Bot{ID: i, Skill: s.ratings.Get(spec.Name).Skill, Last: s.seq - 1, Available: true}
		if st := past.states[spec.Name]; st != nil {
			b.Games, b.Last, b.Seats = st.games, st.last, st.seats
		}
		s.bots, s.names = append(s.bots, b), append(s.names, spec.Name)
		byName[spec.Name] = i
		if name, _, ok := SplitVersion(spec.Name); ok {
			s.active[name] = i
		}
	}
	s.resumeUnits(past.partial, byName)
	return s, nil
}

// countSeat is seats with one more game in seat.
func countSeat(seats []int, seat int) []int {
	if seat >= len(seats) {
		seats = append(seats, make([]int, seat+1-len(seats))...)
	}
	seats[seat]++
	return seats
}

// resumeUnits queues the games the ledger's units lack (a run stopped
// in the middle of one: done holds their games), in table order, if their bots all still play:
// the unit's seats stay balanced and its deal is not left half-told. A
// unit with a retired bot stays short.
func (s *tables) resumeUnits(done map[int64][]ledger.Record, byName map[string]int) {
	seqs := make([]int64, 0, len(done))
	for seq := range done {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	for _, seq := range seqs {
		recs := done[seq]
		k := len(recs[0].Bots)
		if len(recs) >= k {
			continue
		}
		u := &unit{seq: seq, bots: make([]int, k), seed: recs[0].Seed}
		played := make([]bool, k)
		ok := true
		for _, rec := range recs {
			g, valid := gameOf(rec.GameID)
			if !valid || g >= k || len(rec.Bots) != k {
				ok = false
				break
			}
			played[g] = true
			for seat, name := range rec.Bots {
				i, active := byName[name]
				ok = ok && active
				u.bots[(seat+g)%k] = i // game g seats bots[(seat+g)%k] in seat
			}
		}
		for g := range k {
			if !played[g] {
				u.next = append(u.next, g)
			}
		}
		if ok && len(u.next) > 0 {
			s.add(u)
		}
	}
}

// gameOf is the game's number in its unit (from 0), from its id.
func gameOf(gameID string) (int, bool) {
	i := strings.LastIndex(gameID, "-g")
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(gameID[i+2:])
	return n - 1, err == nil && n >= 1
}

// add queues u: its bots are in play until its last game counts.
func (s *tables) add(u *unit) {
	for _, b := range u.bots {
		s.bots[b].InPlay++
	}
	s.queue = append(s.queue, u)
	s.open[u.seq] = u
}

// Next takes in the versions admitted since it was last called, then
// hands out the next game of the first unit queued, or of a table the
// matchmaker chooses now; Wait while limit games are out or no table
// can be made of the bots free (a result frees them), blocking first
// while no game is out. Never Done.
func (s *tables) Next() (run.Table, schedule.Status) {
	for {
		s.join()
		t, status := s.next()
		if status != schedule.Wait || s.out > 0 || s.live == nil || !s.live.await(s.ctx) {
			return t, status
		}
	}
}

// join adds the versions admitted (live.joined) to the run: each one's
// roster index is its matchmaker ID; the version it replaces is
// retired and no longer seated.
func (s *tables) join() {
	if s.live == nil {
		return
	}
	for _, spec := range s.live.joined() {
		i, err := s.roster.Add(spec)
		if err != nil {
			s.live.cancel(fmt.Errorf("ladder %s: version %s: %w", s.c.Name, spec.Name, err))
			return
		}
		name, _, _ := SplitVersion(spec.Name)
		if old, ok := s.active[name]; ok {
			s.retire(old)
		}
		s.active[name] = i
		s.bots = append(s.bots, matchmaking.Bot{ID: i, Skill: s.ratings.Get(spec.Name).Skill, Last: s.seq - 1, Available: true})
		s.names = append(s.names, spec.Name)
	}
}

// retire retires bot b from the run: the matchmaker no longer chooses
// it, and the games of its units not handed out yet are dropped (the
// unit stays short, as one a resumed run cannot complete).
func (s *tables) retire(b int) {
	if err := s.roster.Retire(b); err != nil {
		s.live.cancel(err)
	}
	s.bots[b].Available = false
	s.queue = slices.DeleteFunc(s.queue, func(u *unit) bool {
		if !slices.Contains(u.bots, b) {
			return false
		}
		u.next = nil
		if u.left == 0 {
			s.close(u)
		}
		return true
	})
}

// close ends unit u: its bots are free.
func (s *tables) close(u *unit) {
	delete(s.open, u.seq)
	for _, b := range u.bots {
		s.bots[b].InPlay--
	}
}

// next is Next without its joining and blocking.
func (s *tables) next() (run.Table, schedule.Status) {
	if s.out >= s.limit {
		return run.Table{}, schedule.Wait
	}
	if len(s.queue) == 0 {
		t, ok := s.mm.Next(s.seq, s.bots)
		if !ok {
			return run.Table{}, schedule.Wait
		}
		u := &unit{seq: s.seq, bots: t.Bots, seed: dealSeed(s.c, s.secret, s.seq)}
		for g := range t.Bots {
			u.next = append(u.next, g)
		}
		for _, b := range u.bots {
			s.bots[b].Last = s.seq
		}
		s.seq++
		s.add(u)
	}
	u := s.queue[0]
	g := u.next[0]
	if u.next = u.next[1:]; len(u.next) == 0 {
		s.queue = s.queue[1:]
	}
	u.left++
	s.out++
	return s.table(u, g), schedule.Ready
}

// table is game g of unit u: seats rotated by g.
func (s *tables) table(u *unit, g int) run.Table {
	k := len(u.bots)
	seats := make([]int, k)
	for seat := range k {
		seats[seat] = u.bots[(seat+g)%k]
	}
	id := fmt.Sprintf("t%06d-g%d", u.seq, g+1)
	return run.Table{Game: schedule.Game{ID: id, Round: int(u.seq), Deal: uint64(u.seq), Seats: seats},
		GameID: s.c.Name + "-" + id, Seed: u.seed}
}

// Result counts a game recorded: the ratings (in the ledger's order: the
// runner counts games in the order their lines are written) and its
// bots' games and seats; its unit's last game frees the bots.
func (s *tables) Result(t run.Table, rec ledger.Record) error {
	s.ratings.Add(rec)
	for seat, b := range t.Seats {
		mb := &s.bots[b]
		mb.Games++
		mb.Seats = countSeat(mb.Seats, seat)
		mb.Skill = s.ratings.Get(s.names[b]).Skill
	}
	s.out--
	u := s.open[int64(t.Round)]
	if u == nil {
		return fmt.Errorf("ladder %s: game %s of no table in play", s.c.Name, t.GameID)
	}
	if u.left--; u.left == 0 && len(u.next) == 0 {
		s.close(u)
	}
	return nil
}

// suspend keeps the matchmaker from seating version sus.Bot again (the
// run has suspended it: it kept failing to start) and has live log
// that its bot is suspended (a new version clears it).
func (s *tables) suspend(sus run.Suspension) {
	s.bots[sus.Bot].Available = false
	name, n, _ := SplitVersion(s.names[sus.Bot])
	s.live.suspend(Event{Kind: Suspended, Time: time.Now().UTC().Format(time.RFC3339), Bot: name, Version: n, Reason: sus.Why})
}
