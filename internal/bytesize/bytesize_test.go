package bytesize_test

import (
	"testing"

	"github.com/arena-dev/arena/internal/bytesize"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1048576", 1 << 20, true},
		{"512KiB", 512 << 10, true},
		{"64MiB", 64 << 20, true},
		{"1GiB", 1 << 30, true},
		{"2g", 2 << 30, true},
		{" 1.5M ", 3 << 19, true},
		{"unlimited", 0, true},
		{"0", 0, true},
		{"lots", 0, false},
		{"-1MiB", 0, false},
		{"12XB", 0, false},
		{"9999999TiB", 0, false},
	} {
		got, err := bytesize.Parse(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Parse(%q) = %d, %v; want %d (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		in   int64
		want string
	}{
		{0, "unlimited"}, {-5, "unlimited"}, {1 << 30, "1GiB"}, {256 << 20, "256MiB"}, {3 << 10, "3KiB"}, {1 << 40, "1TiB"}, {1000, "1000"},
	} {
		if got := bytesize.Format(tc.in); got != tc.want {
			t.Errorf("Format(%d) = %s, want %s", tc.in, got, tc.want)
		}
		if tc.in > 0 {
			if back, err := bytesize.Parse(bytesize.Format(tc.in)); err != nil || back != tc.in {
				t.Errorf("Parse(Format(%d)) = %d, %v", tc.in, back, err)
			}
		}
	}
}
