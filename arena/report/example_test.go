package report_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/report"
)

// Write reads a results directory (here a match's, its ledger written by
// hand) and writes its report beside it; with Options.WriteViewer each
// game would also get a viewer page under viewer/.
func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "match")
	defer os.RemoveAll(dir)
	w, _ := ledger.Open(filepath.Join(dir, ledger.FileName))
	w.Append(ledger.Record{Index: 0, GameID: "m-g0000", Bots: []string{"alice", "bob"}, Ranks: []int{1, 2}, Reason: "checkmate"})
	w.Append(ledger.Record{Index: 1, GameID: "m-g0001", Bots: []string{"bob", "alice"}, Ranks: []int{1, 1}, Reason: "draw"})
	w.Close()

	r, err := report.Write(dir, "", report.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Kind, len(r.Records), "games")
	for _, row := range r.Standings.Standings {
		fmt.Printf("%d %s %.1f\n", row.Rank, row.Name, row.Score)
	}
	_, err = os.Stat(filepath.Join(dir, report.DefaultName))
	fmt.Println("report written:", err == nil)
	// Output:
	// match 2 games
	// 1 alice 1.5
	// 2 bob 0.5
	// report written: true
}
