package engine

import (
	"regexp"
	"strconv"
	"strings"
)

// seatMention is how an engine's Outcome.Reason refers to seats: "seat
// 3", or a list "seats 0, 1 and 3".
var seatMention = regexp.MustCompile(`\bseat (\d+)\b|\bseats (\d+(?:(?:, | and )\d+)*)\b`)

// seatNumber is one number of a mention's list.
var seatNumber = regexp.MustCompile(`\d+`)

// NameSeats is reason (an Outcome.Reason, which an engine words in seats:
// it does not know who sits where) with every seat it mentions named, as
// a reader who knows the bots wants it: "seat 1 reached 248 points" with
// names[1] = "crash5" is "seat 1 (crash5) reached 248 points", and
// "seats 0 and 2 share first" is "seats 0 (alice) and 2 (carol) share
// first". A mention already in parentheses ("crash5 (seat 1) forfeited",
// the referee's own wording) and a seat number names does not cover are
// left alone. Recorded reasons stay the engine's words (replays.Verify
// compares them with the engine's); the report, the viewer and the
// command line show them through this.
func NameSeats(reason string, names []string) string {
	var b strings.Builder
	last := 0
	for _, m := range seatMention.FindAllStringSubmatchIndex(reason, -1) {
		if m[0] > 0 && reason[m[0]-1] == '(' {
			continue
		}
		list := m[2:4] // "seat N"
		if list[0] < 0 {
			list = m[4:6] // "seats N, M and K"
		}
		b.WriteString(reason[last:list[0]])
		numbers := reason[list[0]:list[1]]
		at := 0
		for _, n := range seatNumber.FindAllStringIndex(numbers, -1) {
			b.WriteString(numbers[at:n[1]])
			if seat, err := strconv.Atoi(numbers[n[0]:n[1]]); err == nil && seat < len(names) {
				b.WriteString(" (" + names[seat] + ")")
			}
			at = n[1]
		}
		last = list[1]
	}
	if last == 0 {
		return reason
	}
	b.WriteString(reason[last:])
	return b.String()
}
