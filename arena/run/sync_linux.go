package run

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// syncPack makes what was appended to pack durable: fdatasync(2), which
// writes the file's data and size but not its times, and only this
// file's (syncfs(2), which the arena used when every replay was a file
// of its own, also waits for whatever else the machine has written to
// the file system). A fresh pack's name is made durable too, with its
// directory.
func syncPack(pack *os.File, fresh bool) error {
	if err := unix.Fdatasync(int(pack.Fd())); err != nil {
		return err
	}
	if fresh {
		return syncDir(filepath.Dir(pack.Name()))
	}
	return nil
}

// syncDir makes the names in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
