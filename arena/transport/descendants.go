package transport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
)

// Without a sandbox's cgroup, a bot's descendants are found by an
// environment marker: every process a bot starts inherits it, including
// one that left the process group with setsid. A bot that clears the
// environment of its children escapes this; the sandbox's cgroup kill
// does not depend on it.
const markerVar = "ARENA_PROCESS"

var markerSeq atomic.Uint64

// newMarker returns a marker unique to this arena process and bot process.
func newMarker() string {
	return fmt.Sprintf("%s=%d-%d", markerVar, os.Getpid(), markerSeq.Add(1))
}

// killMarked SIGKILLs every live process whose environment holds marker.
func killMarked(marker string) {
	want := []byte(marker)
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				syscall.Kill(pid, syscall.SIGKILL)
				break
			}
		}
	}
}
