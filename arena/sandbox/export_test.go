package sandbox

// ForceUserNS makes Detect see no capabilities, as for an arena that is
// not root, so tests running as root cover the user-namespace path too.
// It must be called before the first Detect.
func ForceUserNS() { forceUserNS = true }
