package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/internal/words"
)

// TestPlacesText: a game's line lists the bots by finishing place, best
// first, as places people read ("1st", "12th", "22nd"), ties said.
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
		if got := placesText(tc.bots, tc.ranks); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 23: "23rd", 101: "101st", 111: "111th"} {
		if got := words.Ordinal(n); got != want {
			t.Errorf("words.Ordinal(%d) = %q, want %q", n, got, want)
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
	f, err := os.Open(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		var r struct {
			GameID string   `json:"game_id"`
			Bots   []string `json:"bots"`
			Ranks  []int    `json:"ranks"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		line := lines[i]
		want := r.GameID + ": " + placesText(r.Bots, r.Ranks) + ", "
		if strings.Contains(line, "#") || !strings.Contains(line, want) {
			t.Errorf("game %s: the line does not say %q:\n%s", r.GameID, want, line)
		}
	}
}
