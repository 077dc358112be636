//go:build !unix

package tournament

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
