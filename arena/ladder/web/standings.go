package web

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/arena-dev/arena/arena/ladder"
)

// row is a bot's line of the standings: its current version (the active
// one, else the last that played) and that version's rating.
type row struct {
	Rank            int // 0: no version to rank
	Bot, Version    string
	Status, Reason  string
	Display, Lo, Hi float64
	Sigma           float64
	Games           int
	Trend           string // the sparkline's points
}

// statusUnknown is the status of a bot the ledger names and the roster
// does not (a roster that could not be read to its end).
const statusUnknown = "unknown"

// standings are the rows of every bot, best first (by the conservative
// rating, then games, then name): the active ones ranked, then the
// others; pending bots, with no version, last.
// This is the leaderboard's own small builder: it reads the server's
// visible state, not the ledger.
func standings(st *state) []row {
	var rows []row
	seen := map[string]bool{}
	for _, b := range st.roster.Bots {
		seen[b.Name] = true
		r := row{Bot: b.Name, Version: currentVersion(st, b)}
		r.Status, r.Reason = st.statusOf(b)
		rows = append(rows, r)
	}
	for _, name := range ledgerOnly(st, seen) {
		rows = append(rows, row{Bot: name, Status: statusUnknown, Version: lastPlayed(st, name)})
	}
	for i := range rows {
		rows[i].rate(st)
	}
	slices.SortStableFunc(rows, func(a, b row) int {
		if c := cmp.Compare(unranked(a), unranked(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Display, a.Display); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Games, a.Games); c != 0 {
			return c
		}
		return strings.Compare(a.Bot, b.Bot)
	})
	for i := range rows {
		if unranked(rows[i]) == 0 {
			rows[i].Rank = i + 1
		}
	}
	return rows
}

// unranked orders the rows: the bots that play (active) are ranked
// first, as arena ladder standings ranks them; then the others with a
// version (suspended, withdrawn, retired), unranked; then those with
// none (pending).
func unranked(r row) int {
	switch {
	case r.Version == "":
		return 2
	case r.Status != ladder.StatusActive:
		return 1
	}
	return 0
}

// rate fills in the rating of r's version.
func (r *row) rate(st *state) {
	if r.Version == "" {
		return
	}
	rt := st.ratings.Get(r.Version)
	r.Display, r.Sigma, r.Games = rt.Display(), rt.Sigma, rt.Games
	r.Lo, r.Hi = rt.Interval()
	if v := st.versions[r.Version]; v != nil {
		r.Trend = sparkline(v.trend.last(trendLen))
	}
}

// currentVersion is the version a bot's row shows: its active one, else
// the last that played, else its last admitted ("" if none).
func currentVersion(st *state, b *ladder.Bot) string {
	if name := b.ActiveName(); name != "" {
		return name
	}
	if name := lastPlayed(st, b.Name); name != "" {
		return name
	}
	if n := len(b.Versions); n > 0 {
		return ladder.VersionName(b.Name, b.Versions[n-1].N)
	}
	return ""
}

// lastPlayed is bot's highest-numbered version with a visible game
// ("" if none).
func lastPlayed(st *state, bot string) string {
	best, name := -1, ""
	for _, v := range st.bots[bot] {
		if _, n, ok := ladder.SplitVersion(v); !ok && best < 0 || ok && n > best {
			best, name = n, v
		}
	}
	return name
}

// ledgerOnly are the bots the visible games name that are not in seen,
// sorted.
func ledgerOnly(st *state, seen map[string]bool) []string {
	var out []string
	for b := range st.bots {
		if !seen[b] {
			out = append(out, b)
		}
	}
	slices.Sort(out)
	return out
}

// Sparkline geometry, in SVG user units.
const (
	sparkW = 80
	sparkH = 18
)

// sparkline is the points of a polyline drawing vals left to right,
// scaled to the box ("" for fewer than two).
func sparkline(vals []float64) string {
	if len(vals) < 2 {
		return ""
	}
	lo, hi := slices.Min(vals), slices.Max(vals)
	var b strings.Builder
	for i, v := range vals {
		y := float64(sparkH) / 2
		if hi > lo {
			y = 1 + (hi-v)/(hi-lo)*(sparkH-2)
		}
		fmt.Fprintf(&b, "%.1f,%.1f ", float64(i)*sparkW/float64(len(vals)-1), y)
	}
	return strings.TrimSpace(b.String())
}
