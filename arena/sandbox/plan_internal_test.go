//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestProgramPaths: what a bot's command brings into its root, for the
// shapes commands take.
func TestProgramPaths(t *testing.T) {
	base := t.TempDir()
	mk := func(path, data string, mode os.FileMode) string {
		p := filepath.Join(base, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dir := func(path string) string {
		p := filepath.Join(base, path)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	shim := mk("pyenv/shims/python9", "#!/bin/sh\n", 0o755)
	dir("pyenv/libexec")
	venvPy := mk("venv/bin/python", "#!/bin/sh\n", 0o755)
	dir("venv/lib")
	homeBin := mk("home/bin/mybot", "#!/bin/sh\n", 0o755)
	nodeBin := mk("nvm/v20/bin/node9", "", 0o755)
	dir("nvm/v20/lib")
	script := mk("bots/alice/bot.js", "#!/usr/bin/env node9\nconsole.log(1)\n", 0o755)
	model := mk("models/m.bin", "x", 0o644)
	data := dir("data")
	inTmp := "/tmp/arena-plan-test-" + filepath.Base(base)
	if err := os.WriteFile(inTmp, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(inTmp)
	env := []string{"PATH=" + filepath.Dir(shim) + ":" + filepath.Dir(nodeBin) + ":/usr/bin:/bin"}
	for _, tc := range []struct {
		name        string
		argv        []string
		show, named []string
	}{
		{"a pyenv shim on PATH brings pyenv", []string{"python9", "-u"}, []string{filepath.Join(base, "pyenv")}, nil},
		{"a virtual environment's python brings the environment", []string{venvPy}, []string{filepath.Join(base, "venv")}, []string{venvPy}},
		{"a bin without an installation around it is itself", []string{homeBin}, []string{filepath.Join(base, "home/bin")}, []string{homeBin}},
		{"a script brings its directory and its interpreter's installation", []string{script}, []string{filepath.Join(base, "bots/alice"), filepath.Join(base, "nvm/v20")}, []string{script}},
		{"file arguments bring their directories, directory arguments themselves", []string{"/bin/sh", script, "--model=" + model, data},
			[]string{filepath.Join(base, "bots/alice"), filepath.Join(base, "models"), data}, []string{"/bin/sh", script, model, data}},
		{"a program directly in /tmp is shown alone", []string{inTmp}, []string{inTmp}, []string{inTmp}},
		{"a system program brings nothing beyond the system", []string{"sh", "-c", "echo hi"}, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			show, named := programPaths(tc.argv, "", env)
			var want []string
			for _, p := range show {
				if !strings.HasPrefix(p, "/usr") && !strings.HasPrefix(p, "/bin") {
					want = append(want, p)
				}
			}
			for _, w := range tc.show {
				if !slices.Contains(want, w) {
					t.Errorf("show %v lacks %s", show, w)
				}
			}
			for _, p := range want {
				if !slices.Contains(tc.show, p) {
					t.Errorf("show %v holds %s, not asked for", show, p)
				}
			}
			if !slices.Equal(named, tc.named) {
				t.Errorf("named %v, want %v", named, tc.named)
			}
		})
	}
}

// TestRootPlanCovers: the secrets and the other bots' files are covered
// where they lie in something a bot is shown, its own never.
func TestRootPlanCovers(t *testing.T) {
	base := t.TempDir()
	bots := filepath.Join(base, "bots")
	if err := os.MkdirAll(filepath.Join(bots, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.py", "b.py", "cup.yaml", "shared.py"} {
		if err := os.WriteFile(filepath.Join(bots, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := []string{"/usr/bin/python3", filepath.Join(bots, "a.py"), filepath.Join(bots, "shared.py")}
	b := []string{"/usr/bin/python3", filepath.Join(bots, "b.py"), filepath.Join(bots, "shared.py")}
	s := &Sandbox{Options: Options{
		Hide:     []string{filepath.Join(bots, "out"), filepath.Join(bots, "cup.yaml"), filepath.Join(base, "elsewhere")},
		Programs: []Program{{Argv: a}, {Argv: b}},
	}}
	plan, err := s.rootPlan(a, "", []string{"PATH=/usr/bin"})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, e := range plan {
		kinds[e.Path] = e.Kind
	}
	for path, want := range map[string]string{
		bots: mountRO, "/usr": mountRO,
		filepath.Join(bots, "out"): mountHide, filepath.Join(bots, "cup.yaml"): mountHide, filepath.Join(bots, "b.py"): mountHide,
		filepath.Join(bots, "a.py"): "", filepath.Join(bots, "shared.py"): "", filepath.Join(base, "elsewhere"): "",
	} {
		if kinds[path] != want {
			t.Errorf("%s: %q, want %q (plan %v)", path, kinds[path], want, plan)
		}
	}
	// Covers come last, after what holds them.
	last := plan[len(plan)-1]
	if last.Kind != mountHide {
		t.Errorf("plan does not end with its covers: %v", plan)
	}
	// A bot inside a hidden directory is refused.
	s.Options.Hide = []string{bots}
	if _, err := s.rootPlan(a, "", nil); err == nil || !strings.Contains(err.Error(), "which bots may not see") {
		t.Errorf("a bot in a hidden directory: %v", err)
	}
}

// TestCheckReadable: with a uid of their own, bots must be able to read
// their programs; what only the owner may read is refused at start, what
// any user may read (a script directly in /tmp included) is not.
func TestCheckReadable(t *testing.T) {
	base := t.TempDir()
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(path string, mode os.FileMode) string {
		if err := os.WriteFile(path, []byte("print(1)\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		return path
	}
	open := write(filepath.Join(base, "open.py"), 0o644)
	private := write(filepath.Join(base, "private.py"), 0o600)
	closedDir := filepath.Join(base, "closed")
	if err := os.Mkdir(closedDir, 0o700); err != nil {
		t.Fatal(err)
	}
	inClosed := write(filepath.Join(closedDir, "bot.py"), 0o644)
	inTmp := write(filepath.Join(os.TempDir(), "arena-readable-"+filepath.Base(base)+".py"), 0o644)
	defer os.Remove(inTmp)
	ownerRuns := write(filepath.Join(base, "owner-runs"), 0o744)
	for _, tc := range []struct {
		argv []string
		bad  string // the path named in the refusal, "" for none
		fix  string // the chmod that opens it
	}{
		{[]string{"python3", open}, "", ""},
		{[]string{"python3", inTmp}, "", ""},
		{[]string{"python3", private}, private, "chmod o+r " + private},
		{[]string{"python3", inClosed}, closedDir, "chmod o+x " + closedDir},
		{[]string{ownerRuns}, ownerRuns, "chmod o+rx " + ownerRuns},
		{[]string{"python3", "--script=" + private}, private, "chmod o+r " + private},
		// A system file is not the organiser's to open to everyone.
		{[]string{"python3", open, "--x=/etc/shadow"}, "/etc/shadow", "give the bot a copy of what it needs in a directory of your own"},
	} {
		s := &Sandbox{Options: Options{Programs: []Program{{Argv: tc.argv}}}}
		err := s.checkReadable()
		var closed *ClosedError
		switch {
		case tc.bad == "" && err != nil:
			t.Errorf("%v: refused: %v", tc.argv, err)
		case strings.Contains(tc.bad, "/etc/") && strings.Contains(fmt.Sprint(err), "chmod"):
			t.Errorf("%v: %v: advises opening a system file", tc.argv, err)
		case tc.bad != "" && (!errors.As(err, &closed) || !strings.Contains(err.Error(), tc.bad+" (mode") || !strings.Contains(err.Error(), tc.fix)):
			t.Errorf("%v: %v, want a refusal naming %s and %q", tc.argv, err, tc.bad, tc.fix)
		}
	}
}

// TestProgramPathsRelativeToTheBotsDir: an argument naming a file by a
// path relative to the bot's dir, whole or after "=", is shown and named
// as the file there, like an absolute one.
func TestProgramPathsRelativeToTheBotsDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "models"), 0o755); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "models", "m.bin")
	if err := os.WriteFile(model, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"models/m.bin", "--model=models/m.bin", "MODEL=./models/m.bin", "--model=" + model} {
		show, named := programPaths([]string{"/bin/sh", arg}, dir, nil)
		if !slices.Contains(show, filepath.Join(dir, "models")) || !slices.Contains(named, model) {
			t.Errorf("%s: show %v, named %v; want %s shown and %s named", arg, show, named, filepath.Join(dir, "models"), model)
		}
	}
}

// TestProgramPathsDoNotReadAFIFO: a program that is a FIFO is shown
// without its #! line being read: opening it would wait for a writer that
// never comes, and the arena with it.
func TestProgramPathsDoNotReadAFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "bot.py")
	if err := syscall.Mkfifo(fifo, 0o755); err != nil {
		t.Fatal(err)
	}
	done := make(chan []string, 1)
	go func() {
		_, named := programPaths([]string{fifo}, "", nil)
		done <- named
	}()
	select {
	case named := <-done:
		if !slices.Equal(named, []string{fifo}) {
			t.Errorf("named %v, want the program %s", named, fifo)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("programPaths still reads the FIFO after 10 s")
	}
}
