package words

import (
	"fmt"
	"testing"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(0, "game", "games"), "0 games"},
		{Count(1, "game", "games"), "1 game"},
		{Count(2, "ply", "plies"), "2 plies"},
		{Ordinal(1), "1st"}, {Ordinal(2), "2nd"}, {Ordinal(3), "3rd"}, {Ordinal(4), "4th"},
		{Ordinal(11), "11th"}, {Ordinal(12), "12th"}, {Ordinal(13), "13th"}, {Ordinal(21), "21st"}, {Ordinal(22), "22nd"}, {Ordinal(23), "23rd"},
		{Ordinal(101), "101st"}, {Ordinal(111), "111th"}, {Ordinal(112), "112th"},
		{ShellQuote("out/cup"), "out/cup"}, {ShellQuote("my cup"), "'my cup'"}, {ShellQuote("it's"), `'it'\''s'`}, {ShellQuote(""), "''"},
		{Clip("crash5", 6), "crash5"}, {Clip("crash5", 5), "cras…"}, {Clip("héllo", 2), "h…"}, {Clip("a", 0), ""},
		{Capital("greedy wins"), "Greedy wins"}, {Capital(""), ""}, {Capital("émile"), "Émile"},
		{List(nil), ""}, {List([]string{"a"}), "a"}, {List([]string{"a", "b"}), "a and b"}, {List([]string{"a", "b", "c"}), "a, b and c"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func ExampleCount() {
	fmt.Println(Count(1, "game", "games"), Count(3, "game", "games"), Ordinal(2), List([]string{"a", "b", "c"}))
	// Output: 1 game 3 games 2nd a, b and c
}

func ExampleWrap() {
	for _, line := range Wrap("the board stays on screen at 80x24", 16, "  ") {
		fmt.Println(line)
	}
	// Output:
	// the board stays
	//   on screen at
	//   80x24
}
