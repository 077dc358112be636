package boon_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/boon"
)

// Example plays the start of a 4-seat game through the engine contract, as
// the referee does: legal actions and views as JSON, actions parsed from
// JSON.
func Example() {
	g, _ := engine.Lookup("boon")
	opts, _ := engine.Setup(g, 4, nil)
	s, _ := g.New(4, 42, opts)

	show := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	fmt.Println("seat", s.ToMove(), "decides first:", show(s.Legal()))
	for _, raw := range []string{`{"type":"pass"}`, `{"type":"take"}`} {
		a, err := g.ParseAction(json.RawMessage(raw))
		if err != nil {
			panic(err)
		}
		if err := s.Apply(a); err != nil {
			panic(err)
		}
	}
	picker := s.ToMove()
	fmt.Println("picker", picker, "buries one of:", show(s.Legal()))
	fmt.Println(show(s.View(picker)))
	// Bury the last four legal choices (the highest cards), then play the
	// first legal card of each seat for one trick.
	for range 4 {
		l := s.Legal()
		s.Apply(l[len(l)-1])
	}
	for range 4 {
		s.Apply(s.Legal()[0])
	}
	fmt.Print(s.(engine.TextRenderer).RenderText(picker))
	fmt.Println(show(s.View(engine.Spectator)))
	// Output:
	// seat 0 decides first: [{"type":"take"},{"type":"pass"}]
	// picker 1 buries one of: [{"type":"bury","card":"G2"},{"type":"bury","card":"G4"},{"type":"bury","card":"G5"},{"type":"bury","card":"G6"},{"type":"bury","card":"R2"},{"type":"bury","card":"R4"},{"type":"bury","card":"Au1"},{"type":"bury","card":"Au4"},{"type":"bury","card":"Au10"},{"type":"bury","card":"Au11"},{"type":"bury","card":"Au13"}]
	// {"seat":1,"seats":4,"round":1,"dealer":3,"vc":[5,5,5,5],"phase":"bury","to_move":1,"decision":"bury","mode":"picker","picker":1,"team":"picker","passed":[0],"hand":["G2","G4","G5","G6","R2","R4","Au1","Au4","Au10","Au11","Au13"],"hand_sizes":[7,11,7,7],"boon_size":4,"boon":["G6","Au1","Au4","Au13"],"bury_left":4,"tricks_per_round":7,"trick_no":1,"trick":{"leader":0,"led":"","cards":[],"winner":-1,"points":0},"tricks":[],"trick_points":[0,0,0,0],"tricks_won":[0,0,0,0],"events":[{"type":"take","seat":1}],"last_round":null}
	// boon, 4 seats, round 1, dealer seat 3, mode picker, picker seat 1
	// seat 0 defender: 5 VC, 6 cards, 0 tricks, 0 points
	// seat 1 (you) picker: 5 VC, 6 cards, 0 tricks, 0 points
	// seat 2 defender: 5 VC, 6 cards, 0 tricks, 0 points
	// seat 3 defender: 5 VC, 6 cards, 1 tricks, 0 points
	// hand: G4 G5 G6 R2 R4 Au1
	// boon taken: G6 Au1 Au4 Au13
	// buried: Au4 Au10 Au11 Au13
	// trick 1: led by seat 0: G1 G2 B1 G3, won by seat 3 (0 points)
	// trick 2: led by seat 3: (no card yet)
	// to move: seat 3, play a card
	// {"seat":-1,"seats":4,"round":1,"dealer":3,"vc":[5,5,5,5],"phase":"play","to_move":3,"decision":"wait","mode":"picker","picker":1,"team":"none","passed":[0],"hand":[],"hand_sizes":[6,6,6,6],"boon_size":4,"bury_left":0,"tricks_per_round":7,"trick_no":2,"trick":{"leader":3,"led":"","cards":[],"winner":-1,"points":0},"tricks":[{"leader":0,"led":"G","cards":["G1","G2","B1","G3"],"winner":3,"points":0}],"trick_points":[0,0,0,0],"tricks_won":[0,0,0,1],"events":[{"type":"play","seat":3,"card":"G3"},{"type":"trick","seat":3}],"last_round":null}
}

// ExampleGame_Observer deals full states consistent with a seat's view:
// each shows the seat exactly the view it was sent.
func ExampleGame_Observer() {
	g, _ := engine.Lookup("boon")
	opts, _ := engine.Setup(g, 4, nil)
	s, _ := g.New(4, 42, opts)
	me := s.ToMove()
	obs, _ := g.(engine.Sampler).Observer(me, 4, opts)
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
		fmt.Println(string(again) == string(view))
	}
	// Output:
	// true
	// true
	// true
}
