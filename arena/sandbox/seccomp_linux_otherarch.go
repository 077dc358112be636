//go:build linux && !amd64 && !arm64

package sandbox

// No filter is written for this architecture: seccompAvailable says so.
const (
	nativeArch = 0
	x32Bit     = 0
)

var archDeniedSyscalls []uintptr
