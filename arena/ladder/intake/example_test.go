package intake_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
)

// ExampleWithdraw: a request to withdraw a bot waits in the ladder's
// incoming directory until the run takes it in (Process, which a
// running ladder calls through Take), as a submission does.
func ExampleWithdraw() {
	tmp, _ := os.MkdirTemp("", "ladder")
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "ladder.yaml")
	os.WriteFile(file, []byte("name: cup\ngame: uno\nseats: 2\nbots:\n  - name: random\n    command: /bin/cat\n"), 0o644)
	dir := filepath.Join(tmp, "cup")
	if _, err := ladder.Init(dir, file); err != nil {
		fmt.Println(err)
		return
	}

	id, err := intake.Withdraw(dir, "random", "end of the season")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, _ := intake.Status(dir, id)
	fmt.Println(rep.Verdict)

	l, err := ladder.Open(dir) // the run's side
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	intake.Process(context.Background(), l, intake.Options{Withdrawn: func(e ladder.Event) { fmt.Println("the run retires", e.Bot) }})
	rep, _ = intake.Status(dir, id)
	fmt.Println(rep.Verdict+":", rep.Text)
	// Output:
	// waiting
	// the run retires random
	// withdrawn: end of the season
}
