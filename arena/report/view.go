package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/words"
	"github.com/arena-dev/arena/protocol"
)

// MaxDetail is the most characters of a forfeit's or strike's detail
// the forfeits table shows; the whole of it is on hover.
const MaxDetail = 90

// view is what the page template shows: every figure formatted, every
// chart laid out.
type view struct {
	Title, Kind, Game, Format, Generated, Dir string
	// GamesText says how many games there are, and of how many
	// (gamesText).
	GamesText   string
	Warnings    []string
	RatingLabel string
	// RankedBy is what the ranks follow: "score", "bracket", "tables".
	RankedBy                    string
	Rated, Elim, KSeats, Struck bool
	// RankVsRating are the bots ranked above a neighbour with a higher
	// rating (rankVsRating), for the sentence saying why.
	RankVsRating     []inversion
	Rows             []rowView
	Matrix           matrixData
	Progression      *chart
	Bracket          *bracketView
	Tables           *tablesView
	LLR              *chart
	Verdict, LLRUnit string
	// Running: the SPRT has no verdict yet (its sprt.json is the one
	// written as it started); LLRCounted is the units counted so far.
	Running    bool
	LLRCounted int
	// OpenGames is how many games the games list may hold and still be
	// shown open; a longer one starts folded (laid out only when opened).
	OpenGames int
	// GamePage is what each game links to: its viewer page or its replay.
	GamePage string
	Failures []failRow
	GameRows []gameRow
}

type rowView struct {
	Rank                                    int
	Name, Out, Record, Score, Pct, MeanRank string
	Games, Forfeits, Strikes                int
	Rating, Err                             string
	Bar                                     *errorBar
}

// errorBar is a rating and its 95% interval on the standings' common
// scale, in the units of barWidth.
type errorBar struct{ Low, X, High float64 }

// openGames is view.OpenGames.
const openGames = 500

// barWidth is the width of the standings' error bar cells: narrow
// enough that the table fits a 1280 px window with every column and a
// name of MaxWord characters.
const barWidth = 120

// matrixData is the head-to-head matrix in standings order, for the
// page's script: Score[i][j] is bot i's score against bot j over
// Games[i][j] games.
type matrixData struct {
	Bots []string `json:"bots"`
	// Room is MaxLabelWidth, for the script's labels.
	Room  float64     `json:"room"`
	Score [][]float64 `json:"score"`
	Games [][]int     `json:"games"`
}

type failRow struct {
	Bot, Kind, Reason string
	// Detail is the detail most of the row's failures give, clipped to
	// MaxDetail characters; DetailFull the whole of it; OtherDetails how
	// many other details its games give (each on its game's link).
	Detail, DetailFull string
	OtherDetails       int
	Count              int
	Games              []gameLink
}

// gameLink is a game with a failure, Times times over.
type gameLink struct {
	ID, Href, Title string
	Times           int
}

type gameRow struct {
	Line     int
	ID, Href string
	// Missing is why the game has no link (its replay is missing, its
	// viewer page could not be written).
	Missing string
	Round   int
	Seats   []seatView
	// Reason is the engine's, each seat it mentions named.
	Reason, Notes string
	Plies         int
}

type seatView struct {
	Name string
	Rank int
}

func (r *Report) view(links pageLinks, now time.Time) view {
	st := r.Standings
	v := view{Title: st.Name, Kind: string(r.Kind), Game: st.Game, Format: st.Format, Dir: r.Dir,
		Generated: now.UTC().Format(time.RFC3339), GamesText: r.gamesText(), Warnings: r.Warnings,
		RatingLabel: "Elo (Bradley-Terry)", OpenGames: openGames, GamePage: "replay", KSeats: st.Seats > 2,
		RankedBy: st.RankedBy, Elim: st.RankedBy == "bracket" || st.RankedBy == "tables", RankVsRating: rankVsRating(st)}
	if v.KSeats {
		v.RatingLabel = "Plackett-Luce ordinal"
	}
	v.Rated = len(st.Standings) > 0 && !slices.ContainsFunc(st.Standings, func(row tournament.Row) bool { return row.Rating == nil })
	strikes := map[string]int{}
	for _, rec := range r.Records {
		for _, f := range rec.Strikes {
			strikes[f.Bot]++
			v.Struck = true
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, row := range st.Standings {
		if row.Rating != nil && row.RatingErr != nil {
			lo, hi = min(lo, *row.Rating-*row.RatingErr), max(hi, *row.Rating+*row.RatingErr)
		}
	}
	for _, row := range st.Standings {
		rv := rowView{Rank: row.Rank, Name: row.Name, Out: row.Out, Games: row.Games, Forfeits: row.Forfeits, Strikes: strikes[row.Name],
			Record: fmt.Sprintf("%d/%d/%d", row.Wins, row.Draws, row.Losses),
			Score:  fixed(row.Score, 1), Pct: fixed(row.ScorePct, 1), MeanRank: fixed(row.MeanRank, 2)}
		if v.KSeats {
			parts := make([]string, len(row.Placements))
			for i, p := range row.Placements {
				parts[i] = strconv.Itoa(p)
			}
			rv.Record = strings.Join(parts, "/")
		}
		if row.Rating != nil && row.RatingErr != nil {
			rv.Rating, rv.Err = fixed(*row.Rating, 1), fixed(*row.RatingErr, 1)
			if hi > lo {
				x := func(e float64) float64 { return 4 + (barWidth-8)*(e-lo)/(hi-lo) }
				rv.Bar = &errorBar{Low: x(*row.Rating - *row.RatingErr), X: x(*row.Rating), High: x(*row.Rating + *row.RatingErr)}
			}
		}
		v.Rows = append(v.Rows, rv)
	}
	v.Matrix = matrixOf(st)
	v.Progression = progressionChart(r.Progression, st)
	if b := st.Details.Bracket; b != nil {
		v.Bracket = bracketViewOf(b, st.Bots)
	}
	if t := st.Details.Tables; t != nil {
		v.Tables = tablesViewOf(t, st.Bots)
	}
	if r.LLR != nil {
		v.LLR = llrChart(r.LLR)
		last := r.LLR.Points[len(r.LLR.Points)-1]
		v.Verdict, v.LLRUnit, v.LLRCounted = string(r.LLR.Verdict), "game", last.Games
		if r.LLR.Paired {
			v.LLRUnit, v.LLRCounted = "pair", last.Pairs
		}
		v.Running = r.LLR.Verdict == sprt.Running
	}
	v.Failures = failRows(failuresOf(st.Bots, r.Records, r.Lines), links)
	v.GameRows = r.gameRows(links)
	return v
}

// failRows are the forfeits table's rows: per bot, per kind and reason,
// its games linked once each.
func failRows(per []failures, links pageLinks) []failRow {
	var rows []failRow
	for _, f := range per {
		for _, kind := range []struct {
			name string
			m    map[protocol.Reason][]failure
		}{{"forfeit", f.Forfeits}, {"strike", f.Strikes}} {
			for _, reason := range reasons(kind.m) {
				fs := kind.m[reason]
				row := failRow{Bot: f.Bot, Kind: kind.name, Reason: string(reason), Count: len(fs)}
				row.DetailFull, row.OtherDetails = commonDetail(fs)
				row.Detail = words.Clip(row.DetailFull, MaxDetail)
				// A game is linked once, however often it struck the bot.
				for k, g := range fs {
					if k > 0 && fs[k-1].Game == g.Game {
						row.Games[len(row.Games)-1].Times++
						continue
					}
					row.Games = append(row.Games, gameLink{ID: g.Game, Href: links.Href[g.Game], Times: 1,
						Title: fmt.Sprintf("results.jsonl line %d: %s", g.Line, g.Detail)})
				}
				rows = append(rows, row)
			}
		}
	}
	return rows
}

// commonDetail is the detail fs give most often (the first of those
// given as often), and how many other details they give.
func commonDetail(fs []failure) (string, int) {
	count := map[string]int{}
	best := ""
	for _, f := range fs {
		count[f.Detail]++
		if count[f.Detail] > count[best] {
			best = f.Detail
		}
	}
	return best, len(count) - 1
}

// gameRows are the games table's rows, in ledger order.
func (r *Report) gameRows(links pageLinks) []gameRow {
	rows := make([]gameRow, 0, len(r.Records))
	for k, rec := range r.Records {
		g := gameRow{Line: r.Lines[k], ID: rec.GameID, Href: links.Href[rec.GameID], Missing: links.Missing[rec.GameID],
			Round: rec.Round, Reason: engine.NameSeats(rec.Reason, rec.Bots), Plies: rec.Plies}
		for s, b := range rec.Bots {
			g.Seats = append(g.Seats, seatView{Name: b, Rank: rec.Ranks[s]})
		}
		var notes []string
		for _, f := range rec.Forfeits {
			notes = append(notes, fmt.Sprintf("%s forfeited (%s: %s)", f.Bot, f.Reason, f.Detail))
		}
		for _, f := range rec.Strikes {
			notes = append(notes, fmt.Sprintf("%s struck (%s)", f.Bot, f.Reason))
		}
		g.Notes = strings.Join(notes, "; ")
		rows = append(rows, g)
	}
	return rows
}

// gamesText says how many games the directory holds: "68 of 120 games"
// when the total is known; when it is not (an elimination's ties add
// games, an SPRT stops at a bound), "68 games" once the run is finished,
// and in words that more may come while it is not. A match's directory
// does not say how many games were asked for: "68 games".
func (r *Report) gamesText() string {
	st := r.Standings
	n := st.Games
	switch {
	case st.Total >= 0:
		return fmt.Sprintf("%d of %d games", n, st.Total)
	case r.Kind == SPRT && (r.Summary == nil || r.Summary.Verdict == sprt.Running):
		text := fmt.Sprintf("%s so far: the test is still running (or was stopped before its verdict), until the LLR crosses a bound", words.Count(n, "game", "games"))
		if r.Summary != nil && r.Summary.MaxGames > 0 {
			text += fmt.Sprintf(" or %d games are played", r.Summary.MaxGames)
		}
		return text
	case r.Kind == Tournament && !st.Details.Decided():
		return fmt.Sprintf("%s so far: still running, and how many more depends on the results (a tied match adds games)", words.Count(n, "game", "games"))
	}
	return words.Count(n, "game", "games")
}

// inversion is a bot ranked above the next one in the table, whose
// rating is higher.
type inversion struct{ Above, Below string }

// maxInversions is how many inversions the standings' note names.
const maxInversions = 3

// rankVsRating are the bots that rank above the next bot in the table
// although its rating is higher (the first maxInversions): the ranks
// follow the score (or the bracket), the rating weighs every game by
// the opponent's strength, and the two can disagree.
func rankVsRating(st *tournament.Standings) []inversion {
	var out []inversion
	rows := st.Standings
	for i := 0; i+1 < len(rows) && len(out) < maxInversions; i++ {
		a, b := rows[i], rows[i+1]
		if a.Rank < b.Rank && a.Rating != nil && b.Rating != nil && *a.Rating < *b.Rating {
			out = append(out, inversion{Above: a.Name, Below: b.Name})
		}
	}
	return out
}

// fixed writes x with decimals decimals, "" when it is not finite, and
// never "-0.0".
func fixed(x float64, decimals int) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return ""
	}
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

func matrixOf(st *tournament.Standings) matrixData {
	idx := map[string]int{}
	for i, b := range st.Bots {
		idx[b] = i
	}
	order := make([]int, len(st.Standings))
	m := matrixData{Room: MaxLabelWidth, Bots: make([]string, len(order)), Score: make([][]float64, len(order)), Games: make([][]int, len(order))}
	for k, row := range st.Standings {
		order[k] = idx[row.Name]
		m.Bots[k] = row.Name
	}
	for a, i := range order {
		m.Score[a] = make([]float64, len(order))
		m.Games[a] = make([]int, len(order))
		for b, j := range order {
			m.Score[a][b], m.Games[a][b] = st.HeadToHead[i][j], st.HeadToHeadGames[i][j]
		}
	}
	return m
}

func bracketViewOf(b *schedule.BracketView, bots []string) *bracketView {
	v := &bracketView{Format: b.Format, Champion: nameOf(b.Champion, bots, "")}
	for _, r := range b.Rounds {
		if len(v.Sections) == 0 || v.Sections[len(v.Sections)-1].Name != r.Bracket {
			v.Sections = append(v.Sections, bracketSection{Name: r.Bracket})
		}
		sec := &v.Sections[len(v.Sections)-1]
		round := bracketRound{Name: r.Name}
		for _, m := range r.Matches {
			round.Matches = append(round.Matches, bracketMatchOf(m, bots))
		}
		sec.Rounds = append(sec.Rounds, round)
	}
	return v
}

// matchNotes say why a match was not played, or how it was decided
// when its points do not show it, by its status (schedule.BracketMatch).
var matchNotes = map[string]string{
	"not needed": "not played: the winners' champion won the grand final",
	"empty":      "not played: two byes",
	"walkover":   "walkover: no opponent",
	"tie-break":  "level: the higher seed goes through",
}

// bracketMatchOf is m as the bracket draws it: a winner only for a match
// won (played or by walkover), points only once games were played.
func bracketMatchOf(m schedule.BracketMatch, bots []string) bracketMatch {
	bm := bracketMatch{ID: m.ID, Status: m.Status, Class: strings.ReplaceAll(m.Status, " ", "-"), Games: m.Games, Decided: m.Decided,
		Note: matchNotes[m.Status]}
	if m.Decided == "tie-break" {
		bm.Note = matchNotes[m.Decided]
	}
	won := m.Status == "done" || m.Status == "walkover"
	for s := range 2 {
		bm.Slots[s] = slot{Name: nameOf(m.Bots[s], bots, m.From[s]), Seed: m.Seeds[s], Bye: m.Bots[s] == -1,
			Known: m.Bots[s] >= 0, Won: won && m.Winner >= 0 && m.Winner == m.Bots[s]}
		if m.Games > 0 {
			bm.Slots[s].Points = fixed(m.Points[s], 1)
		}
	}
	return bm
}

// nameOf is bot index b's name; -1 is a bye, and an index not known yet
// shows where the bot will come from.
func nameOf(b int, bots []string, from string) string {
	switch {
	case b >= 0 && b < len(bots):
		return bots[b]
	case b == -1:
		return "bye"
	}
	return from
}

type bracketView struct {
	Format, Champion string
	Sections         []bracketSection
}

type bracketSection struct {
	Name   string
	Rounds []bracketRound
}

type bracketRound struct {
	Name    string
	Matches []bracketMatch
}

type bracketMatch struct {
	ID, Status, Decided string
	// Class is Status as a CSS class ("not-needed").
	Class string
	// Note says why the match was not played, or how it was decided
	// when its points do not show it ("" if they do).
	Note  string
	Games int
	Slots [2]slot
}

type slot struct {
	Name, Points    string
	Seed            int
	Bye, Known, Won bool
}

type tablesView struct {
	Winner string
	Rounds []tablesRound
}

type tablesRound struct {
	Round  int
	Final  bool
	Byes   []string
	Tables []tableView
}

type tableView struct {
	ID, Status string
	Seats      []tableSeat
}

type tableSeat struct {
	Name, Points string
	Advanced     bool
}

func tablesViewOf(t *schedule.TableView, bots []string) *tablesView {
	v := &tablesView{Winner: nameOf(t.Winner, bots, "")}
	for _, r := range t.Rounds {
		round := tablesRound{Round: r.Round, Final: r.Final}
		for _, b := range r.Byes {
			round.Byes = append(round.Byes, nameOf(b, bots, "?"))
		}
		for _, tb := range r.Tables {
			tv := tableView{ID: tb.ID, Status: tb.Status}
			through := map[int]bool{}
			if tb.Status == "done" && !r.Final {
				for _, b := range tb.Order[:min(tb.Advance, len(tb.Order))] {
					through[b] = true
				}
			}
			for i, b := range tb.Bots {
				ts := tableSeat{Name: nameOf(b, bots, "?"), Advanced: through[b]}
				if i < len(tb.Points) {
					ts.Points = fixed(tb.Points[i], 1)
				}
				tv.Seats = append(tv.Seats, ts)
			}
			round.Tables = append(round.Tables, tv)
		}
		v.Rounds = append(v.Rounds, round)
	}
	return v
}
