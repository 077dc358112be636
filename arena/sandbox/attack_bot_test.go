//go:build linux

package sandbox_test

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The attacking bots: each mode is what a contestant's program would try.
// They talk to the test over stdin and stdout, one line at a time.

// noteKey names the System V objects, the POSIX queue, the key and the
// abstract socket a writer leaves (SANDBOX_IPC_KEY: one per test run).
func noteKey() int {
	k, _ := strconv.Atoi(os.Getenv("SANDBOX_IPC_KEY"))
	return k
}

func noteName() string { return fmt.Sprintf("arena-note-%d", noteKey()) }

// noteFiles are where a writer tries to leave the note as a file: every
// place a process might write and another read (SANDBOX_NOTE_FILES, for a
// control run outside the sandbox, which must not write into /etc).
func noteFiles() []string {
	if v := os.Getenv("SANDBOX_NOTE_FILES"); v != "" {
		return strings.Split(v, ":")
	}
	out := []string{"/tmp/arena-note", "/var/tmp/arena-note", "/dev/shm/arena-note", "/arena-note", "/dev/arena-note",
		"/run/arena-note", "/etc/arena-note"}
	for _, v := range []string{"HOME", "TMPDIR"} {
		if d := os.Getenv(v); d != "" {
			out = append(out, filepath.Join(d, "arena-note"))
		}
	}
	if wd, err := os.Getwd(); err == nil {
		out = append(out, filepath.Join(wd, "arena-note"))
	}
	out = append(out, filepath.Join(filepath.Dir(os.Args[0]), "arena-note"))
	return out
}

// sharedFiles are files every process of a bot can open: where locks and
// watches would pass bits.
func sharedFiles() []string {
	return []string{os.Args[0], "/etc/passwd", "/usr/bin/env", "/dev/null", "/dev/urandom"}
}

// noteWrite leaves the note (SANDBOX_NOTE, hex) by every channel it can,
// says where, and keeps what lives only while it does until told to quit.
func noteWrite(out *bufio.Writer) int {
	note, _ := strconv.ParseUint(os.Getenv("SANDBOX_NOTE"), 16, 64)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], note)
	var placed []string
	// Files.
	for _, f := range noteFiles() {
		if os.WriteFile(f, b[:], 0o666) == nil {
			placed = append(placed, "file:"+f)
		}
	}
	// Keyrings: user, session, user-session, with every permission for
	// everyone, so that any process that names the key may read it.
	serial := 0
	for _, ring := range []int{unix.KEY_SPEC_USER_KEYRING, unix.KEY_SPEC_SESSION_KEYRING, unix.KEY_SPEC_USER_SESSION_KEYRING} {
		id, err := unix.AddKey("user", noteName(), b[:], ring)
		if err == nil {
			unix.KeyctlSetperm(id, 0x3f3f3f3f)
			serial = id
			placed = append(placed, fmt.Sprintf("key:%d", id))
		}
	}
	// Locks: a POSIX read lock on byte i of each shared file for every set
	// bit i of the note, an open file description lock on byte 64+i, and
	// flock on the whole file.
	var keep []*os.File
	for _, path := range sharedFiles() {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		keep = append(keep, f)
		for i := 0; i < 64; i++ {
			if note>>i&1 == 0 {
				continue
			}
			lk := unix.Flock_t{Type: unix.F_RDLCK, Whence: 0, Start: int64(i), Len: 1}
			if unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk) == nil && i == 0 {
				placed = append(placed, "posix-lock:"+path)
			}
			lk = unix.Flock_t{Type: unix.F_RDLCK, Whence: 0, Start: int64(64 + i), Len: 1}
			unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		}
		if unix.Flock(int(f.Fd()), unix.LOCK_SH) == nil {
			placed = append(placed, "flock:"+path)
		}
		// Watches elsewhere would see these opens and reads.
		for range 5 {
			if g, err := os.Open(path); err == nil {
				g.Read(make([]byte, 1))
				g.Close()
			}
		}
	}
	// A pty with the note in it.
	if ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0); err == nil {
		keep = append(keep, ptm)
		unix.IoctlSetPointerInt(int(ptm.Fd()), unix.TIOCSPTLCK, 0)
		if n, err := unix.IoctlGetInt(int(ptm.Fd()), unix.TIOCGPTN); err == nil {
			ptm.Write([]byte(fmt.Sprintf("%016x\n", note)))
			placed = append(placed, fmt.Sprintf("pty:/dev/pts/%d", n))
		}
	}
	// Sockets: TCP and UDP on loopback, an abstract unix socket.
	port := os.Getenv("SANDBOX_PORT")
	serve := func(l net.Listener) {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write(b[:])
			c.Close()
		}
	}
	if l, err := net.Listen("tcp", "127.0.0.1:"+port); err == nil {
		go serve(l)
		placed = append(placed, "tcp:"+port)
	}
	if l, err := net.Listen("unix", "@"+noteName()); err == nil {
		go serve(l)
		placed = append(placed, "abstract:@"+noteName())
	}
	if c, err := net.ListenPacket("udp", "127.0.0.1:"+port); err == nil {
		go func() {
			buf := make([]byte, 64)
			for {
				_, addr, err := c.ReadFrom(buf)
				if err != nil {
					return
				}
				c.WriteTo(b[:], addr)
			}
		}()
		placed = append(placed, "udp:"+port)
	}
	// System V shared memory and message queues.
	if id, err := unix.SysvShmGet(noteKey(), 4096, unix.IPC_CREAT|0o666); err == nil {
		if mem, err := unix.SysvShmAttach(id, 0, 0); err == nil {
			copy(mem, b[:])
			placed = append(placed, "shm")
		}
	}
	if _, _, e := unix.Syscall(unix.SYS_MSGGET, uintptr(noteKey()), unix.IPC_CREAT|0o666, 0); e == 0 {
		placed = append(placed, "msgq")
	}
	// A POSIX message queue.
	name := []byte(noteName() + "\x00")
	if fd, _, e := unix.Syscall6(unix.SYS_MQ_OPEN, uintptr(unsafe.Pointer(&name[0])), unix.O_CREAT|unix.O_RDWR, 0o666, 0, 0, 0); e == 0 {
		placed = append(placed, "mq")
		_ = fd
	}
	fmt.Fprintf(out, "placed serial=%d %s\n", serial, strings.Join(placed, " "))
	out.Flush()
	// Hold everything until told to go.
	bufio.NewReader(os.Stdin).ReadString('\n')
	for _, f := range keep {
		f.Close()
	}
	return 0
}

// noteRead looks for a note by every channel: it starts watching the
// shared files (says "watching"), waits for "check SERIAL" (the serial of
// the writer's key: more than a real attacker would know), and reports
// one line per channel ("channel NAME found DETAIL" or "channel NAME
// none"), then "done".
func noteRead(out *bufio.Writer) int {
	note, _ := strconv.ParseUint(os.Getenv("SANDBOX_NOTE"), 16, 64)
	report := func(name string, found bool, detail string) {
		if found {
			fmt.Fprintf(out, "channel %s found %s\n", name, detail)
		} else {
			fmt.Fprintf(out, "channel %s none %s\n", name, detail)
		}
	}
	in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	watched := map[int]string{}
	if err == nil {
		for _, f := range sharedFiles() {
			if wd, err := unix.InotifyAddWatch(in, f, unix.IN_OPEN|unix.IN_ACCESS|unix.IN_CLOSE_NOWRITE); err == nil {
				watched[wd] = f
			}
		}
	}
	fmt.Fprintln(out, "watching")
	out.Flush()
	// "check serial=N files=A:B": what the writer said it placed.
	line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	var serial int
	var placedFiles string
	fmt.Sscanf(strings.TrimSpace(line), "check serial=%d files=%s", &serial, &placedFiles)
	is := func(data []byte) bool { return len(data) >= 8 && binary.LittleEndian.Uint64(data) == note }
	// Watches: events on the shared files from the writer's opens (read
	// first: the reader's own opens below would count).
	events := map[string]int{}
	if in >= 0 {
		ev := make([]byte, 64<<10)
		for {
			n, err := unix.Read(in, ev)
			if err != nil || n <= 0 {
				break
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				e := (*unix.InotifyEvent)(unsafe.Pointer(&ev[off]))
				events[watched[int(e.Wd)]]++
				off += unix.SizeofInotifyEvent + int(e.Len)
			}
		}
	}
	for _, f := range sharedFiles() {
		report("inotify:"+f, events[f] > 0, strconv.Itoa(events[f]))
	}
	// Files.
	files := noteFiles()
	for _, f := range strings.Split(placedFiles, ":") {
		if f != "" && f != "-" {
			files = append(files, f)
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		report("file:"+f, is(data), errText(err))
	}
	// Keyrings: by serial, and by name in each keyring.
	buf := make([]byte, 64)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, serial, buf, 0)
	report(fmt.Sprintf("key:%d", serial), err == nil && is(buf[:n]), errText(err))
	for _, ring := range []int{unix.KEY_SPEC_USER_KEYRING, unix.KEY_SPEC_SESSION_KEYRING, unix.KEY_SPEC_USER_SESSION_KEYRING} {
		id, err := unix.KeyctlSearch(ring, "user", noteName(), 0)
		report(fmt.Sprintf("keyring:%d", ring), err == nil && id != 0, errText(err))
	}
	// Locks.
	for _, path := range sharedFiles() {
		f, err := os.Open(path)
		if err != nil {
			report("locks:"+path, false, errText(err))
			continue
		}
		var seen uint64
		for i := 0; i < 128; i++ {
			lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: int64(i), Len: 1}
			cmd := unix.F_GETLK
			if i >= 64 {
				cmd = unix.F_OFD_GETLK
			}
			if unix.FcntlFlock(f.Fd(), cmd, &lk) == nil && lk.Type != unix.F_UNLCK {
				seen |= 1 << (i % 64)
			}
		}
		report("locks:"+path, seen != 0, fmt.Sprintf("%016x", seen))
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		report("flock:"+path, errors.Is(err, unix.EWOULDBLOCK), errText(err))
		f.Close()
	}
	// Ptys other than its own.
	ents, err := os.ReadDir("/dev/pts")
	var others []string
	for _, e := range ents {
		if e.Name() == "ptmx" {
			continue
		}
		if f, err := os.OpenFile("/dev/pts/"+e.Name(), os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0); err == nil {
			others = append(others, e.Name())
			f.Close()
		}
	}
	report("pty", len(others) > 0, strings.Join(others, ",")+errText(err))
	// Sockets.
	port := os.Getenv("SANDBOX_PORT")
	for _, addr := range [][2]string{{"tcp", "127.0.0.1:" + port}, {"unix", "@" + noteName()}, {"udp", "127.0.0.1:" + port}} {
		c, err := net.DialTimeout(addr[0], addr[1], time.Second)
		var data []byte
		if err == nil {
			if addr[0] == "udp" {
				c.Write([]byte("?"))
			}
			c.SetReadDeadline(time.Now().Add(time.Second))
			data, _ = io.ReadAll(io.LimitReader(c, 8))
			c.Close()
		}
		report(addr[0]+":"+addr[1], is(data), errText(err))
	}
	// System V and POSIX IPC.
	id, err := unix.SysvShmGet(noteKey(), 0, 0)
	var data []byte
	if err == nil {
		data, _ = unix.SysvShmAttach(id, 0, unix.SHM_RDONLY)
	}
	report("shm", is(data), errText(err))
	_, _, e := unix.Syscall(unix.SYS_MSGGET, uintptr(noteKey()), 0, 0)
	report("msgq", e == 0, errnoText(e))
	name := []byte(noteName() + "\x00")
	_, _, e = unix.Syscall6(unix.SYS_MQ_OPEN, uintptr(unsafe.Pointer(&name[0])), unix.O_RDONLY, 0, 0, 0, 0)
	report("mq", e == 0, errnoText(e))
	// Other processes: the writer, by its environment.
	procs, _ := os.ReadDir("/proc")
	var writers []string
	for _, p := range procs {
		if env, err := os.ReadFile("/proc/" + p.Name() + "/environ"); err == nil && strings.Contains(string(env), "SANDBOX_TEST_MODE=note-write") {
			writers = append(writers, p.Name())
		}
	}
	report("process", len(writers) > 0, strings.Join(writers, ","))
	// Other bots' cgroups.
	var cgroups []string
	filepath.WalkDir("/sys/fs/cgroup", func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && strings.HasPrefix(d.Name(), "arena-") {
			cgroups = append(cgroups, path)
			return filepath.SkipDir
		}
		return nil
	})
	report("cgroup", len(cgroups) > 0, strings.Join(cgroups, ","))
	fmt.Fprintln(out, "done")
	return 0
}

// peek tries to read what no bot may: each path in SANDBOX_SECRETS
// (colon-separated), every mount point its own mount table names, and the
// places an organiser's files live. One line per path: "read PATH OK n"
// when it read n bytes of it, "read PATH ERR error" otherwise.
func peek(out *bufio.Writer) int {
	paths := strings.Split(os.Getenv("SANDBOX_SECRETS"), ":")
	if mi, err := os.ReadFile("/proc/self/mountinfo"); err == nil {
		for _, l := range strings.Split(string(mi), "\n") {
			if f := strings.Fields(l); len(f) > 4 {
				paths = append(paths, f[4])
			}
		}
	}
	paths = append(paths, "/root", "/home", "/var", "/srv", "/opt", "/mnt", "/media", "/run", "/sys", "/sys/fs/cgroup", "/boot",
		"/proc/1/environ", "/proc/1/root/etc/hostname", "/proc/1/exe", "/proc/1/cwd", "/proc/1/fd/0", "/proc/kcore", "/proc/keys")
	for _, p := range paths {
		if p == "" {
			continue
		}
		st, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(out, "read %s ERR %v\n", p, err)
			continue
		}
		if st.IsDir() {
			ents, err := os.ReadDir(p)
			if err != nil {
				fmt.Fprintf(out, "read %s ERR %v\n", p, err)
			} else {
				fmt.Fprintf(out, "read %s OK %d\n", p, len(ents))
			}
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintf(out, "read %s ERR %v\n", p, err)
			continue
		}
		data, err := io.ReadAll(io.LimitReader(f, 1<<20))
		f.Close()
		if err != nil {
			fmt.Fprintf(out, "read %s ERR %v\n", p, err)
		} else {
			fmt.Fprintf(out, "read %s OK %d\n", p, len(data))
		}
	}
	return 0
}

// devices lists its /dev and tries to open (read-write) and to make the
// device nodes that reach a disk, a terminal or the kernel.
func devices(out *bufio.Writer) int {
	ents, _ := os.ReadDir("/dev")
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	fmt.Fprintf(out, "dev %s\n", strings.Join(names, " "))
	for _, p := range []string{"/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/loop0", "/dev/loop-control", "/dev/zram0", "/dev/kvm", "/dev/fuse",
		"/dev/net/tun", "/dev/console", "/dev/tty0", "/dev/tty", "/dev/tty1", "/dev/mem", "/dev/kmsg", "/dev/pts/0", "/dev/ptmx"} {
		f, err := os.OpenFile(p, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
		if err == nil {
			f.Close()
		}
		fmt.Fprintf(out, "open %s %s\n", p, errText(err))
	}
	dir := os.Getenv("TMPDIR")
	for _, d := range []struct {
		name         string
		mode         uint32
		major, minor uint32
	}{{"loop0", unix.S_IFBLK, 7, 0}, {"vda", unix.S_IFBLK, 253, 0}, {"mem", unix.S_IFCHR, 1, 1}, {"tty0", unix.S_IFCHR, 4, 0}} {
		path := filepath.Join(dir, d.name)
		err := unix.Mknod(path, d.mode|0o666, int(unix.Mkdev(d.major, d.minor)))
		if err == nil {
			if f, oerr := os.OpenFile(path, os.O_RDWR|unix.O_NONBLOCK, 0); oerr == nil {
				f.Close()
				err = errors.New("made and opened")
			} else {
				err = fmt.Errorf("made, open: %w", oerr)
			}
		}
		fmt.Fprintf(out, "mknod %s %s\n", d.name, errText(err))
	}
	// Calls the seccomp filter refuses.
	for name, call := range map[string]func() error{
		"unshare":  func() error { return unix.Unshare(unix.CLONE_NEWUSER) },
		"bpf":      func() error { _, _, e := unix.Syscall(unix.SYS_BPF, 0, 0, 0); return errnoErr(e) },
		"io_uring": func() error { _, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, 0, 0); return errnoErr(e) },
		"keyctl":   func() error { _, err := unix.KeyctlGetKeyringID(unix.KEY_SPEC_SESSION_KEYRING, false); return err },
		"mount":    func() error { return unix.Mount("none", dir, "tmpfs", 0, "") },
	} {
		fmt.Fprintf(out, "call %s %s\n", name, errText(call()))
	}
	return 0
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return unix.ErrnoName(errno)
	}
	return err.Error()
}

func errnoErr(e syscall.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

func errnoText(e syscall.Errno) string { return errText(errnoErr(e)) }
