// Package words writes counts, places and lists as people read them, for
// every command's output alike: "1 game", "2 games"; "3rd"; "a, b and
// c"; text wrapped to a terminal's width or cut with "…"; a shell word
// quoted.
package words

import (
	"strconv"
	"strings"
	"unicode/utf8"
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

// Wrap breaks text into lines of at most width characters (runes), at
// spaces; a word longer than a line is cut. Lines after the first begin
// with indent.
func Wrap(text string, width int, indent string) []string {
	var lines []string
	line := ""
	room := width - utf8.RuneCountInString(indent)
	for _, w := range strings.Fields(text) {
		for utf8.RuneCountInString(w) > room {
			cut := string([]rune(w)[:room])
			if line != "" {
				lines = append(lines, line)
			}
			lines = append(lines, lead(lines, indent)+cut)
			line, w = "", strings.TrimPrefix(w, cut)
		}
		switch {
		case line == "":
			line = lead(lines, indent) + w
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = indent + w
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// Clip is s cut to at most n characters (runes), the last one "…" where
// it is cut; "" for n below 1.
func Clip(s string, n int) string {
	if n < 1 {
		return ""
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// lead is the indent of the next line: none for the first.
func lead(lines []string, indent string) string {
	if len(lines) == 0 {
		return ""
	}
	return indent
}

// ShellQuote is s as one shell word: as it is where a shell would take it
// so, else in single quotes.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Capital is s with its first letter a capital: "greedy wins" is
// "Greedy wins".
func Capital(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[size:]
}
