package schedule

import (
	"fmt"
	"slices"
	"strings"
)

const (
	noBot      = -1 // a bye: nobody comes through this slot
	unknownBot = -2 // not decided yet
)

type srcKind uint8

const (
	srcSeed   srcKind = iota // ref is a 0-based seed position
	srcWinner                // ref is a match index
	srcLoser
	srcSame // ref is a match index: the same two bots, same slots (reset)
)

type source struct {
	kind srcKind
	ref  int
}

type egame struct {
	id     string
	seats  [2]int
	issued bool
	done   bool
	score  int // half-points for the match's slot-0 bot
}

type ematch struct {
	id      string // "w1-m01", "gf1"
	bracket string // "winners", "losers", "final"
	name    string // "w1", "l3", "gf1"
	round   int    // round within the bracket
	index   int    // match index within the round
	stage   int
	src     [2]source
	bots    [2]int
	games   []*egame
	done    bool
	winner  int
	loser   int
	how     string // "score", "tie-break", "walkover", "empty", "not needed"
	reset   bool   // a grand-final reset: played only if slot 1 won the first final
}

// pend is a result that arrived before its game was drawn (a resumed run
// may feed the ledger back first).
type pend struct {
	seats []int
	ranks []int
}

// pendings holds the results that came before their games were drawn,
// by game id: every scheduler that draws its games late (elimination,
// Swiss, table knockouts) keeps and claims them the same way.
type pendings map[string]pend

// hold keeps the result ranks of g until g is drawn; the first result of
// a game id is the one kept.
func (p pendings) hold(g Game, ranks []int) {
	if _, dup := p[g.ID]; !dup {
		p[g.ID] = pend{seats: slices.Clone(g.Seats), ranks: slices.Clone(ranks)}
	}
}

// claim takes the held result of the game id now drawn with seats: its
// ranks, if one was held for the same seats. A held result for other
// seats is dropped (it is not this game's).
func (p pendings) claim(id string, seats []int) ([]int, bool) {
	r, ok := p[id]
	if !ok {
		return nil, false
	}
	delete(p, id)
	return r.ranks, slices.Equal(r.seats, seats)
}

// Elimination is a single or double elimination bracket for two-seat
// games.
//
// Seeding. Config.Seeding lists bot indexes best first (bots left out
// follow in index order). The bracket has P slots, the next power of two
// at or above the number of bots; the missing P-n entrants are byes, and
// they go to the top seeds. Round 1 is laid out in the standard order
// (1 v P, P/2 v P/2+1, ... for P=16: 1-16, 8-9, 4-13, 5-12, 2-15, 7-10,
// 3-14, 6-11), so seeds 1 and 2 can only meet in the final.
//
// Encounters. A match is a series of game pairs: the two games of a pair
// share a deal with seats swapped; the higher seed has seat 0 in the first
// game of even-numbered pairs, the lower seed in odd-numbered ones. A game
// scores 1 for a better rank, 1/2 for equal ranks. After every complete
// pair the match is checked, in pair order:
//
//   - within the planned GamesPerEncounter games it is decided as soon as
//     one side has more than half of the planned points (the other can no
//     longer even draw level), and the remaining pairs are not played. So a
//     4-game match always plays both pairs (2-0 after one pair can still be
//     caught); a 6-game match won 4-0 in its first two pairs stops there;
//   - once the planned games are played it is decided by any lead; on a
//     tie one more game pair is played, and so on;
//   - at MaxGames games (TieCapFactor times the planned games if not
//     set) while tied, the higher seed wins.
//
// A pair is handed out only when it is needed whatever the games still in
// flight turn out to be (every pair of a 4-game match at once, the first
// two of a 6-game match, extension pairs one at a time), so the games
// played never depend on the order results arrive in, and the pairs that
// can run in parallel do.
//
// Double elimination. The winners' bracket is the single-elimination
// bracket. Its round-1 losers pair off in losers' round 1; each later
// winners' round r drops its losers into a losers' round that meets the
// survivors of the losers' bracket (in reversed match order, to put off
// rematches), and each such round is followed by one that halves the
// losers' bracket. The grand final puts the winners' champion (slot 0)
// against the losers' champion (slot 1); if the losers' champion wins it,
// both have lost once and a second final (the reset) decides. So every bot
// but the champion ends with exactly two lost matches; byes are not
// losses and travel on as walkovers.
//
// Round numbers. Game.Round is the stage of the match: the earliest step
// at which it can be played, one more than the latest stage it depends on
// (winners' round r is stage r; losers' round 1 is stage 2, and so on, the
// grand final and its reset come last). Matches of later stages start as
// soon as both their players are known, not when the whole stage ends.
//
// Game IDs: "w2-m03-g4" (winners' round 2, match 3, game 4; single
// elimination uses w rounds only), "l1-m02-g1" (losers' bracket),
// "gf1-g2" and "gf2-g1" (grand final and reset). Deal = pair*stages +
// stage-1, so all matches of a stage play the same deals and the two games
// of a pair share one.
type Elimination struct {
	c       Config
	double  bool
	order   []int // seed position -> bot
	seedOf  []int // bot -> seed position
	size    int   // bracket size, a power of two
	stages  int
	matches []*ematch // every source comes earlier
	byStage []*ematch // the order Next hands games out in
	games   map[string]*egame
	owner   map[string]*ematch
	pending pendings
}

// SingleElimination is a knockout bracket; see Elimination for the rules.
func SingleElimination(c Config) (Scheduler, error) { return newElimination(c, false) }

// DoubleElimination is a bracket in which a bot is out after its second
// lost match, with a grand final and reset; see Elimination for the rules.
func DoubleElimination(c Config) (Scheduler, error) { return newElimination(c, true) }

// seedOrder validates Config.Seeding and completes it with the bots it
// leaves out, in index order.
func seedOrder(c Config) ([]int, []int, error) {
	seedOf := make([]int, c.Bots)
	for i := range seedOf {
		seedOf[i] = -1
	}
	order := make([]int, 0, c.Bots)
	for _, b := range c.Seeding {
		if b < 0 || b >= c.Bots {
			return nil, nil, fmt.Errorf("seeding: bot %d out of range", b)
		}
		if seedOf[b] >= 0 {
			return nil, nil, fmt.Errorf("seeding: bot %d listed twice", b)
		}
		seedOf[b] = len(order)
		order = append(order, b)
	}
	for b := range c.Bots {
		if seedOf[b] < 0 {
			seedOf[b] = len(order)
			order = append(order, b)
		}
	}
	return order, seedOf, nil
}

// pairScore is the score of seat 0 in half-points (2 win, 1 draw, 0 loss).
func pairScore(ranks []int) int {
	switch {
	case ranks[0] < ranks[1]:
		return 2
	case ranks[0] == ranks[1]:
		return 1
	}
	return 0
}

func checkPairConfig(c Config, format string) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if c.Seats != 2 {
		return fmt.Errorf("%s needs 2 seats, got %d (use table elimination for %d-seat games)", format, c.Seats, c.Seats)
	}
	if c.GamesPerEncounter%2 != 0 {
		return fmt.Errorf("games per encounter must be even with 2 seats (game pairs with seats swapped), got %d", c.GamesPerEncounter)
	}
	return nil
}

// bracketOrder is the standard seed layout of a bracket of size p
// (a power of two): seed positions 0-based, line by line.
func bracketOrder(p int) []int {
	out := []int{0}
	for len(out) < p {
		m := 2 * len(out)
		next := make([]int, 0, m)
		for _, s := range out {
			next = append(next, s, m-1-s)
		}
		out = next
	}
	return out
}

func newElimination(c Config, double bool) (*Elimination, error) {
	format := "single elimination"
	if double {
		format = "double elimination"
	}
	if err := checkPairConfig(c, format); err != nil {
		return nil, err
	}
	if c.MaxGames != 0 && (c.MaxGames < c.GamesPerEncounter || c.MaxGames%2 != 0) {
		return nil, fmt.Errorf("max games must be 0 or an even number of at least %d games per encounter, got %d", c.GamesPerEncounter, c.MaxGames)
	}
	order, seedOf, err := seedOrder(c)
	if err != nil {
		return nil, err
	}
	x := &Elimination{c: c, double: double, order: order, seedOf: seedOf,
		games: map[string]*egame{}, owner: map[string]*ematch{}, pending: pendings{}}
	x.size = 1
	for x.size < c.Bots {
		x.size *= 2
	}
	add := func(bracket, name string, round, index int, a, b source) int {
		m := &ematch{bracket: bracket, name: name, round: round, index: index, src: [2]source{a, b},
			bots: [2]int{unknownBot, unknownBot}, winner: unknownBot, loser: unknownBot}
		m.id = fmt.Sprintf("%s-m%02d", name, index+1)
		stage := 0
		for _, s := range m.src {
			if s.kind != srcSeed {
				stage = max(stage, x.matches[s.ref].stage)
			}
		}
		m.stage = stage + 1
		x.matches = append(x.matches, m)
		return len(x.matches) - 1
	}
	// Winners' bracket.
	lines := bracketOrder(x.size)
	var wRounds [][]int
	var cur []int
	for i := 0; i < x.size/2; i++ {
		cur = append(cur, add("winners", "w1", 1, i, source{srcSeed, lines[2*i]}, source{srcSeed, lines[2*i+1]}))
	}
	wRounds = append(wRounds, cur)
	for r := 2; len(cur) > 1; r++ {
		var next []int
		for i := 0; i < len(cur)/2; i++ {
			next = append(next, add("winners", fmt.Sprintf("w%d", r), r, i, source{srcWinner, cur[2*i]}, source{srcWinner, cur[2*i+1]}))
		}
		wRounds = append(wRounds, next)
		cur = next
	}
	if double {
		// Losers' bracket.
		var lb source // the losers' bracket champion
		if len(wRounds) == 1 {
			lb = source{srcLoser, wRounds[0][0]}
		} else {
			lr := 1
			w1 := wRounds[0]
			var prev []int
			for i := 0; i < len(w1)/2; i++ {
				prev = append(prev, add("losers", "l1", lr, i, source{srcLoser, w1[2*i]}, source{srcLoser, w1[2*i+1]}))
			}
			for r := 2; r <= len(wRounds); r++ {
				lr++
				wr := wRounds[r-1]
				var major []int
				for i := range prev {
					major = append(major, add("losers", fmt.Sprintf("l%d", lr), lr, i, source{srcWinner, prev[i]}, source{srcLoser, wr[len(wr)-1-i]}))
				}
				prev = major
				if r < len(wRounds) {
					lr++
					var minor []int
					for i := 0; i < len(prev)/2; i++ {
						minor = append(minor, add("losers", fmt.Sprintf("l%d", lr), lr, i, source{srcWinner, prev[2*i]}, source{srcWinner, prev[2*i+1]}))
					}
					prev = minor
				}
			}
			lb = source{srcWinner, prev[0]}
		}
		final := wRounds[len(wRounds)-1][0]
		gf := add("final", "gf1", 1, 0, source{srcWinner, final}, lb)
		x.matches[gf].id = "gf1"
		gf2 := add("final", "gf2", 2, 0, source{srcSame, gf}, source{srcSame, gf})
		x.matches[gf2].id = "gf2"
		x.matches[gf2].reset = true
	}
	for _, m := range x.matches {
		x.stages = max(x.stages, m.stage)
	}
	x.byStage = slices.Clone(x.matches)
	slices.SortStableFunc(x.byStage, func(a, b *ematch) int { return a.stage - b.stage })
	x.settle()
	return x, nil
}

// Total is -1: early stops and tie extensions make the number of games
// unknown, except for a single elimination whose encounters can neither
// stop early nor be extended (MaxGames equal to GamesPerEncounter, at most
// 4 games), which plays GamesPerEncounter games in each of its Bots-1
// matches.
func (x *Elimination) Total() int {
	if !x.double && x.c.MaxGames == x.c.GamesPerEncounter && x.c.GamesPerEncounter <= 4 {
		return (x.c.Bots - 1) * x.c.GamesPerEncounter
	}
	return -1
}

// Result records a finished game.
func (x *Elimination) Result(g Game, ranks []int) {
	if len(ranks) != 2 || len(g.Seats) != 2 {
		return
	}
	eg, ok := x.games[g.ID]
	if !ok {
		x.pending.hold(g, ranks)
		return
	}
	if eg.done || eg.seats != [2]int{g.Seats[0], g.Seats[1]} {
		return
	}
	x.finish(x.owner[g.ID], eg, ranks)
	x.settle()
}

func (x *Elimination) finish(m *ematch, eg *egame, ranks []int) {
	eg.done = true
	s := pairScore(ranks)
	if eg.seats[0] != m.bots[0] {
		s = 2 - s
	}
	eg.score = s
}

// Next hands out the next game of a match whose players are known.
func (x *Elimination) Next() (Game, Status) {
	x.settle()
	for _, m := range x.byStage { // earlier stages first: they hold up more
		if m.done {
			continue
		}
		for i, eg := range m.games {
			if !eg.issued && !eg.done {
				eg.issued = true
				return Game{ID: eg.id, Round: m.stage, Deal: uint64((i/2)*x.stages + m.stage - 1), Seats: []int{eg.seats[0], eg.seats[1]}}, Ready
			}
		}
	}
	if x.matches[len(x.matches)-1].done {
		return Game{}, Done
	}
	return Game{}, Wait
}

// Champion is the winner's bot index, or -1 while the bracket is open.
func (x *Elimination) Champion() int {
	last := x.matches[len(x.matches)-1]
	if !last.done {
		return -1
	}
	return last.winner
}

func (x *Elimination) resolve(s source, slot int) int {
	switch s.kind {
	case srcSeed:
		if s.ref >= x.c.Bots {
			return noBot
		}
		return x.order[s.ref]
	case srcWinner:
		if m := x.matches[s.ref]; m.done {
			return m.winner
		}
	case srcLoser:
		if m := x.matches[s.ref]; m.done {
			return m.loser
		}
	case srcSame:
		if m := x.matches[s.ref]; m.done {
			return m.bots[slot]
		}
	}
	return unknownBot
}

// settle brings every match up to date: fills in players, settles byes,
// draws the game pairs that are surely needed and decides finished
// matches. Matches are in stage order, so one pass is enough.
func (x *Elimination) settle() {
	for _, m := range x.matches {
		if m.done {
			continue
		}
		for i := range m.bots {
			if m.bots[i] == unknownBot {
				m.bots[i] = x.resolve(m.src[i], i)
			}
		}
		a, b := m.bots[0], m.bots[1]
		if a == unknownBot || b == unknownBot {
			continue
		}
		if m.reset {
			if gf := x.matches[m.src[0].ref]; gf.winner == gf.bots[0] || gf.loser == noBot {
				m.done, m.winner, m.loser, m.how = true, gf.winner, gf.loser, "not needed"
				continue
			}
		}
		switch {
		case a == noBot && b == noBot:
			m.done, m.winner, m.loser, m.how = true, noBot, noBot, "empty"
			continue
		case a == noBot || b == noBot:
			m.done, m.winner, m.loser, m.how = true, max(a, b), noBot, "walkover"
			continue
		}
		for {
			if w, how, ok := x.decided(m); ok {
				m.done, m.winner, m.how = true, m.bots[w], how
				m.loser = m.bots[1-w]
				break
			}
			if !x.needMore(m) {
				break
			}
			x.drawPair(m)
		}
	}
}

// tally returns the points (half-points) of both slots over finished
// games, the finished and unfinished game counts.
func (m *ematch) tally() (a, b, finished, open int) {
	for _, g := range m.games {
		if g.done {
			a += g.score
			b += 2 - g.score
			finished++
		} else {
			open++
		}
	}
	return
}

// decided reports whether m is over and which slot won.
func (x *Elimination) decided(m *ematch) (int, string, bool) {
	a, b, played, open := m.tally()
	if open > 0 {
		return 0, "", false
	}
	gpe := x.c.GamesPerEncounter
	switch {
	case played < gpe && max(a, b) <= gpe:
		return 0, "", false
	case a > b:
		return 0, "score", true
	case b > a:
		return 1, "score", true
	case played >= x.c.maxGames():
		if x.seedOf[m.bots[1]] < x.seedOf[m.bots[0]] {
			return 1, "tie-break", true
		}
		return 0, "tie-break", true
	}
	return 0, "", false
}

// needMore reports whether one more game pair is needed whatever the
// unfinished games turn out to be.
func (x *Elimination) needMore(m *ematch) bool {
	a, b, _, open := m.tally()
	gpe := x.c.GamesPerEncounter
	drawn := len(m.games)
	if drawn >= x.c.maxGames() {
		return false
	}
	if drawn < gpe {
		return max(a, b)+2*open <= gpe
	}
	return open == 0 && a == b
}

func (x *Elimination) drawPair(m *ematch) {
	p := len(m.games) / 2
	hi, lo := m.bots[0], m.bots[1]
	if x.seedOf[lo] < x.seedOf[hi] {
		hi, lo = lo, hi
	}
	if p%2 == 1 {
		hi, lo = lo, hi
	}
	for i, seats := range [][2]int{{hi, lo}, {lo, hi}} {
		eg := &egame{id: fmt.Sprintf("%s-g%d", m.id, 2*p+i+1), seats: seats}
		m.games = append(m.games, eg)
		x.games[eg.id] = eg
		x.owner[eg.id] = m
		if ranks, ok := x.pending.claim(eg.id, seats[:]); ok {
			x.finish(m, eg, ranks)
		}
	}
}

// BracketView is a bracket's state, for printing and JSON.
type BracketView struct {
	Format string `json:"format"` // "single" or "double"
	Size   int    `json:"size"`   // bracket size, a power of two
	// Seeding is the bot indexes in seed order, best first.
	Seeding  []int          `json:"seeding"`
	Rounds   []BracketRound `json:"rounds"`
	Champion int            `json:"champion"` // bot index, -1 while open
	Status   string         `json:"status"`   // "playing" or "done"
}

// BracketRound is one round of one bracket.
type BracketRound struct {
	Name    string         `json:"name"`    // "w1", "l2", "gf1", "gf2"
	Bracket string         `json:"bracket"` // "winners", "losers", "final"
	Number  int            `json:"number"`  // round number within its bracket
	Stage   int            `json:"stage"`   // Game.Round of its games
	Matches []BracketMatch `json:"matches"`
}

// BracketMatch is one match. Bots hold bot indexes: -1 is a bye (nobody
// comes), -2 not known yet.
type BracketMatch struct {
	ID    string    `json:"id"`    // "w2-m03"; the grand finals are "gf1" and "gf2"
	Bots  [2]int    `json:"bots"`  // bot indexes
	Seeds [2]int    `json:"seeds"` // 1-based seeds, 0 for none or unknown
	From  [2]string `json:"from"`  // "seed 3", "winner w1-m02", "loser w2-m01"
	// Points in games (1 a win, 1/2 a draw); Wins counts won games.
	Points [2]float64 `json:"points"`
	Wins   [2]int     `json:"wins"`
	Games  int        `json:"games"` // finished games
	Winner int        `json:"winner"`
	// Status: "waiting" (players not known), "ready", "playing", "done",
	// "walkover", "empty" (two byes met), "not needed" (an unplayed reset).
	Status string `json:"status"`
	// Decided says how a done match was decided: "score" or "tie-break"
	// (MaxGames reached while tied: the higher seed).
	Decided string `json:"decided,omitempty"`
}

// Bracket returns the bracket as it stands.
func (x *Elimination) Bracket() BracketView {
	x.settle()
	v := BracketView{Format: "single", Size: x.size, Seeding: slices.Clone(x.order), Champion: x.Champion(), Status: "playing"}
	if x.double {
		v.Format = "double"
	}
	if v.Champion >= 0 {
		v.Status = "done"
	}
	for _, m := range x.matches {
		if len(v.Rounds) == 0 || v.Rounds[len(v.Rounds)-1].Name != m.name {
			v.Rounds = append(v.Rounds, BracketRound{Name: m.name, Bracket: m.bracket, Number: m.round, Stage: m.stage})
		}
		bm := BracketMatch{ID: m.id, Bots: m.bots, Winner: -1}
		for i, s := range m.src {
			switch s.kind {
			case srcSeed:
				bm.From[i] = fmt.Sprintf("seed %d", s.ref+1)
			case srcWinner:
				bm.From[i] = "winner " + x.matches[s.ref].id
			case srcLoser:
				bm.From[i] = "loser " + x.matches[s.ref].id
			case srcSame:
				bm.From[i] = []string{"winners' champion", "losers' champion"}[i]
			}
			if m.bots[i] >= 0 {
				bm.Seeds[i] = x.seedOf[m.bots[i]] + 1
			}
		}
		a, b, played, _ := m.tally()
		bm.Points = [2]float64{float64(a) / 2, float64(b) / 2}
		bm.Games = played
		for _, g := range m.games {
			if g.done && g.score == 2 {
				bm.Wins[0]++
			} else if g.done && g.score == 0 {
				bm.Wins[1]++
			}
		}
		switch {
		case m.done && (m.how == "score" || m.how == "tie-break"):
			bm.Status, bm.Decided, bm.Winner = "done", m.how, m.winner
		case m.done:
			bm.Status, bm.Winner = m.how, max(m.winner, -1)
		case m.bots[0] == unknownBot || m.bots[1] == unknownBot:
			bm.Status = "waiting"
		case slices.ContainsFunc(m.games, func(g *egame) bool { return g.issued || g.done }):
			bm.Status = "playing"
		default:
			bm.Status = "ready"
		}
		r := &v.Rounds[len(v.Rounds)-1]
		r.Matches = append(r.Matches, bm)
	}
	return v
}

// Text renders the bracket one match a line, bracket by bracket; names
// maps bot indexes to names (bot indexes are shown when it is short).
func (v BracketView) Text(names []string) string {
	name := func(b int) string {
		switch {
		case b == noBot:
			return "bye"
		case b < 0:
			return "?"
		case b < len(names):
			return names[b]
		}
		return fmt.Sprintf("bot %d", b)
	}
	var sb strings.Builder
	title := map[string]string{"winners": "Winners' bracket", "losers": "Losers' bracket", "final": "Grand final"}
	if v.Format == "single" {
		title["winners"] = "Bracket"
	}
	last := ""
	for _, r := range v.Rounds {
		if r.Bracket != last {
			if last != "" {
				sb.WriteString("\n")
			}
			sb.WriteString(title[r.Bracket] + "\n")
			last = r.Bracket
		}
		label := fmt.Sprintf("Round %d", r.Number)
		if r.Bracket == "final" {
			label = map[int]string{1: "Final", 2: "Reset"}[r.Number]
		}
		fmt.Fprintf(&sb, "  %s (stage %d)\n", label, r.Stage)
		for _, m := range r.Matches {
			side := func(i int) string {
				if m.Bots[i] == unknownBot {
					return "(" + m.From[i] + ")"
				}
				if m.Seeds[i] > 0 {
					return fmt.Sprintf("[%d] %s", m.Seeds[i], name(m.Bots[i]))
				}
				return name(m.Bots[i])
			}
			line := fmt.Sprintf("    %-7s %s vs %s", m.ID, side(0), side(1))
			switch m.Status {
			case "done":
				line += fmt.Sprintf("  %g-%g", m.Points[0], m.Points[1])
				if m.Decided == "tie-break" {
					line += " (tie-break: higher seed)"
				}
				line += "  -> " + name(m.Winner)
			case "playing":
				line += fmt.Sprintf("  %g-%g after %d games", m.Points[0], m.Points[1], m.Games)
			case "walkover":
				line += "  walkover -> " + name(m.Winner)
			case "empty", "not needed":
				line += "  " + m.Status
			}
			sb.WriteString(line + "\n")
		}
	}
	if v.Champion >= 0 {
		fmt.Fprintf(&sb, "\nChampion: %s\n", name(v.Champion))
	}
	return sb.String()
}

// Details is the bracket as it stands.
func (x *Elimination) Details() Details {
	b := x.Bracket()
	return Details{Bracket: &b}
}

// Stage names the rounds in play, and estimates the games in all: done
// plus what the open encounters plan (GamesPerEncounter for one not
// started, the rest of its planned games for one under way; ties add
// more, early decisions fewer, a grand-final reset counts only once it
// is known to be played).
func (x *Elimination) Stage(done int) (string, int) {
	return x.Bracket().stage(x.c.GamesPerEncounter, done)
}

func (v BracketView) stage(gpe, done int) (string, int) {
	estimate := done
	stage := 0 // the earliest stage with a match to be played
	for _, r := range v.Rounds {
		for _, m := range r.Matches {
			switch m.Status {
			case "ready", "playing":
				estimate += max(gpe-m.Games, 0)
			case "waiting":
				if r.Bracket == "final" && r.Number == 2 {
					continue // a reset, played only if the losers' champion wins the final
				}
				estimate += gpe
			default:
				continue
			}
			if m.Status != "waiting" && (stage == 0 || r.Stage < stage) {
				stage = r.Stage
			}
		}
	}
	if stage == 0 {
		return "", estimate
	}
	var parts []string
	for _, r := range v.Rounds {
		if r.Stage != stage {
			continue
		}
		decided, all := 0, 0
		for _, m := range r.Matches {
			switch m.Status {
			case "empty", "not needed":
				continue
			case "done", "walkover":
				decided++
			}
			all++
		}
		parts = append(parts, fmt.Sprintf("%s %d of %d matches decided", r.title(), decided, all))
	}
	return strings.Join(parts, ", "), estimate
}

// title names a bracket round for people.
func (r BracketRound) title() string {
	switch {
	case r.Bracket == "final" && r.Number == 2:
		return "grand final reset"
	case r.Bracket == "final":
		return "grand final"
	case r.Bracket == "losers":
		return fmt.Sprintf("losers' round %d (%s)", r.Number, r.Name)
	}
	return fmt.Sprintf("round %d (%s)", r.Number, r.Name)
}

// tiers: a bot is out at its last allowed loss (the first in a single
// elimination, the second in a double one), in that round's stage; byes
// and walkovers are not losses.
func (v *BracketView) tiers(n int) []Tier {
	lives := 1
	if v.Format == "double" {
		lives = 2
	}
	t := make([]Tier, n)
	losses := make([]int, n)
	for i := range t {
		t[i].Alive = true
	}
	for _, r := range v.Rounds { // rounds come in the order they depend on each other
		for _, m := range r.Matches {
			if m.Status != "done" || m.Winner < 0 {
				continue
			}
			loser := m.Bots[0]
			if loser == m.Winner {
				loser = m.Bots[1]
			}
			if loser < 0 || loser >= n {
				continue
			}
			if losses[loser]++; losses[loser] == lives {
				t[loser] = Tier{Round: r.Stage, Out: r.Name}
			}
		}
	}
	return t
}
