package uno

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// PlayRandom plays the game the loop in its comment plays, move by move:
// under every rule set of the digests and every seat count, two states
// dealt from the same seed, one driven by that loop and one by
// PlayRandom with a copy of the same PCG, are equal after every action
// (hands, piles, phase, event log, the engine's own PCG; in games to a
// target every 64th action and the last) and draw the same numbers from
// theirs.
func TestPlayRandomMatchesListedLoop(t *testing.T) {
	for name, r := range digestRules() {
		for _, seats := range []int{2, 3, 4, 7, 10} {
			t.Run(fmt.Sprintf("%s/%d", name, seats), func(t *testing.T) {
				// A state is compared after every action of single hands,
				// and every 64th of games to a target (whose growing event
				// log makes each comparison dearer), and at the end.
				games, every := testkit.Pick(3, 12), 1
				if !r.SingleHandGame() {
					games, every = 1, 64
				}
				var buf []Action
				for g := range games {
					seed := uint64(g)*0x9e3779b97f4a7c15 + uint64(seats)
					a, b := NewState(seats, seed, r), NewState(seats, seed, r)
					ra, rb := rand.NewPCG(seed, 3), rand.NewPCG(seed, 3)
					for !a.Over() {
						buf = a.AppendLegal(buf[:0])
						k := 0
						if len(buf) > 1 {
							k = RandIndex(ra, len(buf))
						}
						if err := a.PlayListed(&buf[k]); err != nil {
							t.Fatal(err)
						}
						if err := b.PlayRandom(rb); err != nil {
							t.Fatal(err)
						}
						if a.Ply()%every != 0 && !a.Over() {
							continue
						}
						if !reflect.DeepEqual(a.game, b.game) || *ra != *rb {
							t.Fatalf("game %d ply %d: PlayRandom differs from the loop after %v\n%s\n%s",
								g, a.Ply(), buf[k], a.RenderText(-1), b.RenderText(-1))
						}
					}
					if !b.Over() {
						t.Fatalf("game %d: the loop's game is over, PlayRandom's is not", g)
					}
					if err := b.PlayRandom(rb); err == nil {
						t.Fatal("PlayRandom played on a game that is over")
					}
				}
			})
		}
	}
}
