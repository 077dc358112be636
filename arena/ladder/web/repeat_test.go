package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/web"
)

// TestRepeatedLine: a ledger line copied by hand (a game of a table
// shown whole already) is not counted, and does not hold back the games
// after it (it would be a table that never ends); the page says so.
func TestRepeatedLine(t *testing.T) {
	dir := newLadder(t, "2", []string{"a", "b", "c"}, 8)
	lines, recs := ledgerLines(t, dir)
	whole := len(recs) - len(recs)%2 // complete pairs (a 2-seat ladder)
	lines, recs = lines[:whole], recs[:whole]
	// The first game again, then the games after it as they were.
	writeLines(t, dir, append([][]byte{lines[0], lines[1], lines[0]}, lines[2:]...))
	_, hs := serve(t, dir, web.Options{}) // New reads the files there are
	code, body := get(t, hs, "/games")
	if code != 200 {
		t.Fatalf("/games: %d", code)
	}
	last := recs[len(recs)-1].GameID
	if !strings.Contains(body, last) {
		t.Errorf("/games does not show %s, the last game after the repeated line", last)
	}
	if !strings.Contains(body, "1 lines repeat a game") {
		t.Errorf("/games does not say a line was not counted:\n%s", body)
	}
	if n := strings.Count(body, ">"+recs[0].GameID+"<"); n != 1 {
		t.Errorf("/games shows %s %d times, want once", recs[0].GameID, n)
	}
}

// TestMissingReplay: a game whose replay file was removed is a 404 that
// says so, not a server error.
func TestMissingReplay(t *testing.T) {
	dir := newLadder(t, "2", []string{"a", "b"}, 2)
	_, recs := ledgerLines(t, dir)
	if err := os.RemoveAll(filepath.Join(dir, ladder.ReplaysDir)); err != nil {
		t.Fatal(err)
	}
	_, hs := serve(t, dir, web.Options{})
	code, body := get(t, hs, "/game/"+recs[0].GameID)
	if code != 404 || !strings.Contains(body, "not in the ladder's replays/") || strings.Contains(body, dir) {
		t.Errorf("/game/%s with its replay removed: %d %q; want 404 saying so, without the directory's path", recs[0].GameID, code, body)
	}
}
