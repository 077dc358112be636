package expectimax

import (
	"math/rand/v2"
	"time"

	"github.com/arena-dev/arena/engine/banqi"
)

// Scores: a win is worth winScore less the plies to reach it (so the
// search prefers the quickest win and the slowest loss); a draw is 0.
// Every evaluation lies well inside (-winBound, winBound).
const (
	winScore = 1_000_000
	winBound = winScore - 10_000
	infinity = winScore + 1
	// maxDepth caps iterative deepening (a fixed-depth budget above it
	// is cut to it).
	maxDepth = 64
	// maxQuiesce caps the captures-only search below the horizon.
	maxQuiesce = 4
	// quietFlipsInside is how many flips of squares where nothing can
	// happen at once (no face-up neighbour, no cannon in line) the search
	// tries below the root: they are alike until much later, so one
	// stands for all. rootQuietFlips is the same at the root, where the
	// choice is made.
	quietFlipsInside = 1
	rootQuietFlips   = 3
	// tacticalFlipsInside is how many of the other flips the search tries
	// below the root, best ordered first: each is a chance node of up to
	// 14 outcomes, so trying all would leave no time for depth.
	tacticalFlipsInside = 2
	// chaseRisk is what completing a repetition costs the mover under
	// repetition=chase_loss, where it may be a perpetual chase (a loss).
	chaseRisk = 300
	// checkEvery is how many nodes pass between looks at the clock.
	checkEvery = 256
)

// Limits bound one search. A zero field is no bound.
type Limits struct {
	Depth    int       // plies of iterative deepening (a flip's outcome is one ply with its flip)
	Nodes    int64     // nodes, counted in every search node and chance outcome
	Deadline time.Time // the wall clock time to stop by
}

// Result is what a search found.
type Result struct {
	Best  int   // index into the root actions
	Score int   // for the side to move
	Depth int   // deepest iteration completed
	Nodes int64 // nodes searched
}

// searcher is one search's state. It allocates only when it grows.
type searcher struct {
	r       rules
	limits  Limits
	nodes   int64
	stopped bool
	// hist holds position hashes for repetitions: the game's since the
	// last flip or capture, then the search path; 0 marks a position
	// inside a capture chain, which the engine does not record.
	hist    []uint64
	moves   [maxDepth + maxQuiesce + 2][]banqi.Action
	keys    [maxDepth + maxQuiesce + 2][]int
	killers [maxDepth + 2][2]banqi.Action
}

func newSearcher(r rules) *searcher {
	s := &searcher{r: r}
	for i := range s.moves {
		s.moves[i] = make([]banqi.Action, 0, 128)
		s.keys[i] = make([]int, 0, 128)
	}
	return s
}

// tick counts a node and reports whether the search must stop.
func (s *searcher) tick() bool {
	s.nodes++
	if s.stopped {
		return true
	}
	if s.limits.Nodes > 0 && s.nodes >= s.limits.Nodes {
		s.stopped = true
	} else if s.nodes%checkEvery == 0 && !s.limits.Deadline.IsZero() && !time.Now().Before(s.limits.Deadline) {
		s.stopped = true
	}
	return s.stopped
}

// run searches root (whose hash ends hist) over actions, by iterative
// deepening until a limit; rng orders equal moves, so ties are broken by
// the seed. The first iteration always completes unless the deadline
// passes: a node budget never leaves the bot without a searched move.
func (s *searcher) run(root *position, hist []uint64, actions []banqi.Action, limits Limits, rng *rand.Rand) Result {
	s.limits, s.nodes, s.stopped = limits, 0, false
	s.hist = append(s.hist[:0], hist...)
	s.killers = [maxDepth + 2][2]banqi.Action{}
	depthCap := maxDepth
	if limits.Depth > 0 {
		depthCap = min(limits.Depth, maxDepth)
	}
	order := s.rootOrder(root, actions, rng)
	res := Result{Best: order[0]}
	if len(order) == 1 {
		return res
	}
	scores := make([]int, len(actions))
	for depth := 1; depth <= depthCap; depth++ {
		if depth == 1 {
			s.limits.Nodes = 0 // depth 1 is always finished (deadline permitting)
		} else {
			s.limits.Nodes = limits.Nodes
		}
		alpha := -infinity
		best, done := -1, 0
		for _, i := range order {
			v := s.actionValue(root, actions[i], depth-1, alpha, infinity, 0, 0)
			if s.stopped {
				break
			}
			scores[i] = v
			done++
			if v > alpha {
				alpha, best = v, i
			}
		}
		switch {
		case done == len(order):
			res.Best, res.Score, res.Depth = best, alpha, depth
		case done > 0:
			// Stopped part way: the previous best was searched first, so
			// a move that beat it in full is a safe improvement.
			res.Best, res.Score = best, alpha
		}
		if s.stopped || alpha >= winBound || alpha <= -winBound {
			break
		}
		// Next iteration: best first, then by this iteration's scores.
		sortStable(order, func(a, b int) bool { return scores[a] > scores[b] })
	}
	res.Nodes = s.nodes
	return res
}

// rootOrder is the order the root actions are searched in: all moves and
// captures and the tactical flips, plus rootQuietFlips quiet flips drawn
// by rng; shuffled by rng first so that the stable sort leaves equal
// moves in a seeded order.
func (s *searcher) rootOrder(root *position, actions []banqi.Action, rng *rand.Rand) []int {
	perm := rng.Perm(len(actions))
	keys := make([]int, len(actions))
	var order []int
	quiet := 0
	for _, i := range perm {
		a := actions[i]
		if a.Kind == banqi.KindFlip && !s.tacticalFlip(root, int(a.From)) {
			if quiet >= rootQuietFlips {
				continue
			}
			quiet++
		}
		keys[i] = s.orderKey(root, a, 0)
		order = append(order, i)
	}
	sortStable(order, func(a, b int) bool { return keys[a] > keys[b] })
	return order
}

// tacticalFlip reports whether flipping sq can change anything at once:
// a face-up piece beside it, or a face-up Taiwanese cannon in its row or
// column.
func (s *searcher) tacticalFlip(p *position, sq int) bool {
	for _, n := range nbr[sq] {
		if n >= 0 && p.board[n].Up() {
			return true
		}
	}
	if s.r.Ranks == banqi.Taiwan {
		for q, pc := range p.board {
			if pc.Up() && pc.Type() == banqi.Cannon && (q%4 == sq%4 || q/4 == sq/4) {
				return true
			}
		}
	}
	return false
}

// orderKey ranks an action for move ordering, higher first: captures by
// victim value then cheapest attacker, killer moves, plain moves,
// tactical flips, quiet flips.
func (s *searcher) orderKey(p *position, a banqi.Action, ply int) int {
	vals := &pieceValues[s.r.Ranks]
	switch a.Kind {
	case banqi.KindCapture:
		if p.board[a.To] == banqi.FaceDown {
			return 1_000
		}
		return 100_000 + 10*vals[p.board[a.To].Type()] - vals[p.board[a.From].Type()]/10
	case banqi.KindMove:
		if ply < len(s.killers) && (s.killers[ply][0] == a || s.killers[ply][1] == a) {
			return 50_000
		}
		return 2_000
	case banqi.KindStop:
		return 1_500
	}
	return 0
}

// search is the value of p for its side to move, depth plies deep, within
// (alpha, beta), fail-soft. hist ends with p's hash; start is where its
// repetition window begins.
func (s *searcher) search(p *position, depth, alpha, beta, ply, start int) int {
	if s.tick() {
		return 0
	}
	if p.chain < 0 && ply > 0 {
		// A position already met since the last flip or capture counts
		// as a draw: whoever steered back to it can do it again, and the
		// third time the engine draws. Under chase_loss the chaser loses
		// instead; the search does not tell chasers apart, so there it
		// charges the side that steered back chaseRisk.
		h := p.hash
		for _, x := range s.hist[start : len(s.hist)-1] {
			if x == h {
				if s.r.ChaseLoss {
					return chaseRisk
				}
				return 0
			}
		}
	}
	moves := p.legal(&s.r, s.moves[ply][:0])
	s.moves[ply] = moves
	if len(moves) == 0 {
		return -winScore + ply
	}
	if (p.chain < 0 && int(p.quiet) >= s.r.NoProgressPlies) || int(p.ply) >= s.r.MaxPlies {
		return 0
	}
	if depth <= 0 || ply >= maxDepth {
		return s.quiesce(p, alpha, beta, ply, maxQuiesce)
	}
	keys := s.keys[ply][:0]
	for _, a := range moves {
		k := s.orderKey(p, a, ply)
		if a.Kind == banqi.KindFlip && s.tacticalFlip(p, int(a.From)) {
			k = 1_200
		}
		keys = append(keys, k)
	}
	s.keys[ply] = keys
	best := -infinity
	quiet, tactical := 0, 0
	for n := range moves {
		pickBest(moves, keys, n)
		a := moves[n]
		if a.Kind == banqi.KindFlip {
			if keys[n] == 0 {
				if quiet >= quietFlipsInside {
					continue
				}
				quiet++
			} else {
				if tactical >= tacticalFlipsInside {
					continue
				}
				tactical++
			}
		}
		v := s.actionValue(p, a, depth-1, alpha, beta, ply, start)
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			if a.Kind == banqi.KindMove && ply < len(s.killers) && s.killers[ply][0] != a {
				s.killers[ply][1], s.killers[ply][0] = s.killers[ply][0], a
			}
			break
		}
	}
	return best
}

// actionValue is the value of playing a on p, for p's side to move. An
// action that reveals a piece is a chance node: the average of its
// outcomes over the face-down multiset, weighted by how many of each
// piece are left, with Ballard's Star1 bounds (every value lies in
// [-winScore, winScore]) to stop early once the average cannot enter
// (alpha, beta).
func (s *searcher) actionValue(p *position, a banqi.Action, depth, alpha, beta, ply, start int) int {
	if !p.needsReveal(a) {
		return s.child(p, a, banqi.Empty, depth, alpha, beta, ply, start)
	}
	const lo, hi = -winScore, winScore
	n := int(p.nHidden)
	sum, rest := 0, n // sum of count*value so far; pieces not yet tried
	for pc := banqi.Piece(1); pc <= 14; pc++ {
		c := int(p.hidden[pc])
		if c == 0 {
			continue
		}
		rest -= c
		// The child window that can still move the average across alpha
		// or beta, assuming the untried outcomes are as good or as bad
		// as possible.
		ca := floorDiv(alpha*n-sum-rest*hi, c)
		cb := ceilDiv(beta*n-sum-rest*lo, c)
		v := s.child(p, a, pc, depth, max(ca, lo), min(cb, hi), ply, start)
		if s.stopped {
			return 0
		}
		sum += c * v
		if sum+rest*lo >= beta*n {
			return floorDiv(sum+rest*lo, n)
		}
		if sum+rest*hi <= alpha*n {
			return ceilDiv(sum+rest*hi, n)
		}
	}
	return floorDiv(sum, n)
}

// child is the value, for p's side to move, of the position after a
// (revealing reveal, if it reveals a piece).
func (s *searcher) child(p *position, a banqi.Action, reveal banqi.Piece, depth, alpha, beta, ply, start int) int {
	c := *p
	if c.play(&s.r, a, reveal) {
		return winScore - ply - 1
	}
	if irreversible(a) {
		start = len(s.hist)
	}
	h := c.hash
	if c.chain >= 0 {
		h = 0
	}
	s.hist = append(s.hist, h)
	var v int
	if c.side == p.side {
		v = s.search(&c, depth, alpha, beta, ply+1, start)
	} else {
		v = -s.search(&c, depth, -beta, -alpha, ply+1, start)
	}
	s.hist = s.hist[:len(s.hist)-1]
	return v
}

// quiesce searches captures of face-up pieces only, from a stand-pat
// evaluation (the side to move could instead flip or move), so that the
// horizon does not fall in the middle of an exchange.
func (s *searcher) quiesce(p *position, alpha, beta, ply, left int) int {
	if s.tick() {
		return 0
	}
	stand := s.eval(p)
	if stand >= beta || left == 0 || ply >= len(s.moves)-1 {
		return stand
	}
	alpha = max(alpha, stand)
	best := stand
	var tb [4]int8
	caps := s.moves[ply][:0]
	keys := s.keys[ply][:0]
	for sq, pc := range p.board {
		if !pc.Up() || pc.Colour() != p.side || (p.chain >= 0 && sq != int(p.chain)) {
			continue
		}
		for _, t := range p.appendTargets(&s.r, sq, false, tb[:0]) {
			if s.losing(p, sq, int(t)) {
				continue
			}
			a := banqi.Capture(sq, int(t))
			caps = append(caps, a)
			keys = append(keys, s.orderKey(p, a, ply))
		}
	}
	s.moves[ply], s.keys[ply] = caps, keys
	for n := range caps {
		pickBest(caps, keys, n)
		c := *p
		if c.play(&s.r, caps[n], banqi.Empty) {
			return winScore - ply - 1
		}
		var v int
		if c.side == p.side {
			v = s.quiesce(&c, alpha, beta, ply+1, left-1)
		} else {
			v = -s.quiesce(&c, -beta, -alpha, ply+1, left-1)
		}
		if s.stopped {
			return 0
		}
		best = max(best, v)
		alpha = max(alpha, v)
		if alpha >= beta {
			break
		}
	}
	return best
}

// losing reports whether capturing on to from from gives more than it
// takes: the attacker is worth more than its victim and the opponent could
// take it back on to. The captures-only search skips those (a full-width
// node still tries them).
func (s *searcher) losing(p *position, from, to int) bool {
	vals := &pieceValues[s.r.Ranks]
	att := p.board[from]
	if vals[att.Type()] <= vals[p.board[to].Type()] {
		return false
	}
	c := *p
	c.board[to], c.board[from] = att, banqi.Empty
	var tb [4]int8
	for sq, pc := range c.board {
		if pc.Up() && pc.Colour() != att.Colour() {
			for _, t := range c.appendTargets(&s.r, sq, false, tb[:0]) {
				if int(t) == to {
					return true
				}
			}
		}
	}
	return false
}

// pickBest moves the action with the highest key among moves[n:] to n
// (with its key): a selection sort done one step at a time, since a
// cut-off usually comes before the list is used up.
func pickBest(moves []banqi.Action, keys []int, n int) {
	bi := n
	for j := n + 1; j < len(moves); j++ {
		if keys[j] > keys[bi] {
			bi = j
		}
	}
	moves[n], moves[bi] = moves[bi], moves[n]
	keys[n], keys[bi] = keys[bi], keys[n]
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int) int { return -floorDiv(-a, b) }

// sortStable is an insertion sort of idx by less: the lists are short
// and the order of equals must not depend on the sort.
func sortStable(idx []int, less func(a, b int) bool) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && less(idx[j], idx[j-1]); j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}
