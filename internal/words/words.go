// Package words writes counts, places and lists as people read them, for
// every command's output alike: "1 game", "2 games"; "3rd"; "a, b and
// c".
package words

import (
	"strconv"
	"strings"
)

// Count is n with its unit, singular or plural: "1 game", "68 games".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Ordinal is n as a place: 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st.
func Ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// List joins items as a list in words: "", "a", "a and b", "a, b and c".
func List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
