// Package bytesize reads and writes byte counts as people give them
// (64MiB, 1GiB, unlimited): the sandbox's memory and disk limits and
// arena serve's JetStream bounds are the same kind of figure, read one
// way. It imports nothing of the arena's, so that a package as light as
// arena/remote can read sizes without pulling in the sandbox.
package bytesize

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Parse reads a byte count: 1048576, 512KiB, 64MiB, 1GiB (also K, M,
// G, KB, MB, GB as powers of 1024). "0" and "unlimited" mean no limit (0).
func Parse(s string) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "unlimited" || t == "none" {
		return 0, nil
	}
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') {
		i--
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	mult := map[string]int64{"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "KIB": 1 << 10, "M": 1 << 20, "MB": 1 << 20, "MIB": 1 << 20,
		"G": 1 << 30, "GB": 1 << 30, "GIB": 1 << 30, "T": 1 << 40, "TB": 1 << 40, "TIB": 1 << 40}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || mult == 0 || v < 0 || v*float64(mult) > math.MaxInt64/2 {
		return 0, fmt.Errorf("%q is not a size (try 64MiB, 1GiB, or unlimited)", s)
	}
	return int64(v * float64(mult)), nil
}

// Format writes bytes the way Parse reads them.
func Format(n int64) string {
	if n <= 0 {
		return "unlimited"
	}
	for _, u := range []struct {
		s string
		v int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n%u.v == 0 {
			return fmt.Sprintf("%d%s", n/u.v, u.s)
		}
	}
	return strconv.FormatInt(n, 10)
}
