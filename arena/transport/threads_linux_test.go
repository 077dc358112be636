package transport_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/arena-dev/arena/arena/transport"
)

// A live bot holds no OS thread of the arena: waiting for its exit is
// parked in the runtime poller (a pidfd), not in waitid. 64 bots that
// sleep add far fewer than 64 threads.
func TestLiveBotsHoldNoThreads(t *testing.T) {
	if fd, err := unix.PidfdOpen(os.Getpid(), unix.PIDFD_NONBLOCK); err != nil {
		t.Skipf("no pollable pidfds here (Linux 5.10+): %v; Wait holds a thread per bot", err)
	} else {
		unix.Close(fd)
	}
	before := threads(t)
	var procs []*transport.Process
	for range 64 {
		p, err := transport.Start(transport.ProcessConfig{Argv: []string{"sleep", "60"}})
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, p)
	}
	defer func() {
		for _, p := range procs {
			p.Close()
		}
	}()
	if grown := threads(t) - before; grown >= 16 {
		t.Fatalf("64 live bots added %d threads", grown)
	}
	for _, p := range procs {
		p.Close()
		<-p.Exited()
	}
}

func threads(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(v))
			return n
		}
	}
	t.Fatal("no Threads line")
	return 0
}
