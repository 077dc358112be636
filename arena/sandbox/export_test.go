//go:build linux

package sandbox

// ForceUserNS makes Detect see no capabilities, as for an arena that is
// not root, so tests running as root cover the user-namespace path too.
// It must be called before the first Detect.
func ForceUserNS() { forceUserNS = true }

// PreferDeviceFilter makes New use the v2 BPF device filter where the v1
// devices hierarchy exists too; undone by the returned function.
func PreferDeviceFilter() (undo func()) {
	preferDeviceFilter = true
	return func() { preferDeviceFilter = false }
}
