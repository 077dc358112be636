//go:build linux

package devcgroup

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestRuleString(t *testing.T) {
	for _, tc := range []struct {
		r    Rule
		want string
	}{
		{Rule{'c', 1, 3, "rwm"}, "c 1:3 rwm"},
		{Rule{'c', 136, Any, "rw"}, "c 136:* rw"},
		{Rule{'b', Any, Any, "m"}, "b *:* m"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%#v: %q, want %q", tc.r, got, tc.want)
		}
	}
}

// Bad rules are refused before anything is written or loaded: neither
// call gets as far as the (missing) directory.
func TestBadRules(t *testing.T) {
	for _, tc := range []struct {
		r    Rule
		want string
	}{
		{Rule{'a', 1, 3, "rwm"}, "type 'a' is neither 'c' nor 'b'"},
		{Rule{'c', -2, 3, "r"}, "major -2 out of range"},
		{Rule{'c', 4096, 3, "r"}, "major 4096 out of range"},
		{Rule{'c', 1, 1 << 20, "r"}, "minor 1048576 out of range"},
		{Rule{'c', 1, 3, ""}, "no access"},
		{Rule{'c', 1, 3, "rx"}, `access "rx" is not a subset`},
	} {
		for name, f := range map[string]func(string, []Rule) error{"V1": V1, "V2": V2} {
			err := f("/nonexistent", []Rule{{'c', 1, 5, "r"}, tc.r})
			if err == nil || !strings.Contains(err.Error(), "rule 1 ("+tc.r.String()+"): "+tc.want) {
				t.Errorf("%s(%s): %v, want rule 1 ... %s", name, tc.r, err, tc.want)
			}
		}
	}
}

// dev is a device number, parsed from "c 1:3".
type dev struct {
	typ          byte
	major, minor uint32
}

func parseDev(s string) dev {
	var d dev
	if _, err := fmt.Sscanf(s, "%c %d:%d", &d.typ, &d.major, &d.minor); err != nil {
		panic(s + ": " + err.Error())
	}
	return d
}

func (d dev) node() string { return fmt.Sprintf("%c-%d-%d", d.typ, d.major, d.minor) }

// A check is one access to one device and whether the rules allow it.
type check struct {
	dev    string // "c 1:3"
	access string // "r", "w", "rw" (one open for both) or "m"
	allow  bool
}

// ruleCases say what an allow-list means. TestProgram runs them on the
// generated program, TestRules on real processes under V1 and V2.
var ruleCases = []struct {
	name  string
	lists [][]Rule // applied one after the other to the same cgroup
	only  string   // "v1" or "v2" where they differ; "" for both
	want  []check
}{
	{
		name:  "empty list denies all",
		lists: [][]Rule{nil},
		want:  []check{{"c 1:3", "r", false}, {"c 1:3", "m", false}, {"b 7:0", "r", false}},
	},
	{
		name:  "read only",
		lists: [][]Rule{{{'c', 1, 3, "r"}}},
		want: []check{
			{"c 1:3", "r", true}, {"c 1:3", "w", false}, {"c 1:3", "rw", false},
			{"c 1:3", "m", false}, {"c 1:5", "r", false}, {"b 1:3", "r", false},
		},
	},
	{
		name:  "write and mknod",
		lists: [][]Rule{{{'c', 1, 3, "wm"}}},
		want:  []check{{"c 1:3", "r", false}, {"c 1:3", "w", true}, {"c 1:3", "rw", false}, {"c 1:3", "m", true}},
	},
	{
		name:  "any minor",
		lists: [][]Rule{{{'c', 1, Any, "rw"}}},
		want: []check{
			{"c 1:3", "rw", true}, {"c 1:5", "rw", true}, {"c 1:9", "r", true},
			{"c 1:3", "m", false}, {"c 4:0", "rw", false}, {"b 1:3", "r", false},
		},
	},
	{
		name:  "any device, mknod only",
		lists: [][]Rule{{{'c', Any, Any, "m"}}},
		want:  []check{{"c 1:3", "m", true}, {"c 10:232", "m", true}, {"c 1:3", "r", false}, {"b 7:0", "m", false}},
	},
	{
		name:  "block device",
		lists: [][]Rule{{{'b', 7, 0, "rw"}}},
		want:  []check{{"b 7:0", "r", true}, {"b 7:0", "rw", true}, {"b 7:0", "m", false}, {"b 7:1", "r", false}, {"c 7:0", "r", false}},
	},
	{
		name:  "rules for the same device are merged",
		lists: [][]Rule{{{'c', 1, 3, "r"}, {'c', 1, 3, "w"}}},
		want:  []check{{"c 1:3", "rw", true}, {"c 1:3", "m", false}},
	},
	{
		// As in the v1 controller: one rule must grant the whole access.
		name:  "overlapping rules are not pooled",
		lists: [][]Rule{{{'c', 1, Any, "r"}, {'c', 1, 3, "w"}}},
		want:  []check{{"c 1:3", "r", true}, {"c 1:3", "w", true}, {"c 1:3", "rw", false}, {"c 1:5", "w", false}},
	},
	{
		name:  "Bots",
		lists: [][]Rule{Bots},
		want: []check{
			{"c 1:3", "rw", true}, {"c 1:3", "m", true}, {"c 1:5", "rw", true}, {"c 1:7", "rw", true},
			{"c 1:8", "rw", true}, {"c 1:9", "rw", true}, {"c 5:2", "rw", true},
			{"c 136:0", "rw", true}, {"c 143:5", "r", true},
			{"c 1:1", "r", false}, {"c 1:2", "r", false}, {"c 1:4", "rw", false}, {"c 1:11", "w", false}, // mem, kmem, port, kmsg
			{"c 5:0", "rw", false}, {"c 5:1", "rw", false}, {"c 4:0", "rw", false}, {"c 144:0", "r", false},
			{"c 10:200", "rw", false}, {"c 10:229", "rw", false}, {"c 10:232", "rw", false},
			{"b 7:0", "rw", false}, {"b 7:0", "r", false}, {"b 7:0", "m", false}, {"b 1:3", "r", false},
		},
	},
	{
		name:  "applied again, narrower",
		lists: [][]Rule{Bots, {{'c', 1, 3, "rw"}}},
		want:  []check{{"c 1:3", "rw", true}, {"c 1:5", "rw", false}},
	},
	{
		name:  "applied again, wider: v1 replaces the list",
		only:  "v1",
		lists: [][]Rule{{{'c', 1, 3, "rw"}}, Bots},
		want:  []check{{"c 1:3", "rw", true}, {"c 1:5", "rw", true}},
	},
	{
		name:  "applied again, wider: v2 programs must all allow",
		only:  "v2",
		lists: [][]Rule{{{'c', 1, 3, "rw"}}, Bots},
		want:  []check{{"c 1:3", "rw", true}, {"c 1:5", "rw", false}},
	},
}

func accessOf(s string) uint32 { return uint32(accessBits(s)) }

// TestProgram runs the generated program, as the kernel would, on every
// check of ruleCases: the kernel does not test-run device programs
// (BPF_PROG_TEST_RUN says ENOTSUPP for them), and this needs no root.
func TestProgram(t *testing.T) {
	for _, tc := range ruleCases {
		if tc.only == "v1" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range tc.want {
				d := parseDev(c.dev)
				typ := uint32(unix.BPF_DEVCG_DEV_CHAR)
				if d.typ == 'b' {
					typ = unix.BPF_DEVCG_DEV_BLOCK
				}
				// Attached programs must all allow.
				allow := true
				for _, list := range tc.lists {
					if interpret(t, encode(program(list)), typ|accessOf(c.access)<<16, d.major, d.minor) == 0 {
						allow = false
					}
				}
				if allow != c.allow {
					t.Errorf("%s %s: allowed %v, want %v", c.dev, c.access, allow, c.allow)
				}
			}
		})
	}
}

// interpret runs an encoded program on struct bpf_cgroup_dev_ctx
// {accessType, major, minor}, for the instructions program emits, and
// fails the test on anything the kernel's verifier would refuse: an
// unknown instruction, a read of a register never written, a jump out of
// the program.
func interpret(t *testing.T, code []byte, accessType, major, minor uint32) uint64 {
	t.Helper()
	ctx := [3]uint32{accessType, major, minor}
	var reg [11]uint64
	var set [11]bool
	set[rCtx] = true
	little := binary.NativeEndian.Uint16([]byte{1, 0}) == 1
	n := len(code) / 8
	for pc := 0; pc < n; pc++ {
		b := code[8*pc : 8*pc+8]
		dst, src := b[1]&0xf, b[1]>>4
		if !little {
			dst, src = b[1]>>4, b[1]&0xf
		}
		off := int(int16(binary.NativeEndian.Uint16(b[2:])))
		imm := int32(binary.NativeEndian.Uint32(b[4:]))
		use := func(r uint8) uint64 {
			if r > 10 || !set[r] {
				t.Fatalf("pc %d: reads r%d, never written", pc, r)
			}
			return reg[r]
		}
		jump := func(taken bool) {
			if taken {
				pc += off
			}
			if pc+1 < 0 || pc+1 >= n {
				t.Fatalf("pc %d: jumps out of the program", pc)
			}
		}
		switch b[0] {
		case unix.BPF_LDX | unix.BPF_MEM | unix.BPF_W:
			if src != rCtx || off < 0 || off > 8 || off%4 != 0 {
				t.Fatalf("pc %d: load from r%d%+d, not the context", pc, src, off)
			}
			reg[dst], set[dst] = uint64(ctx[off/4]), true
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			reg[dst] = uint64(uint32(use(dst)) & uint32(imm))
		case unix.BPF_ALU | unix.BPF_RSH | unix.BPF_K:
			reg[dst] = uint64(uint32(use(dst)) >> uint32(imm))
		case unix.BPF_ALU64 | unix.BPF_MOV | unix.BPF_K:
			reg[dst], set[dst] = uint64(int64(imm)), true
		case unix.BPF_JMP | unix.BPF_JNE | unix.BPF_K:
			jump(use(dst) != uint64(int64(imm)))
		case unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			jump(use(dst)&uint64(int64(imm)) != 0)
		case unix.BPF_JMP | unix.BPF_EXIT:
			return use(r0)
		default:
			t.Fatalf("pc %d: unexpected instruction %#x", pc, b[0])
		}
	}
	t.Fatal("the program runs off its end")
	return 0
}

// The kernel's verifier log is in the error of a program it refuses.
func TestVerifierLog(t *testing.T) {
	if err := Supported(); err != nil {
		t.Skipf("no device programs here: %v", err)
	}
	// Exits without setting r0.
	_, err := load([]insn{{code: unix.BPF_JMP | unix.BPF_EXIT}})
	if err == nil || !strings.Contains(err.Error(), "verifier log:") || !strings.Contains(err.Error(), "R0 !read_ok") {
		t.Fatalf("error %v, want the verifier's R0 !read_ok", err)
	}
	t.Logf("the error of a refused program: %v", err)
}

// V2 looks at the directory before it loads anything.
func TestV2NotCgroup(t *testing.T) {
	dir := t.TempDir()
	err := V2(dir, Bots)
	if err == nil || !strings.Contains(err.Error(), dir+" is not a cgroup v2 directory") {
		t.Fatalf("V2(%s): %v, want not a cgroup v2 directory", dir, err)
	}
}

// TestRules checks ruleCases on real processes under each filter: the
// control (a process in a cgroup of its own without the filter) gives
// what the device's driver says; under the filter an allowed access must
// come to the very same and a denied one to EPERM.
func TestRules(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			b.skip(t)
			nodes := nodeDir(t)
			made := map[string]bool{}
			for _, tc := range ruleCases {
				for _, c := range tc.want {
					if d := parseDev(c.dev); c.access != "m" && !made[d.node()] {
						mknod(t, filepath.Join(nodes, d.node()), d.typ, d.major, d.minor)
						made[d.node()] = true
					}
				}
			}
			// Each run makes its mknod nodes in a directory of its own.
			seq := 0
			opsOf := func(checks []check) []op {
				seq++
				dir := filepath.Join(nodes, "run"+strconv.Itoa(seq))
				if err := os.Mkdir(dir, 0o700); err != nil {
					t.Fatal(err)
				}
				var ops []op
				for i, c := range checks {
					d := parseDev(c.dev)
					if c.access == "m" {
						ops = append(ops, op{Kind: "mknod", Path: filepath.Join(dir, strconv.Itoa(i)), Mode: string(d.typ), Major: d.major, Minor: d.minor})
					} else {
						ops = append(ops, op{Kind: "open", Path: filepath.Join(nodes, d.node()), Mode: c.access})
					}
				}
				return ops
			}
			var all []check
			for _, tc := range ruleCases {
				all = append(all, tc.want...)
			}
			control := map[check]result{}
			for i, r := range runHelper(t, []string{newCgroup(t, b.parent)}, opsOf(all)) {
				control[all[i]] = r
			}
			for _, tc := range ruleCases {
				if tc.only != "" && tc.only != b.name {
					continue
				}
				t.Run(tc.name, func(t *testing.T) {
					cg := newCgroup(t, b.parent)
					for _, list := range tc.lists {
						if err := b.apply(cg, list); err != nil {
							t.Fatal(err)
						}
					}
					for i, r := range runHelper(t, []string{cg}, opsOf(tc.want)) {
						c, ctl := tc.want[i], control[tc.want[i]]
						switch {
						case c.allow && r.Errno != ctl.Errno:
							t.Errorf("%s %s allowed: %v, want %v as without the filter", c.dev, c.access, r, ctl)
						case !c.allow && r.Errno != unix.EPERM:
							t.Errorf("%s %s denied: %v, want EPERM", c.dev, c.access, r)
						case !c.allow && ctl.Errno == unix.EPERM:
							t.Logf("%s %s: EPERM even without the filter, so not a test of it", c.dev, c.access)
						}
					}
				})
			}
		})
	}
}

func TestBotsV1(t *testing.T) { testBots(t, "v1") }
func TestBotsV2(t *testing.T) { testBots(t, "v2") }

// testBots runs a process in a cgroup filtered with Bots and one in a
// cgroup without a filter (the control), both trying what a bot needs
// and what bots were seen to open. What a bot needs must work in both;
// the rest must fail with EPERM under the filter, and not with EPERM
// in the control, which shows the filter made the difference.
func testBots(t *testing.T, name string) {
	var b backend
	for _, x := range backends(t) {
		if x.name == name {
			b = x
		}
	}
	b.skip(t)
	nodes := nodeDir(t)

	var need, deny []op
	open := func(list *[]op, path string, modes ...string) {
		for _, m := range modes {
			*list = append(*list, op{Kind: "open", Path: path, Mode: m})
		}
	}
	for _, p := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"} {
		open(&need, p, "r", "w", "rw")
	}
	if _, err := os.Stat("/dev/ptmx"); err == nil {
		need = append(need, op{Kind: "pty"})
	} else {
		t.Log("no /dev/ptmx: ptys not tried")
	}
	// The node a bot makes of an allowed device works; the run's own
	// directory, as the control makes the same.
	mkdir := func(name string) string {
		dir := filepath.Join(nodes, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for _, p := range []string{"/dev/kvm", "/dev/net/tun", "/dev/fuse", "/dev/console", "/dev/tty0", "/dev/tty", "/dev/loop0", "/dev/zram0", "/dev/mem"} {
		if _, err := os.Stat(p); err != nil {
			t.Logf("no %s here", p)
			continue
		}
		open(&deny, p, "r", "rw")
	}
	// Nodes of our own, whatever /dev holds: loop0 and /dev/mem by number,
	// and the first block device of /sys/dev/block (read only: it may be
	// this machine's disk).
	mknod(t, filepath.Join(nodes, "loop0"), 'b', 7, 0)
	mknod(t, filepath.Join(nodes, "mem"), 'c', 1, 1)
	open(&deny, filepath.Join(nodes, "loop0"), "r", "rw")
	open(&deny, filepath.Join(nodes, "mem"), "r", "rw")
	if ents, _ := os.ReadDir("/sys/dev/block"); len(ents) > 0 {
		var major, minor uint32
		if _, err := fmt.Sscanf(ents[0].Name(), "%d:%d", &major, &minor); err == nil {
			mknod(t, filepath.Join(nodes, "block"), 'b', major, minor)
			open(&deny, filepath.Join(nodes, "block"), "r")
			t.Logf("block device %d:%d from /sys/dev/block", major, minor)
		}
	}

	// The same ops in each cgroup: the needed ones first, each run making
	// its nodes in a directory of its own.
	ops := func(cg string) []op {
		dir := mkdir(filepath.Base(cg))
		ops := append(append([]op(nil), need...),
			op{Kind: "mknod", Path: filepath.Join(dir, "null"), Mode: "c", Major: 1, Minor: 3},
			op{Kind: "open", Path: filepath.Join(dir, "null"), Mode: "rw"})
		ops = append(ops, deny...)
		return append(ops,
			op{Kind: "mknod", Path: filepath.Join(dir, "mem"), Mode: "c", Major: 1, Minor: 1},
			op{Kind: "mknod", Path: filepath.Join(dir, "loop0"), Mode: "b", Major: 7, Minor: 0},
			op{Kind: "mknod", Path: filepath.Join(dir, "kvm"), Mode: "c", Major: 10, Minor: 232})
	}
	nNeed := len(need) + 2
	ctl := newCgroup(t, b.parent)
	filtered := newCgroup(t, b.parent)
	if err := b.apply(filtered, Bots); err != nil {
		t.Fatal(err)
	}
	want := runHelper(t, []string{ctl}, ops(ctl))
	tried := ops(filtered)
	got := runHelper(t, []string{filtered}, tried)
	informative := 0
	var lines []string
	for i := range got {
		desc := tried[i].String()
		lines = append(lines, fmt.Sprintf("  %-48s control: %-7s filtered: %s", desc, short(want[i]), short(got[i])))
		if i < nNeed {
			if want[i].Errno != 0 || got[i].Errno != 0 {
				t.Errorf("%s (needed): control %v, filtered %v; want both ok", desc, want[i], got[i])
			}
			continue
		}
		if got[i].Errno != unix.EPERM {
			t.Errorf("%s: filtered %v, want EPERM", desc, got[i])
		}
		if want[i].Errno == unix.EPERM {
			t.Logf("%s: EPERM even without the filter, so not a test of it", desc)
			continue
		}
		informative++
	}
	t.Logf("%s, Bots:\n%s", name, strings.Join(lines, "\n"))
	if informative == 0 {
		t.Error("every denied access failed without the filter too: the test shows nothing")
	}
}

func short(r result) string {
	if r.Errno == 0 {
		return "ok"
	}
	if name := unix.ErrnoName(r.Errno); name != "" {
		return name
	}
	return r.Err
}
