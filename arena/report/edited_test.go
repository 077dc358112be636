package report_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/report"
)

// TestEditedMatchLineIsSaid: a match's ledger line edited after it was
// written (another winner, its checksum left as it was) is read as it
// is now, and the report's warnings name the line and the game.
func TestEditedMatchLineIsSaid(t *testing.T) {
	dir := t.TempDir()
	writeLedger(t, dir, []ledger.Record{
		{Index: 0, GameID: "m-g0000", Bots: []string{"alice", "bob"}, Ranks: []int{1, 2}, Reason: "checkmate"},
		{Index: 1, GameID: "m-g0001", Bots: []string{"bob", "alice"}, Ranks: []int{2, 1}, Reason: "checkmate"},
	})
	path := filepath.Join(dir, ledger.FileName)
	for _, tc := range []struct {
		name   string
		edited bool
	}{{"as written", false}, {"ranks edited", true}} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.edited {
				data, _ := os.ReadFile(path)
				os.WriteFile(path, []byte(strings.Replace(string(data), `"ranks":[2,1]`, `"ranks":[1,2]`, 1)), 0o644)
			}
			r, err := report.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			said := strings.Contains(strings.Join(r.Warnings, "\n"), path+": line 2: game m-g0001: edited after the arena wrote it")
			if said != tc.edited {
				t.Fatalf("warnings %q; want the edit of line 2 said: %v", r.Warnings, tc.edited)
			}
		})
	}
}
