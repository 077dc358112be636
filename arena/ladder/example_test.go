package ladder_test

import (
	"fmt"
	"os"
	"path/filepath"

	_ "github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ladder"
	_ "github.com/arena-dev/arena/engine/uno"
)

func Example() {
	tmp, _ := os.MkdirTemp("", "ladder")
	defer os.RemoveAll(tmp)
	file := filepath.Join(tmp, "ladder.yaml")
	os.WriteFile(file, []byte(`name: cup
game: uno
seats: 2-4
clock:
  move: 1s
rating:
  beta: 4
matchmaking:
  max_gap: 30
submissions:
  validation_games: 4
bots:
  - name: random
    command: /bin/cat
`), 0o644)

	// Init checks the file (Resolve) and lays out the directory.
	c, err := ladder.Init(filepath.Join(tmp, "cup"), file)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Name, c.Game.Info().Name, c.Seats.Min, c.Seats.Max, c.Rating.Beta, c.Matchmaking.MaxGap, c.Submissions.ValidationGames)

	// Open takes the lock and reads the roster log.
	l, err := ladder.Open(filepath.Join(tmp, "cup"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer l.Close()
	for _, b := range l.Roster.State().Bots {
		fmt.Println(b.ActiveName(), b.Status)
	}
	// Output:
	// cup uno 2 4 4 30 4
	// random.v1 active
}
