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
