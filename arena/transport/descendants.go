package transport

import (
	"fmt"
	"os"
	"sync/atomic"
)

// Without a sandbox's cgroup, a bot's descendants are found (on Linux,
// through /proc) by an environment marker: every process a bot starts
// inherits it, including one that left the process group with setsid. A
// bot that clears the environment of its children escapes this; the
// sandbox's cgroup kill does not depend on it.
const markerVar = "ARENA_PROCESS"

var markerSeq atomic.Uint64

// newMarker returns a marker unique to this arena process and bot process.
func newMarker() string {
	return fmt.Sprintf("%s=%d-%d", markerVar, os.Getpid(), markerSeq.Add(1))
}
