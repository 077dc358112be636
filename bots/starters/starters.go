// Package starters holds the starter kits: for each language and game, a
// minimal bot a student copies and edits, with a README of three commands.
// A kit is one directory that works where it is written, with no clone of
// this repository and no network: the bot beside its SDK (a sandboxed bot
// sees only its own directory), the docs its README links to, and for Go
// a module of its own with the SDK's source. arena new writes one (Kit,
// Write).
package starters

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/arena-dev/arena/internal/usage"
	jssdk "github.com/arena-dev/arena/sdk/js"
	pysdk "github.com/arena-dev/arena/sdk/python"
)

//go:embed python js go
var files embed.FS

// templateDir is where the kits' files are in this repository: links in
// their READMEs are relative to it, so that they work here too.
const templateDir = "bots/starters"

// sdks is each language's SDK file, written into its kits beside the bot.
// A Go kit's SDK is a module of its own (goSDK).
var sdks = map[string]struct {
	name   string
	source []byte
}{
	"python": {pysdk.FileName, pysdk.Source},
	"js":     {jssdk.FileName, jssdk.Source},
}

// languageNames are the names people type for each kit's language,
// matched case-insensitively: the kit's own name first.
var languageNames = map[string][]string{
	"go":     {"go", "golang"},
	"js":     {"js", "javascript", "node", "nodejs"},
	"python": {"python", "py", "python3"},
}

// Languages are the kits' languages, by their own names.
func Languages() []string { return dirs(".") }

// LanguageNames lists the languages with the other names each is known
// by: "go (or golang), js (or javascript, node, nodejs), ...".
func LanguageNames() string {
	var out []string
	for _, l := range Languages() {
		if others := languageNames[l][1:]; len(others) > 0 {
			l += " (or " + strings.Join(others, ", ") + ")"
		}
		out = append(out, l)
	}
	return strings.Join(out, ", ")
}

// Language is the kit language name stands for ("py", "Python3" and
// "python" are all "python").
func Language(name string) (string, error) {
	for _, l := range Languages() {
		for _, n := range languageNames[l] {
			if strings.EqualFold(name, n) {
				return l, nil
			}
		}
	}
	return "", fmt.Errorf("%w for language %q (there are: %s)", ErrNoKit, name, LanguageNames())
}

// Games are the games language has a kit for.
func Games(language string) []string {
	l, err := Language(language)
	if err != nil {
		return nil
	}
	return dirs(l)
}

func dirs(dir string) []string {
	entries, _ := fs.ReadDir(files, dir)
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Errors of Kit and Write: each is the command line's mistake wherever
// it is found (exit 2; usage.New).
var (
	// ErrNoKit: no kit for that language, or that game in it.
	ErrNoKit = usage.New("no starter kit")
	// ErrNotEmpty: a kit goes into a new directory, or an empty one.
	ErrNotEmpty = usage.New("not empty: a kit goes into a new directory")
	// ErrNotDir: the kit's path is a file.
	ErrNotDir = usage.New("is a file: a kit goes into a new directory")
)

// Kit is the files of language's kit for game (language as Language
// reads it), by slash-separated path in the kit.
func Kit(language, game string) (map[string][]byte, error) {
	lang, err := Language(language)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(Games(lang), game) {
		return nil, fmt.Errorf("%w for %s in %s (there are: %s)", ErrNoKit, game, lang, strings.Join(Games(lang), ", "))
	}
	out := map[string][]byte{}
	dir := path.Join(lang, game)
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(files, path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out[e.Name()] = data
	}
	if sdk, ok := sdks[lang]; ok {
		out[sdk.name] = sdk.source
	}
	if lang == "go" {
		if err := addGoSDK(out); err != nil {
			return nil, err
		}
	}
	addDocs(out, path.Join(templateDir, dir))
	return out, nil
}

// TemplateDir is the directory name a kit's README and bot use in their
// commands ("python3 mybot/bot.py"); Named puts the kit's own in its place.
const TemplateDir = "mybot"

var (
	// templateWord is TemplateDir as a word of a kit's text.
	templateWord = regexp.MustCompile(`\b` + TemplateDir + `\b`)
	// plainDir is a directory that a command names as it is, unquoted.
	plainDir = regexp.MustCompile(`^[A-Za-z0-9._+/-]+$`)
)

// Named is the kit as Write writes it into dir: in the kit's own files
// (its README and bot, not the SDK or the docs) dir, as the user gave
// it, stands for TemplateDir, so that the README's commands run as
// written from where arena new ran ("python3 unobot/bot.py"). A dir that
// a shell would need quoted is left as the templates say it.
func Named(kit map[string][]byte, dir string) map[string][]byte {
	dir = filepath.ToSlash(filepath.Clean(dir))
	if !plainDir.MatchString(dir) || dir == "." || dir == TemplateDir {
		return kit
	}
	program := dir // a program given by a path: "./mybot/bot"
	if !strings.HasPrefix(dir, "/") && !strings.HasPrefix(dir, ".") {
		program = "./" + dir
	}
	out := make(map[string][]byte, len(kit))
	for name, data := range kit {
		if !strings.Contains(name, "/") && name != pysdk.FileName && name != jssdk.FileName {
			text := strings.ReplaceAll(string(data), "./"+TemplateDir, program)
			data = []byte(templateWord.ReplaceAllLiteralString(text, dir))
		}
		out[name] = data
	}
	return out
}

// Write writes language's kit for game into dir, which must not exist or
// be empty, named for dir (Named); it names the files written, by
// slash-separated path.
func Write(dir, language, game string) ([]string, error) {
	kit, err := Kit(language, game)
	if err != nil {
		return nil, err
	}
	kit = Named(kit, dir)
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("%s %w", dir, ErrNotDir)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s: %w", dir, ErrNotEmpty)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var names []string
	for name := range kit {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		mode := os.FileMode(0o644)
		if strings.HasPrefix(string(kit[name]), "#!") {
			mode = 0o755
		}
		file := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(file, kit[name], mode); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// TopLevel names a kit's files as ls would show the kit's directory: a
// subdirectory once, with the count of files it holds ("docs/ (3 files)").
func TopLevel(names []string) []string {
	var out []string
	count := map[string]int{}
	for _, name := range names {
		top, _, inDir := strings.Cut(name, "/")
		if !inDir {
			out = append(out, name)
			continue
		}
		if count[top] == 0 {
			out = append(out, top+"/")
		}
		count[top]++
	}
	for i, name := range out {
		if n := count[strings.TrimSuffix(name, "/")]; n > 0 {
			out[i] = fmt.Sprintf("%s (%d files)", name, n)
		}
	}
	return out
}
