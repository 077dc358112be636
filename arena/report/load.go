package report

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/protocol"
)

// Kind is what wrote a results directory.
type Kind string

// The kinds of results directory.
const (
	Tournament Kind = "tournament" // arena tournament run: tournament.json and results.jsonl
	Match      Kind = "match"      // arena match --out: results.jsonl alone
	SPRT       Kind = "sprt"       // arena sprt --out: results.jsonl with test scores, sprt.json (written at the start, and again at the end)
)

// ErrNotResults: a directory that holds no arena results (neither
// tournament.json nor results.jsonl): the command line's mistake
// wherever it is found (exit 2), as a damaged ledger is not.
var ErrNotResults = usage.New("not an arena results directory")

// The rating progression recomputes the standings after every game up
// to MaxProgressionPoints games, and at that many evenly spaced games of
// a longer ledger; each point costs a pass over the games before it, so
// a ledger so long that the points would count more than
// ProgressionWork games in all gets fewer points (but at least
// MinProgressionPoints): a report of 40,000 games stays a matter of
// seconds.
const (
	MaxProgressionPoints = 100
	MinProgressionPoints = 12
	ProgressionWork      = 1_000_000
)

// Report is what a results directory says, read as `arena tournament
// standings` reads it: the standings, the games that count, and what the
// charts show.
type Report struct {
	Kind Kind
	Dir  string
	// Standings are tournament.Standings as the standings command shows
	// them (for a match or an SPRT run: tournament.Compute over its
	// ledger, ranked by score).
	Standings *tournament.Standings
	// Records are the games that count, in ledger order; Lines[i] is the
	// ledger line of Records[i].
	Records []ledger.Record
	Lines   []int
	// Progression is the ratings game by game (at most
	// MaxProgressionPoints points, fewer for long ledgers).
	Progression Progression
	// LLR is an SPRT run's trajectory; nil for other kinds, and for a run
	// without sprt.json (its hypotheses are there; an arena sprt writes
	// it as it starts, with the verdict sprt.Running, and at the end).
	LLR *Trajectory
	// Summary is an SPRT run's sprt.json, nil when there is none.
	Summary *sprt.Summary
	// Warnings are the standings' (lines that do not count, a torn last
	// line, ratings that failed) and the report's own.
	Warnings []string
}

// Progression is the ratings after Games[k] games: Ratings[k][i] is bot
// Bots[i]'s (NaN where they could not be computed).
type Progression struct {
	Bots    []string
	Games   []int
	Ratings [][]float64
}

// Trajectory is an SPRT's log-likelihood ratio after every counted unit
// (a pair, or unpaired a game), recomputed from results.jsonl in order
// with the run's own stop rule (sprt.Tally).
type Trajectory struct {
	Paired       bool
	Elo0, Elo1   float64
	Lower, Upper float64
	Points       []LLRPoint
	Verdict      sprt.Verdict // as sprt.json says: sprt.Running until the run ends
}

// LLRPoint is the LLR once Games games (Pairs pairs) were counted.
type LLRPoint struct {
	Games, Pairs int
	LLR          float64
}

// Load reads the results directory dir of any kind: a tournament's
// through tournament.Open (as a resume and the standings count it), a
// match's or an SPRT run's ledger line by line. Safe while a run plays
// into dir: nothing is written, and a torn last line is dropped with a
// warning.
func Load(dir string) (*Report, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("%w (%w)", ErrNotResults, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: %w (it is a file)", dir, ErrNotResults)
	}
	var r *Report
	switch {
	case exists(filepath.Join(dir, tournament.SavedConfig)):
		r, err = loadTournament(dir)
	case exists(filepath.Join(dir, ledger.FileName)), exists(filepath.Join(dir, sprt.SummaryFile)):
		r, err = loadRun(dir)
	default:
		return nil, fmt.Errorf("%s: %w (no %s, no %s)", dir, ErrNotResults, tournament.SavedConfig, ledger.FileName)
	}
	if err != nil {
		return nil, err
	}
	r.Progression = progression(r.Standings, r.Records)
	return r, nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func loadTournament(dir string) (*Report, error) {
	d, err := tournament.Open(dir)
	if err != nil {
		return nil, err
	}
	st, err := d.Standings()
	if err != nil {
		return nil, err
	}
	return &Report{Kind: Tournament, Dir: dir, Standings: st, Records: d.Ledger.Records, Lines: d.Ledger.Lines,
		Warnings: slices.Clone(st.Warnings)}, nil
}

// runLine is a line of a match's or an SPRT run's ledger: the record,
// and what an SPRT adds (sprt.GameLine), nil where absent.
type runLine struct {
	ledger.Record
	Pair      *int     `json:"pair"`
	TestScore *float64 `json:"test_score"`
}

func loadRun(dir string) (*Report, error) {
	path := filepath.Join(dir, ledger.FileName)
	entries, torn, err := ledger.ReadEntries[runLine](path)
	if err != nil {
		return nil, err
	}
	r := &Report{Kind: Match, Dir: dir}
	if torn != nil {
		r.Warnings = append(r.Warnings, path+": "+torn.String())
	}
	sum, err := sprt.ReadSummary(dir)
	switch {
	case err == nil:
		r.Kind, r.Summary = SPRT, sum
	case !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	var lines []runLine
	for _, e := range entries {
		if err := e.EditedError(); err != nil {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: line %d: game %s: %v; its replay shows how it ended (arena replay show DIR --game ID)",
				path, e.Line, e.Record.GameID, err))
		}
		if len(e.Record.Ranks) != len(e.Record.Bots) || len(e.Record.Bots) < 2 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: line %d: game %s: %d bots and %d ranks: this line is not counted",
				path, e.Line, e.Record.GameID, len(e.Record.Bots), len(e.Record.Ranks)))
			continue
		}
		if e.Record.TestScore != nil {
			r.Kind = SPRT
			// The stop rule counts half points 0..2 (sprt.Tally), and a
			// paired test counts a game only with its pair.
			switch ts := *e.Record.TestScore; {
			case ts != 0 && ts != 0.5 && ts != 1:
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s: line %d: game %s: test_score %g, want 0, 0.5 or 1: not counted in the LLR",
					path, e.Line, e.Record.GameID, ts))
				e.Record.TestScore = nil
			case sum != nil && sum.Paired && e.Record.Pair == nil:
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s: line %d: game %s: a paired test's game with no pair: not counted in the LLR",
					path, e.Line, e.Record.GameID))
				e.Record.TestScore = nil
			}
		}
		lines = append(lines, e.Record)
		r.Records = append(r.Records, e.Record.Record)
		r.Lines = append(r.Lines, e.Line)
	}
	var bots []string
	game, seats, total := "", 0, -1
	if sum != nil {
		bots = append([]string{sum.Test, sum.Base}, sum.Fillers...)
		game, seats = sum.Game, sum.Seats
	}
	bots = botsOf(bots, r.Records)
	if seats == 0 {
		seats = len(bots)
	}
	if game == "" {
		game = gameOf(dir, r.Records)
	}
	name := filepath.Base(filepath.Clean(dir))
	st, err := tournament.Compute(name, game, string(r.Kind), seats, total, bots, r.Records)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Standings = st
	r.Warnings = append(r.Warnings, st.Warnings...)
	st.Warnings = r.Warnings
	if r.Kind == SPRT {
		if sum == nil {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: no %s (arena sprt writes it as it starts): the LLR trajectory needs its hypotheses",
				dir, sprt.SummaryFile))
		} else {
			r.LLR = trajectory(sum, lines)
			// A running test's sprt.json is the one written as it
			// started: its LLR is not the ledger's yet.
			if last := r.LLR.last(); sum.Verdict != sprt.Running && !sameLLR(last, sum.LLR) {
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s: the LLR recomputed from %s is %.4f, %s says %.4f",
					dir, ledger.FileName, last, sprt.SummaryFile, sum.LLR))
			}
		}
		st.Warnings = r.Warnings
	}
	return r, nil
}

// sameLLR says the recomputed LLR is the one sprt.json rounded (to 1e-4).
func sameLLR(a, b float64) bool { return math.Abs(a-b) <= 1e-3 }

// botsOf is known followed by the other bots of records: a match's in
// its --bot order, which the seat rotation gives from any record (game g
// seats bot (seat+g) mod n in seat; match.SeatOf), then in order of first
// appearance.
func botsOf(known []string, records []ledger.Record) []string {
	seen := map[string]bool{}
	add := func(b string) {
		if !seen[b] {
			seen[b] = true
			known = append(known, b)
		}
	}
	for _, b := range slices.Clone(known) {
		seen[b] = true
	}
	if len(known) == 0 && len(records) > 0 {
		first := slices.MinFunc(records, func(a, b ledger.Record) int { return a.Index - b.Index })
		n := len(first.Bots)
		for i := range n {
			add(first.Bots[((i-first.Index)%n+n)%n])
		}
	}
	for _, rec := range records {
		for _, b := range rec.Bots {
			add(b)
		}
	}
	return known
}

// gameOf is the game named by the first replay that reads, "" if none.
func gameOf(dir string, records []ledger.Record) string {
	for _, rec := range records {
		if src, ok := replaySource(dir, rec); ok {
			if rp, err := src.Read(); err == nil {
				return rp.Header.Game
			}
		}
	}
	return ""
}

// trajectory replays lines through the run's stop rule.
func trajectory(sum *sprt.Summary, lines []runLine) *Trajectory {
	cfg := stats.SPRT{Elo0: sum.Elo0, Elo1: sum.Elo1, Alpha: sum.Alpha, Beta: sum.Beta}
	t := &Trajectory{Paired: sum.Paired, Elo0: sum.Elo0, Elo1: sum.Elo1, Verdict: sum.Verdict}
	t.Lower, t.Upper = cfg.Bounds()
	tally := sprt.NewTally(cfg, sum.Paired)
	t.Points = append(t.Points, LLRPoint{})
	for _, l := range lines {
		if l.TestScore == nil {
			continue
		}
		unit := 0
		if l.Pair != nil {
			unit = *l.Pair
		}
		if tally.Add(unit, int(math.Round(2**l.TestScore))) {
			t.Points = append(t.Points, LLRPoint{Games: tally.Games, Pairs: tally.Pairs, LLR: tally.LLR})
		}
	}
	return t
}

func (t *Trajectory) last() float64 { return t.Points[len(t.Points)-1].LLR }

// progression recomputes the standings' ratings over the first k games
// for k at up to MaxProgressionPoints evenly spaced points, with the
// standings' own code (tournament.Compute).
func progression(st *tournament.Standings, records []ledger.Record) Progression {
	p := Progression{Bots: st.Bots}
	n := len(records)
	if n == 0 {
		return p
	}
	idx := map[string]int{}
	for i, b := range st.Bots {
		idx[b] = i
	}
	points := min(n, max(MinProgressionPoints, min(MaxProgressionPoints, 2*ProgressionWork/n)))
	for k := 1; k <= points; k++ {
		games := int(math.Round(float64(k) * float64(n) / float64(points)))
		at, err := tournament.Compute(st.Name, st.Game, st.Format, st.Seats, st.Total, st.Bots, records[:games])
		if err != nil {
			break
		}
		ratings := make([]float64, len(st.Bots))
		for _, row := range at.Standings {
			ratings[idx[row.Name]] = math.NaN()
			if row.Rating != nil {
				ratings[idx[row.Name]] = *row.Rating
			}
		}
		p.Games = append(p.Games, games)
		p.Ratings = append(p.Ratings, ratings)
	}
	return p
}

// failure is one forfeit or strike of a bot in a game.
type failure struct {
	Game   string
	Line   int
	Detail string
}

// failures collects, per bot and reason, its forfeits and strikes in
// ledger order.
type failures struct {
	Bot      string
	Forfeits map[protocol.Reason][]failure
	Strikes  map[protocol.Reason][]failure
}

func failuresOf(bots []string, records []ledger.Record, lines []int) []failures {
	per := make([]failures, len(bots))
	idx := map[string]int{}
	for i, b := range bots {
		idx[b] = i
		per[i] = failures{Bot: b, Forfeits: map[protocol.Reason][]failure{}, Strikes: map[protocol.Reason][]failure{}}
	}
	for k, rec := range records {
		for _, f := range rec.Forfeits {
			if i, ok := idx[f.Bot]; ok {
				per[i].Forfeits[f.Reason] = append(per[i].Forfeits[f.Reason], failure{rec.GameID, lines[k], f.Detail})
			}
		}
		for _, f := range rec.Strikes {
			if i, ok := idx[f.Bot]; ok {
				per[i].Strikes[f.Reason] = append(per[i].Strikes[f.Reason], failure{rec.GameID, lines[k], f.Detail})
			}
		}
	}
	return slices.DeleteFunc(per, func(f failures) bool { return len(f.Forfeits) == 0 && len(f.Strikes) == 0 })
}

// reasons are a failure map's reasons, sorted.
func reasons(m map[protocol.Reason][]failure) []protocol.Reason {
	out := make([]protocol.Reason, 0, len(m))
	for r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}
