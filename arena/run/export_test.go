package run

import "os"

// WatchDisk has f append to its packs with write and make them durable
// with sync instead of the file system's own operations (OSWritePack,
// OSSyncPack), which the watcher calls in turn: a test sees in what
// order a run writes, syncs and appends.
func WatchDisk(f *Files, write func(pack *os.File, data []byte) error, sync func(pack *os.File, fresh bool) error) {
	f.disk = disk{write: write, sync: sync}
}

// The file system's operations of Files.
var (
	OSWritePack = osDisk.write
	OSSyncPack  = osDisk.sync
)
