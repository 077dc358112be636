//go:build linux

package sandbox

import (
	"debug/elf"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// TestWrapperBesideTheArena: an arena-sandbox beside the arena executable
// is what bots start through when it comes from the same build, and is
// passed over, saying why, when it does not; with none beside it the
// arena starts bots through itself.
func TestWrapperBesideTheArena(t *testing.T) {
	built := testkit.Build(t, "./cmd/arena-sandbox")
	data, err := os.ReadFile(built)
	if err != nil {
		t.Fatal(err)
	}
	stale := "#!/bin/sh\necho 0123456789abcdef\n"
	for _, tc := range []struct {
		name       string
		wrapper    []byte // arena-sandbox beside the arena; nil for none
		useBeside  bool
		noteWanted string
	}{
		{name: "none beside", wrapper: nil},
		{name: "same build", wrapper: data, useBeside: true},
		{name: "other build", wrapper: []byte(stale), noteWanted: ErrOtherBuild.Error()},
		{name: "not a wrapper", wrapper: []byte("#!/bin/sh\nexit 3\n"), noteWanted: "asking for its fingerprint"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			self := filepath.Join(dir, "arena")
			beside := filepath.Join(dir, WrapperName)
			if tc.wrapper != nil {
				if err := os.WriteFile(beside, tc.wrapper, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			path, note, err := wrapperProgram(self, "")
			if err != nil {
				t.Fatal(err)
			}
			want := self
			if tc.useBeside {
				want = beside
			}
			if path != want {
				t.Errorf("wrapper %s, want %s", path, want)
			}
			if tc.noteWanted == "" && note != "" || !strings.Contains(note, tc.noteWanted) {
				t.Errorf("note %q, want one containing %q", note, tc.noteWanted)
			}
		})
	}
}

// TestWrapperAskedFor: a wrapper named in Options must be from the same
// build; one that is not is refused by name.
func TestWrapperAskedFor(t *testing.T) {
	built := testkit.Build(t, "./cmd/arena-sandbox")
	if path, _, err := wrapperProgram("/nonexistent/arena", built); err != nil || path != built {
		t.Fatalf("same build: %s, %v", path, err)
	}
	stale := filepath.Join(t.TempDir(), WrapperName)
	if err := os.WriteFile(stale, []byte("#!/bin/sh\necho 00\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, _, err := wrapperProgram("/nonexistent/arena", stale)
	var oe *OptionError
	if !errors.As(err, &oe) || oe.Option != "Wrapper" || !errors.Is(err, ErrOtherBuild) || !strings.Contains(err.Error(), stale) {
		t.Fatalf("other build: %v, want an OptionError for Wrapper naming %s", err, stale)
	}
}

// TestWrapperIsStatic: the wrapper program is linked without the C
// library, as `go build` makes it with cgo on (the default), so neither
// of an isolated bot's two execs runs the dynamic loader. A package that
// brings in cgo (os/user, net) would undo that: the build then asks for
// an interpreter.
func TestWrapperIsStatic(t *testing.T) {
	f, err := elf.Open(testkit.Build(t, "./cmd/arena-sandbox"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatal("arena-sandbox is dynamically linked (it asks for an interpreter): something in the sandbox package's imports needs cgo")
		}
	}
}
