package tournament

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/stats"
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
	Forfeits   int   `json:"forfeits"`
	// ForfeitsBy counts forfeits per reason (timeout, crash, ...).
	ForfeitsBy map[string]int `json:"forfeits_by_reason"`
	// Rating is Elo-scale: Bradley-Terry over all games with 2 seats (mean
	// 0), or the Plackett-Luce (Weng-Lin) ordinal mu-3sigma with k seats.
	Rating    float64 `json:"rating"`
	RatingErr float64 `json:"rating_err95"`
	Mu        float64 `json:"mu,omitempty"`
	Sigma     float64 `json:"sigma,omitempty"`
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
	Standings  []Row  `json:"standings"`
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
	Details Details `json:"details"`
}

// Pair is one pairing's record in a 2-seat tournament.
type Pair struct {
	A       string  `json:"a"`
	B       string  `json:"b"`
	Wins    int     `json:"wins"`
	Draws   int     `json:"draws"`
	Losses  int     `json:"losses"`
	Elo     float64 `json:"elo"`
	EloLow  float64 `json:"elo_low"`
	EloHigh float64 `json:"elo_high"`
	LOS     float64 `json:"los"`
}

// Compute builds the standings from ledger records.
func Compute(name, game, format string, seats, total int, bots []string, records []match.GameRecord) (*Standings, error) {
	n := len(bots)
	idx := map[string]int{}
	for i, b := range bots {
		idx[b] = i
	}
	sum := match.NewSummary(bots)
	st := &Standings{Name: name, Game: game, Format: format, Seats: seats, Total: total, Bots: bots,
		HeadToHead: square[float64](n), HeadToHeadGames: square[int](n)}
	rows := make([]Row, n)
	for i := range rows {
		rows[i] = Row{Name: bots[i], ForfeitsBy: map[string]int{}}
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
			row.ScorePct = 100 * b.Score / float64(b.Games)
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
					Elo: jsonSafe(e.Diff), EloLow: jsonSafe(e.Low), EloHigh: jsonSafe(e.High), LOS: stats.LOS(*r)})
			}
		}
		st.RatingKind = "bradley-terry"
		if len(pairs) > 0 {
			ratings, err := stats.BradleyTerry(n, pairs)
			if err != nil {
				return nil, err
			}
			for i, r := range ratings {
				rows[i].Rating, rows[i].RatingErr = r.Elo, r.Err95
			}
		}
	} else {
		st.RatingKind = "plackett-luce"
		for i, s := range skills {
			rows[i].Mu, rows[i].Sigma = s.Mu, s.Sigma
			rows[i].Rating, rows[i].RatingErr = s.Ordinal(), 1.96*s.Sigma
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	// Rank by score per game, then rating; equal on both share a rank.
	key := func(i int) (float64, float64) {
		per := 0.0
		if rows[i].Games > 0 {
			per = rows[i].Score / float64(rows[i].Games)
		}
		return per, rows[i].Rating
	}
	sort.SliceStable(order, func(a, b int) bool {
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
			pp, pr := key(order[pos-1])
			p, r := key(i)
			if pp == p && pr == r {
				row.Rank = st.Standings[pos-1].Rank
			}
		}
		st.Standings = append(st.Standings, row)
	}
	return st, nil
}

func square[T any](n int) [][]T {
	m := make([][]T, n)
	for i := range m {
		m[i] = make([]T, n)
	}
	return m
}

// Table renders the standings and, for up to 16 bots, the head-to-head
// matrix.
func (s *Standings) Table(w io.Writer) error {
	total := "?"
	if s.Total >= 0 {
		total = strconv.Itoa(s.Total)
	}
	fmt.Fprintf(w, "%s: %s %s, %d of %s games\n", s.Name, s.Game, s.Format, s.Games, total)
	t := tablewriter.NewWriter(w)
	record := "W/D/L"
	if s.Seats > 2 {
		record = "placements"
	}
	rating := "Elo (BT)"
	if s.Seats > 2 {
		rating = "PL ordinal"
	}
	t.Header("rank", "bot", "games", record, "score", "score %", rating, "+/- 95%", "forfeits")
	for _, r := range s.Standings {
		rec := fmt.Sprintf("%d/%d/%d", r.Wins, r.Draws, r.Losses)
		if s.Seats > 2 {
			parts := make([]string, len(r.Placements))
			for i, p := range r.Placements {
				parts[i] = strconv.Itoa(p)
			}
			rec = strings.Join(parts, "/")
		}
		t.Append(r.Rank, r.Name, r.Games, rec, fmt.Sprintf("%.1f", r.Score), fmt.Sprintf("%.1f", r.ScorePct),
			fmt.Sprintf("%+.1f", r.Rating), fmt.Sprintf("%.1f", r.RatingErr), forfeitText(r))
	}
	if err := t.Render(); err != nil {
		return err
	}
	if text := s.Details.Text(s.Bots); text != "" {
		fmt.Fprint(w, text)
	}
	if len(s.Bots) > 16 || s.Games == 0 {
		return nil
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
				cells = append(cells, fmt.Sprintf("%g/%d", s.HeadToHead[i][j], s.HeadToHeadGames[i][j]))
			}
		}
		h.Append(cells...)
	}
	return h.Render()
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

// CSV writes one line per bot.
func (s *Standings) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "name", "games", "wins", "draws", "losses", "score", "score_pct", "mean_rank", "rating", "rating_err95", "forfeits"})
	for _, r := range s.Standings {
		cw.Write([]string{strconv.Itoa(r.Rank), r.Name, strconv.Itoa(r.Games), strconv.Itoa(r.Wins), strconv.Itoa(r.Draws),
			strconv.Itoa(r.Losses), ftoa(r.Score), ftoa(r.ScorePct), ftoa(r.MeanRank), ftoa(r.Rating), ftoa(r.RatingErr), strconv.Itoa(r.Forfeits)})
	}
	cw.Flush()
	return cw.Error()
}

func ftoa(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return ""
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// jsonSafe keeps infinite Elo (a side that won everything) encodable: it
// is written as +/-9999.
func jsonSafe(x float64) float64 {
	switch {
	case math.IsInf(x, 1):
		return 9999
	case math.IsInf(x, -1):
		return -9999
	}
	return x
}
