package check

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
)

// groupMembers lists the live processes (zombies excluded: they are dead,
// only not yet reaped by whoever inherited them) of process group pgid, as
// "pid (command)". Without /proc it falls back to kill(-pgid, 0).
func groupMembers(pgid int) []string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return groupNotEmpty(pgid)
	}
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and ')'.
		open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || close < open {
			continue
		}
		f := bytes.Fields(b[close+1:])
		if len(f) < 3 {
			continue
		}
		state := string(f[0])
		pgrp, _ := strconv.Atoi(string(f[2]))
		if pgrp != pgid || state == "Z" || state == "X" {
			continue
		}
		out = append(out, fmt.Sprintf("%d (%s)", pid, b[open+1:close]))
	}
	return out
}
