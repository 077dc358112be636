package replays

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// sim re-simulates a replay through its engine, one event at a time, with
// the same rules the referee follows.
type sim struct {
	rp        *Replay
	game      engine.Game
	state     engine.State
	forfeited []bool
	in        int // seats not forfeited
	strike    int // seat struck at the current ply, or -1
}

// newSim looks the game up, checks the header's seats and options and
// deals the initial state from the seed.
func newSim(rp *Replay) (*sim, error) {
	h := &rp.Header
	g, err := engine.Lookup(h.Game)
	if err != nil {
		return nil, fmt.Errorf("%s: line 1: %w", rp.name(), err)
	}
	n := len(h.Seats)
	opts, err := engine.Setup(g, n, h.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: line 1: %w", rp.name(), err)
	}
	st, err := g.New(n, h.Seed, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: line 1: starting %s: %w", rp.name(), h.Game, err)
	}
	return &sim{rp: rp, game: g, state: st, forfeited: make([]bool, n), in: n, strike: -1}, nil
}

// seatName is "seat 1 (bob)".
func (s *sim) seatName(seat int) string { return s.rp.seatName(seat) }

// step applies event i. For a move it returns the parsed action.
func (s *sim) step(i int) (engine.Action, error) {
	e := s.rp.Events[i]
	line := i + 2
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: line %d: ply %d: %s", s.rp.name(), line, e.Ply(), fmt.Sprintf(format, args...))
	}
	n := len(s.forfeited)
	if seat := e.Seat(); seat < 0 || seat >= n {
		return nil, fail("%s line: seat %d out of range (%d seats)", e.Type(), seat, n)
	}
	switch {
	case e.Move != nil:
		m := e.Move
		if s.state.Over() {
			return nil, fail("move by %s after the game was over", s.seatName(m.Seat))
		}
		if s.in < 2 {
			return nil, fail("move by %s after fewer than two seats remained", s.seatName(m.Seat))
		}
		if want := s.state.ToMove(); m.Seat != want {
			return nil, fail("move by %s, but it is %s's turn", s.seatName(m.Seat), s.seatName(want))
		}
		struck := s.strike == m.Seat
		switch {
		case s.forfeited[m.Seat] && m.By != ByReferee:
			return nil, fail("%s has forfeited, its move must be by the referee", s.seatName(m.Seat))
		case struck && m.By != ByReferee:
			return nil, fail("%s was struck, the move must be by the referee", s.seatName(m.Seat))
		case m.By == ByReferee && !s.forfeited[m.Seat] && !struck:
			return nil, fail("referee move for %s, which neither forfeited nor was struck", s.seatName(m.Seat))
		}
		a, err := s.game.ParseAction(m.Action)
		if err != nil {
			return nil, fail("%s played %s: bad action: %v", s.seatName(m.Seat), m.Action, err)
		}
		if err := s.state.Apply(a); err != nil {
			return nil, fail("%s played %s (%s): mismatch: %v", s.seatName(m.Seat), a, m.Action, err)
		}
		s.strike = -1
		return a, nil
	case e.Strike != nil:
		st := e.Strike
		if !st.Reason.Valid() {
			return nil, fail("strike with unknown reason %q (want one of %s)", st.Reason, reasonList())
		}
		if s.state.Over() {
			return nil, fail("strike for %s after the game was over", s.seatName(st.Seat))
		}
		if s.forfeited[st.Seat] {
			return nil, fail("strike for %s, which has forfeited", s.seatName(st.Seat))
		}
		if want := s.state.ToMove(); st.Seat != want {
			return nil, fail("strike for %s, but it is %s's turn", s.seatName(st.Seat), s.seatName(want))
		}
		s.strike = st.Seat
	case e.Forfeit != nil:
		f := e.Forfeit
		if !f.Reason.Valid() {
			return nil, fail("forfeit with unknown reason %q (want one of %s)", f.Reason, reasonList())
		}
		if s.forfeited[f.Seat] {
			return nil, fail("%s forfeits a second time", s.seatName(f.Seat))
		}
		s.forfeited[f.Seat] = true
		s.in--
	default:
		return nil, fail("empty event")
	}
	return nil, nil
}

// outcome is the result the referee must have recorded after the last
// event: the engine's outcome with forfeits when the game is over, else
// ForfeitOutcome when fewer than two seats remain. exact says whether the
// reason must match too.
func (s *sim) outcome() (o engine.Outcome, exact bool, err error) {
	if s.state.Over() {
		return s.state.Outcome().WithForfeits(s.forfeited), true, nil
	}
	if s.in < 2 {
		return engine.ForfeitOutcome(s.forfeited, s.rp.Result.Reason), false, nil
	}
	return o, false, fmt.Errorf("%s: line %d: result recorded at ply %d, but the game is not over and %d seats are still in play",
		s.rp.name(), s.rp.resultLine(), s.rp.Result.Plies, s.in)
}

// Verify re-plays r through its game engine and checks that it is exactly
// the game the referee played: the game and options are valid, every move
// was made by the seat to move and is legal, referee moves happen only for
// forfeited or struck seats, and the result line equals the outcome
// recomputed from the final state (state.Outcome().WithForfeits when the
// game is over, engine.ForfeitOutcome when fewer than two seats remained;
// the reason is compared only in the first case, where a wording the
// engine gave formerly, engine.Outcome.Formerly, passes too). Errors name
// the file, line and ply of the first mismatch. A replay recorded under another
// revision of its game's rules (engine.Info.Rules) is refused with
// ErrRules, naming both revisions, and not re-simulated: these rules are
// not the ones it was played under, so neither a match nor a mismatch
// would say anything about the file.
func Verify(r *Replay) error {
	if g, err := engine.Lookup(r.Header.Game); err == nil && g.Info().Rules != r.Header.Rules {
		return fmt.Errorf("%s: %w: played under %s rules revision %d, this arena plays revision %d "+
			"(docs/games/%s.md says what changed; an arena of revision %d verifies it)",
			r.name(), ErrRules, r.Header.Game, r.Header.Rules, g.Info().Rules, r.Header.Game, r.Header.Rules)
	}
	return verify(r)
}

func verify(r *Replay) error {
	if len(r.Header.Seats) == 0 {
		return fmt.Errorf("%s: line 1: header has no seats", r.name())
	}
	s, err := newSim(r)
	if err != nil {
		return err
	}
	moves := 0
	for i := range r.Events {
		if e := r.Events[i]; e.Ply() != moves {
			return fmt.Errorf("%s: line %d: %s line has ply %d, want %d", r.name(), i+2, e.Type(), e.Ply(), moves)
		}
		a, err := s.step(i)
		if err != nil {
			return err
		}
		if a != nil {
			moves++
		}
	}
	res := &r.Result
	line := r.resultLine()
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: line %d (result): %s", r.name(), line, fmt.Sprintf(format, args...))
	}
	if res.Plies != moves {
		return bad("result says %d plies, the replay has %d moves", res.Plies, moves)
	}
	want, exact, err := s.outcome()
	if err != nil {
		return err
	}
	if !slices.Equal(res.Ranks, want.Ranks) {
		return bad("ranks %v recorded, the replay gives %v", res.Ranks, want.Ranks)
	}
	if !slices.Equal(res.Scores, want.Scores) {
		return bad("scores %v recorded, the replay gives %v", res.Scores, want.Scores)
	}
	// A reason worded as an earlier arena worded it is the same outcome.
	if exact && res.Reason != want.Reason && !slices.Contains(want.Formerly, res.Reason) {
		return bad("reason %q recorded, the replay gives %q", res.Reason, want.Reason)
	}
	// The result's forfeit list must name exactly the forfeited seats,
	// with the reasons of the forfeit lines.
	var forfeits []SeatForfeit
	for _, e := range r.Events {
		if f := e.Forfeit; f != nil {
			forfeits = append(forfeits, seatForfeit(*f))
		}
	}
	key := func(f SeatForfeit) string { return fmt.Sprintf("seat %d %s", f.Seat, f.Reason) }
	got := make([]string, len(res.Forfeits))
	for i, f := range res.Forfeits {
		got[i] = key(f)
	}
	wantF := make([]string, len(forfeits))
	for i, f := range forfeits {
		wantF[i] = key(f)
	}
	slices.Sort(got)
	slices.Sort(wantF)
	if !slices.Equal(got, wantF) {
		return bad("forfeits %v recorded, the forfeit lines give %v", got, wantF)
	}
	return nil
}

// reasonList names the valid reasons, for a message.
func reasonList() string {
	names := make([]string, len(protocol.Reasons))
	for i, r := range protocol.Reasons {
		names[i] = string(r)
	}
	return strings.Join(names, ", ")
}
