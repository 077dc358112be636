package matchmaking_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/stats"
)

// sim is a ladder in memory: bots of known strength whose games are
// sampled from a Plackett-Luce model of those strengths and rated with
// stats.PlackettLuce, one table at a time (each played to the end before
// the next is chosen), as a duplicate unit of k games with seats rotated.
type sim struct {
	bots   []matchmaking.Bot
	truth  []float64 // log-worth: P(i beats j) = 1/(1+exp(truth[j]-truth[i]))
	rng    *rand.Rand
	seq    int64 // the next table's sequence number
	games  int
	cut    bool // play only the first game of each unit (seat balance without rotation)
	params stats.Params

	// fairness, recorded as tables are played
	maxGap     int64  // largest gap at which a bot free throughout its wait was seated
	freeSince  []bool // free at every table since its last one
	placedAt   []int  // games played when Sigma first fell to the placement bound (-1: not yet)
	placement  float64
	onGame     func() // called after every game
	reached    int    // see convergence
	seatCounts int    // the most seats any table had
}

// newSim returns a ladder of bots of the given strengths, all joined at
// table 0, with DefaultSkill ratings.
func newSim(truth []float64, seed uint64, placement float64) *sim {
	s := &sim{truth: truth, rng: rand.New(rand.NewPCG(seed, 77)), seq: 1, params: stats.DefaultParams(), placement: placement}
	for i := range truth {
		s.join(i)
	}
	return s
}

// join adds bot i (its strength must be in truth) as a newcomer now.
func (s *sim) join(i int) {
	s.bots = append(s.bots, matchmaking.Bot{ID: i, Skill: stats.DefaultSkill(), Last: s.seq - 1, Available: true})
	s.freeSince = append(s.freeSince, true)
	s.placedAt = append(s.placedAt, -1)
}

// step chooses and plays one table; false when none was available.
func (s *sim) step(t *testing.T, mm *matchmaking.Matchmaker) (matchmaking.Table, bool) {
	tab, ok := mm.Next(s.seq, s.bots)
	if !ok {
		s.tick()
		return tab, false
	}
	s.play(t, tab.Bots)
	return tab, true
}

// play plays the unit of the table whose first seat order is ids.
func (s *sim) play(t *testing.T, ids []int) {
	k := len(ids)
	s.seatCounts = max(s.seatCounts, k)
	idx := make([]int, k)
	for p, id := range ids {
		idx[p] = s.index(id)
		b := &s.bots[idx[p]]
		if t != nil && !b.Free() {
			t.Fatalf("table %d: bot %d chosen but not free (%+v)", s.seq, id, *b)
		}
		if gap := matchmaking.Gap(b, s.seq); s.freeSince[idx[p]] && gap > s.maxGap {
			s.maxGap = gap
		}
	}
	games := k
	if s.cut {
		games = 1
	}
	for r := range games {
		seated := make([]int, k) // seated[seat] = bot index
		for p := range k {
			seated[(p+r)%k] = idx[p]
		}
		for seat, i := range seated {
			b := &s.bots[i]
			for len(b.Seats) <= seat {
				b.Seats = append(b.Seats, 0)
			}
			b.Seats[seat]++
		}
		s.game(seated)
	}
	s.tick()
	for _, i := range idx {
		s.bots[i].Last = s.seq - 1
		s.freeSince[i] = true // a new wait begins
	}
}

// tick ends a table (or a call that found none): a bot not free at it
// has not waited while available since its last table.
func (s *sim) tick() {
	for i := range s.bots {
		s.freeSince[i] = s.freeSince[i] && s.bots[i].Free()
	}
	s.seq++
}

// game samples a finishing order of the bots (Plackett-Luce: by strength
// plus Gumbel noise) and updates their ratings.
func (s *sim) game(idx []int) {
	perf := make([]float64, len(idx))
	for p, i := range idx {
		perf[p] = s.truth[s.bots[i].ID] - math.Log(-math.Log(s.rng.Float64()))
	}
	pos := make([]int, len(idx))
	for p := range pos {
		pos[p] = p
	}
	sort.SliceStable(pos, func(a, b int) bool { return perf[pos[a]] > perf[pos[b]] })
	order := make([]int, len(idx))
	for p, q := range pos {
		order[p] = idx[q]
	}
	skills := make([]stats.Skill, len(order))
	for p, i := range order {
		skills[p] = s.bots[i].Skill
	}
	for p, sk := range stats.PlackettLuce(skills, nil, s.params) {
		b := &s.bots[order[p]]
		b.Skill = sk
		b.Games++
		if s.placedAt[order[p]] < 0 && sk.Sigma <= s.placement {
			s.placedAt[order[p]] = b.Games
		}
	}
	s.games++
	if s.onGame != nil {
		s.onGame()
	}
}

func (s *sim) index(id int) int {
	for i := range s.bots {
		if s.bots[i].ID == id {
			return i
		}
	}
	panic("no bot")
}

// seatSpread is the largest difference between two seat counts of one
// bot, over the seats of tables of size k.
func (s *sim) seatSpread(k int) int {
	worst := 0
	for _, b := range s.bots {
		c := make([]int, k)
		copy(c, b.Seats)
		worst = max(worst, slices.Max(c)-slices.Min(c))
	}
	return worst
}

// spearman is the rank correlation between the ladder's order (by
// Ordinal, as the standings show it) and the true one.
func (s *sim) spearman() float64 {
	n := len(s.bots)
	est, tru := make([]float64, n), make([]float64, n)
	for i, b := range s.bots {
		est[i], tru[i] = b.Skill.Ordinal(), s.truth[b.ID]
	}
	return matchmaking.Spearman(est, tru)
}

// convergence plays budget games and returns the number of games after
// which the order's Spearman correlation with the true order is at least
// target and stays there to the end (budget+1 when it never settles);
// s.reached is when it first was.
func (s *sim) convergence(budget int, target float64, next func() bool) int {
	settled := 0
	s.onGame = func() {
		if s.spearman() < target {
			settled = s.games + 1
		} else if s.reached == 0 {
			s.reached = s.games
		}
	}
	for s.games < budget && next() {
	}
	return settled
}

// roundRobin returns a next func that plays the field in rounds, each
// round a seeded shuffle of the bots: with k = 2 every pair once a
// round (a round robin), with k > 2 the shuffled bots cut into tables of
// k (the rest sit the round out).
func (s *sim) roundRobin(k int) func() bool {
	var queue [][]int
	n := len(s.bots)
	return func() bool {
		if len(queue) == 0 {
			perm := s.rng.Perm(n)
			if k == 2 {
				for a := range n {
					for b := a + 1; b < n; b++ {
						queue = append(queue, []int{s.bots[perm[a]].ID, s.bots[perm[b]].ID})
					}
				}
				s.rng.Shuffle(len(queue), func(i, j int) { queue[i], queue[j] = queue[j], queue[i] })
			} else {
				for t := 0; t+k <= n; t += k {
					ids := make([]int, k)
					for p := range k {
						ids[p] = s.bots[perm[t+p]].ID
					}
					queue = append(queue, ids)
				}
			}
		}
		s.play(nil, queue[0])
		queue = queue[1:]
		return true
	}
}

// field is the convergence field: five kinds of bot (random < greedy <
// ismcts weak < medium < strong, as log-worths) and copies of each.
func field(copies int) []float64 {
	kinds := []float64{0, 1.0, 1.6, 2.1, 2.5}
	var f []float64
	for range copies {
		f = append(f, kinds...)
	}
	return f
}
