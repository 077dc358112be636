// Package devcgroup restricts which device nodes the processes of a cgroup
// may open or create, for the bot sandbox (issue 11).
//
// File permissions do not keep a bot from devices: a bot that runs as root
// (or whose uid owns a node) opens /dev/loop0 or a zram device read-write,
// /dev/kvm, /dev/fuse or /dev/net/tun, and a read-only bind mount of /dev
// does not help, because the kernel refuses writes on a read-only mount
// only to regular files, directories and symbolic links, never to device
// nodes. The device cgroup is checked by device number at every open(2)
// and mknod(2), whatever the path, the mount or the credentials, so it
// also covers a node the bot makes itself or finds elsewhere.
//
// Two kernel interfaces do it: the cgroup v1 devices controller (V1), and
// on the unified hierarchy an eBPF program of type BPF_PROG_TYPE_CGROUP_DEVICE
// attached to the cgroup (V2, Linux 4.15+). Both take an allow-list of
// [Rule]s; everything else is denied with EPERM. The kernel applies both
// when both are set up, so on a hybrid machine either one is enough.
//
// The check is made when a device is opened or made: a descriptor opened
// before the process joined the cgroup, or received over a socket, stays
// usable. Set the filter up on a fresh cgroup before any process joins it.
//
// Both are Linux's: the package is empty elsewhere.
package devcgroup

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Any as a Rule's Major or Minor matches every number.
const Any = -1

// Rule allows one device, or a range of them, to be accessed.
type Rule struct {
	// Type is 'c' (a character device) or 'b' (a block device).
	Type byte
	// Major and Minor are the device number, either of them Any.
	Major, Minor int64
	// Access is what is allowed, a non-empty subset of "rwm": r to open
	// for reading, w to open for writing, m to create a node (mknod).
	// An open for reading and writing needs a rule with both.
	Access string
}

// String is the rule as the v1 devices controller reads it, e.g.
// "c 136:* rwm".
func (r Rule) String() string {
	num := func(n int64) string {
		if n == Any {
			return "*"
		}
		return strconv.FormatInt(n, 10)
	}
	return fmt.Sprintf("%c %s:%s %s", r.Type, num(r.Major), num(r.Minor), r.Access)
}

// The largest numbers a Linux dev_t holds (MINORBITS is 20; 12 bits are
// left for the major).
const (
	maxMajor = 1<<12 - 1
	maxMinor = 1<<20 - 1
)

// check tells what is wrong with a rule, if anything.
func (r Rule) check() error {
	if r.Type != 'c' && r.Type != 'b' {
		return fmt.Errorf("type %q is neither 'c' nor 'b'", r.Type)
	}
	if r.Major != Any && (r.Major < 0 || r.Major > maxMajor) {
		return fmt.Errorf("major %d out of range", r.Major)
	}
	if r.Minor != Any && (r.Minor < 0 || r.Minor > maxMinor) {
		return fmt.Errorf("minor %d out of range", r.Minor)
	}
	if r.Access == "" {
		return errors.New("no access")
	}
	if strings.Trim(r.Access, "rwm") != "" {
		return fmt.Errorf("access %q is not a subset of \"rwm\"", r.Access)
	}
	return nil
}

// checkAll checks every rule before anything is written, so that a bad
// list leaves no half-made cgroup behind.
func checkAll(allow []Rule) error {
	for i, r := range allow {
		if err := r.check(); err != nil {
			return fmt.Errorf("devcgroup: rule %d (%s): %w", i, r, err)
		}
	}
	return nil
}

// Bots is the allow-list of the bot sandbox: what language runtimes and
// ordinary programs open, and nothing that reaches hardware, the host's
// storage, its network or its consoles.
//
// /dev/tty (5:0) is left out on purpose: bots are started in the arena's
// session (a process group of their own, not a session), so for them
// /dev/tty would be the operator's terminal when the arena runs in one:
// to write to, read keystrokes from, or push input into with TIOCSTI
// where the kernel still allows that. A program that looks for a
// terminal gets EPERM instead of ENXIO and carries on.
//
// The pty rules let a bot make pseudo-terminals of its own (ptmx and the
// slaves, majors 136-143, all 8 of UNIX98_PTY_MAJOR_COUNT). A device
// cgroup cannot tell one devpts instance from another: the slave rules
// keep a bot to its own ptys only where it gets a devpts instance of its
// own; where it sees the host's /dev/pts they let it open any pty there
// that file permissions let it open.
var Bots = []Rule{
	{'c', 1, 3, "rwm"}, // /dev/null
	{'c', 1, 5, "rwm"}, // /dev/zero
	{'c', 1, 7, "rwm"}, // /dev/full
	{'c', 1, 8, "rwm"}, // /dev/random
	{'c', 1, 9, "rwm"}, // /dev/urandom
	{'c', 5, 2, "rwm"}, // /dev/ptmx
	{'c', 136, Any, "rwm"},
	{'c', 137, Any, "rwm"},
	{'c', 138, Any, "rwm"},
	{'c', 139, Any, "rwm"},
	{'c', 140, Any, "rwm"},
	{'c', 141, Any, "rwm"},
	{'c', 142, Any, "rwm"},
	{'c', 143, Any, "rwm"},
}

// V1 sets up the cgroup v1 devices directory dir (a cgroup in a hierarchy
// with the devices controller) to allow exactly the rules: it writes "a"
// to devices.deny, which empties the cgroup's exceptions and denies every
// device, then each rule to devices.allow.
//
// It needs CAP_SYS_ADMIN. The kernel lets a cgroup allow only what its
// parent allows, and refuses the deny-all once the cgroup has children:
// use a fresh cgroup. Calling V1 again replaces the list. On error the cgroup denies at least what
// was asked for, maybe more; it is not fit for a bot that needs the rest.
func V1(dir string, allow []Rule) error {
	if err := checkAll(allow); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "devices.deny"), []byte("a"), 0); err != nil {
		return fmt.Errorf("devcgroup: cgroup %s: denying every device: %w", dir, err)
	}
	// One rule per write (the kernel parses a single rule at a time),
	// through one open file: every bot process's start writes them all.
	f, err := os.OpenFile(filepath.Join(dir, "devices.allow"), os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("devcgroup: cgroup %s: %w", dir, err)
	}
	for _, r := range allow {
		if _, err := f.Write([]byte(r.String())); err != nil {
			f.Close()
			return fmt.Errorf("devcgroup: cgroup %s: allowing %s: %w", dir, r, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("devcgroup: cgroup %s: %w", dir, err)
	}
	return nil
}
