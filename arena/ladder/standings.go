package ladder

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/tournament"
)

// Standings are a ladder's table as its files say: the ledger folded into
// ratings (Fold, as a resumed run folds it) and the roster log's statuses,
// read without the directory's lock, so that they can be read while the
// ladder runs (arena ladder standings, the web leaderboard).
type Standings struct {
	Name  string `json:"name"`
	Game  string `json:"game"`
	Seats string `json:"seats"` // a table's size, "2", or a range, "2-4"
	Games int    `json:"games"` // games in the ledger
	// CrossCheck names the rating of the tournaments' standings
	// (tournament.Compute) shown beside the ladder's: "bradley-terry"
	// (2 seats: Elo scale, field mean 0) or "plackett-luce" (more seats:
	// its ordinal with the default model).
	CrossCheck string `json:"cross_check"`
	// Rows are the active versions by rating (ranked), then the others
	// (retired, suspended, withdrawn: no rank) by rating.
	Rows []StandingsRow `json:"standings"`
	// Warnings are what reading found: a torn last line (a game being
	// written while the ladder runs, or a crash), ratings the cross-check
	// could not compute.
	Warnings []string `json:"warnings,omitempty"`
	// Ratings are the ledger's games folded: equal, bit for bit, to what
	// a run that recorded them ends with (Result.Ratings).
	Ratings *Ratings `json:"-"`
}

// StandingsRow is one bot version's line.
type StandingsRow struct {
	// Rank is the place among the active versions, from 1 (equal
	// ratings share one); 0 for a version that does not play.
	Rank    int    `json:"rank,omitempty"`
	Bot     string `json:"bot"`
	Version string `json:"version"` // NAME.vN, as in the ledger
	// Status is the version's: active, retired (replaced by a newer
	// version, or the bot retired), suspended or withdrawn (Reason
	// says why).
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Rating is mu - 3 sigma (Rating.Display); Low and High the
	// interval (Rating.Interval).
	Rating float64 `json:"rating"`
	Mu     float64 `json:"mu"`
	Sigma  float64 `json:"sigma"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Games  int     `json:"games"`
	// CrossCheck is the tournaments' rating of the version (nil when it
	// could not be computed: Warnings says why), CrossCheckErr its 95 %
	// half width.
	CrossCheck    *float64 `json:"cross_check,omitempty"`
	CrossCheckErr *float64 `json:"cross_check_err95,omitempty"`
}

// Active counts the active versions (one a bot at most).
func (st *Standings) Active() int {
	n := 0
	for _, r := range st.Rows {
		if r.Status == StatusActive {
			n++
		}
	}
	return n
}

// ErrDiverged is the ratings a run ended with differing from those
// folded from its ledger: a bug, or a ledger changed while it ran.
var ErrDiverged = errors.New("the live ratings differ from a recomputation from the ledger")

// Check says whether live, the ratings a run ended with
// (Result.Ratings), equal the standings' (folded from the ledger), bit
// for bit: nil, or ErrDiverged naming the versions that differ.
func (st *Standings) Check(live *Ratings) error {
	if live.Equal(st.Ratings) {
		return nil
	}
	names := append(live.Names(), st.Ratings.Names()...)
	slices.Sort(names)
	var differ []string
	for _, name := range slices.Compact(names) {
		if a, b := live.Get(name), st.Ratings.Get(name); a != b {
			differ = append(differ, fmt.Sprintf("%s (live mu %v sigma %v, %d games; ledger mu %v sigma %v, %d games)",
				name, a.Mu, a.Sigma, a.Games, b.Mu, b.Sigma, b.Games))
		}
	}
	if len(differ) == 0 {
		differ = []string{"the versions rated differ"}
	}
	return fmt.Errorf("ladder %s: %w of %d games: %s", st.Name, ErrDiverged, st.Games, strings.Join(differ, "; "))
}

// ReadConfig reads and resolves the ladder file of the ladder directory
// dir, without its lock.
func ReadConfig(dir string) (*Config, error) {
	path := filepath.Join(dir, FileName)
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("%s is %w: %v", dir, ErrNotLadder, err)
	}
	f, err := LoadFile(path)
	if err != nil {
		return nil, err
	}
	return f.Resolve(path, dir)
}

// ReadStandings reads the standings of the ladder directory dir: its
// ladder file, roster log and ledger, without the lock, with the
// tournaments' rating of the same games as a cross-check (which holds
// the ledger's records in memory while it computes).
func ReadStandings(dir string) (*Standings, error) { return readStandings(dir, true) }

// ReadRatings is ReadStandings without the cross-check: the ledger read
// a line at a time, in memory that does not grow with it (what a
// ladder's run says as it starts).
func ReadRatings(dir string) (*Standings, error) { return readStandings(dir, false) }

func readStandings(dir string, cross bool) (*Standings, error) {
	c, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	roster, read, err := ReadRoster(filepath.Join(dir, RosterName))
	if err != nil {
		return nil, err
	}
	results := filepath.Join(dir, ledger.FileName)
	var records []ledger.Record
	var edited []string
	st := &Standings{Name: c.Name, Game: c.Game.Info().Name, Seats: strconv.Itoa(c.Seats.Min), Ratings: NewRatings(c.Rating, c.Initial)}
	lc := newLineCheck(results, func(err error) { edited = append(edited, err.Error()) })
	torn, err := ledger.Each(results, func(e ledger.Entry[ledger.Record]) error {
		if err := lc.check(e); err != nil {
			return err
		}
		st.Games++
		st.Ratings.Add(e.Record) // in ledger order: Fold's
		if cross {
			records = append(records, e.Record)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if c.Seats.Max != c.Seats.Min {
		st.Seats += "-" + strconv.Itoa(c.Seats.Max)
	}
	if torn != nil {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s (a game being written, or a crash): not counted", results, torn))
	}
	if read.Torn != nil {
		st.Warnings = append(st.Warnings, fmt.Sprintf("%s: %s", filepath.Join(dir, RosterName), read.Torn))
	}
	for _, e := range read.Edited {
		st.Warnings = append(st.Warnings, e.Error())
	}
	st.Warnings = append(st.Warnings, edited...)
	st.Rows = st.rows(roster)
	if cross {
		st.crossCheck(c, records)
	}
	rank(st.Rows)
	return st, nil
}

// rows are a row for each version of the roster, and for each name of
// the ratings the roster does not have (a roster log cut short).
func (st *Standings) rows(roster *Roster) []StandingsRow {
	var rows []StandingsRow
	seen := map[string]bool{}
	add := func(bot, version, status, reason string) {
		r := st.Ratings.Get(version)
		lo, hi := r.Interval()
		rows = append(rows, StandingsRow{Bot: bot, Version: version, Status: status, Reason: reason,
			Rating: r.Display(), Mu: r.Mu, Sigma: r.Sigma, Low: lo, High: hi, Games: r.Games})
		seen[version] = true
	}
	for _, b := range roster.Bots {
		for _, v := range b.Versions {
			status, reason := StatusRetired, ""
			if v.N == b.Active && !v.Retired {
				status, reason = b.Status, b.Reason
			}
			add(b.Name, VersionName(b.Name, v.N), status, reason)
		}
	}
	names := st.Ratings.Names()
	slices.Sort(names)
	for _, name := range names {
		if !seen[name] {
			bot, _, _ := SplitVersion(name)
			add(bot, name, StatusRetired, "not in the roster log")
		}
	}
	return rows
}

// crossCheck fills in the tournaments' rating of each version
// (tournament.Compute over the ledger, every version a bot of its own).
func (st *Standings) crossCheck(c *Config, records []ledger.Record) {
	names := make([]string, len(st.Rows))
	for i, r := range st.Rows {
		names[i] = r.Version
	}
	seats := c.Seats.Max
	t, err := tournament.Compute(c.Name, st.Game, "ladder", seats, -1, names, records)
	if err != nil {
		st.Warnings = append(st.Warnings, fmt.Sprintf("cross-check: %v", err))
		return
	}
	st.CrossCheck = t.RatingKind
	st.Warnings = append(st.Warnings, t.Warnings...)
	by := map[string]tournament.Row{}
	for _, r := range t.Standings {
		by[r.Name] = r
	}
	for i := range st.Rows {
		r := by[st.Rows[i].Version]
		st.Rows[i].CrossCheck, st.Rows[i].CrossCheckErr = r.Rating, r.RatingErr
	}
}

// rank orders rows: the active versions by rating, ranked, then the
// others by rating; equal ratings keep the roster's order.
func rank(rows []StandingsRow) {
	active := func(r StandingsRow) bool { return r.Status == StatusActive }
	slices.SortStableFunc(rows, func(a, b StandingsRow) int {
		if active(a) != active(b) {
			if active(a) {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.Rating, a.Rating)
	})
	for i := range rows {
		if !active(rows[i]) {
			break
		}
		rows[i].Rank = i + 1
		if i > 0 && rows[i].Rating == rows[i-1].Rating {
			rows[i].Rank = rows[i-1].Rank
		}
	}
}
