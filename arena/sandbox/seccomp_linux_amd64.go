package sandbox

import "golang.org/x/sys/unix"

const (
	nativeArch = unix.AUDIT_ARCH_X86_64
	// x32Bit marks the x32 ABI's call numbers, refused whole.
	x32Bit = 0x40000000
)

var archDeniedSyscalls = []uintptr{unix.SYS_USELIB, unix.SYS_USTAT, unix.SYS_SYSFS, unix.SYS__SYSCTL, unix.SYS_IOPL, unix.SYS_IOPERM,
	unix.SYS_CREATE_MODULE, unix.SYS_GET_KERNEL_SYMS, unix.SYS_QUERY_MODULE}
