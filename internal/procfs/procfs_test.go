package procfs

import (
	"errors"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		line string
		want Stat
		bad  bool
	}{
		{line: "42 (bot) S 1 42 42 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 0 0",
			want: Stat{Pid: 42, Comm: "bot", State: 'S', PPid: 1, Pgrp: 42, UTime: 2500 * time.Millisecond, STime: 500 * time.Millisecond}},
		{line: "7 (a) b) (c) Z 3 5 5 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 100 0 0",
			want: Stat{Pid: 7, Comm: "a) b) (c", State: 'Z', PPid: 3, Pgrp: 5, UTime: 10 * time.Millisecond, STime: 20 * time.Millisecond}},
		{line: "9 no parens S 1 1", bad: true},
		{line: "9 (short) S 1 1", bad: true},
	}
	for _, tc := range tests {
		got, err := parseStat(tc.want.Pid, []byte(tc.line))
		if tc.bad {
			if !errors.Is(err, ErrBadStat) {
				t.Errorf("%q: got %+v, %v, want ErrBadStat", tc.line, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v, want %+v", tc.line, got, err, tc.want)
		}
	}
	if !(Stat{State: 'Z'}).Gone() || (Stat{State: 'S'}).Gone() {
		t.Error("Gone")
	}
}

// On Linux this process is in /proc with its own stat and environment.
func TestSelf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc here")
	}
	pids, err := Pids()
	if err != nil || !slices.Contains(pids, os.Getpid()) {
		t.Fatalf("Pids: %v, %v", len(pids), err)
	}
	st, err := ReadStat(os.Getpid())
	if err != nil || st.PPid != os.Getppid() || st.Gone() {
		t.Fatalf("stat %+v, %v", st, err)
	}
	// The environment the kernel shows is the one the process started
	// with (os.Setenv does not change it): look for an entry it had.
	if env := os.Environ(); len(env) > 0 && !HasEnv(os.Getpid(), env[0]) {
		t.Errorf("HasEnv misses %q", env[0])
	}
	if HasEnv(os.Getpid(), "PROCFS_NO_SUCH=1") {
		t.Error("HasEnv found an entry that is not there")
	}
}

func TestParseSchedstat(t *testing.T) {
	tests := []struct {
		line string
		want Sched
		bad  bool
	}{
		{line: "1441730 459486 7\n", want: Sched{Run: 1441730, Wait: 459486, Slices: 7}},
		{line: "0 0 0", want: Sched{}},
		{line: "1 2", bad: true},
		{line: "1 2 3 4", bad: true},
		{line: "1 -2 3", bad: true},
		{line: "a 2 3", bad: true},
	}
	for _, tc := range tests {
		got, err := parseSchedstat([]byte(tc.line))
		if tc.bad {
			if !errors.Is(err, ErrBadSchedstat) {
				t.Errorf("%q: got %+v, %v, want ErrBadSchedstat", tc.line, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v, want %+v", tc.line, got, err, tc.want)
		}
	}
}
