package banqi_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/banqi"
)

// Example plays the opening of a game through the engine contract, as the
// referee does: legal actions and views as JSON, actions parsed from JSON.
func Example() {
	g, _ := engine.Lookup("banqi")
	opts, _ := engine.Setup(g, 2, map[string]string{"no_progress_plies": "60"})
	s, _ := g.New(2, 11, opts)

	legal := s.Legal()
	first, _ := json.Marshal(legal[0])
	fmt.Println(len(legal), "legal actions, first:", string(first))

	for _, raw := range []string{
		`{"type":"flip","square":"b3"}`,
		`{"type":"flip","square":"b4"}`,
		`{"type":"flip","square":"c3"}`,
	} {
		a, err := g.ParseAction(json.RawMessage(raw))
		if err != nil {
			panic(err)
		}
		if err := s.Apply(a); err != nil {
			panic(err)
		}
	}
	for _, a := range s.Legal() {
		if b, _ := json.Marshal(a); string(b[9:13]) != "flip" {
			fmt.Println(a, string(b))
		}
	}
	a, _ := g.ParseAction(json.RawMessage(`{"type":"capture","from":"b4","to":"b3"}`))
	if err := s.Apply(a); err != nil {
		panic(err)
	}
	view, _ := json.Marshal(s.View(s.ToMove()))
	fmt.Println(string(view))
	fmt.Print(s.(engine.TextRenderer).RenderText(engine.Spectator))
	// Output:
	// 32 legal actions, first: {"type":"flip","square":"a8"}
	// b4-b3 {"type":"capture","from":"b4","to":"b3"}
	// c3-b3 {"type":"capture","from":"c3","to":"b3"}
	// {"you":{"seat":0,"colour":"black"},"board":["XXXX","XXXX","XXXX","XXXX","X-XX","XMGX","XXXX","XXXX"],"colours":["black","red"],"to_move":0,"chain":null,"captured":{"red":"","black":"m"},"facedown":{"red":"KGMRRNNCCPPPPP","black":"kggmrrnnccppppp"},"ply":4,"plies_since_progress":0,"repeats":1,"last":"b4-b3","ranks":"taiwan"}
	//     a b c d
	// 8   X X X X   8
	// 7   X X X X   7
	// 6   X X X X   6
	// 5   X X X X   5
	// 4   X - X X   4
	// 3   X M G X   3
	// 2   X X X X   2
	// 1   X X X X   1
	//     a b c d
	// seat 0: black
	// seat 1: red
	// to move: seat 0 (black), ply 4, 0 since flip/capture
	// last: b4-b3
	// captured: red "" black "m"
	// face down: red "KGMRRNNCCPPPPP" black "kggmrrnnccppppp"
}

// ExampleGame_Observer follows one seat's views and samples a state to
// look ahead in: the board the seat saw, with the face-down pieces left
// to the sampled state's own flips.
func ExampleGame_Observer() {
	g, _ := engine.Lookup("banqi")
	s, _ := g.New(2, 4, nil)
	o, _ := g.(engine.Sampler).Observer(1, 2, nil)
	s.Apply(s.Legal()[0]) // seat 0 flips a8
	view, _ := engine.AppendJSON(nil, s.View(1))
	if err := o.Observe(view); err != nil {
		panic(err)
	}
	sample, _ := o.Sample(rand.New(rand.NewPCG(1, 2)))
	again, _ := engine.AppendJSON(nil, sample.View(1))
	fmt.Println(string(again) == string(view), len(sample.Legal()), "legal actions")
	// Output:
	// true 31 legal actions
}
