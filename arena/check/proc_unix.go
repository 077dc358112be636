//go:build unix

package check

import (
	"errors"
	"fmt"
	"syscall"
)

// groupNotEmpty is groupMembers without /proc: kill(-pgid, 0).
func groupNotEmpty(pgid int) []string {
	if err := syscall.Kill(-pgid, 0); err == nil || !errors.Is(err, syscall.ESRCH) {
		return []string{fmt.Sprintf("process group %d is not empty", pgid)}
	}
	return nil
}
