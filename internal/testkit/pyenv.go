package testkit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A python3 that is a pyenv shim (a bash script that runs some fifty
// processes to find the interpreter) cost 0.1 s of wall and more of CPU
// every time a test started a Python bot: cmd/arena's tutorial test spent
// 8 of its 15 s in one `arena check`, which starts its bot a dozen times.
// So a test binary puts the interpreter the shim would run first on its
// PATH, for itself and every process it starts: the same Python, without
// the shim. Elsewhere (no pyenv, as on CI) nothing changes.
func init() {
	shim, err := exec.LookPath("python3")
	if err != nil || !strings.Contains(filepath.ToSlash(shim), "/.pyenv/shims/") {
		return
	}
	out, err := exec.Command(shim, "-c", "import sys; print(sys.executable)").Output()
	real := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(real) {
		return
	}
	os.Setenv("PATH", filepath.Dir(real)+string(os.PathListSeparator)+os.Getenv("PATH"))
}
