package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/bots/starters"
	"github.com/arena-dev/arena/internal/testkit"
)

// shortGames keeps the matches of TestNewKitsWorkWhereWritten short.
var shortGames = map[string]string{
	"banqi": " --option max_plies=300", "uno": " --option scoring=single_hand", "bounce": " --option scoring=single_hand",
}

// TestNewKitsWorkWhereWritten: every kit, written by arena new into a
// directory outside this repository, is the kit's files, whole, its
// README's links work there, and its README's commands run there as a
// student types them (a shorter match): the Go kit builds, passes go vet
// and its own test with no network and an empty module cache (its SDK is
// in the kit), and every bot passes arena check and plays a match
// against the bundled random bot without a forfeit or a strike.
func TestNewKitsWorkWhereWritten(t *testing.T) {
	interpreter := map[string]string{"python": "python3", "js": "node", "go": "go"}
	env := append(arenaOnPath(t),
		// Offline, and nothing from this machine's module cache or this
		// clone. -trimpath lets the four Go kits, whose SDK copies are
		// alike, share the build cache (resolution is the same without).
		"GOFLAGS=-mod=mod -trimpath -count=1", "GOPROXY=off", "GOTOOLCHAIN=local", "GOWORK=off", "GOMODCACHE="+t.TempDir())
	for _, lang := range starters.Languages() {
		for _, game := range starters.Games(lang) {
			t.Run(lang+"/"+game, func(t *testing.T) {
				t.Parallel()
				testkit.Tool(t, interpreter[lang])
				// Written, as a student does, by a name of their own,
				// relative to where they are: the README's commands name it.
				work := t.TempDir()
				name := game + "bot"
				dir := filepath.Join(work, name)
				if _, stderr, code := arenaIn(t, work, "new", lang, game, name); code != 0 {
					t.Fatalf("new: exit %d: %s", code, stderr)
				}
				kit, err := starters.Kit(lang, game)
				if err != nil {
					t.Fatal(err)
				}
				kit = starters.Named(kit, name)
				if readme := string(kit["README.md"]); strings.Contains(readme, starters.TemplateDir) || !strings.Contains(readme, name+"/") {
					t.Errorf("README.md written into %s does not name it:\n%s", name, readme)
				}
				for name, want := range kit {
					got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
					if err != nil || !bytes.Equal(got, want) {
						t.Errorf("%s: %v, or not the kit's", name, err)
					}
				}
				readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
				if err != nil {
					t.Fatal(err)
				}
				for _, target := range regexp.MustCompile(`\]\(([^)#:]+)[^)]*\)`).FindAllSubmatch(readme, -1) {
					if _, err := os.Stat(filepath.Join(dir, string(target[1]))); err != nil {
						t.Errorf("README.md links %s: %v", target[1], err)
					}
				}
				var ran []string
				for _, cmdline := range readmeCommands(readme) {
					if strings.HasPrefix(cmdline, "arena new ") {
						continue // done above
					}
					cmdline = strings.Replace(cmdline, " --games 20", " --games 2 --json"+shortGames[game], 1)
					start := time.Now()
					cmd := exec.Command("sh", "-c", cmdline)
					var stderr bytes.Buffer
					cmd.Dir, cmd.Env, cmd.Stderr = work, env, &stderr
					out, err := cmd.Output()
					if err != nil {
						t.Fatalf("README.md: %s: %v\n%s%s", cmdline, err, out, stderr.Bytes())
					}
					if strings.HasPrefix(cmdline, "arena match ") {
						var sum struct {
							Games int `json:"games"`
							Bots  []struct {
								Name              string `json:"name"`
								Forfeits, Strikes int
							} `json:"bots"`
						}
						if err := json.Unmarshal(out, &sum); err != nil {
							t.Fatalf("README.md: %s: %v\n%s", cmdline, err, out)
						}
						if sum.Games != 2 || len(sum.Bots) == 0 || sum.Bots[0].Name != "me" {
							t.Errorf("README.md: %s: %d games, bots %+v; want 2 games of me:\n%s%s", cmdline, sum.Games, sum.Bots, out, stderr.Bytes())
						}
						for _, b := range sum.Bots {
							if b.Forfeits+b.Strikes > 0 {
								t.Errorf("README.md: %s: %s forfeited %d, struck %d:\n%s", cmdline, b.Name, b.Forfeits, b.Strikes, stderr.Bytes())
							}
						}
					}
					t.Logf("README.md: %s: %v", cmdline, time.Since(start).Round(time.Millisecond))
					ran = append(ran, strings.Fields(cmdline)[0]+" "+strings.Fields(cmdline)[1])
				}
				want := []string{"arena check", "arena match"}
				if lang == "go" {
					want = []string{"go -C", "go -C", "arena check", "arena match"}
				}
				if !slices.Equal(ran, want) {
					t.Errorf("README.md's commands: %v, want %v", ran, want)
				}
				if lang == "go" {
					vet := exec.Command("go", "vet", "./...")
					vet.Dir, vet.Env = dir, env
					if out, err := vet.CombinedOutput(); err != nil {
						t.Errorf("go vet: %v\n%s", err, out)
					}
				}
			})
		}
	}
}

// readmeCommands are the command lines of a README's ```sh blocks.
func readmeCommands(readme []byte) []string {
	var cmds []string
	inSh := false
	for _, line := range strings.Split(string(readme), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = !inSh && line == "```sh"
		case inSh && line != "" && !strings.HasPrefix(line, "#"):
			cmds = append(cmds, line)
		}
	}
	return cmds
}

// TestNewTakesTheNamesPeopleType: arena new takes a language by the
// names people type for it, in any case, and writes that language's kit.
func TestNewTakesTheNamesPeopleType(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, file string }{
		{"javascript", "bot.js"}, {"JS", "bot.js"}, {"node", "bot.js"},
		{"py", "bot.py"}, {"Python3", "bot.py"},
		{"golang", "main.go"}, {"Go", "main.go"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "mybot")
			stdout, stderr, code := arena(t, "new", tc.name, "uno", dir)
			if code != 0 {
				t.Fatalf("arena new %s uno: exit %d: %s", tc.name, code, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, tc.file)); err != nil {
				t.Errorf("arena new %s uno wrote no %s: %v\n%s", tc.name, tc.file, err, stdout)
			}
		})
	}
}

func TestNewRefusesBadArguments(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	runUsageCases(t, []usageCase{
		{"language", []string{"new", "cobol", "uno", t.TempDir() + "/a"}, `no starter kit for language "cobol" (there are: go (or golang), js (or javascript, node, nodejs), python (or py, python3))`},
		{"game", []string{"new", "python", "chess", t.TempDir() + "/a"}, `unknown game "chess"`},
		{"not empty", []string{"new", "python", "uno", full}, "not empty: a kit goes into a new directory"},
		{"a file", []string{"new", "python", "uno", filepath.Join(full, "x")}, "x is a file: a kit goes into a new directory"},
		{"arguments", []string{"new", "python"}, "want LANGUAGE GAME DIR"},
	}, nil)
}
