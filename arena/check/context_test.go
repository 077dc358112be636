package check

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/arena-dev/arena/protocol"
)

func init() {
	// mute answers hello and never a turn.
	extraModes["mute"] = func() int {
		lr := protocol.NewLineReader(os.Stdin, protocol.DefaultMaxLine)
		for {
			line, err := lr.ReadLine()
			if err != nil {
				return 0
			}
			if t, _ := protocol.PeekType(line); t == protocol.TypeHello {
				fmt.Println(`{"type":"ready"}`)
			}
		}
	}
}

// TestRunContextStops: a session whose context ends while the bot
// thinks (a move limit of an hour) ends then, with ctx's error and no
// report, rather than at the limit.
func TestRunContextStops(t *testing.T) {
	t.Parallel()
	cfg := config(t, "banqi", 2, "mute")
	cfg.Move = time.Hour
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.ProgressEvery = time.Nanosecond
	cfg.Progress = func(p Progress) {
		if p.Stage == StageGame && p.Turn > 0 {
			cancel() // a turn is on its way to the bot
		}
	}
	rep, err := RunContext(ctx, cfg)
	if !errors.Is(err, context.Canceled) || rep != nil {
		t.Fatalf("RunContext: %+v, %v; want no report and context.Canceled", rep, err)
	}
}
