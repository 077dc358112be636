package run

import (
	"os"
	"runtime/debug"
)

// GCPercent is the garbage collector's target for a referee process
// (debug.SetGCPercent): the heap may grow half its live size between
// collections, not the Go default of all of it. A referee's live heap is
// small (some 70 KiB a game: its sessions, replays being recorded, the
// zstd encoders) and nearly all it allocates is one move's JSON, so the
// default doubled its resident memory for nothing. In the 256-game soak
// (BenchmarkSoak) 50 took the peak from 69 to 57 MiB at the same games
// per second.
const GCPercent = 50

// TuneGC sets a referee process's collector to GCPercent, unless GOGC in
// its environment says otherwise. Call it once, at the start of a program
// that referees games (cmd/arena does, but for bundled bots).
func TuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(GCPercent)
	}
}
