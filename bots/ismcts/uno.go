package ismcts

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine/uno"
)

// unoTracker is what a seat remembers across its turns of an Uno hand,
// beyond what its view shows: cards a challenge revealed, and (when a
// draw on your turn means you had nothing to play) the cards a seat is
// known to lack.
type unoTracker struct {
	me, n int
	rules uno.Rules
	// known[q] is cards seat q is known to hold (a challenge's reveal,
	// less what it played since).
	known [][]uno.Card
	// lack[q] is card kinds q's older cards are known not to include (a
	// forced draw on colour and top), fresh[q] the cards it drew since
	// (any kind).
	lack  []uint64
	fresh []int
	// The top card and the active colour before the view's events.
	top    uno.Card
	colour int
}

func newUnoTracker(me, n int, r uno.Rules) *unoTracker {
	t := &unoTracker{me: me, n: n, rules: r, top: uno.NoCard, colour: -1}
	t.reset()
	return t
}

func (t *unoTracker) reset() {
	t.known = make([][]uno.Card, t.n)
	t.lack = make([]uint64, t.n)
	t.fresh = make([]int, t.n)
}

// matchMask is the card kinds playable on top in colour (the Wild Draw
// Four included: a seat that lacks the colour may play it).
func matchMask(top uno.Card, colour int) uint64 {
	m := uint64(1)<<uno.Wild | uint64(1)<<uno.WildDraw
	for k := range uno.Card(uno.Wild) {
		if k.Colour() == colour || (top < uno.Wild && k.Face() == top.Face()) {
			m |= 1 << k
		}
	}
	return m
}

// observe reads one view's events (those since the seat's last decision).
func (t *unoTracker) observe(v *uno.View) {
	for _, e := range v.Events {
		q := e.Seat
		switch e.Type {
		case "deal":
			t.reset()
		case "start":
			if c, err := uno.ParseCard(e.Card); err == nil {
				t.top, t.colour = c, c.Colour()
			}
		case "colour":
			if c, err := uno.ParseColour(e.Colour); err == nil {
				t.colour = c
			}
		case "play", "jump":
			c, err := uno.ParseCard(e.Card)
			if err != nil || q < 0 || q >= t.n {
				continue
			}
			t.top, t.colour = c, c.Colour()
			if c.IsWild() {
				if col, err := uno.ParseColour(e.Colour); err == nil {
					t.colour = col
				}
			}
			t.known[q] = removeCard(t.known[q], c)
			if t.lack[q]&(1<<c) != 0 && t.fresh[q] > 0 {
				t.fresh[q]-- // it was one of the fresh cards
			}
		case "draw":
			if q < 0 || q >= t.n || q == t.me {
				continue
			}
			if e.Why == "turn" && !t.rules.VoluntaryDraw && t.top != uno.NoCard && t.colour >= 0 {
				// A seat may draw only with nothing to play: it held no
				// card matching, and only its last card drawn may be
				// playable (it may have kept it).
				t.lack[q] = matchMask(t.top, t.colour)
				t.fresh[q] = 1
				continue
			}
			t.fresh[q] += e.N
		case "reveal":
			if q < 0 || q >= t.n || q == t.me {
				continue
			}
			t.known[q] = t.known[q][:0]
			for _, s := range e.Cards {
				if c, err := uno.ParseCard(s); err == nil {
					t.known[q] = append(t.known[q], c)
				}
			}
			t.lack[q], t.fresh[q] = 0, 0
		case "swap":
			if e.Target != nil && *e.Target >= 0 && *e.Target < t.n && q >= 0 && q < t.n {
				r := *e.Target
				t.known[q], t.known[r] = t.known[r], t.known[q]
				t.lack[q], t.lack[r] = t.lack[r], t.lack[q]
				t.fresh[q], t.fresh[r] = t.fresh[r], t.fresh[q]
			}
		case "rotate":
			t.reset()
		}
	}
	if c, err := uno.ParseCard(v.Top); err == nil {
		t.top = c
	}
	t.colour = -1
	if v.Colour != nil {
		if c, err := uno.ParseColour(*v.Colour); err == nil {
			t.colour = c
		}
	}
	t.known[t.me], t.lack[t.me], t.fresh[t.me] = nil, 0, 0
}

func removeCard(cs []uno.Card, c uno.Card) []uno.Card {
	for i, x := range cs {
		if x == c {
			return append(cs[:i], cs[i+1:]...)
		}
	}
	return cs
}

// unoGame is the information set of a seat at its decision: its view
// and what it remembers, from which it deals determinizations.
type unoGame struct {
	pos    uno.Position // the public part and the seat's own hand
	counts []int
	pool   []uno.Card // the cards the seat cannot see
	tr     *unoTracker
	single bool
	greedy bool // greedy's rules in the playouts (unoState.Rollout)
	buf    []uno.Card
}

// newUnoGame reads the seat's information set from its view.
func newUnoGame(v *uno.View, r uno.Rules, tr *unoTracker, greedy bool) (*unoGame, error) {
	if v.You == nil || v.Decision == nil {
		return nil, fmt.Errorf("uno: not this seat's decision")
	}
	me, n := *v.You, len(v.Counts)
	p := uno.Position{Rules: r, Seats: n, Direction: v.Direction, ToMove: v.ToMove, Dealer: v.Dealer,
		HandNo: v.HandNo, Scores: v.Scores, Finished: v.Finished, Actions: v.Actions, Colour: -1, Catch: -1}
	// Searching past max_actions would end the game there; the bot
	// searches to the end of the hand instead.
	p.Rules.MaxActions = 1 << 30
	if v.Colour != nil {
		c, err := uno.ParseColour(*v.Colour)
		if err != nil {
			return nil, err
		}
		p.Colour = c
	}
	var seen [uno.NumKinds]int
	parse := func(ss []string) ([]uno.Card, error) {
		out := make([]uno.Card, len(ss))
		for i, s := range ss {
			c, err := uno.ParseCard(s)
			if err != nil {
				return nil, err
			}
			out[i] = c
			seen[c]++
		}
		return out, nil
	}
	hand, err := parse(v.Hand)
	if err != nil {
		return nil, err
	}
	if p.Discard, err = parse(v.Discard); err != nil {
		return nil, err
	}
	if len(p.Discard) == 0 {
		return nil, fmt.Errorf("uno: empty discard pile")
	}
	p.Hands = make([][]uno.Card, n)
	p.Hands[me] = hand
	g := &unoGame{pos: p, counts: v.Counts, tr: tr, single: r.SingleHandGame(), greedy: greedy}
	for k := range uno.Card(uno.NumKinds) {
		copies := 2
		if k.Face() == 0 {
			copies = 1
		} else if k.IsWild() {
			copies = 4
		}
		for range copies - seen[k] {
			g.pool = append(g.pool, k)
		}
	}
	if len(g.pool) != v.DrawPile+sum(v.Counts)-len(hand) {
		return nil, fmt.Errorf("uno: %d unseen cards for a draw pile of %d and %d cards in other hands", len(g.pool), v.DrawPile, sum(v.Counts)-len(hand))
	}
	d := v.Decision
	g.pos.Decision = d.Kind
	if d.Catch != nil {
		g.pos.Catch = *d.Catch
	}
	switch d.Kind {
	case "drawn":
		if g.pos.Drawn, err = uno.ParseCard(d.Card); err != nil {
			return nil, err
		}
	case "pending":
		g.pos.Pending = d.Pending
		g.pos.PendingWD4 = g.pos.Discard[len(g.pos.Discard)-1] == uno.WildDraw
		g.pos.PendingFrom = lastPlayer(v, me, n)
		if d.Challenge && d.From != nil {
			g.pos.Challenge, g.pos.WD4From = true, *d.From
			if g.pos.WD4Prev, err = uno.ParseColour(d.PrevColour); err != nil {
				return nil, err
			}
		}
	case "jump":
		if g.pos.JumpCard, err = uno.ParseCard(d.Card); err != nil {
			return nil, err
		}
		g.pos.JumpNext = nextActive(v, lastPlayer(v, me, n), n)
	}
	return g, nil
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// lastPlayer is the seat that played the last card in the view's events
// (else the seat before me).
func lastPlayer(v *uno.View, me, n int) int {
	for i := len(v.Events) - 1; i >= 0; i-- {
		if e := v.Events[i]; e.Type == "play" || e.Type == "jump" {
			return e.Seat
		}
	}
	return ((me-v.Direction)%n + n) % n
}

func nextActive(v *uno.View, p, n int) int {
	out := map[int]bool{}
	for _, q := range v.Finished {
		out[q] = true
	}
	for range n {
		p = ((p+v.Direction)%n + n) % n
		if !out[p] {
			return p
		}
	}
	return p
}

func (g *unoGame) Seats() int { return g.pos.Seats }

// Determinize deals the unseen cards: a challenge's revealed cards to
// their holder, then the seats known to lack some kinds get their older
// cards from the others, then the rest at random.
func (g *unoGame) Determinize(rng *rand.Rand) State[uno.Action] {
	pool := append(g.buf[:0], g.pool...)
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	p := g.pos
	p.Hands = make([][]uno.Card, p.Seats)
	p.Hands[g.tr.me] = g.pos.Hands[g.tr.me]
	take := func(ok func(uno.Card) bool) (uno.Card, bool) {
		for i, c := range pool {
			if ok(c) {
				pool[i] = pool[len(pool)-1]
				pool = pool[:len(pool)-1]
				return c, true
			}
		}
		return uno.NoCard, false
	}
	for q := range p.Seats {
		if q == g.tr.me {
			continue
		}
		h := make([]uno.Card, 0, g.counts[q])
		for _, k := range g.tr.known[q] {
			if len(h) < g.counts[q] {
				if c, ok := take(func(c uno.Card) bool { return c == k }); ok {
					h = append(h, c)
				}
			}
		}
		if lack := g.tr.lack[q]; lack != 0 {
			for range max(0, g.counts[q]-len(h)-g.tr.fresh[q]) {
				if c, ok := take(func(c uno.Card) bool { return lack&(1<<c) == 0 }); ok {
					h = append(h, c)
				}
			}
		}
		p.Hands[q] = h
	}
	for q := range p.Seats {
		if q == g.tr.me {
			continue
		}
		for len(p.Hands[q]) < g.counts[q] {
			k := len(pool) - 1
			p.Hands[q] = append(p.Hands[q], pool[k])
			pool = pool[:k]
		}
	}
	p.Draw = pool
	p.Seed = rng.Uint64()
	s, err := uno.FromPosition(p)
	g.buf = pool[:0]
	if err != nil {
		return nil
	}
	return &unoState{s: s, hand: p.HandNo, single: g.single, greedy: g.greedy}
}

// unoState is a determinization played to the end of the hand.
type unoState struct {
	s      *uno.State
	hand   int
	single bool
	greedy bool
}

func (u *unoState) ToMove() int                         { return u.s.ToMove() }
func (u *unoState) Legal(dst []uno.Action) []uno.Action { return u.s.AppendLegal(dst) }
func (u *unoState) Done() bool                          { return u.s.Over() || u.s.HandNo() != u.hand }
func (u *unoState) Apply(a uno.Action) {
	if err := u.s.Play(a); err != nil {
		panic(err)
	}
}

// Rewards: a single-hand game by its ranks; in a game of several hands
// the hand's winner 1 (a little more for the points it scores, under
// winner_collects), the others 0 (a little more for fewer penalty
// points, under penalty_low_wins). A hand cut short: the fewer cards a
// seat holds, the better.
func (u *unoState) Rewards(dst []float64) {
	n := u.s.Seats()
	for i := range dst {
		dst[i] = 0
	}
	if !u.Done() {
		tot := 0.0
		for i := range n {
			dst[i] = 1 / float64(1+u.s.Count(i))
			tot += dst[i]
		}
		for i := range n {
			dst[i] /= tot
		}
		return
	}
	if u.single && u.s.Over() {
		o := u.s.Outcome()
		if len(o.Ranks) == n {
			for i, r := range o.Ranks {
				switch {
				case r == 1:
					dst[i] = 1
				case u.s.Rules().PlayToLast:
					dst[i] = float64(n-r) / float64(n-1)
				}
			}
			return
		}
	}
	hs := u.s.Hands()
	if len(hs) == 0 {
		return
	}
	hr := hs[len(hs)-1]
	r := u.s.Rules()
	for i := range n {
		switch {
		case i == hr.Winner && r.Scoring == uno.WinnerCollects:
			dst[i] = 0.8 + 0.2*min(float64(hr.Points[i]), 200)/200
		case i == hr.Winner:
			dst[i] = 1
		case r.Scoring == uno.PenaltyLowWins:
			dst[i] = 0.2 * (1 - min(float64(hr.Points[i]), 200)/200)
		}
	}
}

// Rollout is a sensible cheap policy, close to greedy's: catch when
// offered, play a coloured card when there is one (with the call), a
// wild only when there is not, naming the colour the player holds most
// of; accept pending draws (challenge one time in four), draw only with
// nothing to play.
func (u *unoState) Rollout(legal []uno.Action, rng *rand.Rand) uno.Action {
	if legal[0].Type == uno.ActCatch {
		return legal[0]
	}
	if u.greedy {
		return u.greedyRollout(legal, rng)
	}
	var plays, wilds [64]int
	k, w := 0, 0
	for i, a := range legal {
		if a.Type == uno.ActPlay || a.Type == uno.ActJump {
			if a.Card.IsWild() {
				if w < len(wilds) {
					wilds[w] = i
					w++
				}
			} else if k < len(plays) {
				plays[k] = i
				k++
			}
		}
	}
	if k > 0 {
		return legal[plays[rng.IntN(k)]]
	}
	if w > 0 {
		// The colour held most (ties at random).
		p := u.s.ToMove()
		var held [4]int
		for c := range uno.Card(uno.Wild) {
			held[c.Colour()] += u.s.Holds(p, c)
		}
		best, bi, ties := -1, 0, 0
		for i := range w {
			col := int(legal[wilds[i]].Colour)
			if col < 0 || col > 3 {
				continue
			}
			switch {
			case held[col] > best:
				best, bi, ties = held[col], i, 1
			case held[col] == best:
				ties++
				if rng.IntN(ties) == 0 {
					bi = i
				}
			}
		}
		return legal[wilds[bi]]
	}
	last := legal[len(legal)-1]
	if last.Type == uno.ActAccept && len(legal) >= 2 && legal[len(legal)-2].Type == uno.ActChallenge && rng.IntN(4) == 0 {
		return legal[len(legal)-2]
	}
	if legal[0].Type == uno.ActColour {
		return legal[rng.IntN(len(legal))]
	}
	return last // draw, keep, accept or pass
}

// greedyRollout plays as the greedy bot (bots.GreedyUno) does, from the
// state instead of a view: shed the card worth most (action cards, then
// high numbers) in the colour held most, attack the next seat with a
// Skip, Reverse or Draw Two when it holds two cards or fewer, keep the
// wilds for need (a Wild Draw Four for a next seat about to go out),
// name the colour held most, swap with the smallest hand, always make
// the call; challenge three times in four (greedy challenges a Wild Draw
// Four from a hand of two or more), draw only with nothing to play.
// Ties at random.
func (u *unoState) greedyRollout(legal []uno.Action, rng *rand.Rand) uno.Action {
	s := u.s
	p := s.ToMove()
	var held [4]int
	for c := range uno.Card(uno.Wild) {
		held[c.Colour()] += s.Holds(p, c)
	}
	left := s.Count(p) - 1
	nextCount := s.Count(s.Next(p))
	bi, best, ties := 0, math.Inf(-1), 0
	for i, a := range legal {
		var sc float64
		switch a.Type {
		case uno.ActColour:
			sc = float64(held[a.Colour])
		case uno.ActChallenge:
			sc = -50
			if rng.IntN(4) != 0 {
				sc = 50
			}
		case uno.ActAccept:
			sc = 0
		case uno.ActKeep:
			sc = -100
		case uno.ActDraw, uno.ActPass:
			sc = -200
		case uno.ActPlay, uno.ActJump:
			c := a.Card
			sc = float64(c.Points())
			switch {
			case c.IsWild():
				sc = -60 + sc/10
				if left <= 1 {
					sc = 60
				}
				if c == uno.WildDraw && nextCount <= 2 {
					sc = 80
				}
				if a.Colour >= 0 && a.Colour < 4 {
					sc += 3 * float64(held[a.Colour])
				}
			default:
				sc += 2 * float64(held[c.Colour()]-1)
				if f := c.Face(); nextCount <= 2 && (f == uno.FaceSkip || f == uno.FaceDrawTwo || f == uno.FaceReverse) {
					sc += 40
				}
				if a.Target >= 0 && int(a.Target) < s.Seats() {
					sc += 3 * float64(left-s.Count(int(a.Target)))
				}
			}
			if a.Type == uno.ActJump {
				sc += 500
			}
			if a.Uno {
				sc += 1000 // never forget the call
			}
		}
		switch {
		case sc > best:
			bi, best, ties = i, sc, 1
		case sc == best:
			ties++
			if rng.IntN(ties) == 0 {
				bi = i
			}
		}
	}
	return legal[bi]
}
