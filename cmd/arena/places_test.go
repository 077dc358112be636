package main

import (
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/output"
)

// TestPlacesText: a game's line lists the bots by finishing place, best
// first, as places people read ("1st", "12th", "22nd": words.Ordinal),
// ties said.
func TestPlacesText(t *testing.T) {
	cases := []struct {
		name  string
		bots  []string
		ranks []int
		want  string
	}{
		{"two seats", []string{"me", "random"}, []int{2, 1}, "random 1st, me 2nd"},
		{"a draw", []string{"me", "random"}, []int{1, 1}, "me and random tied 1st"},
		{"a tie below", []string{"a", "b", "c", "d"}, []int{3, 1, 3, 2}, "b 1st, d 2nd, a and c tied 3rd"},
		{"nine tied", []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"}, []int{2, 2, 2, 2, 2, 2, 2, 2, 1, 2},
			"s8 1st, s0, s1, s2, s3, s4, s5, s6, s7 and s9 tied 2nd"},
		{"ten seats", []string{"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9"}, []int{10, 9, 8, 7, 6, 5, 4, 3, 2, 1},
			"s9 1st, s8 2nd, s7 3rd, s6 4th, s5 5th, s4 6th, s3 7th, s2 8th, s1 9th, s0 10th"},
	}
	for _, tc := range cases {
		if got := output.PlacesText(tc.bots, tc.ranks); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestMatchProgressSaysPlaces: the progress lines of a real match (not a
// terminal) give each bot's finishing place in words (TestPlacesText), as
// results.jsonl records it, and no "#N".
func TestMatchProgressSaysPlaces(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	_, stderr, code := arena(t, "match", "--game", "uno", "--option", "scoring=single_hand", "--seed", "5", "--out", out,
		"--bot", "me=arena bot greedy", "--bot", "random=arena bot random", "--bot", "random2=arena bot random")
	lines := progressLines(stderr)
	if code != 0 || len(lines) != 3 {
		t.Fatalf("exit %d, %d progress lines, want 3:\n%s", code, len(lines), stderr)
	}
	for i, r := range records(t, out) {
		line := lines[i]
		want := r.GameID + ": " + output.PlacesText(r.Bots, r.Ranks) + ", "
		if strings.Contains(line, "#") || !strings.Contains(line, want) {
			t.Errorf("game %s: the line does not say %q:\n%s", r.GameID, want, line)
		}
	}
}
