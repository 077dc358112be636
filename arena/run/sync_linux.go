package run

import (
	"os"

	"golang.org/x/sys/unix"
)

// syncReplays makes the replay files (and their names in dir) durable:
// one syncfs(2) of dir's file system for the lot, however many they are.
func syncReplays(dir string, _ []string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return unix.Syncfs(int(d.Fd()))
}
