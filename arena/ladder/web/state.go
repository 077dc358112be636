package web

import (
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/stats"
)

// trendLen is how many of a version's last games its sparkline draws.
const trendLen = 40

// state is what the server knows of the ladder: every ledger line read,
// and what is built from the visible ones (recs[:visible]).
type state struct {
	params  stats.Params
	initial stats.Skill

	recs []ledger.Record // every complete ledger line read, in order
	// tables counts, per table (Round) with a game read but not yet
	// shown, the games the ledger holds of it.
	tables  map[int]*table
	visible int // recs[:visible] are shown; no other is

	ratings  *ladder.Ratings // ladder.Fold(recs[:visible])
	versions map[string]*version
	byID     map[string]int // visible game id -> index in recs
	// bots are the versions of each bot (SplitVersion; a name that is
	// not NAME.vN is a bot of its own) with a visible game.
	bots   map[string][]string
	roster *ladder.Roster
}

// table is a unit of k games of one deal, seats rotated.
type table struct{ k, read, shown int }

// version is what the visible games say of one bot version.
type version struct {
	games    []int     // indexes in recs, in ledger order
	trend    []float64 // its conservative rating after each of its last trendLen games
	meet     map[string]*meeting
	forfeits []int
}

// meeting counts the games of a version with one opponent version: how
// often it finished ahead of it, behind it, level.
type meeting struct{ games, ahead, behind, tied int }

func newState(p stats.Params, initial stats.Skill) *state {
	return &state{params: p, initial: initial, tables: map[int]*table{}, ratings: ladder.NewRatings(p, initial),
		versions: map[string]*version{}, byID: map[string]int{}, bots: map[string][]string{}, roster: &ladder.Roster{}}
}

// add takes in records read after the others and shows those that
// became visible; it returns how many did.
func (s *state) add(recs []ledger.Record) int {
	for _, r := range recs {
		t := s.tables[r.Round]
		if t == nil {
			t = &table{k: len(r.Bots)}
			s.tables[r.Round] = t
		}
		t.read++
	}
	s.recs = append(s.recs, recs...)
	before := s.visible
	for s.visible < len(s.recs) {
		r := s.recs[s.visible]
		t := s.tables[r.Round]
		if t.read < t.k {
			break // the first game of a deal still in play: it and all after it wait
		}
		s.show(s.visible)
		s.visible++
		if t.shown++; t.shown == t.read {
			delete(s.tables, r.Round)
		}
	}
	return s.visible - before
}

// show counts visible game i: the ratings (in ledger order, as
// ladder.Fold), each version's games, trend, meetings and forfeits.
func (s *state) show(i int) {
	r := s.recs[i]
	s.ratings.Add(r)
	s.byID[r.GameID] = i
	for seat, name := range r.Bots {
		v := s.version(name)
		v.games = append(v.games, i)
		if len(v.trend) == trendLen {
			v.trend = append(v.trend[:0], v.trend[1:]...)
		}
		v.trend = append(v.trend, s.ratings.Get(name).Display())
		if len(r.Ranks) != len(r.Bots) {
			continue
		}
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
	for _, f := range r.Forfeits {
		v := s.version(f.Bot)
		if n := len(v.forfeits); n == 0 || v.forfeits[n-1] != i {
			v.forfeits = append(v.forfeits, i)
		}
	}
}

func (s *state) version(name string) *version {
	v := s.versions[name]
	if v == nil {
		v = &version{meet: map[string]*meeting{}}
		s.versions[name] = v
		b := botOf(name)
		s.bots[b] = append(s.bots[b], name)
	}
	return v
}

// game is the visible game of that id, if there is one.
func (s *state) game(id string) (ledger.Record, bool) {
	i, ok := s.byID[id]
	if !ok {
		return ledger.Record{}, false
	}
	return s.recs[i], true
}

// botOf is the bot a version name is of (itself if it is not NAME.vN).
func botOf(version string) string {
	if b, _, ok := ladder.SplitVersion(version); ok {
		return b
	}
	return version
}
