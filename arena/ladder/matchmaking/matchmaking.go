// Package matchmaking chooses a standing ladder's next table: which of
// the active bots play next, and in what seat order. It is pure: no I/O,
// no goroutines, no clock; a choice is a function of the parameters, the
// seed, the table's sequence number and the bots passed in, so a resumed
// ladder that passes the same state chooses the same table again.
//
// The ladder calls Next whenever it has room for another table (a free
// worker, a finished game). Next never waits for a round: it looks only
// at the bots free now, so a slow, busy or unserved bot delays only the
// tables it would be in, and "none available now" (ok false) just means
// "ask again when something changes". The table it returns is the seat
// order of the first game of a duplicate unit: the ladder plays k games
// with one deal, seats rotated by one each game, as the tournaments do.
//
// # The rules, in the order Next applies them
//
// (f) Skipped: a bot that is not Available (a remote bot nobody serves,
// a suspended one) or that already plays Capacity tables is never
// chosen. Skipping it is the whole of its cost to the others.
//
// (c) Nobody starves. A bot's gap is the number of tables the ladder has
// started since its last one (Seq - Last - 1). With Params.MaxGap = G,
// a bot is due once its gap reaches T = G - ceil(n/kmax) + 1 (n active
// bots, kmax the largest table), and due bots are seated first, most
// overdue first, up to a full table. Why T and not G: seating only the
// bots already at G breaks the bound as soon as more than kmax reach it
// at once (a field that all joined together does); starting early, a
// due bot has at most n-1 bots ahead of it, seated kmax a table, so it
// is seated within ceil(n/kmax) tables of becoming due, at gap G at
// most. The bound holds for a bot that stays available and needs
// G >= ceil(n/kmax); with a smaller G every bot is always due and Next
// degrades to seating the most overdue bots, a rotation.
//
// (a) Placement. A newcomer (Sigma above Params.PlacementSigma) takes
// the first seat the due bots leave, and anchors the table when no bot
// is due: the newcomer that has waited longest (ties to the largest
// Sigma), so that several newcomers take turns. Its opponents are
// chosen by (b), which for a very uncertain bot means the opponents its
// result says most about. So a newcomer plays every table until it is
// placed (Kaggle's and aiarena's placement games, without a separate
// queue) except those the due bots fill. Placement comes after (c) so
// that a burst of submissions cannot starve the placed bots.
//
// (b) Tables that tell the most. Otherwise the anchor is the available
// bot that has waited longest (ties to the largest Sigma), and each
// further seat goes to the candidate that adds the most expected
// information to the bots already seated. The information of a pair is
// the expected reduction of the total variance of their two skills
// under one Weng-Lin (Plackett-Luce) update, which for two players is
// the same whoever wins:
//
//	(Sigma_i^5 + Sigma_j^5) / c^3 * p(1-p),  c^2 = Sigma_i^2 + Sigma_j^2 + 2 Beta^2
//
// with p the model's probability that i beats j. It is large when the
// ratings are close (p near 1/2) and uncertain (large Sigma), which is
// the brief. A k-seat table scores the sum over its pairs (a
// Plackett-Luce game is roughly the pairwise comparisons of its order).
// Params.Quality raises the closeness factor 4p(1-p) to a power: 1 is
// the plain expected information, more prefers close ratings further,
// less prefers uncertainty (the default, 0.5: see DefaultQuality). Not
// TrueSkill's match quality: that is a draw probability, highest for two
// certain equals, and so it steers games away from the uncertain bots a
// converging ladder must play.
//
// Why the longest-waiting anchor and not the least known bot (largest
// Sigma): it spreads games as evenly as a round robin, so no rating lags
// behind the standings, and leaves the choosing to the opponents; in
// BenchmarkConvergence's 15-bot field it reached the true order in 0.55
// of a round robin's games at 4 seats where the largest-Sigma anchor
// took 0.74 (0.31 and 0.40 at 2 seats; both with Quality 2).
//
// Candidates are every available bot when there are at most sampleSize,
// otherwise sampleSize drawn at random (seeded): no k-subset is
// enumerated, so a choice costs O(n + k sampleSize) pair scores.
//
// (d) Seats. The rotation of the duplicate unit gives every bot of a
// table each of its seats once, so complete units keep a bot's seat
// counts equal. The first game's order also matters (a unit cut short by
// a crash or a withdrawal, and at a k-seat table the cyclic order of who
// follows whom, which rotation keeps): seats are assigned greedily to
// the bot that has played that seat least relative to its other seats,
// after a seeded shuffle so the cyclic order varies.
//
// (e) Table size. Params.Seats is a fixed size (Min = Max) or a range
// [Min, Max] (Uno 2-10, Boon 3-5): a table takes a size drawn uniformly
// from the range (so the ratings see every size the contest plays),
// raised to seat every due bot (up to Max), lowered to the bots
// available; fewer than Min available bots means no table now.
//
// # Measured
//
// BenchmarkConvergence plays a field of five kinds of bot of known
// strength (3 or 6 copies of each) with outcomes drawn from a
// Plackett-Luce model and ratings from stats.PlackettLuce, and counts
// the games until the standings (by Ordinal) stay at a Spearman
// correlation of 0.9 or more with the true order (Spearman), against
// rounds of seeded random tables (a round robin at 2 seats) with the
// same budget, the same units and the same strength model. Medians of
// 201 runs (ARENA_THOROUGH=1; 61 runs gave 0.43, 0.68, 0.70 and 0.84, so
// take the figures as +-0.05): 15 bots, 0.49 of the round robin's games
// at 2 seats and 0.80 at 4; 30 bots, 0.66 and 0.94. The goal
// (0.60) is met for 15 bots at 2 seats only.
//
// Where the gain is: the games after which the correlation first
// reaches 0.9 are nearly the same for both (0.78-0.94 of the round
// robin's), and for the round robin already 0.27-0.66 of the games it
// needs to stay there. The matchmaking's tables hold the order once
// reached (close, uncertain pairs are the ones that swap), which is
// worth much at 2 seats and little at 4, where the order settles within
// some five units a bot, while every rating is still too uncertain for
// a chosen table to tell much more than a random one. What was tried
// and did not move these figures beyond the runs' noise (issue 38):
// closeness by the posterior overlap of two skills in place of 4p(1-p);
// the whole field's expected loss of the order (each bot's variance
// weighted by the density of bots near it, O(n^2)); an anchor with the
// most uncertain rank in place of the longest-waiting one; a table of
// the adjacent bots in the standings whose order is least certain;
// placement tables spread over the newcomer's interval (binary search:
// worse, 0.83-1.20); no placement rule; a larger MaxGap; Quality from
// -1 to 4 (0.5 stays best). Pairing only neighbouring kinds, knowing
// the true strengths, does worse than all of them: Weng-Lin ratings
// need the field's comparisons mixed. BenchmarkFairness and
// BenchmarkNext give the rest; docs/performance.md ("Ladder") has the
// figures with real games.
package matchmaking

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/arena-dev/arena/arena/stats"
)

// Bot is what Next needs to know of one active bot.
type Bot struct {
	// ID is the caller's name for the bot (a roster index); Table.Bots
	// lists IDs.
	ID int
	// Skill is the bot's current Weng-Lin rating.
	Skill stats.Skill
	// Games is the number of games it has played. The rules do not
	// read it: Skill.Sigma says how well a bot is known and Last how long
	// it has waited, which is what they need.
	Games int
	// Last is the sequence number of the last table it was seated at, or
	// for a bot that has not played yet the sequence number at which it
	// joined (its gap counts from then).
	Last int64
	// Seats[s] is the number of games it has played in seat s (may be
	// shorter than the table: missing seats count 0).
	Seats []int
	// InPlay is the number of tables it is in now, Capacity the most it
	// may be in at once (0 means 1).
	InPlay, Capacity int
	// Available is false for a bot that may not be scheduled now (a
	// remote bot nobody serves, a suspended one).
	Available bool
}

// Free reports whether the bot may be seated now: available and under
// its capacity.
func (b *Bot) Free() bool {
	c := b.Capacity
	if c <= 0 {
		c = 1
	}
	return b.Available && b.InPlay < c
}

// Seats is the size of a table: Min = Max for a fixed size.
type Seats struct{ Min, Max int }

// Params are the matchmaking parameters of a ladder.
type Params struct {
	// Seats is the table size or range (at least 2).
	Seats Seats
	// PlacementSigma is the bound above which a bot is a newcomer (0:
	// DefaultPlacementSigma).
	PlacementSigma float64
	// MaxGap is G, the most tables the ladder may start without a given
	// available bot (0: 3 ceil(n/kmax) for n active bots, three "rounds").
	MaxGap int
	// Quality is the power of the closeness factor 4p(1-p) in a pair's
	// score: 1 is the plain expected information, more prefers close
	// ratings further (0: DefaultQuality; negative: 0, uncertainty alone).
	Quality float64
	// Beta is the Weng-Lin performance deviation the ratings use (0:
	// stats.DefaultParams().Beta).
	Beta float64
}

// DefaultPlacementSigma is the placement bound when none is given: half
// a new player's Sigma (25/3), an interval of +-2 Sigma about a third of
// the spread of a typical field. TestNewcomerPlaced logs the games it
// takes.
const DefaultPlacementSigma = 25.0 / 6

// DefaultQuality is the Quality used when none is given. Of -1 (0:
// uncertainty alone), 0.25, 0.5, 1, 2 and 4, 0.5 converged fastest or
// about as fast as the best over BenchmarkConvergence's fields (15 and
// 30 bots, 2 and 4 seats): more closeness (2) sends the games of a field
// with several copies of a bot to those copies, whose order does not
// matter; none (uncertainty alone) plays the field at random.
const DefaultQuality = 0.5

// sampleSize is the most candidates scored for a seat: every free bot in
// fields up to this size, a seeded sample in larger ones.
const sampleSize = 128

// Reason says why a table's anchor (its first chosen bot) was chosen.
type Reason uint8

const (
	// Overdue: the anchor's gap reached the due threshold (rule c).
	Overdue Reason = iota + 1
	// Placement: the anchor is a newcomer (rule a).
	Placement
	// Information: the anchor is the bot that waited longest (rule b).
	Information
)

func (r Reason) String() string {
	switch r {
	case Overdue:
		return "overdue"
	case Placement:
		return "placement"
	case Information:
		return "information"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Table is a chosen table.
type Table struct {
	// Seq is the sequence number it was chosen for.
	Seq int64
	// Bots are the IDs of its bots in the seat order of the unit's first
	// game (Bots[s] sits in seat s).
	Bots []int
	// Reason is why its anchor was chosen; Due is how many of its bots
	// were seated because they were due.
	Reason Reason
	Due    int
}

// ErrParams is wrapped by the errors of New.
var ErrParams = errors.New("matchmaking: bad parameters")

// Matchmaker chooses tables. It keeps scratch space between calls, so
// one Matchmaker is for one goroutine; its choices depend only on its
// parameters, its seed and each call's arguments.
type Matchmaker struct {
	p    Params
	seed uint64

	free  []int // indices into bots of the free ones
	due   []int
	cand  []int
	acc   []float64 // acc[j]: information cand[j] adds to the bots seated
	top   []int
	seat  []int // chosen indices, in choice order
	taken []bool
}

// New returns a Matchmaker with parameters p (defaults filled in) and
// seed.
func New(p Params, seed uint64) (*Matchmaker, error) {
	if p.Seats.Min < 2 || p.Seats.Max < p.Seats.Min {
		return nil, fmt.Errorf("%w: seats %d-%d (need 2 <= min <= max)", ErrParams, p.Seats.Min, p.Seats.Max)
	}
	if p.MaxGap < 0 || p.PlacementSigma < 0 || p.Beta < 0 || math.IsNaN(p.Quality) {
		return nil, fmt.Errorf("%w: negative gap, sigma or beta, or NaN quality", ErrParams)
	}
	if p.PlacementSigma == 0 {
		p.PlacementSigma = DefaultPlacementSigma
	}
	if p.Quality == 0 {
		p.Quality = DefaultQuality
	}
	p.Quality = math.Max(p.Quality, 0)
	if p.Beta == 0 {
		p.Beta = stats.DefaultParams().Beta
	}
	return &Matchmaker{p: p, seed: seed}, nil
}

// Params returns the parameters in use, defaults filled in.
func (m *Matchmaker) Params() Params { return m.p }

// Gap is the number of tables started since b's last one, for the table
// of sequence number seq.
func Gap(b *Bot, seq int64) int64 { return seq - b.Last - 1 }

// Next chooses the table of sequence number seq (the ladder numbers its
// tables 1, 2, ...; every bot's Last is below seq) from bots, the active
// ones. It returns false when fewer than Seats.Min bots are free.
// bots is only read.
func (m *Matchmaker) Next(seq int64, bots []Bot) (Table, bool) {
	rng := newRand(m.seed, uint64(seq))
	kmax := m.p.Seats.Max
	g := m.p.MaxGap
	if g == 0 {
		g = 3 * ceilDiv(len(bots), kmax)
	}
	threshold := int64(g - ceilDiv(len(bots), kmax) + 1)

	m.free, m.due = m.free[:0], m.due[:0]
	for i := range bots {
		if !bots[i].Free() {
			continue
		}
		m.free = append(m.free, i)
		if Gap(&bots[i], seq) >= threshold {
			m.due = append(m.due, i)
		}
	}
	if len(m.free) < m.p.Seats.Min {
		return Table{}, false
	}
	size := m.p.Seats.Min + rng.intn(kmax-m.p.Seats.Min+1)
	size = max(size, min(len(m.due), kmax))
	size = min(size, len(m.free))

	m.taken = slices.Grow(m.taken[:0], len(bots))[:len(bots)]
	clear(m.taken)
	m.seat = m.seat[:0]
	t := Table{Seq: seq}

	// (c) the due bots first, most overdue first (ties by position, which
	// the caller keeps stable: the roster's order).
	for _, i := range m.mostOverdue(bots, size) {
		m.add(i)
	}
	t.Due = len(m.seat)

	// (a) then a newcomer, if a seat is left; (b) with no bot due and no
	// newcomer, the bot that has waited longest anchors the table.
	if len(m.seat) < size {
		if i := m.newcomer(bots); i >= 0 {
			m.add(i)
			t.Reason = Placement
		} else if t.Due == 0 {
			m.add(m.anchor(bots, rng))
			t.Reason = Information
		}
	}
	if t.Due > 0 {
		t.Reason = Overdue
	}

	// (b) the other seats, by the information they add.
	m.candidates(bots, rng)
	for len(m.seat) < size {
		m.add(m.best(bots))
	}
	t.Bots = m.order(bots, rng)
	return t, true
}

// mostOverdue returns the first k of the due bots by Last, ties by
// position: a partial insertion sort, O(len(due) k), as k is small and
// the due list may be the whole field.
func (m *Matchmaker) mostOverdue(bots []Bot, k int) []int {
	top := m.top[:0]
	for _, i := range m.due {
		if len(top) == k && bots[i].Last >= bots[top[k-1]].Last {
			continue
		}
		p := len(top)
		if p < k {
			top = append(top, i)
		} else {
			p--
		}
		for ; p > 0 && bots[top[p-1]].Last > bots[i].Last; p-- {
			top[p] = top[p-1]
		}
		top[p] = i
	}
	m.top = top
	return top
}

func (m *Matchmaker) add(i int) {
	m.seat = append(m.seat, i)
	m.taken[i] = true
}

// newcomer is the free bot not seated with the largest Sigma above the
// placement bound, ties to the smallest Last, then to the first listed;
// -1 if there is none.
func (m *Matchmaker) newcomer(bots []Bot) int {
	best := -1
	for _, i := range m.free {
		a := &bots[i]
		if m.taken[i] || a.Skill.Sigma <= m.p.PlacementSigma {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		if b := &bots[best]; a.Last < b.Last || a.Last == b.Last && a.Skill.Sigma > b.Skill.Sigma {
			best = i
		}
	}
	return best
}

// anchor is the free bot not seated that has waited longest (smallest
// Last), ties to the largest Sigma, then to a seeded draw.
func (m *Matchmaker) anchor(bots []Bot, rng *rand) int {
	best, ties := -1, 0
	for _, i := range m.free {
		if m.taken[i] {
			continue
		}
		if best < 0 {
			best, ties = i, 1
			continue
		}
		a, b := &bots[i], &bots[best]
		switch {
		case a.Last < b.Last || a.Last == b.Last && a.Skill.Sigma > b.Skill.Sigma:
			best, ties = i, 1
		case a.Last == b.Last && a.Skill.Sigma == b.Skill.Sigma:
			ties++
			if rng.intn(ties) == 0 { // reservoir: each tied bot equally likely
				best = i
			}
		}
	}
	return best
}

// candidates gathers the bots the other seats are chosen from (every
// free bot not seated, or sampleSize of them drawn at random) and the
// information each adds to the bots seated so far.
func (m *Matchmaker) candidates(bots []Bot, rng *rand) {
	m.cand = m.cand[:0]
	if n := len(m.free); n <= sampleSize {
		// From a seeded offset, so that equal scores (a field of
		// newcomers) do not always go to the first bots listed.
		off := rng.intn(n)
		for j := range n {
			if i := m.free[(off+j)%n]; !m.taken[i] {
				m.cand = append(m.cand, i)
			}
		}
	} else {
		for range sampleSize {
			if i := m.free[rng.intn(len(m.free))]; !m.taken[i] {
				m.cand = append(m.cand, i) // a bot drawn twice is scored twice: harmless
			}
		}
	}
	m.acc = slices.Grow(m.acc[:0], len(m.cand))[:len(m.cand)]
	for j, c := range m.cand {
		m.acc[j] = 0
		for _, i := range m.seat {
			m.acc[j] += m.score(bots[c].Skill, bots[i].Skill)
		}
	}
}

// best is the candidate not yet seated that adds the most information to
// the bots seated, whose scores it then updates with its own; the first
// free bot not seated when the candidates have run out (a sample of few
// distinct bots).
func (m *Matchmaker) best(bots []Bot) int {
	bj := -1
	for j, c := range m.cand {
		if !m.taken[c] && (bj < 0 || m.acc[j] > m.acc[bj]) {
			bj = j
		}
	}
	if bj < 0 {
		for _, i := range m.free {
			if !m.taken[i] {
				return i
			}
		}
	}
	b := m.cand[bj]
	for j, c := range m.cand {
		if !m.taken[c] {
			m.acc[j] += m.score(bots[c].Skill, bots[b].Skill)
		}
	}
	return b
}

// score is the expected information of a game between a and b (the
// package doc's formula).
func (m *Matchmaker) score(a, b stats.Skill) float64 {
	c2 := a.Sigma*a.Sigma + b.Sigma*b.Sigma + 2*m.p.Beta*m.p.Beta
	c := math.Sqrt(c2)
	p := 1 / (1 + math.Exp((b.Mu-a.Mu)/c))
	close := 4 * p * (1 - p)
	switch m.p.Quality {
	case 1:
	case 0.5:
		close = math.Sqrt(close)
	default:
		close = math.Pow(close, m.p.Quality)
	}
	return (pow5(a.Sigma) + pow5(b.Sigma)) / (c2 * c) * close / 4
}

func pow5(x float64) float64 { return x * x * x * x * x }

// order returns the IDs of the seated bots in seat order: a seeded
// shuffle, then each seat in turn to the bot that has played it least
// relative to its own average seat count (rule d).
func (m *Matchmaker) order(bots []Bot, rng *rand) []int {
	k := len(m.seat)
	for i := k - 1; i > 0; i-- {
		j := rng.intn(i + 1)
		m.seat[i], m.seat[j] = m.seat[j], m.seat[i]
	}
	count := func(i, s int) int {
		if s < len(bots[i].Seats) {
			return bots[i].Seats[s]
		}
		return 0
	}
	// deficit of bot i in seat s: its mean count over the table's seats
	// minus its count in s (times k, to stay in integers).
	deficit := func(i, s int) int {
		sum := 0
		for t := range k {
			sum += count(i, t)
		}
		return sum - k*count(i, s)
	}
	ids := make([]int, k)
	placed := make([]bool, k) // by position in m.seat
	filled := make([]bool, k) // by seat
	for range k {
		bi, bs, bd := -1, -1, math.MinInt
		for p, i := range m.seat {
			if placed[p] {
				continue
			}
			for s := range k {
				if !filled[s] {
					if d := deficit(i, s); d > bd {
						bi, bs, bd = p, s, d
					}
				}
			}
		}
		placed[bi], filled[bs] = true, true
		ids[bs] = bots[m.seat[bi]].ID
	}
	return ids
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// rand is splitmix64 seeded from the Matchmaker's seed and the table's
// sequence number: a choice depends on nothing else, and needs no state
// carried from the previous one (a resumed ladder needs none either).
type rand struct{ s uint64 }

func newRand(seed, seq uint64) *rand {
	r := &rand{s: seed ^ (seq * 0x9e3779b97f4a7c15)}
	r.next()
	return r
}

func (r *rand) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn is uniform in [0, n) (n > 0), by multiply-shift: the bias is
// below n/2^64, nothing at these sizes.
func (r *rand) intn(n int) int {
	hi, _ := bits.Mul64(r.next(), uint64(n))
	return int(hi)
}
