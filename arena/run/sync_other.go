//go:build !linux

package run

import "os"

// syncReplays makes the replay files (and their names in dir) durable:
// each file, then the directory where the platform can sync one.
func syncReplays(dir string, paths []string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync() // best effort: not every platform syncs a directory
		d.Close()
	}
	return nil
}
