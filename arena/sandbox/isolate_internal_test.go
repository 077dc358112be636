//go:build linux

package sandbox

import "testing"

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		path, dir string
		want      bool
	}{
		{"/out", "/out", true},
		{"/out/bots/a", "/out", true},
		{"/output", "/out", false},
		{"/", "/out", false},
		{"/work/..out", "/work", true},
	} {
		if got := within(tc.path, tc.dir); got != tc.want {
			t.Errorf("within(%q, %q) = %v, want %v", tc.path, tc.dir, got, tc.want)
		}
	}
}

// unescapeMount reads mount points as /proc/self/mountinfo writes them
// (used where mount_setattr is missing, before Linux 5.12).
func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`/plain`:            "/plain",
		`/with\040space`:    "/with space",
		`/tab\011and\134bs`: "/tab\tand\\bs",
		`/trailing\04`:      `/trailing\04`,
	} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}
