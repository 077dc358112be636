//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/internal/procfs"
)

// Flags of everything shown read-only: no device node, no set-uid program
// works through it.
const roFlags = unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV

// devices are the device nodes of an isolated bot's /dev (major, minor):
// what a program needs, and nothing that reaches a disk, a terminal or the
// kernel. Its ptys come from a devpts instance of its own.
var devices = []struct {
	name         string
	major, minor uint32
}{{"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8}, {"urandom", 1, 9}}

// buildRoot makes the isolated bot's root and makes it the root of the
// wrapper's mount namespace. The wrapper runs as the init process of new
// mount, PID, IPC, UTS (and network) namespaces, as root or with every
// capability of a user namespace the arena made. The root is a tmpfs,
// read-only once built, on the host's sp.Tmp (which stays empty there),
// holding:
//   - sp.Root's entries: the system directories and the bot's program
//     read-only (through overlays of their own where overlayfs works, so
//     that no lock or watch on a shared file reaches another process),
//     links, the organiser's added paths, and covers over what no bot may
//     see;
//   - /tmp: a tmpfs of Limits.Disk, the only writable place, holding the
//     bot's own directory sp.Inner (also its /dev/shm);
//   - /dev: null, zero, full, random, urandom (nodes of its own as root,
//     else the host's bound), a devpts instance of its own, the usual links;
//   - /proc of its PID namespace, over the scratch tmpfs of the build,
//     which it hides.
//
// Every mount is nosuid, and nodev but /dev's.
func buildRoot(sp *spec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	submounts, err := procfs.Mounts()
	if err != nil {
		return err
	}
	root := sp.Tmp
	if err := unix.Mount("tmpfs", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=4m,nr_inodes=8192"); err != nil {
		return fmt.Errorf("mounting the bot's root: %w", err)
	}
	// A scratch tmpfs for the overlays' empty lower layer and the empty
	// file of covers, where the bot's /proc goes: the proc mounted on it
	// at the end hides it for good (the overlays and covers keep what
	// they use of it). Hidden, not detached: an unmount waits for an RCU
	// grace period (synchronize_rcu_expedited), which took a median of
	// 0.8 ms, and up to 4 ms, on a loaded 2-core machine.
	scratch := filepath.Join(root, "proc")
	if err := mkdirMount(scratch, "tmpfs", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=16k"); err != nil {
		return err
	}
	empty, emptyFile := filepath.Join(scratch, "empty"), filepath.Join(scratch, "file")
	if err := os.Mkdir(empty, 0o555); err != nil {
		return err
	}
	if err := os.WriteFile(emptyFile, nil, 0o444); err != nil {
		return err
	}
	b := &builder{root: root, empty: empty, emptyFile: emptyFile, overlay: sp.Plan.Overlay, submounts: submounts}
	// The bot's /tmp first: shown paths under /tmp go into it.
	tmpOpts := "mode=1777,nr_inodes=65536"
	if sp.Limits.Disk > 0 {
		tmpOpts += fmt.Sprintf(",size=%d", sp.Limits.Disk)
	}
	if err := mkdirMount(b.at("/tmp"), "tmpfs", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, tmpOpts); err != nil {
		return fmt.Errorf("the bot's /tmp: %w", err)
	}
	inner := b.at(sp.Inner)
	if err := os.MkdirAll(inner, 0o700); err != nil {
		return fmt.Errorf("the bot's directory: %w", err)
	}
	if sp.UID >= 0 {
		if err := os.Chown(inner, sp.UID, sp.GID); err != nil {
			return fmt.Errorf("the bot's directory: %w", err)
		}
	}
	for _, e := range sp.Root {
		if err := b.entry(e); err != nil {
			return fmt.Errorf("the bot's root: %s: %w", e.Path, err)
		}
	}
	if err := b.dev(sp.Plan.Mknod, inner); err != nil {
		return fmt.Errorf("the bot's /dev: %w", err)
	}
	if err := unix.Mount("", scratch, "", unix.MS_REMOUNT|unix.MS_BIND|roFlags|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("making the scratch directory read-only: %w", err)
	}
	if err := unix.Mount("proc", scratch, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	if err := unix.Mount("", root, "", unix.MS_REMOUNT|unix.MS_BIND|roFlags, ""); err != nil {
		return fmt.Errorf("making the bot's root read-only: %w", err)
	}
	if err := pivot(root); err != nil {
		return err
	}
	return nil
}

// pivot makes dir the root of the mount namespace and detaches the old
// one, so that nothing of the host's tree stays reachable.
func pivot(dir string) error {
	if err := unix.Chdir(dir); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the host's root: %w", err)
	}
	return unix.Chdir("/")
}

// builder makes the entries of one root.
type builder struct {
	root, empty, emptyFile string
	overlay                bool
	submounts              []procfs.Mount
}

// at is where the bot's path p lies while the root is being built.
func (b *builder) at(p string) string { return filepath.Join(b.root, p) }

func (b *builder) entry(e mountEntry) error {
	dst := b.at(e.Path)
	switch e.Kind {
	case mountLink:
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.Symlink(e.Target, dst)
	case mountRO:
		return b.show(e.Path, dst, false)
	case mountRW:
		return b.show(e.Path, dst, true)
	case mountHide:
		st, err := os.Lstat(dst)
		if err != nil {
			return nil // not in the root after all
		}
		if st.IsDir() {
			return unix.Mount("tmpfs", dst, "tmpfs", roFlags|unix.MS_NOEXEC, "size=4k,mode=0555")
		}
		if err := unix.Mount(b.emptyFile, dst, "", unix.MS_BIND, ""); err != nil {
			return err
		}
		return unix.Mount("", dst, "", unix.MS_REMOUNT|unix.MS_BIND|roFlags|unix.MS_NOEXEC, "")
	}
	return fmt.Errorf("unknown kind %q", e.Kind)
}

// show makes the host's src visible at dst: a directory through an overlay
// of its own (read-only), with the host's mounts below it shown the same
// way; otherwise, and for a file or a writable path, a bind mount.
func (b *builder) show(src, dst string, writable bool) error {
	st, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := mountPoint(dst, st.IsDir()); err != nil {
		return err
	}
	if writable {
		if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return err
		}
		return setRecursive(dst, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV, unix.MS_NOSUID|unix.MS_NODEV)
	}
	if !st.IsDir() || !b.overlay || !overlaySafe(src) {
		if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return err
		}
		return setRecursive(dst, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV, roFlags)
	}
	// Two lower layers and no upper: a read-only overlay.
	if err := unix.Mount("overlay", dst, "overlay", roFlags, "lowerdir="+src+":"+b.empty); err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	// An overlay shows one filesystem: the host's mounts below src are
	// shown on top of it, each its own way.
	// (mountinfo lists a mount after the one it lies on.)
	real := src
	if r := realPath(src); r != "" {
		real = r
	}
	for _, m := range b.submounts {
		if m.Point == real || !within(m.Point, real) || pseudoFS[m.FSType] {
			continue
		}
		sub := filepath.Join(dst, strings.TrimPrefix(m.Point, real))
		if err := b.showMount(m.Point, sub); err != nil {
			return fmt.Errorf("%s: %w", m.Point, err)
		}
	}
	return nil
}

// showMount shows one of the host's mounts below a shown directory: a
// directory as an overlay, a small file (a bind-mounted /etc/hosts) as a
// private copy, a large one bound.
func (b *builder) showMount(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return nil // gone
	}
	if _, err := os.Lstat(dst); err != nil {
		return nil // not reachable in the overlay: a mount point it does not show
	}
	if st.IsDir() {
		if overlaySafe(src) {
			return unix.Mount("overlay", dst, "overlay", roFlags, "lowerdir="+src+":"+b.empty)
		}
		if err := unix.Mount(src, dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return err
		}
		return setRecursive(dst, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV, roFlags)
	}
	if st.Mode().IsRegular() && st.Size() <= 1<<20 {
		return b.copyFile(src, dst, st.Mode().Perm())
	}
	if err := unix.Mount(src, dst, "", unix.MS_BIND, ""); err != nil {
		return err
	}
	return unix.Mount("", dst, "", unix.MS_REMOUNT|unix.MS_BIND|roFlags, "")
}

// copyFile covers dst with a private read-only copy of src.
func (b *builder) copyFile(src, dst string, perm os.FileMode) error {
	tmp, err := os.MkdirTemp(filepath.Dir(b.emptyFile), "copy")
	if err != nil {
		return err
	}
	// Left mounted, in the scratch directory that the bot's /proc hides
	// (the bound copy keeps it alive either way; an unmount would wait
	// for an RCU grace period).
	if err := unix.Mount("tmpfs", tmp, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=2m,mode=0755"); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	copyPath := filepath.Join(tmp, "f")
	out, err := os.OpenFile(copyPath, os.O_CREATE|os.O_WRONLY, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := unix.Mount(copyPath, dst, "", unix.MS_BIND, ""); err != nil {
		return err
	}
	return unix.Mount("", dst, "", unix.MS_REMOUNT|unix.MS_BIND|roFlags, "")
}

// dev makes the bot's /dev: own device nodes (mknod, as root) or the
// host's bound (in a user namespace, where nodes cannot be made), a devpts
// instance of its own, /dev/shm as the bot's directory, the usual links.
// Read-only at the end: writing to a device is not writing to /dev.
func (b *builder) dev(mknod bool, inner string) error {
	dev := b.at("/dev")
	if err := mkdirMount(dev, "tmpfs", "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "mode=0755,size=64k,nr_inodes=64"); err != nil {
		return err
	}
	for _, d := range devices {
		path := filepath.Join(dev, d.name)
		if mknod {
			if err := unix.Mknod(path, unix.S_IFCHR|0o666, int(unix.Mkdev(d.major, d.minor))); err != nil {
				return fmt.Errorf("mknod %s: %w", d.name, err)
			}
			if err := os.Chmod(path, 0o666); err != nil { // past the umask
				return err
			}
			continue
		}
		if err := os.WriteFile(path, nil, 0o666); err != nil {
			return err
		}
		if err := unix.Mount("/dev/"+d.name, path, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("binding /dev/%s: %w", d.name, err)
		}
		if err := unix.Mount("", path, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_NOSUID|unix.MS_NOEXEC, ""); err != nil {
			return err
		}
	}
	if err := mkdirMount(filepath.Join(dev, "pts"), "devpts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666,mode=0620"); err != nil {
		return fmt.Errorf("devpts: %w", err)
	}
	for name, target := range map[string]string{"ptmx": "pts/ptmx", "fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"} {
		if err := os.Symlink(target, filepath.Join(dev, name)); err != nil {
			return err
		}
	}
	shm := filepath.Join(dev, "shm")
	if err := os.Mkdir(shm, 0o755); err != nil {
		return err
	}
	if err := unix.Mount(inner, shm, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("/dev/shm: %w", err)
	}
	return unix.Mount("", dev, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_NOSUID|unix.MS_NOEXEC|unix.MS_RDONLY, "")
}

// mkdirMount mounts on dir, creating it.
func mkdirMount(dir, source, fstype string, flags uintptr, data string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return unix.Mount(source, dir, fstype, flags, data)
}

// mountPoint makes dst exist as a directory or an empty file, creating its
// parents (in the root's tmpfs, or in the bot's /tmp).
func mountPoint(dst string, dir bool) error {
	if _, err := os.Lstat(dst); err == nil {
		return nil // inside something already shown: the host's own path
	}
	if dir {
		return os.MkdirAll(dst, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, nil, 0o444)
}

// setRecursive sets attributes on a mount and every mount below it
// (mount_setattr, Linux 5.12+), or remounts each with flags on older
// kernels.
func setRecursive(dir string, attr uint64, flags uintptr) error {
	err := unix.MountSetattr(unix.AT_FDCWD, dir, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: attr})
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	mounts, err := procfs.Mounts()
	if err != nil {
		return err
	}
	for _, m := range mounts {
		if within(m.Point, dir) {
			if err := unix.Mount("", m.Point, "", unix.MS_BIND|unix.MS_REMOUNT|flags, ""); err != nil && !errors.Is(err, unix.EACCES) {
				return fmt.Errorf("%s: %w", m.Point, err)
			}
		}
	}
	return nil
}

// overlaySafe: a path overlayfs's lowerdir option can hold as it is.
func overlaySafe(p string) bool { return !strings.ContainsAny(p, ",:\\") }

// pseudoFS are filesystems that are not files: never shown through a
// shown directory.
var pseudoFS = map[string]bool{"proc": true, "sysfs": true, "cgroup": true, "cgroup2": true, "devtmpfs": true, "devpts": true,
	"debugfs": true, "tracefs": true, "securityfs": true, "bpf": true, "configfs": true, "fusectl": true, "mqueue": true,
	"pstore": true, "hugetlbfs": true, "binfmt_misc": true, "autofs": true, "efivarfs": true, "nsfs": true}
