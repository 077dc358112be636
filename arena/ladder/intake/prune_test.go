package intake_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
)

// TestPrune: with max_versions 2, each admission removes the files of
// the versions older than the newest two (the one just replaced stays
// until the next), logged pruned; a directory a kept version shares
// (the same files admitted again) stays; the ledger is not touched.
func TestPrune(t *testing.T) {
	t.Parallel()
	dir := initLadder(t, strings.Replace(ladderFile, "  validation_games: 2\n", "  validation_games: 2\n  max_versions: 2\n", 1))
	ledgerBefore, _ := os.ReadFile(filepath.Join(dir, ledger.FileName))
	steps := []struct {
		content string
		pruned  []int // after this version's admission
	}{
		{"1", nil},
		{"2", nil},
		{"3", []int{1}},
		{"4", []int{1, 2}},
		{"4", []int{1, 2, 3}}, // version 5: version 4's files again
		{"6", []int{1, 2, 3, 4}},
	}
	for i, s := range steps {
		submit(t, dir, "alice", map[string]string{"bot.py": goodBot(t) + "# " + s.content + "\n"}, "python3 bot.py")
		if reps := process(t, dir); len(reps) != 1 || reps[0].Version != i+1 {
			t.Fatalf("version %d: %+v", i+1, reps)
		}
		b := roster(t, dir).Bot("alice")
		for _, v := range b.Versions {
			want := false
			for _, n := range s.pruned {
				want = want || n == v.N
			}
			if v.Pruned != want {
				t.Errorf("after version %d: version %d pruned %v, want %v", i+1, v.N, v.Pruned, want)
			}
			shared := slices.ContainsFunc(b.Versions, func(o ladder.Version) bool { return !o.Pruned && o.Dir == v.Dir })
			_, err := os.Stat(filepath.Join(dir, v.Dir))
			if gone := errors.Is(err, os.ErrNotExist); gone != (want && !shared) {
				t.Errorf("after version %d: version %d's files gone: %v (%v)", i+1, v.N, gone, err)
			}
		}
	}
	b := roster(t, dir).Bot("alice")
	if b.ActiveName() != "alice.v6" {
		t.Errorf("active %s, want alice.v6", b.ActiveName())
	}
	if _, err := os.Stat(filepath.Join(dir, b.Versions[4].Dir)); err != nil || b.Versions[3].Dir != b.Versions[4].Dir {
		t.Errorf("version 5's files (shared with pruned version 4): %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, ledger.FileName)); string(after) != string(ledgerBefore) {
		t.Error("pruning changed the ledger")
	}
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.Roster.Append(ladder.Event{Kind: ladder.Pruned, Bot: "alice", Version: 6}); !errors.Is(err, ladder.ErrRoster) {
		t.Errorf("pruning the active version: %v, want ErrRoster", err)
	}
}
