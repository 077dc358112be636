package schema

import (
	"regexp"
	"strconv"
	"testing"
)

// IntPattern matches exactly the canonical integers from min to max, for
// the bounds the games use (min 0 or 1).
func TestIntPattern(t *testing.T) {
	for _, c := range [][2]int{{0, 100000}, {1, 100000}, {1, 1000000}, {1, 10000000}, {1, 2000}, {0, 9}, {1, 1}, {1, 37}, {0, 250}} {
		re := regexp.MustCompile(IntPattern(c[0], c[1]))
		for n := -1; n <= c[1]+12; n++ {
			if n > 3000 && n < c[1]-3000 {
				n = c[1] - 3000
			}
			want := n >= c[0] && n <= c[1]
			if got := re.MatchString(strconv.Itoa(n)); got != want {
				t.Errorf("IntPattern(%d, %d) = %s: %d matches %v", c[0], c[1], re, n, got)
			}
		}
		for _, s := range []string{"", "01", "+1", "1.0", " 1", "1e3", "00"} {
			if re.MatchString(s) {
				t.Errorf("IntPattern(%d, %d) matches %q", c[0], c[1], s)
			}
		}
	}
}
