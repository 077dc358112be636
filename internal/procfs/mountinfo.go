package procfs

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Mount is one line of a mountinfo file (proc(5)):
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//
// Paths are unescaped (mountinfo writes a space as \040).
type Mount struct {
	Root    string // the directory of the file system that is mounted ("/mnt1")
	Point   string // where it is mounted ("/mnt2")
	Options string // the mount's options ("rw,noatime")
	// Optional are the optional fields ("master:1"); none is common.
	Optional []string
	FSType   string // "ext3", "cgroup2"
	Source   string // "/dev/root"; "" when the line has none
	// SuperOptions are the file system's options ("rw,errors=continue");
	// "" when the line has none.
	SuperOptions string
}

// Mounts reads the mounts of the calling process's namespace
// (/proc/self/mountinfo).
func Mounts() ([]Mount, error) {
	data, err := os.ReadFile(filepath.Join(Root, "self", "mountinfo"))
	if err != nil {
		return nil, err
	}
	return ParseMountinfo(data), nil
}

// ParseMountinfo reads the lines of a mountinfo file; a line without its
// six fields, the " - " separator and a file system type is skipped.
func ParseMountinfo(data []byte) []Mount {
	var out []Mount
	for _, line := range strings.Split(string(data), "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		f, g := strings.Fields(pre), strings.Fields(post)
		if !ok || len(f) < 6 || len(g) < 1 {
			continue
		}
		m := Mount{Root: Unescape(f[3]), Point: Unescape(f[4]), Options: f[5], Optional: f[6:], FSType: g[0]}
		if len(g) > 1 {
			m.Source = Unescape(g[1])
		}
		if len(g) > 2 {
			m.SuperOptions = g[2]
		}
		if len(m.Optional) == 0 {
			m.Optional = nil
		}
		out = append(out, m)
	}
	return out
}

// Unescape undoes mountinfo's octal escapes (\040 for a space, \011 a
// tab, \012 a newline, \134 a backslash); anything else stays.
func Unescape(s string) string {
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
