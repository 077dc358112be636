package bench

import (
	"bytes"
	"os"
	"strconv"
	"time"

	"github.com/arena-dev/arena/internal/procfs"
)

// Machine is what the machine did, or is set to do, during a measure that
// moves its figures without being the arena's: the figures are only
// comparable between runs that share it.
type Machine struct {
	// Stolen is the time the hypervisor held each of the machine's CPUs
	// while they had work (steal time) during the measure; StolenShare is
	// its share of the measure's wall time. Both are 0 on a machine that
	// is not virtual, and StolenKnown is false where /proc/stat could not
	// be read.
	Stolen      time.Duration
	StolenShare float64
	StolenKnown bool
	// IdleHalts: the machine is a virtual one whose idle CPUs halt at once,
	// without polling for work first (the cpuidle driver haltpoll with
	// guest_halt_poll_ns 0). Every reply that comes to a referee whose CPU
	// went idle then waits for the hypervisor to run that CPU again, and
	// a move costs both sides more (docs/performance.md, per-move cost).
	IdleHalts bool
}

// stealMeter reads the machine's steal time at the start of a measure.
type stealMeter struct {
	start  time.Time
	stolen time.Duration
	ok     bool
}

func startStealMeter() stealMeter {
	s, err := procfs.Stolen()
	return stealMeter{start: time.Now(), stolen: s, ok: err == nil}
}

// machine is what the machine did since m started, and how it is set.
func (m stealMeter) machine() Machine {
	out := Machine{IdleHalts: idleHalts(sysRoot)}
	s, err := procfs.Stolen()
	if !m.ok || err != nil {
		return out
	}
	out.Stolen, out.StolenKnown = max(s-m.stolen, 0), true
	if wall := time.Since(m.start); wall > 0 {
		out.StolenShare = float64(out.Stolen) / float64(wall)
	}
	return out
}

// sysRoot is where the sysfs file system is mounted.
const sysRoot = "/sys"

// idleHalts reports whether the idle CPUs of the machine whose sysfs is at
// root halt without polling: the haltpoll cpuidle driver (a KVM guest's)
// with its polling limit, guest_halt_poll_ns, at 0. Other drivers, or
// files that cannot be read, report false: a bare machine's idle states
// are its firmware's, and the hint is for the virtual machines it names.
func idleHalts(root string) bool {
	driver, err := os.ReadFile(root + "/devices/system/cpu/cpuidle/current_driver")
	if err != nil || string(bytes.TrimSpace(driver)) != "haltpoll" {
		return false
	}
	ns, err := os.ReadFile(root + "/module/haltpoll/parameters/guest_halt_poll_ns")
	if err != nil {
		return false
	}
	n, err := strconv.ParseInt(string(bytes.TrimSpace(ns)), 10, 64)
	return err == nil && n == 0
}
