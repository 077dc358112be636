package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/bots/starters"
	"github.com/arena-dev/arena/internal/testkit"
)

// Every kit arena new writes is the kit's files, whole, and its bot
// passes arena check as the README says to run it.
func TestNewWritesKitsThatPassCheck(t *testing.T) {
	run := map[string]func(dir string) string{
		"python": func(dir string) string { return "python3 " + filepath.Join(dir, "bot.py") },
		"js":     func(dir string) string { return "node " + filepath.Join(dir, "bot.js") },
	}
	interpreter := map[string]string{"python": "python3", "js": "node", "go": "go"}
	// A Go kit is a package of a module that requires the SDK: here, a
	// module of its own pointed at this clone, built offline.
	root := testkit.ModuleRoot(t)
	run["go"] = func(dir string) string {
		gomod := "module mybot\n\ngo 1.26\n\nrequire github.com/arena-dev/arena v0.0.0\n\nreplace github.com/arena-dev/arena => " + root + "\n"
		sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
			t.Fatal(err)
		}
		build := exec.Command("go", "build", "-o", "bot", ".")
		build.Dir = dir
		build.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		return filepath.Join(dir, "bot")
	}
	for _, lang := range starters.Languages() {
		for _, game := range starters.Games(lang) {
			t.Run(lang+"/"+game, func(t *testing.T) {
				t.Parallel()
				cmdline, ok := run[lang]
				if !ok {
					t.Fatalf("no way to run a %s kit here: add it to this test", lang)
				}
				testkit.Tool(t, interpreter[lang])
				dir := filepath.Join(t.TempDir(), "mybot")
				if _, stderr, code := arena(t, "new", lang, game, dir); code != 0 {
					t.Fatalf("new: exit %d: %s", code, stderr)
				}
				kit, err := starters.Kit(lang, game)
				if err != nil {
					t.Fatal(err)
				}
				for name, want := range kit {
					got, err := os.ReadFile(filepath.Join(dir, name))
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s: %v, or not the kit's", name, err)
					}
				}
				readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
				if !strings.Contains(string(readme), "arena check --game "+game) {
					t.Errorf("README.md does not say how to check the bot")
				}
				stdout, stderr, code := arena(t, "check", "--game", game, cmdline(dir))
				if code != 0 {
					t.Fatalf("check: exit %d\n%s\n%s", code, stdout, stderr)
				}
			})
		}
	}
}

func TestNewRefusesBadArguments(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	runUsageCases(t, []usageCase{
		{"language", []string{"new", "cobol", "uno", t.TempDir() + "/a"}, `no starter kit for language "cobol"`},
		{"game", []string{"new", "python", "chess", t.TempDir() + "/a"}, `unknown game "chess"`},
		{"not empty", []string{"new", "python", "uno", full}, "not empty: a kit goes into a new directory"},
		{"a file", []string{"new", "python", "uno", filepath.Join(full, "x")}, "x is a file: a kit goes into a new directory"},
		{"arguments", []string{"new", "python"}, "want LANGUAGE GAME DIR"},
	}, nil)
}
