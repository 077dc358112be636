package viewer_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/arena-dev/arena/replays/viewer"
)

// TestOneSeatPageDropsOtherSeatsFailureDetails: a strike's or forfeit's
// detail quotes what the bot sent, which can name a card it holds; a page
// for one seat keeps the detail of that seat's failures only (the reason
// stays: forfeits are public), a page of every view keeps all.
func TestOneSeatPageDropsOtherSeatsFailureDetails(t *testing.T) {
	r := play(t, game{name: "uno", seats: 3, seed: 11, strikeAt: map[int]bool{1: true, 2: true}, forfeitAt: map[int][]int{9: {2}}})
	marks := map[string]int{} // detail -> seat
	for i, e := range r.Events {
		switch {
		case e.Strike != nil:
			e.Strike.Detail = fmt.Sprintf(`STRIKE-%d-SEAT-%d {"type":"play","card":"R7"} is not a legal action`, i, e.Strike.Seat)
			marks[e.Strike.Detail] = e.Strike.Seat
		case e.Forfeit != nil:
			e.Forfeit.Detail = fmt.Sprintf("FORFEIT-%d-SEAT-%d", i, e.Forfeit.Seat)
			marks[e.Forfeit.Detail] = e.Forfeit.Seat
		}
	}
	seats := map[int]bool{}
	for _, s := range marks {
		seats[s] = true
	}
	if len(marks) < 3 || len(seats) < 2 {
		t.Fatalf("the test game has %d failures of %d seats, want at least 3 of 2", len(marks), len(seats))
	}
	pageOf := func(opts viewer.Options) string {
		var b bytes.Buffer
		if err := viewer.WriteHTML(&b, r, opts); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	// The page escapes the detail as JSON and HTML: look for its marker.
	marker := func(detail string) string { return strings.Fields(detail)[0] }
	all := pageOf(viewer.Options{})
	for d := range marks {
		if !strings.Contains(all, marker(d)) {
			t.Errorf("the page of every view lacks %s", marker(d))
		}
	}
	for seat := range 3 {
		one := pageOf(viewer.ForSeat(seat))
		for d, s := range marks {
			if got := strings.Contains(one, marker(d)); got != (s == seat) {
				t.Errorf("seat %d's page: %s present %v, want %v", seat, marker(d), got, s == seat)
			}
		}
	}
}
