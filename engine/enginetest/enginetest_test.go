package enginetest_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
)

// pollState is a three-seat toy game of rounds: seat 0 plays, then seat 1
// is polled if it holds the hidden card, then seat 2 plays. leak says how
// a broken engine gives the card away.
type pollState struct {
	holds bool
	leak  string // "": nothing; "count": the views count every decision; "ask": seat 2 is asked twice when seat 1 holds
	round int
	step  int // 0: seat 0, 1: seat 1's poll, 2: seat 2, 3: seat 2's extra question
	asked int // decisions so far, all seats
}

type act string

func (a act) String() string { return string(a) }

func (a act) MarshalJSON() ([]byte, error) { return json.Marshal(map[string]string{"type": string(a)}) }

func (s *pollState) ToMove() int { return min(s.step, 2) }

func (s *pollState) Legal() []engine.Action {
	switch s.step {
	case 1:
		return []engine.Action{act("jump"), act("pass")}
	case 3:
		return []engine.Action{act("ok")}
	}
	return []engine.Action{act("a"), act("b")}
}

func (s *pollState) Apply(a engine.Action) error {
	if !slices.Contains(s.Legal(), a) {
		return fmt.Errorf("%v is not legal", a)
	}
	s.asked++
	switch {
	case s.step == 0 && s.holds:
		s.step = 1
	case s.step == 0 || s.step == 1:
		s.step = 2
	case s.step == 2 && s.leak == "ask" && s.holds:
		s.step = 3
	default:
		s.step, s.round = 0, s.round+1
	}
	return nil
}

func (s *pollState) View(seat int) any {
	v := map[string]any{"round": s.round, "to_move": s.ToMove()}
	if s.leak == "count" {
		v["decisions"] = s.asked
	}
	if seat == 1 {
		v["holds"] = s.holds
	}
	return v
}

func (s *pollState) Over() bool { return s.round == 4 }

func (s *pollState) Outcome() engine.Outcome {
	return engine.Outcome{Ranks: []int{1, 1, 1}, Scores: []float64{0, 0, 0}, Reason: "done"}
}

var pollTwins = enginetest.Twins{Clone: func(st engine.State) engine.State { c := *st.(*pollState); return &c }}

// failure runs f with a testing.TB whose Fatalf ends f and is recorded.
type failure struct {
	testing.TB
	msg string
}

type stop struct{}

func (f *failure) Helper() {}

func (f *failure) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(stop{})
}

func (f *failure) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }

func catch(t *testing.T, f func(tb testing.TB)) (msg string) {
	fb := &failure{TB: t}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(stop); !ok {
				panic(r)
			}
			msg = fb.msg
		}
	}()
	f(fb)
	return ""
}

// CheckTwins accepts a hidden decision (a poll nobody else can see) and
// fails an engine whose views count it, or that asks the observing seat
// something because of it. Asking seat 2 an extra question is invisible
// to seat 0 (its views do not show it), so only seat 2 can tell.
func TestCheckTwins(t *testing.T) {
	for _, tc := range []struct {
		leak string
		seat int
		want string // in the failure; "" passes
	}{
		{"", 0, ""},
		{"", 2, ""},
		{"count", 0, "no hidden decision reconciles them"},
		{"count", 2, "no hidden decision reconciles them"},
		{"ask", 0, ""},
		{"ask", 2, "hidden information decides who is asked: seat 2 in one twin, seat 0 in the other"},
	} {
		t.Run(fmt.Sprintf("%q/seat%d", tc.leak, tc.seat), func(t *testing.T) {
			var compared int
			msg := catch(t, func(tb testing.TB) {
				a, b := &pollState{holds: true, leak: tc.leak}, &pollState{leak: tc.leak}
				compared = enginetest.CheckTwins(tb, a, b, tc.seat, 0, rand.New(rand.NewPCG(1, 2)), pollTwins)
			})
			switch {
			case tc.want == "" && msg != "":
				t.Fatalf("a hidden decision was taken for a leak: %s", msg)
			case tc.want == "" && compared != 4:
				t.Fatalf("%d of seat %d's 4 decisions compared", compared, tc.seat)
			case tc.want != "" && !strings.Contains(msg, tc.want):
				t.Fatalf("leak %q: failure %q, want one containing %q", tc.leak, msg, tc.want)
			}
		})
	}
}

// Observe is the turn as the referee sends it: the seat's own turn
// number, its view and the legal list in the referee's encoding.
func TestObserve(t *testing.T) {
	o := enginetest.Observe(t, &pollState{round: 2}, 0, 5)
	if o.Turn != 5 || string(o.View) != `{"round":2,"to_move":0}` || string(o.Legal) != `[{"type":"a"},{"type":"b"}]` {
		t.Fatalf("observation %v", o)
	}
}
