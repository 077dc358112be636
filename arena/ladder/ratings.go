package ladder

import (
	"math"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/stats"
)

// Rating is a bot version's Weng-Lin skill and how many rated games made
// it.
type Rating struct {
	stats.Skill
	Games int
}

// Display is the conservative value the standings sort by: Mu - 3 Sigma
// (stats.Skill.Ordinal).
func (r Rating) Display() float64 { return r.Ordinal() }

// Interval is Mu -+ 3 Sigma, where the skill is with about 99.7 %
// confidence.
func (r Rating) Interval() (lo, hi float64) { return r.Mu - 3*r.Sigma, r.Mu + 3*r.Sigma }

// Ratings are the skills of every bot version (by its ledger name), as
// the games recorded so far make them. The live ladder and a
// recomputation from the ledger call the same Add in the same (ledger)
// order, so their states are equal to the last bit.
type Ratings struct {
	params  stats.Params
	initial stats.Skill
	by      map[string]Rating
}

// NewRatings are the ratings before any game: every version starts at
// initial.
func NewRatings(p stats.Params, initial stats.Skill) *Ratings {
	return &Ratings{params: p, initial: initial, by: map[string]Rating{}}
}

// Fold is the ratings after records, in order (Add each).
func Fold(p stats.Params, initial stats.Skill, records []ledger.Record) *Ratings {
	r := NewRatings(p, initial)
	for _, rec := range records {
		r.Add(rec)
	}
	return r
}

// Add updates the ratings of a game's bots from its ranks (one
// Plackett-Luce update; equal ranks are ties). A forfeit needs no case of
// its own: the ledger ranks a forfeiting seat below the others, as the
// game's result does. A record with fewer than two bots, or whose ranks
// do not match its bots (a damaged line), changes nothing and reports
// false.
func (r *Ratings) Add(rec ledger.Record) bool {
	if len(rec.Bots) < 2 || len(rec.Ranks) != len(rec.Bots) {
		return false
	}
	players := make([]stats.Skill, len(rec.Bots))
	for i, name := range rec.Bots {
		players[i] = r.Get(name).Skill
	}
	for i, s := range stats.PlackettLuce(players, rec.Ranks, r.params) {
		name := rec.Bots[i]
		r.by[name] = Rating{Skill: s, Games: r.by[name].Games + 1}
	}
	return true
}

// Get is the rating of a version; one that has played no game has the
// initial skill.
func (r *Ratings) Get(name string) Rating {
	if x, ok := r.by[name]; ok {
		return x
	}
	return Rating{Skill: r.initial}
}

// Equal says whether r and o hold the same ratings, bit for bit (NaN
// included): what a resumed ladder checks against its live state.
func (r *Ratings) Equal(o *Ratings) bool {
	if len(r.by) != len(o.by) {
		return false
	}
	for name, a := range r.by {
		b, ok := o.by[name]
		if !ok || a.Games != b.Games || math.Float64bits(a.Mu) != math.Float64bits(b.Mu) ||
			math.Float64bits(a.Sigma) != math.Float64bits(b.Sigma) {
			return false
		}
	}
	return true
}

// Names are the versions rated so far, in no order.
func (r *Ratings) Names() []string {
	out := make([]string, 0, len(r.by))
	for name := range r.by {
		out = append(out, name)
	}
	return out
}
