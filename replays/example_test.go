package replays_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
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

// A pack holds many games' replays, each a zstd frame appended to the
// file; ReadPack finds them by their frame headers, and ReadSpan reads one
// where its ledger line says it lies.
func ExampleReadPack() {
	dir, err := os.MkdirTemp("", "replays-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	var pack []byte
	var spans []replays.Span
	for _, id := range []string{"g-1", "g-2"} {
		rec := replays.NewRecorder(replays.Header{Game: "testnim", Options: map[string]string{"maxtake": "3", "target": "12"},
			Seed: 7, Match: "m-1", GameID: id, Seats: []replays.SeatInfo{{Seat: 0, Bot: "alice"}, {Seat: 1, Bot: "bob"}}})
		rec.Forfeit(protocol.Failure{Ply: 0, Seat: 1, Reason: protocol.ReasonStartup, Detail: "no hello"})
		rec.Finish(replays.ResultOf(engine.ForfeitOutcome([]bool{false, true}, "only one seat left")))
		frame, err := rec.Compressed()
		if err != nil {
			panic(err)
		}
		spans = append(spans, replays.Span{Offset: int64(len(pack)), Size: int64(len(frame))})
		pack = append(pack, frame...)
	}
	path := filepath.Join(dir, replays.PackName(1))
	if err := os.WriteFile(path, pack, 0o644); err != nil {
		panic(err)
	}

	all, err := replays.ReadPack(path)
	if err != nil {
		panic(err)
	}
	for i, p := range all {
		fmt.Println(p.Replay.Header.GameID, *p.At == spans[i], p.Err)
	}
	rp, err := replays.ReadSpan(path, spans[1])
	if err != nil {
		panic(err)
	}
	fmt.Println(filepath.Base(path), rp.Header.GameID, rp.Result.Reason)
	// Output:
	// g-1 true <nil>
	// g-2 true <nil>
	// pack-000001.pack.zst g-2 only one seat left
}

// A bot's note is recorded with its move (the referee calls MoveNote for
// a move that came with one), and read back beside the move.
func ExampleRecorder_MoveNote() {
	game, _ := engine.Lookup("testnim")
	opts, _ := engine.Setup(game, 2, map[string]string{"target": "10"})
	st, err := game.New(2, 1, opts)
	if err != nil {
		panic(err)
	}
	rec := replays.NewRecorder(replays.Header{Game: "testnim", Options: opts, Seed: 1,
		Seats: []replays.SeatInfo{{Seat: 0, Bot: "alice"}, {Seat: 1, Bot: "bob"}}})
	for ply := 0; !st.Over(); ply++ {
		seat, a := st.ToMove(), st.Legal()[len(st.Legal())-1]
		raw, _ := json.Marshal(a)
		if err := st.Apply(a); err != nil {
			panic(err)
		}
		rec.MoveNote(ply, seat, raw, time.Millisecond, 0, protocol.NoteOf(json.RawMessage(`{"why": "take the most"}`)))
	}
	rec.Finish(replays.ResultOf(st.Outcome()))
	data, _ := rec.Compressed()
	rp, err := replays.Read(bytes.NewReader(data))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s\n", rp.Events[0].Move.Note)
	// Output:
	// {"why":"take the most"}
}
