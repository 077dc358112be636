package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// attr sets the namespaces a wrapper starts in.
func (p plan) attr(a *syscall.SysProcAttr, noNetwork bool) {
	if noNetwork {
		a.Cloneflags |= syscall.CLONE_NEWNET
	}
	if !p.Isolate {
		return
	}
	a.Cloneflags |= syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC
	if p.UserNS {
		// The arena's own uid and gid, the same inside: files the bot
		// writes (and the ones it reads) keep their owner.
		uid, gid := os.Getuid(), os.Getgid()
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		a.GidMappingsEnableSetgroups = false
	}
}

// isolate builds the bot's view. An isolated bot starts in new mount, PID and IPC namespaces (and a user
// namespace when the arena is not root), where the wrapper, before it
// execs the bot:
//   - makes every mount read-only and nosuid, so nothing the bot writes
//     outlives the process (no memory across games, no channel to other
//     bots) but in its directory, a fresh tmpfs of Limits.Disk that is
//     also its /dev/shm;
//   - covers the Hide directories (the arena's output) with empty ones;
//   - mounts a /proc of its own PID namespace, where the bot is pid 1: it
//     sees only its own processes, and when it ends the kernel kills every
//     process it started, wherever they moved (setsid, a cleared
//     environment), with or without cgroups.
func isolate(sp *spec) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	// Check before hiding, for a clear message instead of "not found".
	for _, h := range sp.Hide {
		for _, p := range [...]struct{ what, path string }{{"working directory", sp.Work}, {"program", sp.Program}} {
			if p.path != "" && within(p.path, h) {
				return fmt.Errorf("the bot's %s %s lies in %s, which bots may not see (the arena's output directory); move one of them", p.what, p.path, h)
			}
		}
	}
	err := unix.MountSetattr(unix.AT_FDCWD, "/", unix.AT_RECURSIVE,
		&unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID})
	if errors.Is(err, unix.ENOSYS) {
		err = remountReadOnly()
	}
	if err != nil {
		return fmt.Errorf("making the filesystem read-only: %w", err)
	}
	// New mounts on top of the read-only tree are writable.
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	opts := "mode=0700,nr_inodes=65536"
	if sp.Limits.Disk > 0 {
		opts += fmt.Sprintf(",size=%d", sp.Limits.Disk)
	}
	if sp.UID >= 0 {
		opts += fmt.Sprintf(",uid=%d,gid=%d", sp.UID, sp.GID)
	}
	if err := unix.Mount("tmpfs", sp.Tmp, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return fmt.Errorf("mounting the bot's directory %s: %w", sp.Tmp, err)
	}
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if err := unix.Mount(sp.Tmp, "/dev/shm", "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("binding /dev/shm: %w", err)
		}
	}
	for _, h := range sp.Hide {
		st, err := os.Stat(h)
		if err != nil {
			// Bots started before the directory exists would see it later.
			return fmt.Errorf("hiding %s: %w", h, err)
		}
		if !st.IsDir() {
			return fmt.Errorf("hiding %s: not a directory", h)
		}
		if err := unix.Mount("tmpfs", h, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0555"); err != nil {
			return fmt.Errorf("hiding %s: %w", h, err)
		}
	}
	return nil
}

// within: path is dir or lies below it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// remountReadOnly is the pre-5.12 way: every mount, one at a time.
func remountReadOnly() error {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		point := unescapeMount(f[4])
		flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY | unix.MS_NOSUID)
		if err := unix.Mount("", point, "", flags, ""); err != nil && !errors.Is(err, unix.EACCES) && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("%s: %w", point, err)
		}
	}
	return nil
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if c, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(c))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// dropPrivileges leaves the bot no capabilities, even when it runs as
// root: a root bot could otherwise unmount what hides the arena's output,
// make the filesystem writable again or leave its cgroups. Securebits keep
// exec from granting root its capabilities back, and no_new_privs keeps
// setuid programs from doing so. It must run on the thread that execs.
func dropPrivileges() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	if data[0].Permitted == 0 && data[1].Permitted == 0 {
		return nil // nothing to drop
	}
	// NOROOT, NO_SETUID_FIXUP, KEEP_CAPS off, NO_CAP_AMBIENT_RAISE: each
	// with its lock bit.
	const secure = 1<<0 | 1<<1 | 1<<2 | 1<<3 | 1<<5 | 1<<6 | 1<<7
	if err := unix.Prctl(unix.PR_SET_SECUREBITS, secure, 0, 0, 0); err != nil {
		return fmt.Errorf("securebits: %w", err)
	}
	for c := 0; c < 64; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); errors.Is(err, unix.EINVAL) {
			break // past the last capability this kernel knows
		} else if err != nil {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("ambient capabilities: %w", err)
	}
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}
