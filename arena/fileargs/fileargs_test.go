package fileargs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/arena/fileargs"
)

// TestRule: which words of a command name files, for the shapes commands
// take, against real files: a path after "--x=" or "x=", a bare absolute
// path, relative paths (against the bot's dir), a flag and a word that are
// not files, a program given as a path and one found on PATH, and what
// must be there but is not.
func TestRule(t *testing.T) {
	base := t.TempDir()
	for _, f := range []string{"m.bin", "data/m.bin", "bot", "notes.dat", "weights"} {
		p := filepath.Join(base, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := filepath.Join(base, "m.bin")
	for _, tc := range []struct {
		name   string
		arg    string
		prefix string
		kind   fileargs.Kind
		file   string // the file it names (resolved against base), "" for none
		must   bool   // not there, and must be: a mistake
	}{
		{"a flag's value after =", "--model=" + abs, "--model=", fileargs.Path, abs, false},
		{"a variable's value after =", "x=" + abs, "x=", fileargs.Path, abs, false},
		{"a bare absolute path", abs, "", fileargs.Path, abs, false},
		{"a relative path", "data/m.bin", "", fileargs.Path, filepath.Join(base, "data/m.bin"), false},
		{"a relative path after =", "--model=data/m.bin", "--model=", fileargs.Path, filepath.Join(base, "data/m.bin"), false},
		{"a relative path from here", "./bot", "", fileargs.Path, filepath.Join(base, "bot"), false},
		{"a directory by a path", "./data", "", fileargs.Path, filepath.Join(base, "data"), false},
		{"a file name with an extension", "notes.dat", "", fileargs.Name, filepath.Join(base, "notes.dat"), false},
		{"a directory by a bare name is no file", "data", "", fileargs.Bare, "", false},
		{"a bare word that is a file's name", "weights", "", fileargs.Bare, filepath.Join(base, "weights"), false},
		{"a bare word after = that is a file's name", "--book=weights", "--book=", fileargs.Bare, filepath.Join(base, "weights"), false},
		{"a flag is not a file", "--fast", "", fileargs.Word, "", false},
		{"a flag with a value that is no file", "--depth=3", "--depth=", fileargs.Bare, "", false},
		{"a bare word is not a file", "fast", "", fileargs.Bare, "", false},
		{"a one-letter flag glued to a path", "-m" + abs, "-m", fileargs.Path, abs, false},
		{"a one-letter flag glued to a relative path", "-I./data", "-I", fileargs.Path, filepath.Join(base, "data"), false},
		{"a flag of '+' after =", "+model=" + abs, "+model=", fileargs.Path, abs, false},
		{"a URL is not a file", "--server=http://localhost:8080/x", "", fileargs.Word, "", false},
		{"a missing script in a missing directory", "nope/bot.py", "", fileargs.Path, "", true},
		{"a missing script by its name", "bot.py", "", fileargs.Name, "", true},
		{"a model not there yet may be written", "--model=/no/such/m.onnx", "--model=", fileargs.Path, "", false},
		{"a cache the bot writes", "--cache=" + filepath.Join(base, "c.pkl"), "--cache=", fileargs.Path, "", false},
		{"a path in a directory not there yet", "--book=books/open.txt", "--book=", fileargs.Path, "", false},
		{"a file the bot may write", "--log=" + filepath.Join(base, "bot.log"), "--log=", fileargs.Path, "", false},
		{"a number is no file", "0.5", "", fileargs.Name, "", false},
		{"a shell snippet may name no file", "cd nope && ./bot.py", "", fileargs.Path, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := fileargs.Parse(tc.arg)
			if a.Kind != tc.kind || a.Prefix != tc.prefix {
				t.Errorf("Parse(%q) = %+v, want kind %v prefix %q", tc.arg, a, tc.kind, tc.prefix)
			}
			files, missing := fileargs.Files([]string{"prog", tc.arg}, base)
			got := ""
			if len(files) == 1 {
				got = files[0].Abs
				if files[0].Prefix+files[0].Path != tc.arg {
					t.Errorf("%q split as %q + %q", tc.arg, files[0].Prefix, files[0].Path)
				}
			}
			if got != tc.file {
				t.Errorf("Files names %q, want %q", got, tc.file)
			}
			if (len(missing) == 1) != tc.must {
				t.Errorf("missing %+v, want a mistake: %v", missing, tc.must)
			}
		})
	}

	for _, tc := range []struct {
		prog, dir string
		path      string
		ok        bool
	}{
		{"./bot", base, filepath.Join(base, "bot"), true},
		{abs, "", abs, true},
		{"python3", base, "", false}, // found on PATH, not a file here
	} {
		if path, ok := fileargs.Program(tc.prog, tc.dir); path != tc.path || ok != tc.ok {
			t.Errorf("Program(%q, %q) = %q, %v; want %q, %v", tc.prog, tc.dir, path, ok, tc.path, tc.ok)
		}
	}
}

// TestRelativeToTheArena: without a bot dir, relative paths resolve
// against the arena's working directory.
func TestRelativeToTheArena(t *testing.T) {
	here := t.TempDir()
	t.Chdir(here)
	if err := os.WriteFile("m.bin", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	files, _ := fileargs.Files([]string{"./bot", "--model=m.bin"}, "")
	if len(files) != 1 || files[0].Abs != filepath.Join(here, "m.bin") {
		t.Fatalf("files %+v, want %s", files, filepath.Join(here, "m.bin"))
	}
	if p, _ := fileargs.Program("./bot", ""); p != filepath.Join(here, "bot") {
		t.Errorf("program %s, want %s", p, filepath.Join(here, "bot"))
	}
}

// TestShebang: a #! line's interpreter, and the command env runs past
// its flags and variables; nothing for a line naming none.
func TestShebang(t *testing.T) {
	for _, tc := range []struct{ line, interp, cmd string }{
		{"/usr/bin/python3 -u", "/usr/bin/python3", ""},
		{"/usr/bin/env python3", "/usr/bin/env", "python3"},
		{" /usr/bin/env -S python3 -u\n", "/usr/bin/env", "python3"},
		{"/usr/bin/env PYTHONHASHSEED=0 python3", "/usr/bin/env", "python3"},
		{"/usr/bin/env", "/usr/bin/env", ""},
		{"python3", "python3", ""},
		{"  ", "", ""},
	} {
		if interp, cmd := fileargs.Shebang(tc.line); interp != tc.interp || cmd != tc.cmd {
			t.Errorf("Shebang(%q) = %q, %q; want %q, %q", tc.line, interp, cmd, tc.interp, tc.cmd)
		}
	}
}
