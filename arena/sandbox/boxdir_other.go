//go:build !unix

package sandbox

import "os"

// boxDir is a bot process's own directory. Here, where bots cannot run
// (transport.Start refuses), nothing locks it and nothing sweeps.
type boxDir struct{ path string }

// makeBoxDir makes a fresh directory for box id.
func makeBoxDir(id string) (boxDir, error) {
	path, err := os.MkdirTemp("", id+"-")
	return boxDir{path: path}, err
}

// remove removes the directory.
func (d boxDir) remove() {
	if d.path != "" {
		_ = os.RemoveAll(d.path)
	}
}

// sweepBoxDirsOnce has nothing to sweep: no bot ran here.
func sweepBoxDirsOnce([]int) {}
