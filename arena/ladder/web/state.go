package web

import (
	"hash/maphash"
	"slices"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/replays"
)

// Bounds on what the state keeps of the visible games, so that its
// memory grows by a few dozen bytes a game (where its replay is) rather
// than by the games' records: the pages show the last ones only.
const (
	// trendLen is how many of a version's last games its sparkline draws.
	trendLen = 40
	// feedKeep is how many of the last games the state keeps for the
	// feed: a browser further behind redraws its page whole (reset).
	feedKeep = 1000
)

// state is what the server knows of the ladder: the ledger's lines read
// that are not visible yet, and what is built from the visible ones.
type state struct {
	params  stats.Params
	initial stats.Skill
	keep    int // games kept per list (Options.Recent)

	// pending are the lines read from the first game of a table in play
	// on: none of them is visible.
	pending []ledger.Record
	// tables counts, per table (Round) with a game read but not yet
	// shown, the games the ledger holds of it.
	tables  map[int]*table
	visible int // how many games are shown: the ledger's first ones

	ratings  *ladder.Ratings // ladder.Fold of the visible games
	versions map[string]*version
	// bots are the versions of each bot (a name that is not NAME.vN is
	// a bot of its own) with a visible game.
	bots   map[string][]string
	recent ring[shown] // the last visible games
	// where is, per visible game, where its replay is; byID finds a game
	// by the hash of its id (a collision, at 2^-64, finds another
	// visible game: nothing hidden).
	where  []replayRef
	byID   map[uint64]int32
	seed   maphash.Seed
	paths  []string // replay files, each once (a pack holds many games)
	pathIx map[string]uint32
	roster *ladder.Roster
	// whole are the tables shown whole; repeated counts the lines that
	// repeated a game of a table (not counted).
	whole    ladder.TableSet
	repeated int
}

// shown is a visible game: its place among them (from 0) and its record.
type shown struct {
	n   int
	rec ledger.Record
}

// replayRef is where a visible game's replay is.
type replayRef struct {
	path   uint32 // in state.paths
	packed bool
	at     replays.Span
}

// table is a unit of k games of one deal, seats rotated.
type table struct{ k, read, shown int }

// version is what the visible games say of one bot version.
type version struct {
	recent   ring[shown]
	trend    ring[float64] // its conservative rating after each of its last games
	meet     map[string]*meeting
	forfeits ring[forfeitRow]
}

// meeting counts the games of a version with one opponent version: how
// often it finished ahead of it, behind it, level.
type meeting struct{ games, ahead, behind, tied int }

func newState(p stats.Params, initial stats.Skill, keep int) *state {
	return &state{params: p, initial: initial, keep: keep, tables: map[int]*table{}, ratings: ladder.NewRatings(p, initial),
		versions: map[string]*version{}, bots: map[string][]string{}, recent: newRing[shown](max(keep, feedKeep)),
		byID: map[uint64]int32{}, seed: maphash.MakeSeed(), pathIx: map[string]uint32{}, roster: &ladder.Roster{}}
}

// add takes in records read after the others and shows those that
// became visible; it returns how many did.
func (s *state) add(recs []ledger.Record) int {
	for _, r := range recs {
		t := s.tables[r.Round]
		if t == nil {
			if s.whole.Has(int64(r.Round)) {
				s.repeated++ // a line copied by hand: its table is whole already
				continue
			}
			t = &table{k: len(r.Bots)}
			s.tables[r.Round] = t
		}
		if t.read == t.k {
			s.repeated++ // a game too many for its table
			continue
		}
		t.read++
		s.pending = append(s.pending, r)
	}
	n := 0
	for ; n < len(s.pending); n++ {
		r := s.pending[n]
		t := s.tables[r.Round]
		if t.read < t.k {
			break // the first game of a deal still in play: it and all after it wait
		}
		s.show(r)
		if t.shown++; t.shown == t.read {
			delete(s.tables, r.Round)
			s.whole.Add(int64(r.Round))
		}
	}
	// A copy: the array of a ledger read whole would stay behind.
	s.pending = slices.Clone(s.pending[n:])
	return n
}

// show counts the next visible game: the ratings (in ledger order, as
// ladder.Fold), its versions' games, trends, meetings and forfeits.
func (s *state) show(r ledger.Record) {
	g := shown{n: s.visible, rec: r}
	s.visible++
	s.ratings.Add(r)
	s.byID[maphash.String(s.seed, r.GameID)] = int32(g.n)
	s.where = append(s.where, s.replayRef(r))
	s.recent.add(g)
	for seat, name := range r.Bots {
		v := s.version(name)
		v.recent.add(g)
		v.trend.add(s.ratings.Get(name).Display())
		if len(r.Ranks) == len(r.Bots) {
			v.count(r, seat)
		}
	}
	for _, f := range r.Forfeits {
		s.version(f.Bot).forfeits.add(forfeitRow{Game: r.GameID, Version: f.Bot, Reason: string(f.Reason), Detail: f.Detail})
	}
}

// count adds the meetings of the version in seat with the others.
func (v *version) count(r ledger.Record, seat int) {
	for other, opp := range r.Bots {
		if other == seat {
			continue
		}
		m := v.meet[opp]
		if m == nil {
			m = &meeting{}
			v.meet[opp] = m
		}
		m.games++
		switch {
		case r.Ranks[seat] < r.Ranks[other]:
			m.ahead++
		case r.Ranks[seat] > r.Ranks[other]:
			m.behind++
		default:
			m.tied++
		}
	}
}

func (s *state) version(name string) *version {
	v := s.versions[name]
	if v == nil {
		v = &version{recent: newRing[shown](s.keep), trend: newRing[float64](trendLen), meet: map[string]*meeting{},
			forfeits: newRing[forfeitRow](s.keep)}
		s.versions[name] = v
		b := botOf(name)
		s.bots[b] = append(s.bots[b], name)
	}
	return v
}

func (s *state) replayRef(r ledger.Record) replayRef {
	ix, ok := s.pathIx[r.Replay]
	if !ok {
		ix = uint32(len(s.paths))
		s.paths = append(s.paths, r.Replay)
		s.pathIx[r.Replay] = ix
	}
	ref := replayRef{path: ix}
	if r.ReplayAt != nil {
		ref.packed, ref.at = true, *r.ReplayAt
	}
	return ref
}

// replay is where the replay of visible game id is, as its ledger line
// says: the path relative to the ladder directory, and its span in a
// pack (nil: a file of its own); ok is false for a game not visible.
func (s *state) replay(id string) (path string, at *replays.Span, ok bool) {
	i, ok := s.byID[maphash.String(s.seed, id)]
	if !ok {
		return "", nil, false
	}
	ref := s.where[i]
	if ref.packed {
		at = &ref.at
	}
	return s.paths[ref.path], at, true
}

// statusOf is bot b's status and its reason as the visible games leave
// it: a suspension that a game not visible yet caused (its table still in
// play) is not shown, since its reason, and its time, tell of that game;
// until then the bot is what it was, active.
func (s *state) statusOf(b *ladder.Bot) (status, reason string) {
	if b.Status == ladder.StatusSuspended && b.SuspendedBy != "" {
		if _, _, visible := s.replay(b.SuspendedBy); !visible {
			return ladder.StatusActive, ""
		}
	}
	return b.Status, b.Reason
}

// since are the visible games after the first n, oldest first; ok is
// false when the state no longer keeps them all.
func (s *state) since(n int) (games []shown, ok bool) {
	if n < 0 || n > s.visible || s.visible-n > s.recent.len() {
		return nil, false
	}
	return s.recent.last(s.visible - n), true
}

// gamesOf are the last n games of the versions, the latest first.
func (s *state) gamesOf(versions []string, n int) []shown {
	var all []shown
	for _, name := range versions {
		v := s.versions[name]
		all = append(all, v.recent.last(n)...)
	}
	slices.SortFunc(all, func(a, b shown) int { return b.n - a.n })
	all = slices.CompactFunc(all, func(a, b shown) bool { return a.n == b.n }) // two versions of one bot at a table
	return all[:min(n, len(all))]
}

// botOf is the bot a version name is of (itself if it is not NAME.vN).
func botOf(version string) string {
	if b, _, ok := ladder.SplitVersion(version); ok {
		return b
	}
	return version
}
