package tournament

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/protocol"

	"github.com/arena-dev/arena/internal/words"
)

// Row is one bot's line in the standings. docs/tournaments.md documents
// every field.
type Row struct {
	Rank     int     `json:"rank"`
	Name     string  `json:"name"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Score    float64 `json:"score"`
	ScorePct float64 `json:"score_pct"`
	MeanRank float64 `json:"mean_rank"`
	// Placements[i] counts games finished in place i+1 (k-seat games).
	Placements []int `json:"placements,omitempty"`
	// Out is, in elimination formats, the round the bot went out in
	// ("w2", "l3", "gf1", "round 2", "final table"); "" while it is
	// still in, and for the winner.
	Out string `json:"out,omitempty"`
	// Withdrawn says why the bot plays no more games of the tournament
	// (withdrawn by the organiser, or suspended after failing to start):
	// its remaining games are forfeits. "" for a bot that plays on.
	Withdrawn string `json:"withdrawn,omitempty"`
	Forfeits  int    `json:"forfeits"`
	// ForfeitsBy counts forfeits per reason (timeout, crash, ...).
	ForfeitsBy map[protocol.Reason]int `json:"forfeits_by_reason"`
	// Rating is Elo-scale: Bradley-Terry over all games with 2 seats (mean
	// 0), or the Plackett-Luce (Weng-Lin) ordinal mu-3sigma with k seats.
	// Nil (absent in JSON) when the ratings could not be computed: the
	// standings say why in Warnings.
	Rating    *float64 `json:"rating,omitempty"`
	RatingErr *float64 `json:"rating_err95,omitempty"`
	Mu        float64  `json:"mu,omitempty"`
	Sigma     float64  `json:"sigma,omitempty"`
}

// Standings is a tournament's table.
type Standings struct {
	Name       string `json:"name"`
	Game       string `json:"game"`
	Format     string `json:"format"`
	Seats      int    `json:"seats"`
	Games      int    `json:"games"`
	Total      int    `json:"total"` // -1 if unknown
	RatingKind string `json:"rating_kind"`
	// RankedBy says what .rank follows: "score" (score per game, then
	// rating), or "bracket" / "tables" for elimination formats (how far
	// each bot went, see Row.Out, then score).
	RankedBy  string `json:"ranked_by"`
	Standings []Row  `json:"standings"`
	// Warnings are what a reader must know: first the directory's (an
	// edited tournament.json, a torn last line, edited lines, lines that
	// do not count: Dir.Warnings, which a resume has said already), then
	// the standings' own (ratings that could not be computed).
	Warnings []string `json:"warnings,omitempty"`
	// DirWarnings counts the first Warnings, the directory's.
	DirWarnings int `json:"-"`
	// HeadToHead[i][j] is bot i's score against bot j (2 seats: points;
	// k seats: share of the games they shared in which i finished ahead,
	// ties half); HeadToHeadGames[i][j] counts those games. Indexed by the
	// order of Bots.
	Bots            []string    `json:"bots"`
	HeadToHead      [][]float64 `json:"head_to_head"`
	HeadToHeadGames [][]int     `json:"head_to_head_games"`
	// Pairs (2 seats) is every pairing that met: its record, the Elo
	// difference of A over B with a 95% interval, and the likelihood of
	// superiority of A.
	Pairs []Pair `json:"pairs,omitempty"`
	// Details holds what the format adds: Swiss tie-breaks, a bracket.
	Details schedule.Details `json:"details"`
	// pairs are the 2-seat results Bradley-Terry rates (Separated).
	pairs []stats.PairResult
}

// Pair is one pairing's record in a 2-seat tournament. An Elo figure the
// games do not bound (one side won everything, an open end of the
// interval) is infinite: "Infinity" or "-Infinity" in JSON
// (stats.JSONFloat).
type Pair struct {
	A       string          `json:"a"`
	B       string          `json:"b"`
	Wins    int             `json:"wins"`
	Draws   int             `json:"draws"`
	Losses  int             `json:"losses"`
	Elo     stats.JSONFloat `json:"elo"`
	EloLow  stats.JSONFloat `json:"elo_low"`
	EloHigh stats.JSONFloat `json:"elo_high"`
	LOS     float64         `json:"los"` // stats.LOS, exact
}

// rater computes 2-seat ratings (stats.BradleyTerry); a seam for tests.
type rater func(n int, results []stats.PairResult) ([]stats.Rating, error)

// Compute builds the standings from ledger records, ranked by score.
func Compute(name, game, format string, seats, total int, bots []string, records []ledger.Record) (*Standings, error) {
	return compute(standingsInput{name: name, game: game, format: format, seats: seats, total: total, bots: bots, records: records}, stats.BradleyTerry)
}

// Standings are the directory's standings: its counted records, the
// format's details (a bracket ranks eliminations), and its warnings.
func (d *Dir) Standings() (*Standings, error) { return d.standings(stats.BradleyTerry) }

// ReadStandings reads the standings of the output directory dir, counted
// as a resume counts (Open): what arena tournament standings shows and
// what seeding_from ranks by. An error is Open's (the directory, its
// saved tournament, its ledger) but for a record naming a bot the
// tournament does not have.
func ReadStandings(dir string) (*Standings, error) {
	d, err := Open(dir)
	if err != nil {
		return nil, err
	}
	return d.Standings()
}

func (d *Dir) standings(rate rater) (*Standings, error) {
	c := d.Config
	names := make([]string, len(c.File.Bots))
	for i, b := range c.File.Bots {
		names[i] = b.Name
	}
	absent := map[string]string{}
	for i, why := range c.Absent {
		absent[names[i]] = why
	}
	st, err := compute(standingsInput{name: c.Name, game: c.Game.Info().Name, format: c.Format, seats: c.Seats,
		total: d.Ledger.Sched.Total(), bots: names, records: d.Ledger.Records, details: schedule.DetailsOf(d.Ledger.Sched), absent: absent}, rate)
	if err != nil {
		return nil, err
	}
	dir := d.Warnings()
	st.Warnings, st.DirWarnings = append(dir, st.Warnings...), len(dir)
	return st, nil
}

type standingsInput struct {
	name, game, format string
	seats, total       int
	bots               []string
	records            []ledger.Record
	details            schedule.Details
	absent             map[string]string // bot -> why it plays no more (Row.Withdrawn)
}

// ratingDecimals, scoreDecimals and meanRankDecimals are how the table
// and the CSV round.
const (
	scoreDecimals    = 1
	ratingDecimals   = 1
	meanRankDecimals = 2
)

// MaxMatrixBots is the most bots whose head-to-head matrix the table
// shows (it is as wide as the field); JSON and CSV have it for any field.
const MaxMatrixBots = 16

// compute is Compute with the rating function given. Ratings that fail
// (rate's error) leave the rows without them, with a warning: the
// standings are still shown.
func compute(in standingsInput, rate rater) (*Standings, error) {
	name, game, format, seats, total, bots, records := in.name, in.game, in.format, in.seats, in.total, in.bots, in.records
	n := len(bots)
	idx := map[string]int{}
	for i, b := range bots {
		idx[b] = i
	}
	sum := match.NewSummary(bots)
	st := &Standings{Name: name, Game: game, Format: format, Seats: seats, Total: total, Bots: bots,
		HeadToHead: square[float64](n), HeadToHeadGames: square[int](n), Details: in.details}
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Name: bots[i], ForfeitsBy: map[protocol.Reason]int{}, Withdrawn: in.absent[bots[i]]}
		if seats > 2 {
			rows[i].Placements = make([]int, seats)
		}
	}
	var pairs []stats.PairResult
	skills := make([]stats.Skill, n)
	for i := range skills {
		skills[i] = stats.DefaultSkill()
	}
	for _, r := range records {
		for _, b := range r.Bots {
			if _, ok := idx[b]; !ok {
				return nil, fmt.Errorf("game %s: bot %q is not in this tournament", r.GameID, b)
			}
		}
		sum.Add(r)
		st.Games++
		for _, f := range r.Forfeits {
			rows[idx[f.Bot]].ForfeitsBy[f.Reason]++
		}
		for s, rank := range r.Ranks {
			i := idx[r.Bots[s]]
			if seats > 2 && rank >= 1 && rank <= seats {
				rows[i].Placements[rank-1]++
			}
			for o, orank := range r.Ranks {
				if o == s {
					continue
				}
				j := idx[r.Bots[o]]
				st.HeadToHeadGames[i][j]++
				switch {
				case rank < orank:
					st.HeadToHead[i][j]++
				case rank == orank:
					st.HeadToHead[i][j] += 0.5
				}
			}
		}
		if len(r.Ranks) == 2 {
			a, b := idx[r.Bots[0]], idx[r.Bots[1]]
			score := 0.5
			if r.Ranks[0] < r.Ranks[1] {
				score = 1
			} else if r.Ranks[0] > r.Ranks[1] {
				score = 0
			}
			pairs = append(pairs, stats.PairResult{A: a, B: b, ScoreA: score, Weight: 1})
		} else {
			players := make([]stats.Skill, len(r.Bots))
			for s, b := range r.Bots {
				players[s] = skills[idx[b]]
			}
			updated := stats.PlackettLuce(players, r.Ranks, stats.DefaultParams())
			for s, b := range r.Bots {
				skills[idx[b]] = updated[s]
			}
		}
	}
	for i, b := range sum.Bots {
		row := &rows[i]
		row.Games, row.Wins, row.Draws, row.Losses = b.Games, b.Wins, b.Draws, b.Losses
		row.Score, row.MeanRank, row.Forfeits = b.Score, b.MeanRank, b.Forfeits
		if b.Games > 0 {
			row.ScorePct = b.ScorePct()
		}
	}
	if seats == 2 {
		wdl := map[[2]int]*stats.WDL{}
		for _, p := range pairs {
			a, b, score := p.A, p.B, p.ScoreA
			if a > b {
				a, b, score = b, a, 1-score
			}
			r := wdl[[2]int{a, b}]
			if r == nil {
				r = &stats.WDL{}
				wdl[[2]int{a, b}] = r
			}
			switch score {
			case 1:
				r.W++
			case 0:
				r.L++
			default:
				r.D++
			}
		}
		for a := range n {
			for b := a + 1; b < n; b++ {
				r := wdl[[2]int{a, b}]
				if r == nil {
					continue
				}
				e := stats.EloDiff(*r)
				st.Pairs = append(st.Pairs, Pair{A: bots[a], B: bots[b], Wins: r.W, Draws: r.D, Losses: r.L,
					Elo: stats.JSONFloat(e.Diff), EloLow: stats.JSONFloat(e.Low), EloHigh: stats.JSONFloat(e.High), LOS: stats.LOS(*r)})
			}
		}
		st.RatingKind, st.pairs = "bradley-terry", pairs
		ratings := make([]stats.Rating, n) // no games: everyone at the mean
		if len(pairs) > 0 {
			var err error
			if ratings, err = rate(n, pairs); err != nil {
				ratings = nil
				st.Warnings = append(st.Warnings, fmt.Sprintf("ratings: %v: the standings are shown without ratings (ranked by score alone)", err))
			}
		}
		for i, r := range ratings {
			rows[i].Rating, rows[i].RatingErr = ptr(r.Elo), ptr(r.Err95)
		}
	} else {
		st.RatingKind = "plackett-luce"
		for i, s := range skills {
			rows[i].Mu, rows[i].Sigma = s.Mu, s.Sigma
			rows[i].Rating, rows[i].RatingErr = ptr(s.Ordinal()), ptr(1.96*s.Sigma)
		}
	}
	st.RankedBy = "score"
	tiers := in.details.Tiers(n)
	if by := in.details.RankedBy(); by != "" {
		st.RankedBy = by
	}
	for i := range rows {
		if tiers != nil {
			rows[i].Out = tiers[i].Out
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Rank by score per game, then rating (without ratings: by score
	// alone); in eliminations first by how far each bot went. Equal on
	// all of that share a rank; bots out in the same round at the same
	// place share one whatever their scores.
	key := func(i int) (float64, float64) {
		per := 0.0
		if rows[i].Games > 0 {
			per = rows[i].Score / float64(rows[i].Games)
		}
		r := 0.0
		if rows[i].Rating != nil {
			r = *rows[i].Rating
		}
		return per, r
	}
	cmpTier := func(a, b int) int { // <0: a ranks above b
		if tiers == nil {
			return 0
		}
		return tiers[a].Compare(tiers[b])
	}
	sort.SliceStable(order, func(a, b int) bool {
		if c := cmpTier(order[a], order[b]); c != 0 {
			return c < 0
		}
		pa, ra := key(order[a])
		pb, rb := key(order[b])
		if pa != pb {
			return pa > pb
		}
		return ra > rb
	})
	for pos, i := range order {
		row := rows[i]
		row.Rank = pos + 1
		if pos > 0 {
			prev := order[pos-1]
			pp, pr := key(prev)
			p, r := key(i)
			sameTier := cmpTier(prev, i) == 0
			if sameTier && (tiers != nil && !tiers[i].Alive || pp == p && pr == r) {
				row.Rank = st.Standings[pos-1].Rank
			}
		}
		st.Standings = append(st.Standings, row)
	}
	return st, nil
}

func ptr(x float64) *float64 { return &x }

func square[T any](n int) [][]T {
	m := make([][]T, n)
	for i := range m {
		m[i] = make([]T, n)
	}
	return m
}

// Table renders the standings and, for up to MaxMatrixBots bots, the
// head-to-head matrix (for more it says where to find it). Rating columns
// are left out when the ratings could not be computed (Warnings says why).
func (s *Standings) Table(w io.Writer) error {
	fmt.Fprintf(w, "%s: %s %s, %s\n", s.Name, s.Game, s.Format, s.gamesText())
	t := tablewriter.NewWriter(w)
	record := "W/D/L"
	if s.Seats > 2 {
		record = "placements"
	}
	rated := !slices.ContainsFunc(s.Standings, func(r Row) bool { return r.Rating == nil })
	elim := s.rankedByPlace()
	header := []string{"rank", "bot"}
	if elim {
		header = append(header, "out in")
	}
	header = append(header, "games", record, "score", "score %")
	if rated {
		header = append(header, s.ratingColumn(), "+/- 95%")
	}
	t.Header(append(header, "forfeits"))
	for _, r := range s.Standings {
		rec := fmt.Sprintf("%d/%d/%d", r.Wins, r.Draws, r.Losses)
		if s.Seats > 2 {
			parts := make([]string, len(r.Placements))
			for i, p := range r.Placements {
				parts[i] = strconv.Itoa(p)
			}
			rec = strings.Join(parts, "/")
		}
		cells := []any{r.Rank, r.Name}
		if elim {
			out := r.Out
			if out == "" {
				out = "-"
			}
			cells = append(cells, out)
		}
		cells = append(cells, r.Games, rec, fmt.Sprintf("%.*f", scoreDecimals, r.Score), fmt.Sprintf("%.*f", scoreDecimals, r.ScorePct))
		if rated {
			cells = append(cells, fmt.Sprintf("%+.*f", ratingDecimals, *r.Rating), fmt.Sprintf("%.*f", ratingDecimals, *r.RatingErr))
		}
		t.Append(append(cells, forfeitText(r))...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, r := range s.Standings {
		if r.Withdrawn != "" {
			fmt.Fprintf(w, "%s plays no more: %s; its remaining games are forfeits\n", r.Name, r.Withdrawn)
		}
	}
	fmt.Fprint(w, s.legend(rated))
	if text := s.Details.Text(s.Bots); text != "" {
		fmt.Fprint(w, text)
	}
	if s.Games == 0 {
		return nil
	}
	if len(s.Bots) > MaxMatrixBots {
		_, err := fmt.Fprintf(w, "head to head: not shown for %d bots (the table shows up to %d); "+
			"`arena tournament standings DIR --json` has it (head_to_head, head_to_head_games), `--csv --head-to-head` as CSV, `arena report DIR` as a heat map\n", len(s.Bots), MaxMatrixBots)
		return err
	}
	fmt.Fprintln(w, "head to head (row's score against column, of games together):")
	h := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off)) // bot names as written
	h.Header(append([]string{""}, s.Bots...))
	for i, b := range s.Bots {
		cells := []any{b}
		for j := range s.Bots {
			switch {
			case i == j:
				cells = append(cells, "-")
			case s.HeadToHeadGames[i][j] == 0:
				cells = append(cells, "")
			default:
				cells = append(cells, s.matrixCell(i, j))
			}
		}
		h.Append(cells...)
	}
	return h.Render()
}

// gamesText is "68 of 120 games" when the total is known; an
// elimination's total is not (a tied encounter adds games): "68 games"
// once it has its winner, and in words that more may come before.
func (s *Standings) gamesText() string {
	switch {
	case s.Total >= 0:
		return fmt.Sprintf("%d of %d games", s.Games, s.Total)
	case s.Details.Decided():
		return words.Count(s.Games, "game", "games") + ", all played"
	}
	return words.Count(s.Games, "game", "games") + " so far; how many more depends on the results (a tied encounter adds games)"
}

// legend says what the table's columns are, and why its ranks and its
// ratings may order the bots differently, naming a pair that they do.
func (s *Standings) legend(rated bool) string {
	var b strings.Builder
	if s.Seats > 2 {
		fmt.Fprintf(&b, "placements: games finished 1st/2nd/.../%s. ", words.Ordinal(s.Seats))
	}
	b.WriteString("score: 1 a game for finishing above every other seat, shared on ties (2 seats: win 1, draw 1/2).")
	if rated {
		what := "the Bradley-Terry rating of every game, with its 95% interval: it weighs whom each bot met"
		if s.Seats > 2 {
			what = "the Plackett-Luce (Weng-Lin) rating, mu - 3 sigma on the Elo scale, a cautious figure that rises with games played"
		}
		fmt.Fprintf(&b, " %s: %s.", s.ratingColumn(), what)
	}
	why := "the rank is the score per game, which does not ask whom a bot met; the rating does"
	if s.rankedByPlace() {
		b.WriteString(" rank: how far the bot went (out in: the round it went out in), then score.")
		why = "the rank follows the bracket, the rating every game and whom it was against"
	} else {
		b.WriteString(" rank: score per game, then rating.")
	}
	if rated {
		if hi, lo, ok := s.inversion(); ok {
			fmt.Fprintf(&b, " Here %s ranks above %s, whose rating is higher: %s.", hi, lo, why)
		}
	}
	return strings.Join(words.Wrap(b.String(), 80, ""), "\n") + "\n\n"
}

// rankedByPlace says the ranks follow how far each bot went (RankedBy
// "bracket" or "tables": elimination formats), not the score.
func (s *Standings) rankedByPlace() bool { return s.RankedBy == "bracket" || s.RankedBy == "tables" }

// ratingColumn is the rating's name in the table and its legend.
func (s *Standings) ratingColumn() string {
	if s.Seats > 2 {
		return "PL ordinal"
	}
	return "Elo (BT)"
}

// inversion is a pair of bots the ranks put one way and the ratings the
// other, the first such pair in rank order.
func (s *Standings) inversion() (above, below string, ok bool) {
	for i, r := range s.Standings {
		for _, q := range s.Standings[i+1:] {
			if q.Rank > r.Rank && r.Rating != nil && q.Rating != nil && *q.Rating > *r.Rating {
				return r.Name, q.Name, true
			}
		}
	}
	return "", "", false
}

// matrixCell is "score/games" of row i against column j.
func (s *Standings) matrixCell(i, j int) string {
	return rounded(s.HeadToHead[i][j], scoreDecimals) + "/" + strconv.Itoa(s.HeadToHeadGames[i][j])
}

func forfeitText(r Row) string {
	if r.Forfeits == 0 {
		return "0"
	}
	var reasons []string
	for k, v := range r.ForfeitsBy {
		reasons = append(reasons, fmt.Sprintf("%s %d", k, v))
	}
	sort.Strings(reasons)
	return fmt.Sprintf("%d (%s)", r.Forfeits, strings.Join(reasons, ", "))
}

// CSV writes one line per bot, its figures rounded as the table rounds
// them; the rating cells are empty when the ratings could not be
// computed.
func (s *Standings) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "name", "games", "wins", "draws", "losses", "score", "score_pct", "mean_rank", "rating", "rating_err95", "forfeits"})
	for _, r := range s.Standings {
		rating, ratingErr := "", ""
		if r.Rating != nil && r.RatingErr != nil {
			rating, ratingErr = rounded(*r.Rating, ratingDecimals), rounded(*r.RatingErr, ratingDecimals)
		}
		cw.Write([]string{strconv.Itoa(r.Rank), r.Name, strconv.Itoa(r.Games), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws),
			strconv.Itoa(r.Losses), rounded(r.Score, scoreDecimals), rounded(r.ScorePct, scoreDecimals), rounded(r.MeanRank, meanRankDecimals),
			rating, ratingErr, strconv.Itoa(r.Forfeits)})
	}
	cw.Flush()
	return cw.Error()
}

// HeadToHeadCSV writes the head-to-head matrix: a header of bot names,
// then a line per bot with its "score/games" against each column (empty
// where they never met and on the diagonal).
func (s *Standings) HeadToHeadCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"bot"}, s.Bots...))
	for i, b := range s.Bots {
		line := []string{b}
		for j := range s.Bots {
			cell := ""
			if i != j && s.HeadToHeadGames[i][j] > 0 {
				cell = s.matrixCell(i, j)
			}
			line = append(line, cell)
		}
		cw.Write(line)
	}
	cw.Flush()
	return cw.Error()
}

// rounded writes x with at most decimals decimals and no trailing zeros
// (6, 5.5, 66.7): no float noise such as 5.999999999999999.
func rounded(x float64, decimals int) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return ""
	}
	p := math.Pow(10, float64(decimals))
	r := math.Round(x*p) / p
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}
