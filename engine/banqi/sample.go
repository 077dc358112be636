package banqi

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"
)

// Observer implements engine.Sampler. Banqi hides nothing but what is
// face down, and that not even from the engine: a flip draws its piece
// uniformly from the pieces still face down with the state's RNG. So a
// sample is the seat's last view made a state, with a fresh seed: every
// face-down square is then equally likely to hold any piece not yet
// revealed, as in the game itself.
func (Game) Observer(seat, seats int, opts engine.Options) (engine.Observer, error) {
	if seats != 2 {
		return nil, fmt.Errorf("game banqi needs 2 seats, got %d", seats)
	}
	if seat != 0 && seat != 1 {
		return nil, fmt.Errorf("banqi observer: seat %d of 2 seats", seat)
	}
	r, err := RulesFromOptions(opts)
	if err != nil {
		return nil, err
	}
	return &Observer{me: seat, rules: r}, nil
}

// Observer is what a Banqi seat remembers across its views beyond the
// last: the plain moves since the last flip or capture, which the
// repetition rules count and a view shows only as a count
// (plies_since_progress, repeats). Between two of its views the seat
// made one action and the other seat one or more; when the count shows
// that both were plain moves, the other's is the view's "last" and the
// seat's own is the difference of the two boards.
type Observer struct {
	me    int
	rules Rules
	pos   Position
	// known: pos.Moves holds every move since the last flip or capture
	// (false when the views observed cannot tell them: a view skipped).
	known bool
	seen  bool // a view was observed
	// hist is why the moves are not known, for Sample's error.
	hist error
	// base is the last view made a state, read once for all the
	// samples of it, which differ only in their seed; err is Sample's
	// error when there is none.
	base *State
	err  error
}

// errHistory is why an observer cannot tell the moves since the last
// flip or capture.
var errHistory = errors.New("the moves since the last flip or capture are not all in the views observed (every view of the seat must be given, in order)")

// Observe implements engine.Observer.
func (o *Observer) Observe(view []byte) error {
	var v View
	if err := json.Unmarshal(view, &v); err != nil {
		return fmt.Errorf("banqi observer: view: %w", err)
	}
	if v.You == nil || v.You.Seat != o.me {
		return fmt.Errorf("banqi observer: not a view of seat %d", o.me)
	}
	p, err := o.position(&v)
	if err != nil {
		return fmt.Errorf("banqi observer: view at ply %d: %w", v.Ply, err)
	}
	prev, prevKnown := o.pos, o.known && o.seen
	o.pos, o.seen = p, true
	o.known, o.hist = o.followMoves(prev, prevKnown, &v)
	o.base, o.err = o.prepare()
	return nil
}

// followMoves fills o.pos.Moves from the previous position's and the
// actions between: the last PliesSinceProgress plain moves.
func (o *Observer) followMoves(prev Position, prevKnown bool, v *View) (bool, error) {
	q := v.PliesSinceProgress
	switch {
	case q == 0:
		return true, nil
	case !prevKnown:
		return false, errHistory
	case o.pos.ToMove != o.me:
		// The seat's own action ended the game: nothing to sample.
		return false, errHistory
	}
	// The other seat's move, the last action.
	if o.pos.Last.Kind != KindMove {
		return false, errHistory
	}
	theirs := [2]int{int(o.pos.Last.From), int(o.pos.Last.To)}
	moves := []([2]int){theirs}
	if q >= 2 {
		// The seat's own was a plain move too: the board before theirs
		// against the previous view's.
		b := o.pos.Board
		b[theirs[0]], b[theirs[1]] = b[theirs[1]], Empty
		mine, ok := boardMove(prev.Board, b)
		if !ok || prev.Chain >= 0 || len(prev.Moves) != q-2 {
			return false, errHistory
		}
		moves = append(append(append(make([][2]int, 0, q), prev.Moves...), mine), theirs)
	}
	if len(moves) != q {
		return false, errHistory
	}
	o.pos.Moves = moves
	return true, nil
}

// boardMove is the plain move that turns board a into b: one piece off
// one square onto a neighbouring empty one, nothing else changed.
func boardMove(a, b Board) ([2]int, bool) {
	from, to := -1, -1
	for sq := range 32 {
		if a[sq] == b[sq] {
			continue
		}
		switch {
		case a[sq].Up() && b[sq] == Empty && from < 0:
			from = sq
		case a[sq] == Empty && b[sq].Up() && to < 0:
			to = sq
		default:
			return [2]int{}, false
		}
	}
	if from < 0 || to < 0 || a[from] != b[to] || !adjacent(from, to) {
		return [2]int{}, false
	}
	return [2]int{from, to}, true
}

// position reads a view into a position without its moves.
func (o *Observer) position(v *View) (Position, error) {
	p := Position{Rules: o.rules, ToMove: v.ToMove, Chain: -1, Ply: v.Ply, Colours: [2]Colour{NoColour, NoColour}}
	var err error
	if p.Board, err = ParseBoard(v.Board[:]...); err != nil {
		return p, err
	}
	for i, c := range v.Colours {
		if c == nil {
			continue
		}
		switch *c {
		case "red":
			p.Colours[i] = Red
		case "black":
			p.Colours[i] = Black
		default:
			return p, fmt.Errorf("colour %q (want red, black or null)", *c)
		}
	}
	if v.Chain != nil {
		if p.Chain, err = ParseSquare(*v.Chain); err != nil {
			return p, fmt.Errorf("chain: %w", err)
		}
	}
	for _, s := range []string{v.Captured.Red, v.Captured.Black} {
		for i := range len(s) {
			c, err := PieceFromLetter(s[i])
			if err != nil || !c.Up() {
				return p, fmt.Errorf("captured %q: not a piece letter", s)
			}
			p.Captured[c]++
		}
	}
	if v.Last != "" {
		l, err := ParseLast(v.Last)
		if err != nil {
			return p, err
		}
		p.HasLast, p.Revealed = true, l.Revealed
		switch {
		case l.Stop:
			p.Last = Stop()
		case l.To < 0:
			p.Last = Flip(l.From)
		case v.PliesSinceProgress == 0:
			// A capture (or an attack on a face-down piece) resets the
			// count; a plain move adds to it.
			p.Last = Capture(l.From, l.To)
		default:
			p.Last = Move(l.From, l.To)
		}
	}
	return p, nil
}

// Sample implements engine.Observer.
func (o *Observer) Sample(rng *rand.Rand) (engine.State, error) {
	return engine.AsState(o.SampleState(rng))
}

// SampleState is Sample with its concrete type: the last view's
// position with a seed drawn from rng, so that the flips to come reveal
// a uniform draw of the pieces still face down.
func (o *Observer) SampleState(rng *rand.Rand) (*State, error) {
	if !o.seen {
		return nil, engine.ErrNoDecision
	}
	if o.err != nil {
		return nil, o.err
	}
	s := o.base.Clone()
	s.pcg.Seed(rng.Uint64(), pcgStream)
	return s, nil
}

// prepare is the last view's position made a state (its seed yet to
// draw), or why no sample can be drawn from it.
func (o *Observer) prepare() (*State, error) {
	if o.pos.ToMove != o.me {
		return nil, engine.ErrNoDecision
	}
	p := o.pos
	if !o.known {
		// A game that ended may have left the moves unknown; one that
		// goes on cannot be dealt without them.
		p.Moves = nil
		if s, err := FromPosition(p); err == nil && s.Over() {
			return nil, engine.ErrNoDecision
		}
		return nil, fmt.Errorf("%w: %w", engine.ErrInconsistent, o.hist)
	}
	s, err := FromPosition(p)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", engine.ErrInconsistent, err)
	}
	if s.Over() {
		return nil, engine.ErrNoDecision
	}
	return s, nil
}
