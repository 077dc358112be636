package procfs

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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
			want: Stat{Pid: 42, Comm: "bot", State: 'S', PPid: 1, Pgrp: 42, UTime: 2500 * time.Millisecond, STime: 500 * time.Millisecond, Start: time.Second}},
		{line: "7 (a) b) (c) Z 3 5 5 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 12345 0 0",
			want: Stat{Pid: 7, Comm: "a) b) (c", State: 'Z', PPid: 3, Pgrp: 5, UTime: 10 * time.Millisecond, STime: 20 * time.Millisecond, Start: 123450 * time.Millisecond}},
		{line: "9 no parens S 1 1", bad: true},
		{line: "9 (short) S 1 1", bad: true},
		{line: "9 (no start) S 1 1 1 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0", bad: true},
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

// A process's Start, counted from BootTime, is when it started on the
// wall clock: a child started between two readings of the clock started
// between them (to the 10 ms of both files).
func TestStartIsWhenAProcessStarted(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("no /proc here")
	}
	before := time.Now()
	child := exec.Command("sleep", "60")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	after := time.Now()
	defer func() { child.Process.Kill(); child.Wait() }()
	st, err := ReadStat(child.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	boot, err := BootTime()
	if err != nil {
		t.Fatal(err)
	}
	const tick = 20 * time.Millisecond // a tick of each file
	if started := boot.Add(st.Start); started.Before(before.Add(-tick)) || started.After(after.Add(tick)) {
		t.Errorf("started at %v, between %v and %v", started, before, after)
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

func TestParseStolen(t *testing.T) {
	const twoCPUs = "cpu  476915 596 341653 11575020 3168 0 1891 20681 0 0\n" +
		"cpu0 237448 265 169458 5789920 988 0 385 10405 0 0\n" +
		"cpu1 239467 330 172195 5785099 2179 0 1506 10276 0 0\n" +
		"intr 1 2 3\nctxt 99\nbtime 1\n"
	tests := []struct {
		name, text string
		want       time.Duration
		bad        bool
	}{
		{name: "two CPUs", text: twoCPUs, want: 20681 * 10 * time.Millisecond / 2},
		{name: "none stolen", text: "cpu  1 2 3 4 5 6 7 0\ncpu0 1 2 3 4 5 6 7 0\n", want: 0},
		{name: "old kernel without steal", text: "cpu  1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n", bad: true},
		{name: "no cpu lines", text: "cpu  1 2 3 4 5 6 7 8\n", bad: true},
		{name: "no total", text: "cpu0 1 2 3 4 5 6 7 8\n", bad: true},
		{name: "not a number", text: "cpu  1 2 3 4 5 6 7 x\ncpu0 1 2 3 4 5 6 7 8\n", bad: true},
		{name: "empty", text: "", bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseStolen([]byte(tc.text))
			if tc.bad {
				if !errors.Is(err, ErrBadProcStat) {
					t.Errorf("got %v, %v, want ErrBadProcStat", got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %v, %v, want %v", got, err, tc.want)
			}
		})
	}
}

// This machine's /proc/stat parses, and its steal time does not go back.
func TestStolenReadsThisMachine(t *testing.T) {
	if _, err := os.Stat(filepath.Join(Root, "stat")); err != nil {
		t.Skip("no /proc/stat here")
	}
	a, err := Stolen()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Stolen()
	if err != nil {
		t.Fatal(err)
	}
	if a < 0 || b < a {
		t.Errorf("steal time %v then %v", a, b)
	}
}
