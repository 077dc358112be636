package referee_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/arena-dev/arena/arena/judge"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// TestJudgeReply: every way a reply can be wrong has its Problem, the
// reply as Line, the turn's id, and, where there is one, the cause as a
// value; a right reply gives the position of its action in legal.
func TestJudgeReply(t *testing.T) {
	legal := []json.RawMessage{[]byte(`{"type":"flip","square":"a8"}`), []byte(`{"type":"flip","square":"b8"}`)}
	cases := []struct {
		reply   string
		index   int
		reason  protocol.Reason
		problem judge.Problem
		err     func(error) bool // nil: no Err expected
	}{
		{reply: `{"type":"action","id":7,"index":1}`, index: 1},
		{reply: `{"type":"action","id":7,"action":{"square":"a8","type":"flip"}}`, index: 0},
		{reply: "{\"type\":\"action\",\"id\":7,\"x\":\"\xff\"}", reason: protocol.ReasonBadMessage, problem: judge.NotUTF8},
		{reply: "hello world", reason: protocol.ReasonBadMessage, problem: judge.NotJSON, err: isSyntax},
		{reply: `{"type":"action","id":"7","index":0}`, reason: protocol.ReasonBadMessage, problem: judge.NotJSON, err: isTypeError},
		{reply: `{"type":"error","message":"no"}`, reason: protocol.ReasonBadMessage, problem: judge.ErrorSent},
		{reply: `{"type":"flip","square":"a8"}`, reason: protocol.ReasonBadMessage, problem: judge.WrongType},
		{reply: `{"type":"action","index":0}`, reason: protocol.ReasonBadMessage, problem: judge.WrongID},
		{reply: `{"type":"action","id":7}`, reason: protocol.ReasonBadMessage, problem: judge.NoChoice},
		{reply: `{"type":"action","id":7,"index":2}`, reason: protocol.ReasonIllegalAction, problem: judge.IndexOutOfRange},
		{reply: `{"type":"action","id":7,"action":{"type":"teleport"}}`, reason: protocol.ReasonIllegalAction, problem: judge.UnreadableAction, err: isSet},
		{reply: `{"type":"action","id":7,"action":{"type":"flip","square":"c8"}}`, reason: protocol.ReasonIllegalAction, problem: judge.NotLegal},
	}
	for _, c := range cases {
		i, f := referee.JudgeReply(banqi(t), []byte(c.reply), 7, legal)
		if c.problem == "" {
			if f != nil || i != c.index {
				t.Errorf("%s: %d, %+v; want index %d", c.reply, i, f, c.index)
			}
			continue
		}
		if f == nil {
			t.Errorf("%s: accepted as %d, want %s", c.reply, i, c.problem)
			continue
		}
		if f.Reason != c.reason || f.Problem != c.problem || f.Turn != 7 || string(f.Line) != c.reply || f.Detail == "" {
			t.Errorf("%s: %+v; want %s, %s at turn 7 with the reply and a detail", c.reply, f, c.reason, c.problem)
		}
		if (c.err == nil) != (f.Err == nil) || c.err != nil && !c.err(f.Err) {
			t.Errorf("%s: Err %v", c.reply, f.Err)
		}
	}
}

func isSyntax(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se)
}

func isTypeError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te) && te.Field == "id"
}

func isSet(err error) bool { return err != nil }

// TestStrikeIllegalPolicy: under StrikeIllegal an illegal choice is a
// strike and the game goes on; a reply that cannot be read, or none,
// forfeits. Either way the failure says which turn and what was wrong.
func TestStrikeIllegalPolicy(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode    string
		forfeit bool
		reason  protocol.Reason
		problem judge.Problem
		line    bool // the failure carries the reply
		err     error
	}{
		{mode: "index9999", reason: protocol.ReasonIllegalAction, problem: judge.IndexOutOfRange, line: true},
		{mode: "illegal-object", reason: protocol.ReasonIllegalAction, problem: judge.NotLegal, line: true},
		{mode: "garbage", forfeit: true, reason: protocol.ReasonBadMessage, problem: judge.NotJSON, line: true},
		{mode: "no-choice", forfeit: true, reason: protocol.ReasonBadMessage, problem: judge.NoChoice, line: true},
		{mode: "oversize", forfeit: true, reason: protocol.ReasonBadMessage, err: protocol.ErrLineTooLong},
		{mode: "crash", forfeit: true, reason: protocol.ReasonCrash, err: transport.ErrClosed},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			pl := play(t, setup{limits: relaxed, policy: referee.StrikeIllegal, maxStrikes: 1000, maxLine: 1024, maxPlies: 40},
				[2]string{tc.mode, "random"})
			res := pl.res
			fs := res.Strikes
			if tc.forfeit {
				fs = res.Forfeits
			}
			if len(fs) != 1 || len(res.Strikes)+len(res.Forfeits) != 1 {
				t.Fatalf("strikes %+v, forfeits %+v; want one %s", res.Strikes, res.Forfeits, map[bool]string{true: "forfeit", false: "strike"}[tc.forfeit])
			}
			f := fs[0]
			wantTurn := int64(1)
			if tc.mode == "crash" {
				wantTurn = 3
			}
			if f.Seat != 0 || f.Reason != tc.reason || f.Problem != tc.problem || f.Turn != wantTurn || (f.Line != nil) != tc.line {
				t.Errorf("%+v; want seat 0 %s %q at turn %d (line %v)", f, tc.reason, tc.problem, wantTurn, tc.line)
			}
			if tc.err != nil && !errors.Is(f.Err, tc.err) {
				t.Errorf("Err %v, want %v", f.Err, tc.err)
			}
			if !tc.forfeit && res.Plies != 40 {
				t.Errorf("the game stopped at ply %d after a strike, want the max_plies limit 40", res.Plies)
			}
		})
	}
}

// TestConfigHello: the hello a seat is sent names every player and carries the
// game's limits and the seat's seed.
func TestConfigHello(t *testing.T) {
	cfg := referee.Config{Game: banqi(t), Seed: 9, Match: "m", GameID: "g", Limits: relaxed, BotSeeds: []uint64{5}}
	for seat, want := range []uint64{5, seed.Bot(9, 1)} {
		h := cfg.Hello(seat, []string{"a", "b"})
		if h.Type != protocol.TypeHello || h.Protocol != protocol.Version || h.Seat != seat || h.Seats != 2 || h.Seed != want ||
			h.Clock != relaxed.Protocol() || h.Match != "m" || h.GameID != "g" || fmt.Sprint(h.Players) != "[a b]" {
			t.Errorf("seat %d: %+v", seat, h)
		}
	}
}
