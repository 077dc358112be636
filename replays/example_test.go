package replays_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays"
)

// The referee records a game with a Recorder, writes it once the game is
// over, and anyone can read it back and verify it against the engine.
// ("testnim" is a small game registered by this package's tests; the
// referee uses a real game such as "banqi".)
func ExampleRecorder() {
	dir, err := os.MkdirTemp("", "replays-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	game, _ := engine.Lookup("testnim")
	opts, _ := engine.Setup(game, 2, map[string]string{"target": "10"})
	st, _ := game.New(2, 42, opts)

	rec := replays.NewRecorder(replays.Header{
		Arena:   "v1.0.0",
		Game:    "testnim",
		Options: opts,
		Seed:    42,
		Match:   "m-1",
		GameID:  "g-1",
		Seats:   []replays.SeatInfo{{Seat: 0, Bot: "alice"}, {Seat: 1, Bot: "bob"}},
		Started: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC),
	})
	for ply := 0; !st.Over(); ply++ {
		seat := st.ToMove()
		a := st.Legal()[len(st.Legal())-1]
		raw, _ := json.Marshal(a) // what the bot sent, already encoded
		if err := st.Apply(a); err != nil {
			panic(err)
		}
		rec.Move(ply, seat, raw, 2*time.Millisecond, 0, false)
	}
	rec.Finish(replays.ResultOf(st.Outcome()))

	path := filepath.Join(dir, "g-1"+replays.Ext)
	if err := rec.WriteFile(path); err != nil {
		panic(err)
	}

	rp, err := replays.ReadFile(path)
	if err != nil {
		panic(err)
	}
	if err := replays.Verify(rp); err != nil {
		panic(err)
	}
	fmt.Println("plies:", rp.Result.Plies)
	fmt.Println("ranks:", rp.Result.Ranks)
	fmt.Println("reason:", rp.Result.Reason)
	// Output:
	// plies: 4
	// ranks: [2 1]
	// reason: seat 1 reached 10
}

// Walk re-simulates a replay and hands out every position: here, who is
// to move after each move of a short game.
func ExampleWalk() {
	game, _ := engine.Lookup("testnim")
	opts, _ := engine.Setup(game, 2, map[string]string{"target": "6"})
	st, _ := game.New(2, 1, opts)
	rec := replays.NewRecorder(replays.Header{Game: "testnim", Options: opts, Seed: 1,
		Seats: []replays.SeatInfo{{Seat: 0, Bot: "alice"}, {Seat: 1, Bot: "bob"}}})
	for ply := 0; !st.Over(); ply++ {
		seat, a := st.ToMove(), st.Legal()[len(st.Legal())-1]
		raw, _ := json.Marshal(a)
		st.Apply(a)
		rec.Move(ply, seat, raw, time.Millisecond, 0, false)
	}
	rec.Finish(replays.ResultOf(st.Outcome()))
	data, _ := rec.Compressed()
	rp, _ := replays.Read(bytes.NewReader(data))

	err := replays.Walk(rp, func(s replays.Step) error {
		if s.Event < 0 {
			fmt.Println("start: seat", s.State.ToMove(), "to move")
			return nil
		}
		fmt.Printf("%s, over: %v\n", s.Action, s.State.Over())
		return nil
	})
	fmt.Println("error:", err)
	// Output:
	// start: seat 1 to move
	// +3, over: false
	// +3, over: true
	// error: <nil>
}
