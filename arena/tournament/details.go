package tournament

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/internal/atomicfile"
)

// Details is what a format knows beyond the standings: Swiss tie-breaks,
// an elimination bracket, the rounds of table elimination.
type Details struct {
	Swiss   []schedule.SwissRow   `json:"swiss,omitempty"`
	Bracket *schedule.BracketView `json:"bracket,omitempty"`
	Tables  *schedule.TableView   `json:"tables,omitempty"`
}

// Decided says the elimination of d has its winner: its games are all
// played, though how many there were could not be known beforehand.
func (d Details) Decided() bool {
	return d.Bracket != nil && d.Bracket.Champion >= 0 || d.Tables != nil && d.Tables.Winner >= 0
}

// BracketFile is where elimination formats store their bracket.
const BracketFile = "bracket.json"

// Rebuild feeds the recorded results through a fresh scheduler, exactly as
// a resume does, so the format's state can be shown without playing.
func (c *Config) Rebuild(records []ledger.Record) (schedule.Scheduler, error) {
	s, err := c.NewScheduler()
	if err != nil {
		return nil, err
	}
	ranks := make(map[string][]int, len(records))
	for _, r := range records {
		ranks[r.GameID] = r.Ranks
	}
	for {
		g, st := s.Next()
		if st != schedule.Ready {
			return s, nil
		}
		if r, ok := ranks[c.Name+"-"+g.ID]; ok {
			s.Result(g, r)
		}
	}
}

// DetailsOf returns the format-specific state of a scheduler.
func DetailsOf(s schedule.Scheduler) Details {
	var d Details
	switch x := s.(type) {
	case *schedule.SwissScheduler:
		d.Swiss = x.Standings()
	case *schedule.Elimination:
		b := x.Bracket()
		d.Bracket = &b
	case *schedule.TableKnockout:
		v := x.View()
		d.Tables = &v
	}
	return d
}

// Text renders the details for people.
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

// writeBracket stores an elimination bracket as JSON next to the results
// (atomically, so a reader never sees half of it).
func writeBracket(out string, s schedule.Scheduler) error {
	d := DetailsOf(s)
	var v any
	switch {
	case d.Bracket != nil:
		v = d.Bracket
	case d.Tables != nil:
		v = d.Tables
	default:
		return nil
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(out, BracketFile), append(data, '\n'))
}
