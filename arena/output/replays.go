package output

import (
	"fmt"
	"io"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays/pick"
)

// Replays is what arena replay verify and replay html say of each
// replay: a line on W for one done, a FAIL line on Log for one not.
type Replays struct{ W, Log io.Writer }

// Verified says that it verified, with its game, length and result, or
// why it did not (pick.Verify's done).
func (o Replays) Verified(it pick.Item, err error) {
	if !o.failed(it, err) {
		fmt.Fprintf(o.W, "ok   %s (%s, %d plies: %s)\n", it.Name, it.Replay.Header.Game, it.Replay.Result.Plies, engine.NameSeats(it.Replay.Result.Reason, it.Replay.Bots()))
	}
}

// Drawn says that its page was written, with its size, or why it was not
// (viewer.WritePages's done).
func (o Replays) Drawn(it pick.Item, page string, size int64, err error) {
	if !o.failed(it, err) {
		fmt.Fprintf(o.W, "wrote %s (%d KiB)\n", page, (size+1023)/1024)
	}
}

// failed says why it failed, if it did.
func (o Replays) failed(it pick.Item, err error) bool {
	if err != nil {
		fmt.Fprintf(o.Log, "FAIL %s: %v\n", it.Name, err)
	}
	return err != nil
}
