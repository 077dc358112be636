// Package proctest finds the processes a test started, for tests that must
// prove no bot process survives: each test marks its bots with an
// environment variable and asks which live processes still carry it.
package proctest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// WithEnv lists the live processes whose environment holds the exact entry
// kv ("NAME=value"). Zombies have an empty environ and are not listed.
func WithEnv(kv string) []int {
	want := []byte(kv)
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, x := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(x, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
