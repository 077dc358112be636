package match_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/protocol"
)

// TestParseCommandRefusesUnknownBundledBots: "arena bot NAME" must name a
// bundled bot, else the error wraps bots.ErrUnknown and lists them, and
// nothing may follow the name (stdio.ErrBundledBot); every bundled bot is
// accepted.
func TestParseCommandRefusesUnknownBundledBots(t *testing.T) {
	t.Parallel()
	list := strings.Join(bots.Names(), ", ")
	cases := []struct {
		cmd  string
		is   error  // what the error wraps; nil for no error
		want string // in the error
	}{
		{"arena bot rnd", bots.ErrUnknown, `unknown bot "rnd" (bundled bots: ` + list + ")"},
		{"arena bot", stdio.ErrBundledBot, `"arena bot" names none (bundled bots: ` + list + ")"},
		{"arena bot random --x a,b", stdio.ErrBundledBot, `"arena bot random --x a,b" has "--x a,b" after it`},
		{"arena games", nil, ""}, // not a bot, but not a bundled bot's name either: nothing to check
	}
	for _, n := range bots.Names() {
		cases = append(cases, struct {
			cmd  string
			is   error
			want string
		}{"arena bot " + n, nil, ""})
	}
	for _, tc := range cases {
		argv, err := stdio.ParseCommand(tc.cmd, "")
		switch {
		case tc.is == nil && err != nil:
			t.Errorf("%q: %v", tc.cmd, err)
		case tc.is == nil && len(argv) != len(strings.Fields(tc.cmd)):
			t.Errorf("%q: argv %q", tc.cmd, argv)
		case tc.is != nil && (!errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: error %v, want one wrapping %q with %q", tc.cmd, err, tc.is, tc.want)
		}
	}
}

// TestSummaryCountsStrikes: each strike of a game record counts for the
// bot in its seat, and Strikes sums them.
func TestSummaryCountsStrikes(t *testing.T) {
	t.Parallel()
	s := match.NewSummary([]string{"a", "b"})
	s.Add(ledger.Record{Bots: []string{"a", "b"}, Ranks: []int{1, 2},
		Strikes: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: "timeout"}, Bot: "b"}, {Failure: protocol.Failure{Seat: 1, Reason: "illegal_action"}, Bot: "b"}}})
	s.Add(ledger.Record{Bots: []string{"b", "a"}, Ranks: []int{1, 2},
		Strikes: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: "timeout"}, Bot: "a"}}})
	if a, b := s.Bots[0].Strikes, s.Bots[1].Strikes; a != 1 || b != 2 || s.Strikes() != 3 {
		t.Fatalf("strikes a %d, b %d, total %d; want 1, 2, 3", a, b, s.Strikes())
	}
}

// TestStartupHint: a startup failure carries the flush hint, others none.
func TestStartupHint(t *testing.T) {
	t.Parallel()
	if h := (ledger.SeatFailure{Failure: protocol.Failure{Reason: "startup"}}).Hint(); !strings.Contains(h, "flush stdout") {
		t.Errorf("startup hint %q", h)
	}
	if h := (ledger.SeatFailure{Failure: protocol.Failure{Reason: "crash"}}).Hint(); h != "" {
		t.Errorf("crash hint %q", h)
	}
}
