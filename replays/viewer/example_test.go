package viewer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

// A replay's viewer page, written beside it, and the page for the
// contestant in seat 1, which holds nothing seat 1 could not know.
func ExampleWriteFile() {
	dir, _ := os.MkdirTemp("", "viewer-example")
	defer os.RemoveAll(dir)

	// A short Banqi game, recorded as the referee does.
	game, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(game, 2, nil)
	st, _ := game.New(2, 7, opts)
	rec := replays.NewRecorder(replays.Header{Game: "banqi", Options: opts, Seed: 7, GameID: "g-7",
		Seats: []replays.SeatInfo{{Seat: 0, Bot: "alice"}, {Seat: 1, Bot: "bob"}}})
	for ply := 0; !st.Over(); ply++ {
		seat, a := st.ToMove(), st.Legal()[0]
		raw, _ := json.Marshal(a)
		st.Apply(a)
		rec.Move(ply, seat, raw, time.Millisecond, 0, false)
	}
	rec.Finish(replays.ResultOf(st.Outcome()))
	replay := filepath.Join(dir, "g-7"+replays.Ext)
	if err := rec.WriteFile(replay); err != nil {
		panic(err)
	}

	for _, o := range []viewer.Options{{}, viewer.ForSeat(1)} {
		page := filepath.Join(dir, viewer.PageName(replay, o))
		if err := viewer.WriteFile(page, replay, o); err != nil {
			panic(err)
		}
		html, _ := os.ReadFile(page)
		fmt.Println(filepath.Base(page), strings.HasPrefix(string(html), "<!DOCTYPE html>"),
			"seed in it:", bytes.Contains(html, []byte(`"seed":"7"`)))
	}
	// Output:
	// g-7.html true seed in it: true
	// g-7.seat1.html true seed in it: false
}
