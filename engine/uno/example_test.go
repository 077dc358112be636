package uno_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/uno"
)

// Example plays the first actions of a 3-seat game through the engine
// contract, as the referee does: legal actions and views as JSON, actions
// parsed from JSON.
func Example() {
	g, _ := engine.Lookup("uno")
	opts, _ := engine.Setup(g, 3, map[string]string{"target": "0"})
	s, _ := g.New(3, 42, opts)
	for range 3 {
		var legal []string
		for _, a := range s.Legal() {
			b, _ := json.Marshal(a)
			legal = append(legal, string(b))
		}
		fmt.Printf("seat %d: %v\n", s.ToMove(), legal)
		a, err := g.ParseAction(json.RawMessage(legal[0]))
		if err != nil {
			panic(err)
		}
		if err := s.Apply(a); err != nil {
			panic(err)
		}
	}
	view, _ := json.Marshal(s.View(s.ToMove()))
	fmt.Println(string(view))
	fmt.Print(s.(engine.TextRenderer).RenderText(s.ToMove()))
	// Output:
	// seat 1: [{"type":"play","card":"R5"} {"type":"play","card":"R8"} {"type":"play","card":"G7"} {"type":"draw"}]
	// seat 2: [{"type":"play","card":"R1"} {"type":"play","card":"RS"} {"type":"play","card":"B5"} {"type":"draw"}]
	// seat 0: [{"type":"play","card":"R2"} {"type":"play","card":"R9"} {"type":"play","card":"RR"} {"type":"play","card":"W","colour":"red"} {"type":"play","card":"W","colour":"yellow"} {"type":"play","card":"W","colour":"green"} {"type":"play","card":"W","colour":"blue"} {"type":"play","card":"WD4","colour":"red"} {"type":"play","card":"WD4","colour":"yellow"} {"type":"play","card":"WD4","colour":"green"} {"type":"play","card":"WD4","colour":"blue"} {"type":"draw"}]
	// {"you":1,"hand":["R8","Y1","YR","G7","B3","B8"],"top":"R2","colour":"red","direction":1,"dealer":0,"hand_no":1,"to_move":1,"counts":[6,6,6],"scores":[0,0,0],"finished":[],"draw_pile":86,"discard":["R7","R5","R1","R2"],"events":[{"type":"play","seat":1,"card":"R5"},{"type":"play","seat":2,"card":"R1"},{"type":"play","seat":0,"card":"R2"}],"decision":{"kind":"play"},"hands":[],"actions":3,"over":false,"rules":{"rules":"official","start_card":"official","voluntary_draw":true,"draw_until_playable":false,"wd4_mode":"challenge","uno_call":"autocatch","call":"uno","scoring":"winner_collects","target":0,"stack_draws":false,"seven_zero":false,"reverse_deflects_draw":false,"play_to_last":false,"jump_in":false,"max_actions":100000}}
	// hand 1, dealer seat 0, clockwise
	// top R2  colour red  draw pile 86  discard 4
	//   seat 0:  6 cards, 0 points
	// > seat 1:  6 cards, 0 points  [R8 Y1 YR G7 B3 B8]
	//   seat 2:  6 cards, 0 points
	// to move: seat 1 (play)
}

// ExampleState_PlayListed is a fast random playout in process: the legal
// actions appended into one reused buffer, the one chosen played in place.
func ExampleState_PlayListed() {
	r := uno.DefaultRules()
	r.Target = 0 // one hand
	s := uno.NewState(2, 7, r)
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]uno.Action, 0, 64)
	for !s.Over() {
		buf = s.AppendLegal(buf[:0])
		if err := s.PlayListed(&buf[rng.IntN(len(buf))]); err != nil {
			panic(err)
		}
	}
	fmt.Println("ranks", s.Outcome().Ranks, "after", s.Ply(), "actions")
	// Output:
	// ranks [1 2] after 36 actions
}

// ExampleState_AppendView appends a seat's view as JSON to a buffer the
// caller reuses (engine.ViewAppender), as the referee writes turn lines:
// the bytes of json.Marshal(s.View(seat)).
func ExampleState_AppendView() {
	g, _ := engine.Lookup("uno")
	opts, _ := engine.Setup(g, 2, map[string]string{"target": "0"})
	s, _ := g.New(2, 42, opts)
	line := []byte(`{"view":`)
	line = s.(engine.ViewAppender).AppendView(line, engine.Spectator)
	line = append(line, '}')
	want, _ := json.Marshal(s.View(engine.Spectator))
	fmt.Println(string(line) == `{"view":`+string(want)+`}`)
	fmt.Println(string(line[:60]))
	// Output:
	// true
	// {"view":{"hand":null,"top":"B0","colour":"blue","direction":
}

// ExampleGame_Observer follows one seat's views, as a bot receives them,
// and deals full states consistent with them to look ahead in: each
// shows the seat exactly the view it was sent.
func ExampleGame_Observer() {
	g, _ := engine.Lookup("uno")
	opts, _ := engine.Setup(g, 3, nil)
	s, _ := g.New(3, 42, opts)
	me := s.ToMove()
	obs, _ := g.(engine.Sampler).Observer(me, 3, opts)
	view, _ := json.Marshal(s.View(me))
	if err := obs.Observe(view); err != nil {
		panic(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		det, err := obs.Sample(rng)
		if err != nil {
			panic(err)
		}
		again, _ := json.Marshal(det.View(me))
		fmt.Println(string(again) == string(view), "next seat's first cards:", det.(*uno.State).Hand((me + 1) % 3)[:3])
	}
	// Output:
	// true next seat's first cards: [Y6 YS G2]
	// true next seat's first cards: [R0 R1 YR]
	// true next seat's first cards: [R0 R9 Y7]
}
