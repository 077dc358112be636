// Package fileargs is the one rule for which words of a bot's command name
// files. Everything that looks at a command's files follows it, so that
// they agree: stdio.ParseCommand (which makes such paths absolute and
// refuses a command naming a script that is not there), stdio.Command.Build
// (whose hash stands for the files' contents) and the sandbox (which shows
// them to an isolated bot).
//
// The rule:
//
//   - The program (argv[0]) is a file when it is given as a path, with a
//     slash ("./bot", "/opt/bot/run"); a bare name ("python3") is looked
//     up on PATH.
//   - An argument after it names a file when it is a path (it holds a
//     slash: "data/m.bin", "/srv/m.bin", "./book") or a file name with an
//     extension ("bot.py", "weights.dat"), whole, after a "="
//     ("--model=/srv/m.bin", "MODEL=data/m.bin", "+model=m.bin") or after
//     a one-letter flag ("-m/srv/m.bin", "-I./include"), and that file is
//     there (a directory counts for a path, not for a file name). Flags
//     ("-v", "--fast") and URLs name none.
//   - A bare word ("weights", "book"; whole or after a "=") names a file
//     when a regular file of that name is there, but only for the build
//     (Bare): it is passed to the bot as written (it may be a word the bot
//     takes, "fast", that happens to be a file's name), so it is neither
//     made absolute nor shown to an isolated bot beyond its directory.
//   - A relative path resolves against the bot's working directory when it
//     has one (a tournament file's dir), else against the arena's working
//     directory: where the bot itself would look for it.
//   - An argument that must name a file and names none is a mistake
//     (Missing): a script by its extension ("nope/bot.py", "run.js"),
//     which a bot reads and never writes. Anything else that is not there
//     may be a file the bot writes ("/tmp/bot.log", "--cache=c.pkl"), or
//     no file at all, and counts as written.
//
// A path holding characters that paths seldom hold and commands often do
// (white space, ':', '*', '?', '[': a shell snippet for sh -c, a class
// path, a glob) names a file only if it is there, and is never Missing.
//
// A script's #! line names files too, its interpreter and the command env
// runs: Head and Shebang read it, for ParseCommand's check that it can
// run and for the sandbox, which shows those to an isolated bot.
package fileargs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Kind says what shape of word an argument is.
type Kind int

const (
	// Word names no file: a flag, a bare word, a URL.
	Word Kind = iota
	// Path holds a slash: "./bot", "data/m.bin", "/srv/m.bin".
	Path
	// Name is a file name with an extension and no slash: "bot.py".
	Name
	// Bare is a word with neither slash nor extension ("weights"): a file
	// only if one of that name is there, and then for the build alone.
	Bare
)

// Arg is one argument of a command, split into what may name a file and
// what comes before it.
type Arg struct {
	// Prefix is what precedes the path: "--model=", "MODEL=", or "".
	Prefix string
	// Path is the path as written ("" for a Word).
	Path string
	Kind Kind
	// Loose: the path holds white space, ':' or a glob character, so it
	// names a file only if one is there and is never Missing.
	Loose bool
}

// flagKey is what comes before a path in "--model=PATH", "-Dx.y=PATH",
// "+model=PATH" and "MODEL=PATH": a flag's or a variable's name, with no
// slash (so that the "=" of "data/a=b.bin" is part of the path).
var flagKey = regexp.MustCompile(`^[-+]{0,2}[A-Za-z_][A-Za-z0-9_.-]*=`)

// shortFlag is a one-letter flag glued to a path: "-m/srv/m.bin",
// "-I./include", "-L../lib".
var shortFlag = regexp.MustCompile(`^-[A-Za-z](?:/|\./|\.\./)`)

// bareWord is a word that could be a file's name: no slash, no white
// space, not a flag.
var bareWord = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.+-]*$`)

// Parse splits one argument (not the program) by the rule.
func Parse(arg string) Arg {
	a := Arg{Path: arg}
	if key := flagKey.FindString(arg); key != "" {
		a.Prefix, a.Path = key, arg[len(key):]
	} else if shortFlag.MatchString(arg) {
		a.Prefix, a.Path = arg[:2], arg[2:]
	} else if strings.HasPrefix(arg, "-") {
		return Arg{} // a flag
	}
	ext := filepath.Ext(a.Path)
	switch {
	case a.Path == "" || strings.Contains(a.Path, "://"):
		return Arg{}
	case strings.Contains(a.Path, "/"):
		a.Kind = Path
	case len(ext) > 1 && ext != a.Path:
		a.Kind = Name
	case bareWord.MatchString(a.Path):
		a.Kind = Bare
	default:
		return Arg{}
	}
	a.Loose = strings.ContainsAny(a.Path, " \t\n\r:*?[")
	return a
}

// Resolve is path made absolute: against dir, the bot's working
// directory, when that is set, else against the arena's working
// directory.
func Resolve(path, dir string) string {
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return filepath.Clean(path)
}

// Program is the program of a command (argv[0]) resolved as a file, when
// it is given as a path; ok is false for a bare name, which is looked up
// on PATH (the arena's, or the bot's own).
func Program(prog, dir string) (path string, ok bool) {
	if !strings.Contains(prog, "/") {
		return "", false
	}
	return Resolve(prog, dir), true
}

// A File is an argument that names a file (or directory) that is there.
type File struct {
	Index int // in argv
	Arg
	Abs  string // the path, resolved
	Info fs.FileInfo
}

// A Missing is an argument that must name a file and names none.
type Missing struct {
	Index int // in argv
	Arg
	Abs string // where it was looked for
}

// Files are the arguments of argv after the program that name files, and
// those that must but name none, in order; dir is the bot's working
// directory ("" for the arena's).
func Files(argv []string, dir string) (files []File, missing []Missing) {
	for i := 1; i < len(argv); i++ {
		a := Parse(argv[i])
		if a.Kind == Word {
			continue
		}
		abs := Resolve(a.Path, dir)
		st, err := os.Stat(abs)
		switch {
		case err == nil:
			if a.Kind == Path || st.Mode().IsRegular() {
				files = append(files, File{Index: i, Arg: a, Abs: abs, Info: st})
			}
		case errors.Is(err, fs.ErrNotExist) && a.mustExist():
			missing = append(missing, Missing{Index: i, Arg: a, Abs: abs})
		}
	}
	return files, missing
}

// mustExist: a script, by its extension, is read and never written by
// the bot. A model might be written (a cache, a checkpoint) and a path in
// a directory that is not there yet might be made: those pass as written.
func (a Arg) mustExist() bool {
	return !a.Loose && a.Kind != Bare && Interpreter(a.Path) != ""
}

// scripts are the extensions of scripts, with the command that runs one.
var scripts = map[string]string{
	".py": "python3", ".pyz": "python3", ".js": "node", ".mjs": "node", ".cjs": "node", ".rb": "ruby",
	".pl": "perl", ".lua": "lua", ".sh": "sh", ".bash": "bash", ".php": "php", ".r": "Rscript",
	".jl": "julia", ".tcl": "tclsh", ".jar": "java -jar",
}

// Interpreter is the command that runs a script named path, by its
// extension ("python3" for bot.py, "java -jar" for bot.jar), or "".
func Interpreter(path string) string {
	return scripts[strings.ToLower(filepath.Ext(path))]
}

// headSize is how much of a program Head reads: the kernel reads no more
// of a #! line than its first 256 bytes, and a binary shows a NUL byte
// well within it.
const headSize = 512

// Head is the start of the program file at path, for its #! line and to
// tell a text file from a binary; nil where it cannot be read: not a
// regular file (opening a FIFO would wait for a writer), or closed to
// this process's user.
func Head(path string) []byte {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, headSize)
	n, _ := io.ReadFull(f, head)
	return head[:n]
}

// Shebang splits a script's #! line (line: what follows "#!") into the
// interpreter it names and, when that is env ("#!/usr/bin/env -S
// python3 -u"), the command env runs: its first word that is neither a
// flag nor a variable's NAME=value. interp is "" for a line naming none.
func Shebang(line string) (interp, cmd string) {
	words := strings.Fields(line)
	if len(words) == 0 {
		return "", ""
	}
	interp = words[0]
	if filepath.Base(interp) == "env" {
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
				return interp, w
			}
		}
	}
	return interp, ""
}
