package devcgroup

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// V2 allows exactly the rules to the processes of the cgroup v2 directory
// dir (and its descendants): it builds a BPF_PROG_TYPE_CGROUP_DEVICE
// program that returns 1 (allow) for an access a rule grants and 0 (deny,
// EPERM) for any other, and attaches it to dir as BPF_CGROUP_DEVICE. The
// cgroup keeps the program for as long as it exists; V2 closes its own
// descriptors before it returns, so nothing is left to release.
//
// The program is attached with BPF_F_ALLOW_MULTI, so it runs together
// with those of the ancestors and any attached later to dir or below, and
// an access must pass every one of them: another program can narrow what
// this one allows, never widen it, and calling V2 again on the same
// cgroup narrows the list to what both calls allow.
//
// It needs CAP_SYS_ADMIN, or CAP_BPF and CAP_NET_ADMIN, in the initial
// user namespace; see Supported. Directories of the unified hierarchy
// take device programs whether or not any controller is enabled there,
// so this works on hybrid machines too.
func V2(dir string, allow []Rule) error {
	if err := checkAll(allow); err != nil {
		return err
	}
	cg, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("devcgroup: cgroup %s: %w", dir, err)
	}
	defer unix.Close(cg)
	// The kernel would say only EBADF for a directory elsewhere.
	var fs unix.Statfs_t
	if err := unix.Fstatfs(cg, &fs); err != nil {
		return fmt.Errorf("devcgroup: cgroup %s: %w", dir, err)
	}
	if fs.Type != unix.CGROUP2_SUPER_MAGIC {
		return fmt.Errorf("devcgroup: %s is not a cgroup v2 directory (file system type %#x)", dir, fs.Type)
	}
	prog, err := load(program(allow))
	if err != nil {
		return fmt.Errorf("devcgroup: cgroup %s: %w", dir, err)
	}
	defer unix.Close(prog)
	attr := attachAttr{
		targetFd:    uint32(cg),
		attachBpfFd: uint32(prog),
		attachType:  unix.BPF_CGROUP_DEVICE,
		attachFlags: unix.BPF_F_ALLOW_MULTI,
	}
	if _, err := bpf(unix.BPF_PROG_ATTACH, unsafe.Pointer(&attr), unsafe.Sizeof(attr)); err != nil {
		return fmt.Errorf("devcgroup: cgroup %s: attaching the device program: %w", dir, explain(err, false))
	}
	return nil
}

var probed struct {
	once sync.Once
	err  error
}

// Supported tells whether V2 can work on this machine, probed once per
// process: nil if this process may load a device program (the kernel has
// bpf(2) and cgroup BPF, CONFIG_CGROUP_BPF, Linux 4.15+; no seccomp filter
// or LSM forbids it; the process has CAP_SYS_ADMIN, or CAP_BPF and
// CAP_NET_ADMIN), else why not. It loads the smallest device program
// (deny all) and drops it, attaching nothing, so a given cgroup may still
// refuse one (a directory not on a cgroup2 mount, or below a program
// attached without BPF_F_ALLOW_MULTI or BPF_F_ALLOW_OVERRIDE, which
// forbids others below it).
func Supported() error {
	probed.once.Do(func() {
		// Not the program of a list: a fault of ours there is V2's error,
		// not a lack of this machine.
		fd, err := load(program(nil))
		if err != nil {
			probed.err = fmt.Errorf("devcgroup: %w", err)
			return
		}
		unix.Close(fd)
	})
	return probed.err
}

// insn is one eBPF instruction (struct bpf_insn).
type insn struct {
	code     uint8
	dst, src uint8 // 4-bit register numbers
	off      int16
	imm      int32
}

// The registers the program uses. The kernel calls it with the context
// in r1 and takes its result from r0.
const (
	r0, rCtx, rType, rAccess, rMajor, rMinor = 0, 1, 2, 3, 4, 5
)

// The context, struct bpf_cgroup_dev_ctx: the type in the low 16 bits of
// access_type and the access (BPF_DEVCG_ACC_*) in the high 16, then the
// major and the minor, each a u32.
const (
	ctxAccessType = 0
	ctxMajor      = 4
	ctxMinor      = 8
)

func ldxw(dst, src uint8, off int16) insn {
	return insn{code: unix.BPF_LDX | unix.BPF_MEM | unix.BPF_W, dst: dst, src: src, off: off}
}

func alu32(op uint8, dst uint8, imm int32) insn {
	return insn{code: unix.BPF_ALU | op | unix.BPF_K, dst: dst, imm: imm}
}

func jmp(op uint8, dst uint8, imm int32) insn {
	return insn{code: unix.BPF_JMP | op | unix.BPF_K, dst: dst, imm: imm}
}

func ret(v int32) []insn {
	return []insn{
		{code: unix.BPF_ALU64 | unix.BPF_MOV | unix.BPF_K, dst: r0, imm: v},
		{code: unix.BPF_JMP | unix.BPF_EXIT},
	}
}

const allAccess = unix.BPF_DEVCG_ACC_MKNOD | unix.BPF_DEVCG_ACC_READ | unix.BPF_DEVCG_ACC_WRITE

func accessBits(s string) int32 {
	var a int32
	for _, c := range s {
		switch c {
		case 'm':
			a |= unix.BPF_DEVCG_ACC_MKNOD
		case 'r':
			a |= unix.BPF_DEVCG_ACC_READ
		case 'w':
			a |= unix.BPF_DEVCG_ACC_WRITE
		}
	}
	return a
}

// program is the filter for checked rules: one block per device, each a
// few compares that jump to the next block on a mismatch and else return
// 1, and a final return 0. An access is allowed when one rule grants all
// of it, as in the v1 controller; rules for the same device are merged
// first, as the v1 controller merges them, so that "c 1:3 r" and
// "c 1:3 w" allow opening /dev/null for reading and writing at once there
// and here alike.
func program(allow []Rule) []insn {
	type dev struct {
		typ          byte
		major, minor int64
	}
	var order []dev
	access := map[dev]int32{}
	for _, r := range allow {
		d := dev{r.Type, r.Major, r.Minor}
		if _, ok := access[d]; !ok {
			order = append(order, d)
		}
		access[d] |= accessBits(r.Access)
	}
	p := []insn{
		ldxw(rType, rCtx, ctxAccessType),
		alu32(unix.BPF_AND, rType, 0xffff),
		ldxw(rAccess, rCtx, ctxAccessType),
		alu32(unix.BPF_RSH, rAccess, 16),
		ldxw(rMajor, rCtx, ctxMajor),
		ldxw(rMinor, rCtx, ctxMinor),
	}
	for _, d := range order {
		typ := int32(unix.BPF_DEVCG_DEV_CHAR)
		if d.typ == 'b' {
			typ = unix.BPF_DEVCG_DEV_BLOCK
		}
		checks := []insn{jmp(unix.BPF_JNE, rType, typ)}
		if a := access[d]; a != allAccess {
			// Any access bit the rule lacks: not this rule.
			checks = append(checks, jmp(unix.BPF_JSET, rAccess, allAccess&^a))
		}
		if d.major != Any {
			checks = append(checks, jmp(unix.BPF_JNE, rMajor, int32(d.major)))
		}
		if d.minor != Any {
			checks = append(checks, jmp(unix.BPF_JNE, rMinor, int32(d.minor)))
		}
		// Offsets count from the next instruction; the block ends with
		// the two of ret.
		n := len(checks) + 2
		for i := range checks {
			checks[i].off = int16(n - 1 - i)
		}
		p = append(p, checks...)
		p = append(p, ret(1)...)
	}
	return append(p, ret(0)...)
}

// encode lays the instructions out as the kernel reads them.
func encode(p []insn) []byte {
	// The register nibbles are C bit-fields (dst_reg:4, src_reg:4), whose
	// order follows the byte order.
	little := binary.NativeEndian.Uint16([]byte{1, 0}) == 1
	b := make([]byte, 0, 8*len(p))
	for _, in := range p {
		regs := in.dst&0xf | in.src<<4
		if !little {
			regs = in.dst<<4 | in.src&0xf
		}
		b = append(b, in.code, regs)
		b = binary.NativeEndian.AppendUint16(b, uint16(in.off))
		b = binary.NativeEndian.AppendUint32(b, uint32(in.imm))
	}
	return b
}

// progLoadAttr is the BPF_PROG_LOAD part of union bpf_attr, up to
// expected_attach_type; the kernel zero-fills the fields after it.
type progLoadAttr struct {
	progType           uint32
	insnCnt            uint32
	insns              uint64
	license            uint64
	logLevel           uint32
	logSize            uint32
	logBuf             uint64
	kernVersion        uint32
	progFlags          uint32
	progName           [16]byte
	progIfindex        uint32
	expectedAttachType uint32
}

// attachAttr is the BPF_PROG_ATTACH part of union bpf_attr.
type attachAttr struct {
	targetFd     uint32
	attachBpfFd  uint32
	attachType   uint32
	attachFlags  uint32
	replaceBpfFd uint32
}

// The kernel reads the license only to decide whether the program may
// call GPL-only helpers; this one calls no helper at all.
var license = []byte("none\x00")

// load loads a device program and returns its descriptor (close-on-exec).
// When the kernel refuses the program, it loads it again with a log to
// give the verifier's reasons.
func load(p []insn) (int, error) {
	if len(p) == 0 {
		return -1, errors.New("loading the device program: no instructions")
	}
	code := encode(p)
	fd, err := progLoad(code, nil)
	if err == nil {
		return fd, nil
	}
	log := make([]byte, 1<<16)
	fd, err2 := progLoad(code, log)
	if err2 == nil {
		return fd, nil
	}
	text := string(bytes.TrimSpace(log[:max(0, bytes.IndexByte(log, 0))]))
	if text == "" {
		return -1, fmt.Errorf("loading the device program (%d instructions): %w", len(p), explain(err, true))
	}
	// The verifier said why: no guessing from the errno.
	return -1, fmt.Errorf("loading the device program (%d instructions): %w; verifier log:\n%s", len(p), err, text)
}

func progLoad(code, log []byte) (int, error) {
	attr := progLoadAttr{
		progType: unix.BPF_PROG_TYPE_CGROUP_DEVICE,
		insnCnt:  uint32(len(code) / 8),
		insns:    uint64(uintptr(unsafe.Pointer(&code[0]))),
		license:  uint64(uintptr(unsafe.Pointer(&license[0]))),
	}
	copy(attr.progName[:], "arena_devcg") // shown by bpftool prog
	if len(log) > 0 {
		attr.logLevel = 1
		attr.logSize = uint32(len(log))
		attr.logBuf = uint64(uintptr(unsafe.Pointer(&log[0])))
	}
	var fd uintptr
	var err error
	// The verifier gives up with EAGAIN when a signal is pending, and
	// the Go runtime signals its threads to preempt goroutines (SIGURG).
	for try := 0; try < 5; try++ {
		if fd, err = bpf(unix.BPF_PROG_LOAD, unsafe.Pointer(&attr), unsafe.Sizeof(attr)); !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EINTR) {
			break
		}
	}
	// The kernel read these through the addresses in attr, which the
	// garbage collector does not see.
	runtime.KeepAlive(code)
	runtime.KeepAlive(log)
	if err != nil {
		return -1, err
	}
	return int(fd), nil
}

func bpf(cmd int, attr unsafe.Pointer, size uintptr) (uintptr, error) {
	r, _, e := unix.Syscall(unix.SYS_BPF, uintptr(cmd), uintptr(attr), size)
	if e != 0 {
		return 0, e
	}
	return r, nil
}

// explain adds what an errno of bpf(2) usually means when loading or
// attaching a device program.
func explain(err error, loading bool) error {
	var why string
	switch {
	case errors.Is(err, unix.ENOSYS):
		why = "the kernel has no bpf(2): CONFIG_BPF_SYSCALL"
	case errors.Is(err, unix.EPERM) && loading:
		why = "needs CAP_SYS_ADMIN, or CAP_BPF and CAP_NET_ADMIN, in the initial user namespace; or a seccomp filter or an LSM forbids bpf(2)"
	case errors.Is(err, unix.EPERM):
		why = "needs CAP_SYS_ADMIN or CAP_NET_ADMIN; or an ancestor cgroup holds a device program attached without BPF_F_ALLOW_MULTI or BPF_F_ALLOW_OVERRIDE"
	case errors.Is(err, unix.EINVAL) && loading:
		why = "the kernel may lack cgroup device programs: CONFIG_CGROUP_BPF, Linux 4.15+"
	default:
		return err
	}
	return fmt.Errorf("%w (%s)", err, why)
}
