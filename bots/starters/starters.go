// Package starters holds the starter kits: for each language and game, a
// minimal bot a student copies and edits, with a README of three commands.
// A kit is one directory, the bot beside its SDK (a sandboxed bot sees
// only its own directory): arena new writes one (Kit, Write).
package starters

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	jssdk "github.com/arena-dev/arena/sdk/js"
	pysdk "github.com/arena-dev/arena/sdk/python"
)

//go:embed python js go
var files embed.FS

// sdks is each language's SDK file, written into its kits beside the bot.
// A Go kit has none: it is a package of the module that holds the SDK
// (a clone of this repository, or a module requiring it).
var sdks = map[string]struct {
	name   string
	source []byte
}{
	"python": {pysdk.FileName, pysdk.Source},
	"js":     {jssdk.FileName, jssdk.Source},
}

// Languages are the kits' languages.
func Languages() []string { return dirs(".") }

// Games are the games language has a kit for.
func Games(language string) []string { return dirs(language) }

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

// Errors of Kit and Write.
var (
	// ErrNoKit: no kit for that language, or that game in it.
	ErrNoKit = errors.New("no starter kit")
	// ErrNotEmpty: a kit goes into a new directory, or an empty one.
	ErrNotEmpty = errors.New("not empty: a kit goes into a new directory")
	// ErrNotDir: the kit's path is a file.
	ErrNotDir = errors.New("is a file: a kit goes into a new directory")
)

// Kit is the files of language's kit for game, by name.
func Kit(language, game string) (map[string][]byte, error) {
	if !slices.Contains(Languages(), language) {
		return nil, fmt.Errorf("%w for language %q (there are: %s)", ErrNoKit, language, strings.Join(Languages(), ", "))
	}
	if !slices.Contains(Games(language), game) {
		return nil, fmt.Errorf("%w for %s in %s (there are: %s)", ErrNoKit, game, language, strings.Join(Games(language), ", "))
	}
	out := map[string][]byte{}
	dir := path.Join(language, game)
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
	if sdk, ok := sdks[language]; ok {
		out[sdk.name] = sdk.source
	}
	return out, nil
}

// Write writes language's kit for game into dir, which must not exist or
// be empty; it names the files written.
func Write(dir, language, game string) ([]string, error) {
	kit, err := Kit(language, game)
	if err != nil {
		return nil, err
	}
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
		if err := os.WriteFile(filepath.Join(dir, name), kit[name], mode); err != nil {
			return nil, err
		}
	}
	return names, nil
}
