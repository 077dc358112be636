package uno_test

import (
	"fmt"
	"strings"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/uno"
)

// ExampleGame_Encoding encodes the first decision of a 4-seat game for a
// learning agent: a fixed-size observation of the seat's view, and the
// ids of its legal actions in the fixed action space.
func ExampleGame_Encoding() {
	opts, _ := engine.Setup(uno.Uno, 4, map[string]string{"target": "0"})
	enc, _ := uno.Uno.Encoding(4, opts)
	s, _ := uno.Uno.New(4, 42, opts)
	obs := make([]float32, enc.ObsSize())
	if err := enc.Encode(s.View(s.ToMove()), obs); err != nil {
		panic(err)
	}
	held := 0
	for _, x := range obs[:uno.NumKinds] { // the hand block
		held += int(x)
	}
	fmt.Printf("obs %d slots, %d actions; %d cards in hand\n", enc.ObsSize(), enc.NumActions(), held)
	var ids []string
	for _, a := range s.Legal() {
		id, _ := enc.ActionID(a)
		ids = append(ids, fmt.Sprintf("%d=%s", id, enc.ActionName(id)))
	}
	fmt.Println(strings.Join(ids, " "))
	// Output:
	// obs 242 slots, 130 actions; 7 cards in hand
	// 17=R8 105=W:red 107=W:yellow 109=W:green 111=W:blue 113=WD4:red 115=WD4:yellow 117=WD4:green 119=WD4:blue 120=draw
}
