// Package all registers every game of the arena with the engine registry.
// Import it for its side effect where all games must be known (the arena
// binary, replay verification in tests).
package all

import (
	_ "github.com/arena-dev/arena/engine/banqi" // Banqi (Chinese dark chess)
	_ "github.com/arena-dev/arena/engine/boon"  // Boon (trick-taking, 3-5 seats)
	_ "github.com/arena-dev/arena/engine/uno"   // Uno (2-10 seats) and Bounce (2-8 seats)
)
