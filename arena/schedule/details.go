package schedule

import (
	"fmt"
	"strings"

	"github.com/olekukonko/tablewriter"
)

// The optional interfaces a Scheduler may have, for what a format shows
// beyond the games: the tournament runner, its progress lines, its
// standings and its report ask for them and need not know the format.

// Detailer is a scheduler with state worth showing beside the standings
// (Swiss tie-breaks, a bracket, the rounds of tables).
type Detailer interface {
	Details() Details
}

// Stager is a scheduler whose games go by stages (the eliminations):
// Stage names the stage in play for progress lines ("" when none is),
// and estimates the games in all with done of them played (0: no
// estimate; Total tells, or nothing does).
type Stager interface {
	Stage(done int) (string, int)
}

// DetailsOf returns the details of s: none unless it is a Detailer.
func DetailsOf(s Scheduler) Details {
	if d, ok := s.(Detailer); ok {
		return d.Details()
	}
	return Details{}
}

// StageOf returns the stage of s and its estimate of the games in all,
// with done of them played: "" and 0 unless it is a Stager.
func StageOf(s Scheduler, done int) (string, int) {
	if st, ok := s.(Stager); ok {
		return st.Stage(done)
	}
	return "", 0
}

// Details is what a format knows beyond the standings: Swiss tie-breaks,
// an elimination bracket, the rounds of table elimination. It is part of
// the standings' JSON ("details"), one field per kind of state.
type Details struct {
	Swiss   []SwissRow   `json:"swiss,omitempty"`
	Bracket *BracketView `json:"bracket,omitempty"`
	Tables  *TableView   `json:"tables,omitempty"`
}

// Decided says the elimination of d has its winner: its games are all
// played, though how many there were could not be known beforehand.
func (d Details) Decided() bool {
	return d.Bracket != nil && d.Bracket.Champion >= 0 || d.Tables != nil && d.Tables.Winner >= 0
}

// Chart is what an elimination stores beside its results (bracket.json):
// the bracket or the tables; nil for the formats without one.
func (d Details) Chart() any {
	switch {
	case d.Bracket != nil:
		return d.Bracket
	case d.Tables != nil:
		return d.Tables
	}
	return nil
}

// RankedBy is what ranks the bots of an elimination before their
// scores: "bracket" or "tables"; "" for the formats ranked by score.
func (d Details) RankedBy() string {
	switch {
	case d.Bracket != nil:
		return "bracket"
	case d.Tables != nil:
		return "tables"
	}
	return ""
}

// Tiers ranks the n bots of an elimination by how far each went (the
// bracket or the tables): nil for the formats ranked by score.
func (d Details) Tiers(n int) []Tier {
	switch {
	case d.Bracket != nil:
		return d.Bracket.tiers(n)
	case d.Tables != nil:
		return d.Tables.tiers(n)
	}
	return nil
}

// Text renders the details for people; names maps bot indexes to names.
func (d Details) Text(names []string) string {
	var b strings.Builder
	if len(d.Swiss) > 0 {
		b.WriteString("Swiss standings (points, then Buchholz, then Sonneborn-Berger):\n")
		t := tablewriter.NewWriter(&b)
		t.Header("rank", "bot", "points", "buchholz", "sonneborn-berger", "byes")
		for _, r := range d.Swiss {
			t.Append(r.Rank, names[r.Bot], fmt.Sprint(r.Points), fmt.Sprint(r.Buchholz), fmt.Sprint(r.SonnebornBerger), r.Byes)
		}
		t.Render()
	}
	if d.Bracket != nil {
		b.WriteString(d.Bracket.Text(names))
	}
	if d.Tables != nil {
		b.WriteString(d.Tables.Text(names))
	}
	return b.String()
}

// Tier is how far a bot went in an elimination: still in, or out in a
// round (a later one ranks higher) at a place there (lower ranks higher;
// the final table's places, or the position at a table it left).
type Tier struct {
	Alive bool
	Round int
	Place int
	// Out names the round the bot went out in, for people ("w2", "round
	// 2", "final table"); "" for the winner and bots still in.
	Out string
}

// Compare orders tiers best first: <0 when t ranks above o.
func (t Tier) Compare(o Tier) int {
	switch {
	case t.Alive != o.Alive:
		if t.Alive {
			return -1
		}
		return 1
	case t.Alive:
		return 0
	case t.Round != o.Round:
		return o.Round - t.Round
	}
	return t.Place - o.Place
}
