//go:build linux

package sandbox_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"

	"github.com/arena-dev/arena/internal/testkit"
)

// Attacks on the hidden-information protections: each test runs real bot
// processes (this test binary in an attacking mode) that try a channel and
// must fail, and a control that shows the same attempt succeeding where
// the protection is absent, so the test can fail.

// channelProtection is the protection that must close a channel: where
// Describe reports it missing, the channel may stay open (the arena
// says so at start); where it is reported in place, the channel must be
// closed.
func channelProtection(channel string) string {
	name, rest, _ := strings.Cut(channel, ":")
	switch name {
	case "key", "keyring":
		return sandbox.ProtectSyscalls
	case "locks", "flock", "inotify":
		return sandbox.ProtectFiles
	case "tcp", "udp", "unix":
		return sandbox.ProtectNetwork
	}
	_ = rest
	return sandbox.ProtectIsolation
}

// noteRun is a writer and a reader process of one bot, one leaving a note
// by every channel, the other looking for it.
type noteRun struct {
	t       *testing.T
	start   func(mode string, env ...string) *transport.Process
	env     []string
	note    uint64
	ipcKey  int
	port    int
	results map[string]string // channel -> "found DETAIL" / "none DETAIL"
}

func newNoteRun(t *testing.T, start func(mode string, env ...string) *transport.Process) *noteRun {
	r := &noteRun{t: t, start: start, note: rand.Uint64() | 1<<63 | 1, ipcKey: 1 + rand.IntN(1<<30), results: map[string]string{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r.port = ln.Addr().(*net.TCPAddr).Port
	ln.Close() // a free port for the writer to listen on
	r.env = []string{fmt.Sprintf("SANDBOX_NOTE=%x", r.note), fmt.Sprintf("SANDBOX_IPC_KEY=%d", r.ipcKey), fmt.Sprintf("SANDBOX_PORT=%d", r.port)}
	return r
}

// concurrently: a reader watching, a writer placing the note, the reader
// looking while the writer still holds everything; then a fresh reader
// after the writer's end (the next game of a duplicate pair).
func (r *noteRun) run() (placed string) {
	t := r.t
	reader := r.start("note-read", r.env...)
	if l := r.line(reader); l != "watching" {
		t.Fatalf("reader: %q (stderr %q)", l, reader.StderrTail())
	}
	writer := r.start("note-write", r.env...)
	placed = r.line(writer)
	if !strings.HasPrefix(placed, "placed serial=") {
		t.Fatalf("writer: %q (stderr %q)", placed, writer.StderrTail())
	}
	t.Logf("writer %s", placed)
	serial, files := parsePlaced(placed)
	check := fmt.Sprintf("check serial=%d files=%s\n", serial, files)
	r.collect(reader, check, "while the writer runs")
	if err := writer.Send([]byte("quit"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	exited(t, writer, 5*time.Second)
	writer.Close()
	later := r.start("note-read", r.env...)
	if l := r.line(later); l != "watching" {
		t.Fatalf("reader: %q", l)
	}
	r.collect(later, check, "after the writer's end")
	return placed
}

func parsePlaced(placed string) (serial int, files string) {
	f := strings.Fields(placed)
	fmt.Sscanf(f[1], "serial=%d", &serial)
	var paths []string
	for _, w := range f[2:] {
		if p, ok := strings.CutPrefix(w, "file:"); ok {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return serial, "-"
	}
	return serial, strings.Join(paths, ":")
}

func (r *noteRun) line(p *transport.Process) string {
	l, err := p.Receive(time.Now().Add(10 * time.Second))
	if err != nil {
		r.t.Fatalf("%v (stderr %q)", err, p.StderrTail())
	}
	return string(l)
}

// collect sends the check and records every channel's verdict (found in
// either reading wins).
func (r *noteRun) collect(reader *transport.Process, check, when string) {
	if err := reader.Send([]byte(strings.TrimSpace(check)), time.Now().Add(time.Second)); err != nil {
		r.t.Fatal(err)
	}
	for {
		l := r.line(reader)
		if l == "done" {
			return
		}
		f := strings.SplitN(l, " ", 4)
		if len(f) < 3 || f[0] != "channel" {
			r.t.Fatalf("reader said %q", l)
		}
		verdict := strings.Join(f[2:], " ")
		if prev, ok := r.results[f[1]]; !ok || !strings.HasPrefix(prev, "found") {
			if strings.HasPrefix(verdict, "found") {
				verdict += " (" + when + ")"
			}
			r.results[f[1]] = verdict
		}
	}
}

func (r *noteRun) found(channel string) bool { return strings.HasPrefix(r.results[channel], "found") }

// TestNoChannelBetweenProcesses: two processes of one bot, one placing a
// note by files, keyrings, locks, watches, ptys, sockets, System V and
// POSIX IPC, the other looking for it while the first runs and after it
// ended, told even the serial number of the key. In the sandbox nothing
// reaches the reader, but for what Describe reports missing; bare (the
// control), the same bots pass the note by most channels.
func TestNoChannelBetweenProcesses(t *testing.T) {
	t.Run("bare", func(t *testing.T) {
		dir := t.TempDir()
		r := newNoteRun(t, func(mode string, env ...string) *transport.Process {
			p, err := transport.Start(transport.ProcessConfig{Argv: []string{os.Args[0]}, Dir: dir,
				Env: append(append(os.Environ(), envMode+"="+mode, "SANDBOX_NOTE_FILES="+filepath.Join(dir, "note")), env...)})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { p.Close() })
			return p
		})
		placed := r.run()
		t.Cleanup(func() { removeNote(placed, r.ipcKey) })
		for _, ch := range []string{"file:" + filepath.Join(dir, "note"), "locks:/etc/passwd", "flock:/etc/passwd", "inotify:/etc/passwd",
			"locks:/dev/null", fmt.Sprintf("tcp:127.0.0.1:%d", r.port), fmt.Sprintf("unix:@arena-note-%d", r.ipcKey), "shm", "msgq", "mq", "process"} {
			if !r.found(ch) {
				t.Errorf("control: bare processes did not pass the note through %s: %s", ch, r.results[ch])
			}
		}
		if serial, _ := parsePlaced(placed); serial != 0 && !r.found(fmt.Sprintf("key:%d", serial)) {
			t.Errorf("control: bare processes did not pass the note through a key: %v", r.results)
		}
	})
	t.Run("sandboxed", func(t *testing.T) {
		sb := isolated(t, sandbox.DefaultLimits, sandbox.Options{})
		missing := map[string]string{}
		for _, p := range sb.Protections() {
			if p.Missing != "" {
				missing[p.Name] = p.Missing
			}
		}
		r := newNoteRun(t, func(mode string, env ...string) *transport.Process {
			p, _ := start(t, sb, mode, "", env...)
			return p
		})
		r.run()
		var channels []string
		for ch := range r.results {
			channels = append(channels, ch)
		}
		slices.Sort(channels)
		for _, ch := range channels {
			verdict := r.results[ch]
			if !strings.HasPrefix(verdict, "found") {
				continue
			}
			if why, ok := missing[channelProtection(ch)]; ok {
				t.Logf("open as reported: %s (%s missing: %s)", ch, channelProtection(ch), why)
				continue
			}
			t.Errorf("the note passed through %s: %s, though the sandbox provides %s", ch, verdict, channelProtection(ch))
		}
		if len(r.results) < 30 {
			t.Errorf("the reader tried only %d channels: %v", len(r.results), r.results)
		}
	})
}

// removeNote undoes what the control's writer left outside any sandbox.
func removeNote(placed string, key int) {
	for _, w := range strings.Fields(placed) {
		if s, ok := strings.CutPrefix(w, "key:"); ok {
			if id, err := strconv.Atoi(s); err == nil {
				unix.KeyctlInt(unix.KEYCTL_REVOKE, id, 0, 0, 0)
			}
		}
	}
	if id, err := unix.SysvShmGet(key, 0, 0); err == nil {
		unix.SysvShmCtl(id, unix.IPC_RMID, nil)
	}
	if id, _, e := unix.Syscall(unix.SYS_MSGGET, uintptr(key), 0, 0); e == 0 {
		unix.Syscall(unix.SYS_MSGCTL, id, unix.IPC_RMID, 0)
	}
	name := []byte(fmt.Sprintf("arena-note-%d\x00", key))
	unix.Syscall(unix.SYS_MQ_UNLINK, uintptr(unsafePointer(name)), 0, 0)
}

// TestSecretsAreOutOfReach: a bot reads every path it can name (its own
// mount table's, the usual places of an organiser's files, another
// process's /proc) looking for the tournament file, the output directory,
// the deal secret and another bot's program, even where they lie inside
// its own program directory.
func TestSecretsAreOutOfReach(t *testing.T) {
	base := t.TempDir()
	os.Chmod(base, 0o755)
	botDir := filepath.Join(base, "bots")
	out := filepath.Join(base, "out")
	for _, d := range []string{botDir, out, filepath.Join(botDir, "other")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, data string) string {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	cup := write(filepath.Join(botDir, "cup.yaml"), "seed: 42\n")    // the tournament file, beside the bots
	secret := write(filepath.Join(out, "deal-secret"), "0123abcd\n") // in the output directory
	replay := write(filepath.Join(out, "results.jsonl"), "{}\n")
	other := write(filepath.Join(botDir, "other", "bot.py"), "print('theirs')\n")
	mine := write(filepath.Join(botDir, "notes.txt"), "mine\n") // beside its own program: its own
	prog := filepath.Join(botDir, "bot")
	testkit.CopyExecutable(t, os.Args[0], prog)
	sb := isolated(t, sandbox.DefaultLimits, sandbox.Options{
		Hide:     []string{out, cup},
		Programs: []sandbox.Program{{Argv: []string{prog}}, {Argv: []string{"python3", other}}},
	})
	p := startCfg(t, sb, transport.ProcessConfig{Argv: []string{prog},
		Env: []string{envMode + "=peek", "SANDBOX_SECRETS=" + strings.Join([]string{cup, secret, replay, out, other, filepath.Dir(other), mine}, ":")}})
	got, _ := lines(p, 10*time.Second)
	read := map[string]string{}
	for _, l := range got {
		if f := strings.SplitN(l, " ", 3); len(f) == 3 && f[0] == "read" {
			read[f[1]] = f[2]
		}
	}
	if len(read) < 10 {
		t.Fatalf("the bot read little: %v (stderr %q)", got, p.StderrTail())
	}
	for _, path := range []string{cup, secret, replay, other} {
		if v := read[path]; strings.HasPrefix(v, "OK") && v != "OK 0" {
			t.Errorf("the bot read %s: %s", path, v)
		}
	}
	for path, v := range read {
		if strings.HasPrefix(path, out) && v != "OK 0" && !strings.HasPrefix(v, "ERR") {
			t.Errorf("the bot sees into the output directory: %s %s", path, v)
		}
	}
	if v := read[mine]; v != "OK 5" {
		t.Errorf("the bot cannot read a file beside its own program: %s", v)
	}
	for _, path := range []string{"/root", "/home", "/var", "/srv", "/opt", "/mnt", "/run", "/sys", "/sys/fs/cgroup", "/boot",
		"/proc/1/environ", "/proc/1/root/etc/hostname", "/proc/1/exe", "/proc/1/cwd", "/proc/1/fd/0"} {
		if v := read[path]; strings.HasPrefix(v, "OK") && v != "OK 0" {
			t.Errorf("the bot reads %s: %s", path, v)
		}
	}
}

// TestDevicesAreOutOfReach: a bot's /dev holds null, zero, full, random,
// urandom and its own ptys; it cannot open or make a disk, a terminal or
// the kernel's devices, and the calls the filter refuses fail.
func TestDevicesAreOutOfReach(t *testing.T) {
	sb := isolated(t, sandbox.DefaultLimits, sandbox.Options{})
	p, _ := start(t, sb, "devices", "")
	got, _ := lines(p, 10*time.Second)
	res := map[string]string{}
	for _, l := range got {
		if f := strings.SplitN(l, " ", 3); len(f) == 3 {
			res[f[0]+" "+f[1]] = f[2]
		}
	}
	if len(res) < 20 {
		t.Fatalf("the bot said %v (stderr %q)", got, p.StderrTail())
	}
	dev := strings.Fields(strings.TrimPrefix(got[0], "dev "))
	slices.Sort(dev)
	if want := []string{"fd", "full", "null", "ptmx", "pts", "random", "shm", "stderr", "stdin", "stdout", "urandom", "zero"}; !slices.Equal(dev, want) {
		t.Errorf("the bot's /dev holds %v, want %v", dev, want)
	}
	for k, v := range res {
		switch {
		case k == "open /dev/ptmx":
			if v != "ok" {
				t.Errorf("%s: %s, want its own ptys", k, v)
			}
		case strings.HasPrefix(k, "open "):
			if v != "ENOENT" {
				t.Errorf("%s: %s, want ENOENT", k, v)
			}
		case strings.HasPrefix(k, "mknod "):
			if v != "EPERM" {
				t.Errorf("%s: %s, want EPERM", k, v)
			}
		case strings.HasPrefix(k, "call "):
			if sb.Caps != nil && !strings.Contains(sb.Describe(), "seccomp") {
				continue
			}
			if v != "EPERM" {
				t.Errorf("%s: %s, want EPERM", k, v)
			}
		}
	}
}

// TestNoSupplementaryGroups: as root, an isolated bot has no
// supplementary group, even when the arena has some (the wrapper drops
// them on the thread it forks the second stage from; one left would show
// as the overflow gid in the bot's user namespace).
func TestNoSupplementaryGroups(t *testing.T) {
	sb := isolated(t, sandbox.DefaultLimits, sandbox.Options{})
	if !strings.Contains(sb.Describe(), "one uid per process") {
		t.Skip("bots run as the arena's uid here: " + sb.Describe())
	}
	old, err := syscall.Getgroups()
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setgroups(append(old, 4242)); err != nil {
		t.Fatal(err)
	}
	defer syscall.Setgroups(old)
	p := startCfg(t, sb, transport.ProcessConfig{Argv: []string{"sh", "-c", `grep Groups: /proc/self/status; read x`}})
	l, err := p.Receive(time.Now().Add(5 * time.Second))
	if err != nil || strings.Join(strings.Fields(string(l)), " ") != "Groups:" {
		t.Fatalf("the bot's groups: %q %v (stderr %q), want none", l, err, p.StderrTail())
	}
}

// TestOwnUIDPerProcess: as root, isolated bot processes running at once
// have uids of their own from the range, each mapped alone in a user
// namespace of its own; the uid is free again once the process ends.
func TestOwnUIDPerProcess(t *testing.T) {
	sb := isolated(t, sandbox.DefaultLimits, sandbox.Options{UIDs: "1879048192-1879048193"})
	if !strings.Contains(sb.Describe(), "one uid per process") {
		t.Skip("bots run as the arena's uid here: " + sb.Describe())
	}
	sh := func() *transport.Process {
		return startCfg(t, sb, transport.ProcessConfig{Argv: []string{"sh", "-c", `echo "$(id -u) $(cat /proc/self/uid_map | tr -s ' ')"; grep CapBnd /proc/self/status; read x`}})
	}
	a, b := sh(), sh()
	la, _ := a.Receive(time.Now().Add(5 * time.Second))
	lb, _ := b.Receive(time.Now().Add(5 * time.Second))
	ua, ub := strings.Fields(string(la)), strings.Fields(string(lb))
	if len(ua) != 4 || len(ub) != 4 || ua[0] == ub[0] || ua[1] != ua[0] || ua[2] != ua[0] || ua[3] != "1" {
		t.Fatalf("two processes at once: %q and %q (stderr %q %q), want two uids of the range, each mapped alone", la, lb, a.StderrTail(), b.StderrTail())
	}
	for _, p := range []*transport.Process{a, b} {
		if l, _ := p.Receive(time.Now().Add(5 * time.Second)); strings.Join(strings.Fields(string(l)), " ") != "CapBnd: 0000000000000000" {
			t.Errorf("bounding set: %q", l)
		}
	}
	// The range holds two: a third must wait for one to end.
	if _, err := sb.Start("tester", transport.ProcessConfig{Argv: []string{"true"}}); err == nil || !strings.Contains(err.Error(), "held by a running bot process") {
		t.Fatalf("a third process with two uids in the range: %v", err)
	}
	a.Close()
	c := sh()
	if lc, _ := c.Receive(time.Now().Add(5 * time.Second)); strings.Fields(string(lc))[0] != ua[0] {
		t.Errorf("the freed uid %s was not reused: %q", ua[0], lc)
	}
}

// TestBotUserHasNoBoundingSet: --bot-user empties the bounding set, with
// and without isolation (the wrapper used to drop it only when the bot
// kept capabilities).
func TestBotUserHasNoBoundingSet(t *testing.T) {
	if !sandbox.Detect().SetID {
		t.Skip("not root")
	}
	for _, iso := range []string{sandbox.IsolateNo, sandbox.IsolateAuto} {
		t.Run(iso, func(t *testing.T) {
			sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{User: "nobody", Isolate: iso})
			p := startCfg(t, sb, transport.ProcessConfig{Argv: []string{"sh", "-c", `grep -E "^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs)" /proc/self/status`}})
			got, _ := lines(p, 5*time.Second)
			if len(got) != 6 {
				t.Fatalf("got %v (stderr %q)", got, p.StderrTail())
			}
			for _, l := range got {
				f := strings.Fields(l)
				if want := map[bool]string{true: "1", false: "0000000000000000"}[f[0] == "NoNewPrivs:"]; f[1] != want {
					t.Errorf("%s, want %s", l, want)
				}
			}
		})
	}
}

// TestContestRefusesMissingProtections: --contest starts only with every
// protection, and names what is missing.
func TestContestRefusesMissingProtections(t *testing.T) {
	rw := t.TempDir()
	for _, tc := range []struct {
		name string
		opts sandbox.Options
		want []string // missing protections, as named
	}{
		{"host network", sandbox.Options{Network: sandbox.NetworkHost}, []string{sandbox.ProtectNetwork}},
		{"shared writable path", sandbox.Options{ReadWrite: []string{rw}}, []string{sandbox.ProtectFiles}},
		{"not isolated", sandbox.Options{Isolate: sandbox.IsolateNo}, []string{sandbox.ProtectIsolation, sandbox.ProtectUserNS, sandbox.ProtectUID, sandbox.ProtectFiles}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.Contest = true
			_, err := sandbox.New(sandbox.DefaultLimits, tc.opts)
			var ce *sandbox.ContestError
			if !asContest(err, &ce) {
				t.Fatalf("want a ContestError, got %v", err)
			}
			for _, w := range tc.want {
				if !slices.ContainsFunc(ce.Missing, func(p sandbox.Protection) bool { return p.Name == w }) {
					t.Errorf("%v does not name %s", err, w)
				}
			}
		})
	}
	// With everything this machine offers: it starts, or names what the
	// machine lacks, and Describe says the same.
	sb, err := sandbox.New(sandbox.DefaultLimits, sandbox.Options{Contest: true})
	plain := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{})
	var missing []string
	for _, p := range plain.Protections() {
		if p.Missing != "" {
			missing = append(missing, p.Name)
			if !strings.Contains(plain.Describe(), p.Name+" (") {
				t.Errorf("Describe does not report missing %s: %s", p.Name, plain.Describe())
			}
		}
	}
	if (err == nil) != (len(missing) == 0) {
		t.Fatalf("contest: %v, with %v missing", err, missing)
	}
	if sb != nil {
		t.Log("every protection is in place here: " + sb.Describe())
	} else {
		t.Logf("missing here: %v", err)
	}
}

func unsafePointer(b []byte) unsafe.Pointer { return unsafe.Pointer(&b[0]) }

func asContest(err error, target **sandbox.ContestError) bool { return errors.As(err, target) }

// TestDeviceCgroupWithoutIsolation: a bot that is not isolated sees the
// host's /dev; as root the device cgroup still keeps it from every disk,
// terminal and kernel device there (the control: the same opens by the
// test itself succeed).
func TestDeviceCgroupWithoutIsolation(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		t.Run(fmt.Sprint("bpf=", v2), func(t *testing.T) {
			if v2 {
				t.Cleanup(sandbox.PreferDeviceFilter())
			}
			deviceCgroupWithoutIsolation(t, map[bool]string{false: "cgroup v1", true: "cgroup v2 BPF"}[v2])
		})
	}
}

func deviceCgroupWithoutIsolation(t *testing.T, how string) {
	sb := newSandbox(t, sandbox.DefaultLimits, sandbox.Options{Isolate: sandbox.IsolateNo})
	if !strings.Contains(sb.Describe(), "devices: host's /dev + "+how) {
		t.Skip("no device " + how + " here: " + sb.Describe())
	}
	p, _ := start(t, sb, "devices", "")
	got, _ := lines(p, 10*time.Second)
	denied := 0
	for _, l := range got {
		f := strings.Fields(l)
		if len(f) != 3 || f[0] != "open" {
			continue
		}
		path, res := f[1], f[2]
		// What the test (root, unconfined) can open, the bot must not.
		ctl, err := os.OpenFile(path, os.O_RDWR|unix.O_NOCTTY|unix.O_NONBLOCK, 0)
		if err != nil {
			continue
		}
		ctl.Close()
		if res != "EPERM" {
			t.Errorf("the bot opened %s: %s", path, res)
		}
		denied++
	}
	if denied < 3 {
		t.Errorf("only %d devices tried that the host has: %v", denied, got)
	}
	t.Logf("%d of the host's devices refused", denied)
	for _, l := range got {
		if strings.HasPrefix(l, "dev ") && !strings.Contains(l, " null") {
			t.Errorf("the bot does not see the host's /dev: %s", l)
		}
	}
}
