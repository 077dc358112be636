package js

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// node is the node executable, checked to be version 18 or later (the
// SDK's floor); the test is skipped without node, and fails under CI.
func node(t *testing.T) string {
	t.Helper()
	path := testkit.Tool(t, "node")
	nodeOnce.Do(func() {
		out, err := exec.Command(path, "-p", "process.versions.node").Output()
		if err != nil {
			nodeErr = "node -p process.versions.node: " + err.Error()
			return
		}
		nodeVersion = strings.TrimSpace(string(out))
		major, _ := strconv.Atoi(strings.SplitN(nodeVersion, ".", 2)[0])
		if major < 18 {
			nodeErr = "node " + nodeVersion + " is older than 18, the SDK's floor"
		}
	})
	if nodeErr != "" {
		t.Fatal(nodeErr)
	}
	return path
}

var (
	nodeOnce    sync.Once
	nodeVersion string
	nodeErr     string
)

// kit makes a directory as a starter kit is: arenabot.js (the embedded
// Source) beside the given files, copied from their paths.
func kit(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	// Readable by a bot that runs under a uid of its own (the sandbox as root).
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), Source, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
