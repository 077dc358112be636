package clock_test

import (
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/protocol"
)

const ms = time.Millisecond

// step is one move on a clock: the allowance expected before it, then the
// think time charged and whether it must count as on time.
type step struct {
	move, bank time.Duration // expected Allowance before the move
	think      time.Duration
	onTime     bool
}

func TestClock(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		limits clock.Limits
		steps  []step
	}{
		{
			name:   "per-move only",
			limits: clock.Limits{Move: 100 * ms, Margin: 20 * ms},
			steps: []step{
				{move: 100 * ms, think: 50 * ms, onTime: true},
				{move: 100 * ms, think: 100 * ms, onTime: true},
				{move: 100 * ms, think: 120 * ms, onTime: true}, // inside the margin
				{move: 100 * ms, think: 121 * ms, onTime: false},
				{move: 100 * ms, think: time.Second, onTime: false},
				{move: 100 * ms, think: 0, onTime: true}, // nothing carries over
			},
		},
		{
			name:   "fischer bank decreases and gains the increment",
			limits: clock.Limits{Base: time.Second, Inc: 100 * ms},
			steps: []step{
				{move: time.Second, bank: time.Second, think: 300 * ms, onTime: true},
				{move: 800 * ms, bank: 800 * ms, think: 0, onTime: true},
				{move: 900 * ms, bank: 900 * ms, think: 900 * ms, onTime: true},
				{move: 100 * ms, bank: 100 * ms, think: 150 * ms, onTime: false},
				// An overrun empties the bank, it does not go negative.
				{move: 100 * ms, bank: 100 * ms, think: 100 * ms, onTime: true},
				{move: 100 * ms, bank: 100 * ms},
			},
		},
		{
			name:   "move limit capped by the bank",
			limits: clock.Limits{Move: 500 * ms, Base: time.Second, Margin: 10 * ms},
			steps: []step{
				{move: 500 * ms, bank: time.Second, think: 400 * ms, onTime: true},
				{move: 500 * ms, bank: 600 * ms, think: 200 * ms, onTime: true},
				{move: 400 * ms, bank: 400 * ms, think: 405 * ms, onTime: true}, // margin
				{move: 0, bank: 0, think: 10 * ms, onTime: true},
				{move: 0, bank: 0, think: 11 * ms, onTime: false},
			},
		},
		{
			name:   "per-move limit larger than the bank is ignored until the bank runs low",
			limits: clock.Limits{Move: 2 * time.Second, Base: 3 * time.Second, Inc: 0},
			steps: []step{
				{move: 2 * time.Second, bank: 3 * time.Second, think: 2 * time.Second, onTime: true},
				{move: time.Second, bank: time.Second, think: 1500 * ms, onTime: false},
				{move: 0, bank: 0},
			},
		},
		{
			name:   "fischer margin counts as on time",
			limits: clock.Limits{Base: time.Second, Inc: 50 * ms, Margin: 50 * ms},
			steps: []step{
				{move: time.Second, bank: time.Second, think: 1050 * ms, onTime: true},
				{move: 50 * ms, bank: 50 * ms, think: 101 * ms, onTime: false},
				{move: 50 * ms, bank: 50 * ms},
			},
		},
		{
			name:   "no limit",
			limits: clock.Limits{},
			steps: []step{
				{move: clock.Unlimited, think: time.Hour, onTime: true},
				{move: clock.Unlimited, think: 25 * time.Hour, onTime: false},
				{move: clock.Unlimited},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := clock.New(tc.limits)
			start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
			for i, s := range tc.steps {
				move, bank := c.Allowance()
				if move != s.move || bank != s.bank {
					t.Fatalf("step %d: allowance (%v, %v), want (%v, %v)", i, move, bank, s.move, s.bank)
				}
				if got, want := c.Deadline(start), start.Add(s.move+tc.limits.Margin); !got.Equal(want) {
					t.Fatalf("step %d: deadline %v, want %v", i, got.Sub(start), want.Sub(start))
				}
				if i == len(tc.steps)-1 {
					break // the last step only checks the allowance
				}
				if got := c.Charge(s.think); got != s.onTime {
					t.Fatalf("step %d: Charge(%v) = %v, want %v", i, s.think, got, s.onTime)
				}
			}
		})
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	l := clock.Limits{Startup: 10 * time.Second, Move: 1500 * ms, Base: time.Minute, Inc: 500 * ms, Margin: 50 * ms}
	if got, want := l.Protocol(), (protocol.Clock{StartupMs: 10000, MoveMs: 1500, BaseMs: 60000, IncMs: 500, MarginMs: 50}); got != want {
		t.Errorf("Protocol() = %+v, want %+v", got, want)
	}
	if got := l.String(); got != "move 1.5s, tc 1m0s+500ms" {
		t.Errorf("String() = %q", got)
	}
	if got := (clock.Limits{}).String(); got != "no move limit" {
		t.Errorf("String() = %q", got)
	}
	for _, tc := range []struct {
		l  clock.Limits
		ok bool
	}{
		{clock.Defaults, true},
		{clock.Limits{}, true},
		{clock.Limits{Base: time.Second, Inc: time.Second}, true},
		{clock.Limits{Inc: time.Second}, false},
		{clock.Limits{Move: -1}, false},
		{clock.Limits{Margin: -1}, false},
		{clock.Limits{Startup: -1}, false},
		{clock.Limits{Base: time.Second, Inc: -1}, false},
	} {
		if err := tc.l.Validate(); (err == nil) != tc.ok {
			t.Errorf("Validate(%+v) = %v, want ok=%v", tc.l, err, tc.ok)
		}
	}
}

func TestParseTC(t *testing.T) {
	t.Parallel()
	good := []struct {
		in        string
		base, inc time.Duration
	}{
		{"60", time.Minute, 0},
		{"60+0.5", time.Minute, 500 * ms},
		{"60s+0.5s", time.Minute, 500 * ms},
		{"2m+1s", 2 * time.Minute, time.Second},
		{"1m30s+2s", 90 * time.Second, 2 * time.Second},
		{"0.5", 500 * ms, 0},
		{"300ms+0", 300 * ms, 0},
		{" 60 + 1 ", time.Minute, time.Second},
		{"5.", 5 * time.Second, 0},
	}
	for _, tc := range good {
		base, inc, err := clock.ParseTC(tc.in)
		if err != nil || base != tc.base || inc != tc.inc {
			t.Errorf("ParseTC(%q) = %v, %v, %v; want %v, %v", tc.in, base, inc, err, tc.base, tc.inc)
		}
	}
	bad := []string{
		"", "+", "abc", "60+", "+1s", "60s+x", "0", "0s+1s", "-5", "-1s", "1e3", "60 s", "1_000", ".",
		"99999999999999999999",
		// Malformed numbers must not be read as their valid prefix.
		"1.2.3", "1..5",
		// A negative increment is not a time control.
		"60s+-1s", "60+-1",
	}
	for _, in := range bad {
		if base, inc, err := clock.ParseTC(in); err == nil {
			t.Errorf("ParseTC(%q) = %v, %v, nil; want an error", in, base, inc)
		}
	}
}

// Forgiven: the wait for a CPU, less throttling, never more than the wall
// time less the CPU used, never below zero or above the wall time.
func TestForgiven(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name                         string
		wall, ran, waited, throttled time.Duration
		rate                         float64
		want                         time.Duration
	}{
		{"quiet machine", 100 * ms, 90 * ms, 0, 0, 0, 0},
		{"loaded machine", 280 * ms, 40 * ms, 240 * ms, 0, 0, 240 * ms},
		{"sleeper", 300 * ms, 0, 2 * ms, 0, 0, 2 * ms},
		{"threads waiting while computing", 100 * ms, 180 * ms, 100 * ms, 0, 0, 0},
		{"bounded by the CPU used", 100 * ms, 60 * ms, 90 * ms, 0, 0, 40 * ms},
		{"own rate limit", 500 * ms, 100 * ms, 400 * ms, 400 * ms, 0, 0},
		{"throttled over CPUs, more than the wall", 500 * ms, 100 * ms, 450 * ms, 900 * ms, 0, 0},
		{"a reading that went backwards", 100 * ms, -50 * ms, 300 * ms, 0, 0, 100 * ms},
		{"negative wait", 100 * ms, 0, -5 * ms, 0, 0, 0},
		{"rate limit, its whole rate, throttling undercounted", 600 * ms, 120 * ms, 500 * ms, 240 * ms, 0.2, 0},
		{"rate limit, half its rate", 600 * ms, 60 * ms, 540 * ms, 100 * ms, 0.2, 300 * ms},
		{"rate limit of two CPUs, all of it", 100 * ms, 200 * ms, 50 * ms, 0, 2, 0},
		{"rate limit, a sleeper", 300 * ms, 0, 2 * ms, 0, 0.5, 2 * ms},
	} {
		if got := clock.Forgiven(tc.wall, tc.ran, tc.waited, tc.throttled, tc.rate); got != tc.want {
			t.Errorf("%s: Forgiven(%v, %v, %v, %v, %v) = %v, want %v", tc.name, tc.wall, tc.ran, tc.waited, tc.throttled, tc.rate, got, tc.want)
		}
	}
}

func TestWallCap(t *testing.T) {
	l := clock.Limits{Margin: 50 * time.Millisecond}
	for _, tc := range []struct{ move, want time.Duration }{
		{100 * time.Millisecond, 150*time.Millisecond + time.Second},
		{2 * time.Second, 2 * 2050 * time.Millisecond},
	} {
		if got := l.WallCap(tc.move); got != tc.want {
			t.Errorf("WallCap(%v) = %v, want %v", tc.move, got, tc.want)
		}
	}
}
