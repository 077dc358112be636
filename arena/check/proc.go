package check

import (
	"fmt"

	"github.com/arena-dev/arena/internal/procfs"
)

// groupMembers lists the live processes (zombies excluded: they are dead,
// only not yet reaped by whoever inherited them) of process group pgid, as
// "pid (command)". Without /proc it falls back to kill(-pgid, 0).
func groupMembers(pgid int) []string {
	pids, err := procfs.Pids()
	if err != nil {
		return groupNotEmpty(pgid)
	}
	var out []string
	for _, pid := range pids {
		st, err := procfs.ReadStat(pid)
		if err != nil || st.Pgrp != pgid || st.Gone() {
			continue // gone meanwhile, another group's, or dead
		}
		out = append(out, fmt.Sprintf("%d (%s)", pid, st.Comm))
	}
	return out
}
