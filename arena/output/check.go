package output

import (
	"fmt"
	"io"
	"time"

	"github.com/arena-dev/arena/arena/check"
)

// CheckEvery is how often arena check's progress line reports the turn
// during a game.
const CheckEvery = 5 * time.Second

// Check is arena check's output: its first lines, its progress lines
// and its report, for a person or (JSON) as one JSON object.
type Check struct {
	W    io.Writer // the first lines and the report
	Log  io.Writer // the progress lines
	JSON bool
}

// Start says what the session plays, unless JSON: the game and the
// session's settings.
func (o Check) Start(cfg check.Config) {
	if !o.JSON {
		fmt.Fprintf(o.W, "arena check: %s, %d seats, %d games, seed %d, move %v, startup %v, margin %v\n",
			cfg.Game.Info().Name, cfg.Seats, cfg.Games, cfg.Seed, cfg.Move, cfg.Startup, cfg.Margin)
	}
}

// Elsewhere says, unless JSON, that the bot runs elsewhere, and so what
// is checked where.
func (o Check) Elsewhere(target fmt.Stringer) {
	if !o.JSON {
		fmt.Fprintf(o.W, "arena check: %s runs elsewhere: its lines are checked here, its process (bye's exit status, process-group) where it runs\n", target)
	}
}

// Follow has cfg's session report its progress to Log, a line at the
// start of each game and stage and every CheckEvery during a game.
func (o Check) Follow(cfg *check.Config) {
	cfg.Progress = func(p check.Progress) { fmt.Fprintf(o.Log, "arena check: %s\n", p) }
	cfg.ProgressEvery = CheckEvery
}

// Report writes the report: check.Report.Text, or indented JSON.
func (o Check) Report(rep *check.Report) error {
	if o.JSON {
		return WriteJSON(o.W, rep)
	}
	rep.Text(o.W)
	return nil
}
