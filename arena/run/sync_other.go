//go:build !linux

package run

import (
	"os"
	"path/filepath"
)

// syncPack makes what was appended to pack durable, and a fresh pack's
// name with its directory where the platform can sync one.
func syncPack(pack *os.File, fresh bool) error {
	if err := pack.Sync(); err != nil {
		return err
	}
	if fresh {
		return syncDir(filepath.Dir(pack.Name()))
	}
	return nil
}

// syncDir makes the names in dir durable where the platform can sync a
// directory (best effort: not every platform can).
func syncDir(dir string) error {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
