package match

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/google/shlex"
)

var botName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// CheckName validates a bot name: it becomes a directory name for logs.
func CheckName(name string) error {
	if !botName.MatchString(name) {
		return fmt.Errorf("bot name %q may hold only letters, digits, '.', '_' and '-' (and must not start with '.', '_' or '-')", name)
	}
	return nil
}

// ParseCommand splits a bot command line like a shell would (quotes
// honoured) without running a shell. A first word "arena" means this very
// executable, so bundled bots need nothing installed. The program must
// exist: on PATH, or as a path (relative to dir when dir is set).
func ParseCommand(cmdline, dir string) ([]string, error) {
	argv, err := shlex.Split(cmdline)
	if err != nil {
		return nil, fmt.Errorf("cannot split command %q: %v", cmdline, err)
	}
	if len(argv) == 0 {
		return nil, fmt.Errorf("empty command")
	}
	if argv[0] == "arena" {
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("finding the arena executable: %w", err)
		}
		argv[0] = self
		return argv, nil
	}
	prog := argv[0]
	if strings.Contains(prog, "/") {
		if dir != "" && !filepath.IsAbs(prog) {
			prog = filepath.Join(dir, prog)
		}
		if st, err := os.Stat(prog); err != nil || st.IsDir() {
			return nil, fmt.Errorf("command %q not found", argv[0])
		}
		return argv, nil
	}
	if _, err := exec.LookPath(prog); err != nil {
		return nil, fmt.Errorf("command %q not found", argv[0])
	}
	return argv, nil
}
