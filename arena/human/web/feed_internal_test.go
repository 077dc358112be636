package web

import "testing"

// The feed keeps the current game from its hello, its last keptTurns
// turns, and earlier games' results: a page that has seen a forgotten
// message starts again (whole false) from what is kept.
func TestFeedForgets(t *testing.T) {
	f := newFeed()
	f.publish(kindHello, map[string]string{"type": kindHello})
	f.publish(kindResult, map[string]string{"type": kindResult})
	f.publish(kindHello, map[string]string{"type": kindHello}) // the next game
	for range keptTurns + 10 {
		f.publish(kindTurn, map[string]string{"type": kindTurn})
	}
	for _, tc := range []struct {
		after     int64
		whole     bool
		n         int
		firstKind string
	}{
		{-1, false, 2 + keptTurns, kindResult}, // a new page: everything kept
		{0, false, 2 + keptTurns, kindResult},
		{12, false, 2 + keptTurns, kindResult}, // a turn forgotten since
		{13, true, keptTurns, kindTurn},        // the first turn kept: those after it
		{f.seq - 1, true, 1, kindTurn},
		{f.seq, true, 0, ""},
		{f.seq + 1, false, 2 + keptTurns, kindResult}, // a page of another process
	} {
		msgs, whole, _, done := f.since(tc.after)
		if whole != tc.whole || len(msgs) != tc.n || done || (tc.n > 0 && msgs[0].kind != tc.firstKind) {
			t.Errorf("since(%d): %d messages, whole %v, done %v; want %d, %v", tc.after, len(msgs), whole, done, tc.n, tc.whole)
		}
	}
	f.close()
	if _, _, _, done := f.since(f.seq); !done {
		t.Error("a closed feed is not done")
	}
}
