package procfs

import (
	"reflect"
	"runtime"
	"testing"
)

func TestParseMountinfo(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		want       []Mount // nil: the line is skipped
	}{
		{"proc(5)'s example", `36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue`,
			[]Mount{{Root: "/mnt1", Point: "/mnt2", Options: "rw,noatime", Optional: []string{"master:1"}, FSType: "ext3", Source: "/dev/root", SuperOptions: "rw,errors=continue"}}},
		{"no optional fields", `22 27 0:21 / /proc rw,relatime - proc proc rw`,
			[]Mount{{Root: "/", Point: "/proc", Options: "rw,relatime", FSType: "proc", Source: "proc", SuperOptions: "rw"}}},
		{"two optional fields", `28 1 8:1 / / rw,relatime shared:1 master:2 - ext4 /dev/sda1 rw`,
			[]Mount{{Root: "/", Point: "/", Options: "rw,relatime", Optional: []string{"shared:1", "master:2"}, FSType: "ext4", Source: "/dev/sda1", SuperOptions: "rw"}}},
		{"cgroup2", `35 28 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot`,
			[]Mount{{Root: "/", Point: "/sys/fs/cgroup", Options: "rw,nosuid,nodev,noexec,relatime", Optional: []string{"shared:9"}, FSType: "cgroup2", Source: "cgroup2", SuperOptions: "rw,nsdelegate,memory_recursiveprot"}}},
		{"cgroup v1 in a container", `1181 1175 0:27 /docker/4f1a /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime master:14 - cgroup cgroup rw,memory`,
			[]Mount{{Root: "/docker/4f1a", Point: "/sys/fs/cgroup/memory", Options: "ro,nosuid,nodev,noexec,relatime", Optional: []string{"master:14"}, FSType: "cgroup", Source: "cgroup", SuperOptions: "rw,memory"}}},
		{"escaped spaces", `1032 1011 0:66 /a\040b /home/u/My\040Drive rw,relatime - fuse.rclone My\040Remote: rw,user_id=1000`,
			[]Mount{{Root: "/a b", Point: "/home/u/My Drive", Options: "rw,relatime", FSType: "fuse.rclone", Source: "My Remote:", SuperOptions: "rw,user_id=1000"}}},
		{"no source nor super options", `50 27 0:40 / /x rw - tmpfs`,
			[]Mount{{Root: "/", Point: "/x", Options: "rw", FSType: "tmpfs"}}},
		{"two lines", "22 27 0:21 / /proc rw - proc proc rw\n23 27 0:22 / /sys rw - sysfs sysfs rw\n",
			[]Mount{{Root: "/", Point: "/proc", Options: "rw", FSType: "proc", Source: "proc", SuperOptions: "rw"},
				{Root: "/", Point: "/sys", Options: "rw", FSType: "sysfs", Source: "sysfs", SuperOptions: "rw"}}},
		{"empty", ``, nil},
		{"five fields: no options", `36 35 98:0 /mnt1 /mnt2 - ext3 /dev/root rw`, nil},
		{"no separator", `36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 ext3 /dev/root rw`, nil},
		{"no file system type", `36 35 98:0 /mnt1 /mnt2 rw - `, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ParseMountinfo([]byte(tc.line)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseMountinfo(%q) =\n %+v\nwant\n %+v", tc.line, got, tc.want)
			}
		})
	}
}

// Unescape reads paths as mountinfo writes them.
func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`/plain`:            "/plain",
		`/with\040space`:    "/with space",
		`/tab\011and\134bs`: "/tab\tand\\bs",
		`/trailing\04`:      `/trailing\04`,
		`/not\08octal`:      `/not\08octal`,
	} {
		if got := Unescape(in); got != want {
			t.Errorf("Unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMounts(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := Mounts(); err == nil {
			t.Error("Mounts succeeded without /proc")
		}
		return
	}
	ms, err := Mounts()
	if err != nil {
		t.Fatal(err)
	}
	root := false
	for _, m := range ms {
		root = root || m.Point == "/"
	}
	if !root {
		t.Errorf("no mount at / among %d", len(ms))
	}
}
