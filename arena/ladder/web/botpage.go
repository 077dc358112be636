package web

import (
	"slices"
	"strings"

	"github.com/arena-dev/arena/arena/ladder"
)

// botPage is a bot's page.
type botPage struct {
	Name, Status, Reason string
	Versions             []versionRow
	Games                []gameRow
	GamesTotal           int
	Meetings             []meetRow
	Forfeits             []forfeitRow
	Pending              int
	Refusals             []refusal
}

// versionRow is one version of a bot and its rating.
type versionRow struct {
	Name, Build     string
	Active, Retired bool
	Bundled         bool
	Display, Lo, Hi float64
	Games           int
}

// meetRow is the head-to-head of the bot (all its versions) with an
// opponent bot (all of its): games together, and how often it finished
// ahead, behind, level.
type meetRow struct {
	Opponent                   string
	Games, Ahead, Behind, Tied int
}

// forfeitRow is a forfeit of one of the bot's versions, as the ledger
// records it.
type forfeitRow struct {
	Game, Version, Reason, Detail string
}

// refusal is a submission the intake refused, and why.
type refusal struct{ Time, Submission, Report string }

// botPageOf is the page of bot name, nil if neither the roster nor a
// visible game knows it.
func botPageOf(st *state, name string, recent int) *botPage {
	b := st.roster.Bot(name)
	names := st.bots[name]
	if b == nil && len(names) == 0 {
		return nil
	}
	p := &botPage{Name: name, Status: statusUnknown}
	if b != nil {
		p.Status, p.Reason = st.statusOf(b)
		p.Pending = len(b.Pending)
		for _, e := range b.Refusals {
			p.Refusals = append(p.Refusals, refusal{Time: e.Time, Submission: e.Submission, Report: e.Report})
		}
	}
	p.Versions = versionRows(st, b, names)
	meet := map[string]*meetRow{}
	for _, vn := range names {
		v := st.versions[vn]
		p.GamesTotal += st.ratings.Get(vn).Games
		for opp, m := range v.meet {
			ob := botOf(opp)
			r := meet[ob]
			if r == nil {
				r = &meetRow{Opponent: ob}
				meet[ob] = r
			}
			r.Games, r.Ahead, r.Behind, r.Tied = r.Games+m.games, r.Ahead+m.ahead, r.Behind+m.behind, r.Tied+m.tied
		}
		p.Forfeits = append(p.Forfeits, v.forfeits.last(recent)...)
	}
	slices.Reverse(p.Forfeits) // the latest first (of each version)
	for _, g := range st.gamesOf(names, recent) {
		row := gameRowOf(g.rec)
		for _, c := range row.Seats {
			if c.Bot == name {
				row.Version = c.Version
			}
		}
		p.Games = append(p.Games, row)
	}
	for _, r := range meet {
		p.Meetings = append(p.Meetings, *r)
	}
	slices.SortFunc(p.Meetings, func(a, b meetRow) int { return strings.Compare(a.Opponent, b.Opponent) })
	return p
}

// versionRows are the versions of a bot: the roster's, then any other a
// visible game names.
func versionRows(st *state, b *ladder.Bot, played []string) []versionRow {
	var out []versionRow
	listed := map[string]bool{}
	add := func(r versionRow) {
		rt := st.ratings.Get(r.Name)
		r.Display, r.Games = rt.Display(), rt.Games
		r.Lo, r.Hi = rt.Interval()
		listed[r.Name] = true
		out = append(out, r)
	}
	if b != nil {
		for _, v := range b.Versions {
			add(versionRow{Name: ladder.VersionName(b.Name, v.N), Build: shortBuild(v.Build), Active: v.N == b.Active,
				Retired: v.Retired, Bundled: v.Bundled})
		}
	}
	for _, name := range played {
		if !listed[name] {
			add(versionRow{Name: name})
		}
	}
	return out
}

// shortBuild is the start of a build hash, as people read it.
func shortBuild(h string) string { return h[:min(len(h), 12)] }
