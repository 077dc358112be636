// Command random is the bundled random bot as a standalone program: a
// uniformly random legal action, seeded from hello. Same as `arena bot random`.
package main

import "github.com/arena-dev/arena/bots"

func main() { bots.Main("random") }
