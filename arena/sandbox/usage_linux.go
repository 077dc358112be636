package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/arena-dev/arena/arena/transport"
)

// meterFiles are the cgroup files Usage reads. They stay open and are read
// again from offset 0 (the kernel regenerates them), because the referee
// reads them twice in a move that takes over referee.MeterAfter.
type meterFiles struct {
	stat, pressure *os.File   // the v2 cgroup's cpu.stat and cpu.pressure (nil: none)
	stalls         []*os.File // its io.pressure and memory.pressure, those there are
	memUsage       *os.File   // memory.current (v2) or memory.usage_in_bytes (v1), under a memory limit (nil: none)
	statThrottled  bool       // cpu.stat has the rate limit's throttled_usec (v2 cpu controller)
	throttle       *os.File   // else the v1 cpu cgroup's cpu.stat, with throttled_time (nil: no limit)
	buf            [1024]byte
}

// Usage is the bot's CPU use (transport.Meter), read from its v2 cgroup,
// which holds every process the bot started: the CPU time they ran
// (cpu.stat's usage_usec), the time at least one of them was ready to run
// but waited for a CPU (cpu.pressure's "some" total), and the time its own
// CPU rate limit throttled it (Limits.CPUs: the kernel counts that as
// waiting too, and the referee charges it). ("full", the time all of them
// waited at once, misses the wait of a Go bot whose runtime keeps a thread
// busy looking for work while the goroutine that answers waits: in a
// 256-game soak it left ten times the spurious timeouts.) The referee never
// forgives more than the wall time less the CPU the bot used
// (clock.Forgiven). A stall on memory or I/O is forgiven only in a move
// the bot began and ended away from its own memory limit (AtMemoryLimit):
// reclaim it brings on itself, and the paging that follows, are its own. Without a v2 cgroup with pressure files it reports nothing, and
// the bot is charged its wall time (Describe says so).
func (b *Box) Usage() (transport.Usage, bool) {
	b.meterMu.Lock()
	defer b.meterMu.Unlock()
	if b.meterClosed {
		return transport.Usage{}, false
	}
	m := b.openMeter()
	u, ok := m.cgroup()
	if !ok {
		return transport.Usage{}, false
	}
	if m.throttle != nil {
		data, ok := m.read(m.throttle)
		if !ok {
			return transport.Usage{}, false
		}
		ns, ok := field(data, "throttled_time", "")
		if !ok {
			return transport.Usage{}, false
		}
		u.Throttled = time.Duration(ns)
	}
	if m.throttle != nil || m.statThrottled {
		u.Rate = b.spec.Limits.CPUs // enforced: it is what the bot could have run
	}
	if m.memUsage != nil {
		data, ok := m.read(m.memUsage)
		if !ok {
			return transport.Usage{}, false
		}
		used, ok := number(data)
		if !ok {
			return transport.Usage{}, false
		}
		u.AtMemoryLimit = atLimit(used, b.spec.Limits.Memory)
	}
	return u, true
}

// FairClock reports whether the bots' CPU use can be read (Box.Usage): a
// v2 cgroup per bot, with pressure files. Without it a bot is charged its
// wall time.
func (s *Sandbox) FairClock() bool {
	if s.plan.V2 == "" {
		return false
	}
	_, err := os.Stat(filepath.Join(s.plan.V2, "cpu.pressure"))
	return err == nil
}

// openMeter opens the files Usage reads, once; b.meterMu is held. Started
// calls it, so that the opening (which can wait on the kernel's cgroup
// locks while other bots' cgroups come and go) is not in a move.
func (b *Box) openMeter() *meterFiles {
	if b.meter != nil {
		return b.meter
	}
	m := &meterFiles{}
	if b.v2 != "" {
		stat, err1 := os.Open(filepath.Join(b.v2, "cpu.stat"))
		pressure, err2 := os.Open(filepath.Join(b.v2, "cpu.pressure")) // none without PSI
		if err1 == nil && err2 == nil {
			m.stat, m.pressure = stat, pressure
			for _, name := range []string{"io.pressure", "memory.pressure"} {
				if f, err := os.Open(filepath.Join(b.v2, name)); err == nil {
					m.stalls = append(m.stalls, f)
				}
			}
		} else {
			closeAll(stat, pressure)
		}
	}
	b.meter = m
	if m.stat == nil {
		return m
	}
	switch {
	case b.spec.Plan.V2Mem:
		m.memUsage, _ = os.Open(filepath.Join(b.v2, "memory.current"))
	case b.v1Mem != "":
		m.memUsage, _ = os.Open(filepath.Join(b.v1Mem, "memory.usage_in_bytes"))
	}
	if b.spec.Limits.CPUs <= 0 {
		return m // nothing to read, or no rate limit to throttle it
	}
	switch {
	case b.spec.Plan.V2CPU:
		m.statThrottled = true // in the cpu.stat already open
	case b.v1CPU != "":
		m.throttle, _ = os.Open(filepath.Join(b.v1CPU, "cpu.stat"))
	}
	return m
}

// cgroup reads the v2 cgroup's counters.
func (m *meterFiles) cgroup() (transport.Usage, bool) {
	if m.stat == nil {
		return transport.Usage{}, false
	}
	data, ok := m.read(m.stat)
	if !ok {
		return transport.Usage{}, false
	}
	ranUs, ok := field(data, "usage_usec", "")
	if !ok {
		return transport.Usage{}, false
	}
	var throttledUs int64
	if m.statThrottled {
		if throttledUs, ok = field(data, "throttled_usec", ""); !ok {
			return transport.Usage{}, false
		}
	}
	if data, ok = m.read(m.pressure); !ok {
		return transport.Usage{}, false
	}
	waitedUs, ok := field(data, "some", "total=")
	if !ok {
		return transport.Usage{}, false
	}
	var stalledUs int64 // the longer stall: one task stalled on memory is often waiting for I/O too
	for _, f := range m.stalls {
		data, ok := m.read(f)
		if !ok {
			return transport.Usage{}, false
		}
		us, ok := field(data, "some", "total=")
		if !ok {
			return transport.Usage{}, false
		}
		stalledUs = max(stalledUs, us)
	}
	return transport.Usage{Ran: time.Duration(ranUs) * time.Microsecond, Waited: time.Duration(waitedUs) * time.Microsecond,
		Throttled: time.Duration(throttledUs) * time.Microsecond, Stalled: time.Duration(stalledUs) * time.Microsecond}, true
}

// read reads f from its start into m.buf.
func (m *meterFiles) read(f *os.File) ([]byte, bool) {
	n, err := f.ReadAt(m.buf[:], 0)
	if n == 0 && err != nil {
		return nil, false
	}
	return m.buf[:n], true
}

// field finds the line of data whose first word is name and returns the
// number after it, or after key within the line ("name key=N ...").
func field(data []byte, name, key string) (int64, bool) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		rest, found := bytes.CutPrefix(line, []byte(name+" "))
		if !found {
			continue
		}
		if key != "" {
			i := bytes.Index(rest, []byte(key))
			if i < 0 {
				return 0, false
			}
			rest = rest[i+len(key):]
		}
		if i := bytes.IndexByte(rest, ' '); i >= 0 {
			rest = rest[:i]
		}
		v, err := strconv.ParseInt(string(rest), 10, 64)
		return v, err == nil && v >= 0
	}
	return 0, false
}

// closeMeter closes the meter's files before the cgroups are removed.
func (b *Box) closeMeter() {
	b.meterMu.Lock()
	defer b.meterMu.Unlock()
	if m := b.meter; m != nil {
		closeAll(append([]*os.File{m.stat, m.pressure, m.throttle, m.memUsage}, m.stalls...)...)
	}
	b.meter, b.meterClosed = nil, true
}

// atLimit reports whether used bytes are within a sixteenth of the memory
// limit: where the kernel reclaims a cgroup's own pages to keep it under
// its limit. (The v1 failure counts would say it directly, but a v1
// memory+swap limit, which the sandbox sets equal, leaves both at 0 on
// recent kernels.)
func atLimit(used, limit int64) bool {
	return limit > 0 && used >= limit-limit/16
}

// number is the one number data holds ("N\n").
func number(data []byte) (int64, bool) {
	v, err := strconv.ParseInt(string(bytes.TrimSpace(data)), 10, 64)
	return v, err == nil && v >= 0
}

func closeAll(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}
