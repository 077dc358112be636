package sandbox

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/arena-dev/arena/arena/transport"
)

// Start starts one process of bot name in the sandbox. cfg is the process
// as it would run unconfined, but for its Env: only the variables to add
// to the scrubbed environment. It runs as the wrapper's command, with its
// Box as the transport's Confinement.
func (s *Sandbox) Start(name string, cfg transport.ProcessConfig) (*transport.Process, error) {
	box, err := s.Prepare(name, cfg.Argv, cfg.Dir, cfg.Env)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cfg.Argv, cfg.Env, cfg.Dir, cfg.Confine = box.Argv, box.Env, box.Dir, box
	return transport.Start(cfg) // releases the Box if it fails
}

var seq atomic.Int64

// boxID names one bot process's box (its directory, its cgroups): the
// arena's pid first, so that what a dead arena left is found (sweep,
// sweepBoxDirs).
func boxID(name string) string {
	return fmt.Sprintf("arena-%d-%d-%s", os.Getpid(), seq.Add(1), name)
}

// boxIDPattern matches what boxID names, the arena's pid its group.
var boxIDPattern = regexp.MustCompile(`^arena-(\d+)-\d+-`)

// withDirs adds HOME and TMPDIR to a bot's environment, unless it sets
// them itself.
func withDirs(env []string, home, tmp string) []string {
	has := map[string]bool{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		has[k] = true
	}
	if !has["HOME"] {
		env = append(env, "HOME="+home)
	}
	if !has["TMPDIR"] {
		env = append(env, "TMPDIR="+tmp)
	}
	return env
}
