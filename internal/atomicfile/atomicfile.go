// Package atomicfile writes a file whole or not at all: through a
// temporary file in the same directory, renamed over the path, so that a
// reader during a run (arena report, a browser) never sees half of it.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes data to path (mode 0644) through a temporary file renamed
// over it. It does not sync: a crash may leave the old file or none.
func Write(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
