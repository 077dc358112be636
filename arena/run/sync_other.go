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
		if d, err := os.Open(filepath.Dir(pack.Name())); err == nil {
			d.Sync() // best effort: not every platform syncs a directory
			d.Close()
		}
	}
	return nil
}
