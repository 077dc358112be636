package ladder

import (
	"context"
	"fmt"
	"maps"
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
	"github.com/arena-dev/arena/protocol"
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
// the version it replaces; a bot withdrawn has its version retired. With no game out Wait would end the run
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
	// forfeits are each bot's forfeits in a row (countForfeit).
	forfeits map[int]int
	// suspended are the suspensions countForfeit made since the last
	// game was reported (takeSuspended).
	suspended []run.Suspension
	// retiring are the bots to retire once their tables end
	// (retireAfter).
	retiring map[int]bool
	// remote are the bots whose launchers say whether they are served
	// (a nats: bot with a remote.Presence): available only while they
	// are (follow).
	remote []remoteBot
}

// remoteBot is a bot that can be seated only while served.
type remoteBot struct {
	b      int
	served func() bool
}

// served is what a launcher that knows whether its bot is served (a
// remote.Launcher) answers: a bot nobody serves is away, not broken.
type served interface{ Served() bool }

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

// newTables is the Source of a run whose bots are specs (the last gone
// of them versions no longer active, left in tables the ledger holds in
// part), resuming past (the ledger's ratings and each bot's state,
// folded by resume): the units the ledger leaves incomplete are queued
// first.
func newTables(c *Config, secret *deal.Secret, specs []bot.Spec, gone int, past *resumed) (*tables, error) {
	mm, err := matchmaking.New(c.Matchmaking, c.Seed)
	if err != nil {
		return nil, fmt.Errorf("ladder %s: %w", c.Name, err)
	}
	s := &tables{c: c, secret: secret, mm: mm, ratings: past.ratings, seq: past.seq,
		limit: max(c.Concurrency, 1), open: map[int64]*unit{}, active: map[string]int{}}
	byName := map[string]int{}
	for i, spec := range specs {
		retired := i >= len(specs)-gone // played only in the tables it has left, absent
		b := matchmaking.Bot{ID: i, Skill: s.ratings.Get(spec.Name).Skill, Last: s.seq - 1, Available: !retired}
		if st := past.states[spec.Name]; st != nil {
			b.Games, b.Last, b.Seats = st.games, st.last, st.seats
		}
		s.bots, s.names = append(s.bots, b), append(s.names, spec.Name)
		byName[spec.Name] = i
		if retired {
			continue
		}
		s.watchServed(i, spec)
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
// in the middle of one), in table order: the unit's seats stay balanced
// and every table ends whole, which the leaderboard waits for before it
// shows any of its games. A version no longer active plays them absent
// (newTables' gone specs, retired in the run's roster).
func (s *tables) resumeUnits(done map[int64][]ledger.Record, byName map[string]int) {
	for _, seq := range slices.Sorted(maps.Keys(done)) {
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
				i, known := byName[name] // active, or gone (newTables): a damaged line names neither
				ok = ok && known
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

// shortUnitBots are the bots (ledger names) of the tables the ledger
// holds in part (resumed.partial), in table order.
func shortUnitBots(partial map[int64][]ledger.Record) []string {
	var names []string
	for _, seq := range slices.Sorted(maps.Keys(partial)) {
		for _, r := range partial[seq] {
			names = append(names, r.Bots...)
		}
	}
	return names
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
		s.follow()
		t, status := s.next()
		if status != schedule.Wait || s.out > 0 || s.live == nil || !s.live.await(s.ctx) {
			return t, status
		}
	}
}

// join adds the versions admitted (live.taken) to the run: each one's
// roster index is its matchmaker ID; the version it replaces is
// retired and no longer seated, as is the active version of a bot
// withdrawn.
func (s *tables) join() {
	if s.live == nil {
		return
	}
	select { // the first intake pass (live.loop) comes before the first table
	case <-s.live.started:
	case <-s.ctx.Done():
	}
	for _, c := range s.live.taken() {
		if c.Withdrawn != "" {
			if old, ok := s.active[c.Withdrawn]; ok {
				s.retireAfter(old)
				delete(s.active, c.Withdrawn)
			}
			continue
		}
		i, err := s.roster.Add(c.Spec)
		if err != nil {
			s.live.cancel(fmt.Errorf("ladder %s: version %s: %w", s.c.Name, c.Spec.Name, err))
			return
		}
		name, _, _ := SplitVersion(c.Spec.Name)
		if old, ok := s.active[name]; ok {
			s.retireAfter(old)
		}
		s.active[name] = i
		s.bots = append(s.bots, matchmaking.Bot{ID: i, Skill: s.ratings.Get(c.Spec.Name).Skill, Last: s.seq - 1, Available: true})
		s.names = append(s.names, c.Spec.Name)
		s.watchServed(i, c.Spec)
	}
}

// watchServed follows bot b's presence if its launcher knows it.
func (s *tables) watchServed(b int, spec bot.Spec) {
	if l, ok := spec.Launcher.(served); ok {
		s.remote = append(s.remote, remoteBot{b: b, served: l.Served})
	}
}

// unwatch stops following bot b's presence: it is retired or suspended,
// unavailable whoever serves it.
func (s *tables) unwatch(b int) {
	s.remote = slices.DeleteFunc(s.remote, func(r remoteBot) bool { return r.b == b })
}

// follow makes each remote bot available while it is served. No table
// is made for one that is no longer served until it is served again,
// and being away is no fault of its: it is not suspended. The games it
// is playing end as its connection's loss says (a crash forfeit,
// docs/remote.md); those of its tables not handed out yet are played
// without it, as a retired version's (it goes on under a new roster
// index, reenter), rather than started to wait out its startup limit:
// its tables end whole, with at most a table's games lost.
func (s *tables) follow() {
	for _, r := range slices.Clone(s.remote) { // reenter changes s.remote
		now := r.served()
		switch {
		case now == s.bots[r.b].Available:
		case now || s.bots[r.b].InPlay == 0:
			s.bots[r.b].Available = now
		default:
			s.reenter(r.b)
		}
	}
}

// retire retires bot b from the run: the matchmaker no longer chooses
// it, and the games of its units not handed out yet are played without
// it (the runner marks a retired bot's seat absent: a forfeit, recorded
// without starting it), so that every table ends whole.
func (s *tables) retire(b int) {
	if err := s.roster.Retire(b); err != nil {
		s.live.cancel(err)
	}
	s.unwatch(b)
	s.bots[b].Available = false
}

// close ends unit u: its bots are free.
func (s *tables) close(u *unit) {
	delete(s.open, u.seq)
	for _, b := range u.bots {
		if s.bots[b].InPlay--; s.bots[b].InPlay == 0 && s.retiring[b] {
			delete(s.retiring, b)
			s.retire(b)
		}
	}
}

// retireAfter retires bot b once the tables it is at end: a version
// replaced or withdrawn is seated at no new table, and plays out the
// games of its tables (their deals are played whole, by the bots they
// were dealt to).
func (s *tables) retireAfter(b int) {
	s.unwatch(b)
	s.bots[b].Available = false
	if s.bots[b].InPlay == 0 {
		s.retire(b)
		return
	}
	if s.retiring == nil {
		s.retiring = map[int]bool{}
	}
	s.retiring[b] = true
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
		s.countForfeit(t, rec, seat, b)
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

// countForfeit counts bot b's forfeits in a row, by the order games
// count, and suspends it at Submissions.SuspendAfter: a version that
// keeps crashing, timing out or answering nonsense costs its opponents
// games they cannot win or lose on merit. A seat that took no part
// (absent) or failed to start (the runner's own count) neither counts
// nor resets it.
func (s *tables) countForfeit(t run.Table, rec ledger.Record, seat, b int) {
	if seat < len(t.Absent) && t.Absent[seat] != "" {
		return
	}
	i := slices.IndexFunc(rec.Forfeits, func(f ledger.SeatFailure) bool { return f.Seat == seat })
	switch {
	case i < 0:
		delete(s.forfeits, b)
		return
	case rec.Forfeits[i].Reason == protocol.ReasonStartup:
		return
	}
	if s.forfeits == nil {
		s.forfeits = map[int]int{}
	}
	s.forfeits[b]++
	if n := s.forfeits[b]; n == s.c.Submissions.SuspendAfter && s.bots[b].Available {
		f := rec.Forfeits[i]
		sus := run.Suspension{Bot: b, Name: s.names[b], Game: rec.GameID,
			Why: fmt.Sprintf("suspended after forfeiting %d games in a row (the last, %s: %s: %s)", n, rec.GameID, f.Reason, f.Detail)}
		s.suspend(sus)
		s.suspended = append(s.suspended, sus)
	}
}

// takeSuspended are the suspensions made since the last call, for the
// progress of the game that made them (the runner reports its own).
func (s *tables) takeSuspended() []run.Suspension {
	out := s.suspended
	s.suspended = nil
	return out
}

// suspend keeps the matchmaker from seating version sus.Bot again (the
// run has suspended it: it kept failing to start) and has live log
// that its bot is suspended (a new version clears it).
func (s *tables) suspend(sus run.Suspension) {
	if i := slices.IndexFunc(s.remote, func(r remoteBot) bool { return r.b == sus.Bot }); i >= 0 && !s.remote[i].served() {
		s.reenter(sus.Bot)
		return
	}
	s.unwatch(sus.Bot)
	s.bots[sus.Bot].Available = false
	name, n, _ := SplitVersion(s.names[sus.Bot])
	s.live.suspend(Event{Kind: Suspended, Time: time.Now().UTC().Format(time.RFC3339), Bot: name, Version: n, Reason: sus.Why, Game: sus.Game})
}

// reenter: remote bot b is away (nobody serves it) with tables left, or
// the run suspended it for failing to start while nobody served it
// (games handed out in the moment before its server's loss was seen).
// It is away, not broken: the old roster index is retired (its tables
// end without it) and the bot goes on under a new one, with its games,
// seats and rating, seated again once it is served.
func (s *tables) reenter(b int) {
	i, err := s.roster.Add(s.roster.Spec(b))
	if err != nil {
		s.live.cancel(fmt.Errorf("ladder %s: bot %s: %w", s.c.Name, s.names[b], err))
		return
	}
	r := s.remote[slices.IndexFunc(s.remote, func(r remoteBot) bool { return r.b == b })]
	s.retire(b)
	nb := s.bots[b]
	nb.ID, nb.InPlay, nb.Available = i, 0, false
	s.bots, s.names = append(s.bots, nb), append(s.names, s.names[b])
	s.remote = append(s.remote, remoteBot{b: i, served: r.served})
	if name, _, ok := SplitVersion(s.names[b]); ok {
		s.active[name] = i
	}
}
