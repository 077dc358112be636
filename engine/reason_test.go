package engine

import "testing"

func TestNameSeats(t *testing.T) {
	names := []string{"alice", "crash5", "carol", "dave"}
	for _, tc := range []struct {
		reason, want string
	}{
		{"seat 1 reached 248 points after 1 hand", "seat 1 (crash5) reached 248 points after 1 hand"},
		{"seat 1 reached 503 penalty points after 7 hands; seat 3 has the fewest (212)",
			"seat 1 (crash5) reached 503 penalty points after 7 hands; seat 3 (dave) has the fewest (212)"},
		{"round 4: seats 0 and 2 are out of victory cards after round 4; seats 1, 2 and 3 share first with 5 victory cards",
			"round 4: seats 0 (alice) and 2 (carol) are out of victory cards after round 4; seats 1 (crash5), 2 (carol) and 3 (dave) share first with 5 victory cards"},
		// Named already (the referee's forfeit reason): left alone.
		{"crash5 (seat 1) forfeited: crash", "crash5 (seat 1) forfeited: crash"},
		// Not a seat of the game, not a seat mention, no seat at all.
		{"seat 7 went out", "seat 7 went out"},
		{"the seat 2x", "the seat 2x"},
		{"unseat 2", "unseat 2"},
		{"all 16 black pieces captured", "all 16 black pieces captured"},
		{"", ""},
		// A singular "seat" takes one number: the comma ends it.
		{"seat 3 went out after 42 actions, 2 cards left", "seat 3 (dave) went out after 42 actions, 2 cards left"},
		{"seat 0, 1 point", "seat 0 (alice), 1 point"},
	} {
		if got := NameSeats(tc.reason, names); got != tc.want {
			t.Errorf("NameSeats(%q)\n got %q\nwant %q", tc.reason, got, tc.want)
		}
	}
}
