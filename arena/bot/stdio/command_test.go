package stdio_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/bot/stdio"
)

// TestParseCommandRefusesWhatCannotRun: a program the kernel will not run
// and an argument naming a script that is not there are refused before
// any game, naming the path as the user gave it and a fix that works.
func TestParseCommandRefusesWhatCannotRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	withLine := write(t, dir, "run.py", "#!/usr/bin/env python3\nprint()\n", 0o644)
	noLine := write(t, dir, "plain.py", "print()\n", 0o644)
	noLineExec := write(t, dir, "exec.py", "print()\n", 0o755)
	text := write(t, dir, "runme", "echo hi\n", 0o644)
	binary := write(t, dir, "prog", "\x7fELF\x02\x01\x01\x00\x00", 0o644)
	for _, tc := range []struct {
		cmd   string
		wants []string // in the error, in order
	}{
		{withLine, []string{withLine + " (mode -rw-r--r--) is not executable: chmod +x " + withLine}},
		{noLine, []string{noLine + " (mode -rw-r--r--) is not executable and has no #! line", "run it as `python3 " + noLine + "`",
			"or add `#!/usr/bin/env python3` as its first line and chmod +x " + noLine}},
		{noLineExec, []string{noLineExec + " (mode -rwxr-xr-x) has no #! line", "run it as `python3 " + noLineExec + "`"}},
		{text, []string{text + " (mode -rw-r--r--) is not executable and has no #! line", "chmod +x " + text + " and add a #! line"}},
		{binary, []string{binary + " (mode -rw-r--r--) is not executable: chmod +x " + binary}},
	} {
		_, err := stdio.ParseCommand(tc.cmd, "")
		var nr *stdio.NotRunnableError
		if !errors.As(err, &nr) {
			t.Errorf("%s: %v, want a NotRunnableError", tc.cmd, err)
			continue
		}
		msg := err.Error()
		for _, w := range tc.wants {
			i := strings.Index(msg, w)
			if i < 0 {
				t.Errorf("%s: %q lacks %q", tc.cmd, msg, w)
				continue
			}
			msg = msg[i+len(w):]
		}
		if strings.Contains(err.Error(), "o+rX") {
			t.Errorf("%s: %q gives the fix that does not work", tc.cmd, err)
		}
	}
	// Runnable: a script with its line and execute bit, a script run by
	// its interpreter.
	ok := write(t, dir, "ok.py", "#!/usr/bin/env python3\n", 0o755)
	for _, cmd := range []string{ok, "python3 " + noLine, "sh " + text} {
		if _, err := stdio.ParseCommand(cmd, ""); err != nil {
			t.Errorf("%s: %v", cmd, err)
		}
	}
}

// TestParseCommandChecksFileArguments: a script argument that is not
// there is refused, naming it; a word is not a file; a relative path to
// one that is there is made absolute, after "=" too, against the arena's
// directory.
func TestParseCommandChecksFileArguments(t *testing.T) {
	here := t.TempDir()
	t.Chdir(here)
	write(t, here, "bot.py", "", 0o644)
	write(t, here, "data/m.bin", "", 0o644)

	_, err := stdio.ParseCommand("python3 nope/bot.py fast", "")
	var mf *stdio.MissingFileError
	if !errors.As(err, &mf) || !errors.Is(err, fs.ErrNotExist) || mf.Arg != "nope/bot.py" ||
		!strings.Contains(err.Error(), `"nope/bot.py"`) || !strings.Contains(err.Error(), filepath.Join(here, "nope/bot.py")) {
		t.Errorf("missing script: %v, want a MissingFileError naming nope/bot.py", err)
	}
	argv, err := stdio.ParseCommand("python3 bot.py fast --model=data/m.bin --depth=3", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"python3", filepath.Join(here, "bot.py"), "fast", "--model=" + filepath.Join(here, "data/m.bin"), "--depth=3"}
	if strings.Join(argv, " ") != strings.Join(want, " ") {
		t.Errorf("argv %q, want %q", argv, want)
	}
	// In a bot's dir: against it, and left relative (the bot runs there).
	other := t.TempDir()
	write(t, other, "bot.py", "", 0o644)
	if argv, err := stdio.ParseCommand("python3 bot.py", other); err != nil || argv[1] != "bot.py" {
		t.Errorf("in a bot dir: %q, %v", argv, err)
	}
	if _, err := stdio.ParseCommand("python3 data/bot.py", other); !errors.As(err, &mf) || mf.Dir != other {
		t.Errorf("in a bot dir, a script there is not: %v, want a MissingFileError naming the dir", err)
	}
	// A file the bot may write, a model not there yet: passed as written.
	if _, err := stdio.ParseCommand("python3 bot.py --cache=cache/c.pkl --model=new/m.onnx", ""); err != nil {
		t.Errorf("a file the bot writes: %v", err)
	}
}

// TestParseCommandSaysWhyAProgramCannotStart: a program that is not there
// (a path to nothing, a directory, a name that is not on PATH but is a
// file here) and a script whose #! line cannot run it (an interpreter that
// is not installed, Windows line endings) are refused before any game,
// with what to do.
func TestParseCommandSaysWhyAProgramCannotStart(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, dir, "run.py", "#!/usr/bin/env python3\nprint()\n", 0o755)
	missingInterp := write(t, dir, "old.py", "#!/usr/bin/python-not-here\nprint()\n", 0o755)
	envMissing := write(t, dir, "env.py", "#!/usr/bin/env -S python-not-here -u\nprint()\n", 0o755)
	crlf := write(t, dir, "crlf.py", "#!/usr/bin/env python3\r\nprint()\r\n", 0o755)
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd   string
		as    any
		wants string
	}{
		{"run.py", new(*stdio.ProgramNotFoundError), "not found on PATH; a name without a slash is looked up there only, as a shell does, but " + filepath.Join(dir, "run.py") + " is here: write ./run.py (or python3 run.py)"},
		{"./nope.py", new(*stdio.ProgramNotFoundError), `command "./nope.py" not found (there is no ` + filepath.Join(dir, "nope.py") + ")"},
		{"./sub", new(*stdio.ProgramNotFoundError), `command "./sub" is a directory (` + filepath.Join(dir, "sub") + "), not a program"},
		{"no-such-command-anywhere", new(*stdio.ProgramNotFoundError), `command "no-such-command-anywhere" not found on PATH: give its path, or install it`},
		{missingInterp, new(*stdio.ShebangError), `names the interpreter /usr/bin/python-not-here, which is not installed here: use ` + "`#!/usr/bin/env python3`"},
		{envMissing, new(*stdio.ShebangError), "names the interpreter python-not-here, which is not installed here"},
		{crlf, new(*stdio.ShebangError), "has Windows line endings"},
	} {
		_, err := stdio.ParseCommand(tc.cmd, "")
		if err == nil || !errors.As(err, tc.as) || !strings.Contains(err.Error(), tc.wants) {
			t.Errorf("%s: %v; want %T saying %q", tc.cmd, err, tc.as, tc.wants)
		}
	}
	if _, err := stdio.ParseCommand("./run.py", ""); err != nil {
		t.Errorf("./run.py: %v", err)
	}
}
