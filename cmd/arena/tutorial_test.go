package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// tutorialStep is a fenced block of docs/tutorial.md the test acts on: a
// file to write (```python file=PATH) or commands to run (```sh run, with
// exit=CODES when a status other than 0 is a good outcome).
type tutorialStep struct {
	line  int // of the opening fence
	file  string
	run   bool
	exits []int
	body  string
}

func tutorialSteps(t *testing.T, path string) []tutorialStep {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var steps []tutorialStep
	var cur *tutorialStep
	var body strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if cur == nil {
			info, ok := strings.CutPrefix(l, "```")
			if !ok {
				continue
			}
			step := tutorialStep{line: n, exits: []int{0}}
			fields := strings.Fields(info)
			for _, f := range fields[min(1, len(fields)):] {
				switch k, v, _ := strings.Cut(f, "="); k {
				case "file":
					step.file = v
				case "run":
					step.run = true
				case "exit":
					step.exits = nil
					for _, c := range strings.Split(v, ",") {
						code, err := strconv.Atoi(c)
						if err != nil {
							t.Fatalf("%s:%d: exit=%q", path, n, v)
						}
						step.exits = append(step.exits, code)
					}
				}
			}
			cur = &step
			body.Reset()
			continue
		}
		if l == "```" {
			cur.body = body.String()
			if cur.file != "" || cur.run {
				steps = append(steps, *cur)
			}
			cur = nil
			continue
		}
		body.WriteString(l + "\n")
	}
	return steps
}

// fewerGames finds the game counts of the tutorial's commands.
var fewerGames = regexp.MustCompile(`(--games|--max-games) \d+`)

// oneHand finds the Uno games of the tutorial's commands, which the quick
// form plays to one hand (target=0) rather than 500 points: its first bot
// plays at random, and random Uno to 500 points ran for thousands of
// turns, 15 of the test's 17 s.
var oneHand = regexp.MustCompile(`(--game uno)\b`)

// The tutorial's files and commands, run in order in a fresh directory as
// a reader would, with this test binary as the arena on PATH: each command
// must succeed (or end with a status its block allows), and each bot the
// tutorial writes must pass arena check (the tutorial runs it).
//
// The tutorial plays some hundred Uno games with Python bots: in the
// quick form (testkit.Quick) each match plays 4 games and the SPRT 4 at
// most, each game of one hand (oneHand), the commands otherwise as
// written.
func TestTutorialRuns(t *testing.T) {
	t.Parallel() // its commands wait on python bots: the longest test of the package, it overlaps the others
	testkit.Tool(t, "python3")
	steps := tutorialSteps(t, "../../docs/tutorial.md")
	var files, commands int
	env := arenaOnPath(t)
	work := t.TempDir()
	for _, s := range steps {
		if s.file != "" {
			files++
			path := filepath.Join(work, s.file)
			if err := os.WriteFile(path, []byte(s.body), 0o644); err != nil {
				t.Fatalf("tutorial.md:%d: %v (was the directory made by an earlier step?)", s.line, err)
			}
			continue
		}
		for _, cmdline := range strings.Split(strings.TrimSpace(s.body), "\n") {
			if strings.HasPrefix(cmdline, "#") || cmdline == "" {
				continue
			}
			commands++
			if testkit.Quick() {
				cmdline = fewerGames.ReplaceAllString(cmdline, "$1 4")
				cmdline = oneHand.ReplaceAllString(cmdline, "$1 --option target=0")
			}
			cmd := exec.Command("sh", "-c", cmdline)
			cmd.Dir = work
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			code := exitCode(t, err)
			if !slices.Contains(s.exits, code) {
				t.Fatalf("tutorial.md:%d: %s\nexit %d (want %v):\n%s", s.line, cmdline, code, s.exits, out)
			}
			t.Logf("tutorial.md:%d: %s: exit %d, %d bytes of output", s.line, cmdline, code, len(out))
		}
	}
	if files < 2 || commands < 6 {
		t.Fatalf("%d files and %d commands found in the tutorial: the markers (```python file=..., ```sh run) are gone?", files, commands)
	}
}
