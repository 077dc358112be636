package run

// WatchDisk has f write its replay files with write and make them
// durable with sync instead of the file system's own operations
// (OSWriteReplay, OSSyncReplays), which the watcher calls in turn: a
// test sees in what order a run writes, syncs and appends.
func WatchDisk(f *Files, write func(path string, data []byte) error, sync func(dir string, paths []string) error) {
	f.disk = disk{write: write, sync: sync}
}

// The file system's operations of Files.
var (
	OSWriteReplay = osDisk.write
	OSSyncReplays = osDisk.sync
)
