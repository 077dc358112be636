package referee_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/protocol"
)

// scriptConn is a bot inside the test process: it answers hello with
// ready and every turn with the first legal action, echoing the id, and
// keeps every turn it was sent. The id tests need nothing from a real
// process and must see every line exactly as sent.
type scriptConn struct {
	turns []protocol.Turn
	lines [][]byte
	reply []byte
}

func (c *scriptConn) Send(line []byte, _ time.Time) error {
	typ, err := protocol.PeekType(line)
	if err != nil {
		return err
	}
	c.reply = nil
	switch typ {
	case protocol.TypeHello:
		c.reply = []byte(`{"type":"ready"}`)
	case protocol.TypeTurn:
		var t protocol.Turn
		if err := json.Unmarshal(line, &t); err != nil {
			return err
		}
		c.turns = append(c.turns, t)
		c.lines = append(c.lines, bytes.Clone(line))
		c.reply = fmt.Appendf(nil, `{"type":"action","id":%d,"index":0}`, t.ID)
	}
	return nil
}

func (c *scriptConn) Receive(time.Time) ([]byte, error) {
	if c.reply == nil {
		return nil, transport.ErrTimeout
	}
	r := c.reply
	c.reply = nil
	return r, nil
}

func (c *scriptConn) Close() error { return nil }

// ids is the sequence of turn ids the seat was sent.
func (c *scriptConn) ids() []int64 {
	var out []int64
	for _, t := range c.turns {
		out = append(out, t.ID)
	}
	return out
}

// pollGame is a three-seat game whose only hidden information decides
// whether a seat is asked: for an odd seed seat 1 holds a card that lets
// it jump in, and after each of seat 0's turns it is asked (a poll that
// nobody else sees, as in Uno's jump_in). Then seat 2 plays. Seats 0 and
// 2 see the round number only, so the two deals must look the same to
// them, turn ids included.
type pollGame struct{}

type pollAction string

func (a pollAction) String() string { return string(a) }

func (a pollAction) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"type": string(a)})
}

func (pollGame) Info() engine.Info {
	return engine.Info{Name: "polltest", Summary: "test game: a hidden poll", MinSeats: 3, MaxSeats: 3}
}

func (pollGame) New(seats int, seed uint64, _ engine.Options) (engine.State, error) {
	return &pollState{holds: seed%2 == 1}, nil
}

func (pollGame) ParseAction(raw json.RawMessage) (engine.Action, error) {
	var a struct{ Type string }
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	switch a.Type {
	case "play", "pass":
		return pollAction(a.Type), nil
	}
	return nil, errors.New("polltest: unknown action")
}

const pollRounds = 5

type pollState struct {
	holds bool // seat 1's hidden card
	round int
	step  int // 0: seat 0 plays, 1: seat 1 is polled, 2: seat 2 plays
}

func (s *pollState) ToMove() int { return s.step }

func (s *pollState) Legal() []engine.Action {
	if s.step == 1 {
		return []engine.Action{pollAction("pass")}
	}
	return []engine.Action{pollAction("play")}
}

func (s *pollState) Apply(a engine.Action) error {
	if !slices.Contains(s.Legal(), a) {
		return fmt.Errorf("polltest: %v is not legal", a)
	}
	switch s.step {
	case 0:
		s.step = 2
		if s.holds {
			s.step = 1
		}
	case 1:
		s.step = 2
	case 2:
		s.step, s.round = 0, s.round+1
	}
	return nil
}

func (s *pollState) View(seat int) any {
	v := map[string]any{"round": s.round}
	if seat == 1 {
		v["holds"] = s.holds
	}
	return v
}

func (s *pollState) Over() bool { return s.round == pollRounds }

func (s *pollState) Outcome() engine.Outcome {
	return engine.Outcome{Ranks: []int{1, 1, 1}, Scores: []float64{0, 0, 0}, Reason: "rounds played"}
}

// playScripted plays one game of g between scriptConns.
func playScripted(t *testing.T, g engine.Game, seats int, seed uint64, given map[string]string) ([]*scriptConn, *referee.Result) {
	t.Helper()
	opts, err := engine.Setup(g, seats, given)
	if err != nil {
		t.Fatal(err)
	}
	conns := make([]*scriptConn, seats)
	players := make([]referee.Player, seats)
	for i := range conns {
		conns[i] = &scriptConn{}
		players[i] = referee.Player{Name: "s" + strconv.Itoa(i), Conn: conns[i]}
	}
	res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: seed, Match: "m", GameID: "m-g0000",
		Limits: clock.Limits{Startup: time.Second, Move: time.Second}}, players)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Forfeits) > 0 || len(res.Strikes) > 0 {
		t.Fatalf("scripted bots failed: %+v %+v", res.Forfeits, res.Strikes)
	}
	return conns, res
}

// wantOwnCount checks that a seat's turn ids are 1, 2, 3, ... and that it
// answered as many turns as the referee recorded moves for it.
func wantOwnCount(t *testing.T, c *scriptConn, seat int, res *referee.Result) {
	t.Helper()
	for k, id := range c.ids() {
		if id != int64(k+1) {
			t.Fatalf("seat %d: turn %d has id %d; ids %v (want 1, 2, 3, ...: its own turns only)", seat, k+1, id, c.ids())
		}
	}
	if len(c.turns) != len(res.Think[seat]) {
		t.Fatalf("seat %d was sent %d turns and made %d moves", seat, len(c.turns), len(res.Think[seat]))
	}
}

// A turn id counts only its own seat's turns, so it says nothing about
// how often the others were asked: two deals that differ only in whether
// seat 1 is secretly polled send seats 0 and 2 the very same turn lines
// (ids included), and seat 1 its own 1, 2, 3, ....
func TestTurnIDsPerSeat(t *testing.T) {
	polled, _ := playScripted(t, pollGame{}, 3, 1, nil)
	quiet, res := playScripted(t, pollGame{}, 3, 2, nil)
	if len(polled[1].turns) != pollRounds || len(quiet[1].turns) != 0 {
		t.Fatalf("seat 1 was polled %d and %d times, want %d and 0", len(polled[1].turns), len(quiet[1].turns), pollRounds)
	}
	for _, seat := range []int{0, 2} {
		if !slices.EqualFunc(polled[seat].lines, quiet[seat].lines, bytes.Equal) {
			t.Errorf("seat %d can tell whether seat 1 was polled: ids %v / %v", seat, polled[seat].ids(), quiet[seat].ids())
		}
		wantOwnCount(t, quiet[seat], seat, res)
	}
	wantOwnCount(t, polled[1], 1, &referee.Result{Think: [][]time.Duration{nil, make([]time.Duration, pollRounds)}})
}

// Real Uno games with every house rule that asks hidden questions (jump-in
// polls, stacking, deflecting, the catch window): every seat's ids run 1,
// 2, 3, ... over its own turns.
func TestTurnIDsPerSeatUno(t *testing.T) {
	kinds := map[string]int{}
	for _, seats := range []int{2, 3, 5} {
		for seed := range uint64(8) {
			t.Run(fmt.Sprintf("%d seats/seed %d", seats, seed), func(t *testing.T) {
				conns, res := playScripted(t, uno.Uno, seats, seed, map[string]string{"target": "0", "jump_in": "true",
					"stack_draws": "true", "reverse_deflects_draw": "true", "uno_call": "catch_window", "max_actions": "3000"})
				for seat, c := range conns {
					wantOwnCount(t, c, seat, res)
					for _, turn := range c.turns {
						var v uno.View
						if err := json.Unmarshal(turn.View, &v); err != nil {
							t.Fatal(err)
						}
						kinds[v.Decision.Kind]++
					}
				}
			})
		}
	}
	// The games must have asked the hidden questions the ids could count.
	if kinds["jump"] == 0 || kinds["pending"] == 0 {
		t.Errorf("decisions asked %v: no jump-in poll or no pending draw", kinds)
	}
	t.Logf("decisions asked: %v", kinds)
}
