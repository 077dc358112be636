package testkit

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// ModuleRoot is the directory of this module's go.mod (go env GOMOD).
func ModuleRoot(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	gomod := string(bytes.TrimSpace(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		tb.Fatalf("go env GOMOD: %q, %v: not in a module", gomod, err)
	}
	return filepath.Dir(gomod)
}

// builds are the programs Build made, in one directory per test binary.
var builds struct {
	sync.Mutex
	dir  string
	made map[string]string // package -> executable, or the build's failure
	errs map[string]string
	// removing is set by Main: its TestMain removes the directory after
	// the tests, so Build may make one.
	removing bool
}

// Build compiles the main package pkg (a path from the module root, such
// as "./cmd/arena") once per test binary, and returns its executable. The
// directory is open to every user: the bots of an arena run as root run
// as uids of their own, and "arena bot NAME" re-runs the arena binary.
// The package's TestMain must run its tests with Main, which removes
// what Build made; Build fails the test where it does not, rather than
// leave programs behind in the temporary directory on every run.
func Build(tb testing.TB, pkg string) string {
	tb.Helper()
	builds.Lock()
	defer builds.Unlock()
	if !builds.removing {
		tb.Fatalf("testkit.Build(%s): the package's TestMain must run its tests with testkit.Main, which removes the builds afterwards", pkg)
	}
	if path, ok := builds.made[pkg]; ok {
		return path
	}
	if msg, ok := builds.errs[pkg]; ok {
		tb.Fatal(msg)
	}
	if builds.dir == "" {
		dir, err := os.MkdirTemp("", "arena-test-builds-")
		if err == nil {
			err = os.Chmod(dir, 0o755)
		}
		if err != nil {
			tb.Fatal(err)
		}
		builds.dir, builds.made, builds.errs = dir, map[string]string{}, map[string]string{}
	}
	name := filepath.Base(strings.TrimSuffix(pkg, "/"))
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	path := filepath.Join(builds.dir, strings.ReplaceAll(strings.Trim(pkg, "./"), "/", "-"), name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", path, pkg)
	cmd.Dir = ModuleRoot(tb)
	if out, err := cmd.CombinedOutput(); err != nil {
		builds.errs[pkg] = "go build " + pkg + ": " + err.Error() + "\n" + string(out)
		tb.Fatal(builds.errs[pkg])
	}
	builds.made[pkg] = path
	return path
}

// Main runs the tests of m and then removes the programs Build made; it
// returns m.Run's exit code. A package whose tests call Build ends its
// TestMain with os.Exit(testkit.Main(m)).
func Main(m *testing.M) int {
	builds.Lock()
	builds.removing = true
	builds.Unlock()
	code := m.Run()
	builds.Lock()
	defer builds.Unlock()
	if builds.dir != "" {
		os.RemoveAll(builds.dir)
		builds.dir, builds.made, builds.errs = "", nil, nil
	}
	return code
}
