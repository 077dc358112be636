package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBotFilesCheckedBeforeAnyGame: a student's script without the
// execute bit, and a script argument that is not there, are refused at
// once (exit 2, one line) naming the bot and the user's own path with a
// fix that works, and no game is played: no sandbox path, no flag the user
// did not give, no forfeits.
func TestBotFilesCheckedBeforeAnyGame(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"run.py":   "#!/usr/bin/env python3\nprint('hi')\n",
		"plain.py": "print('hi')\n",
		"cup.yaml": "name: cup\ngame: banqi\nbots:\n  - {name: a, command: python3 nope/bot.py}\n  - {name: b, command: arena bot random}\n",
	}
	match := func(bot string) []string {
		return []string{"match", "--game", "banqi", "--bot", bot, "--bot", "b=arena bot random", "--games", "2", "--out", "out"}
	}
	for _, tc := range []struct {
		name  string
		args  []string
		wants []string // DIR: the directory the arena runs in
	}{
		{"no execute bit", match("a=./run.py"), []string{"--bot a: ./run.py (mode -rw-r--r--) is not executable: chmod +x ./run.py"}},
		{"no execute bit, no #! line", match("a=./plain.py"), []string{"--bot a: ./plain.py (mode -rw-r--r--) is not executable and has no #! line",
			"run it as `python3 ./plain.py`, or add `#!/usr/bin/env python3` as its first line and chmod +x ./plain.py"}},
		{"a missing script", match("a=python3 nope/bot.py"), []string{`--bot a: argument "nope/bot.py" names no file (there is no DIR/nope/bot.py): give the path of an existing file`}},
		{"a missing script in a tournament file", []string{"tournament", "run", "cup.yaml", "--out", "out"},
			[]string{"bots[0].command", `argument "nope/bot.py" names no file (there is no DIR/nope/bot.py)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, text := range files {
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(p, 0o644); err != nil { // whatever the umask
					t.Fatal(err)
				}
			}
			stdout, stderr, code := arenaIn(t, dir, tc.args...)
			if code != exitUsage || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and one line", code, stderr, exitUsage)
			}
			for _, w := range tc.wants {
				if w = strings.ReplaceAll(w, "DIR", dir); !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			for _, bad := range []string{"--bot-uids", "o+rX", "/arena-"} {
				if strings.Contains(stderr, bad) {
					t.Errorf("stderr %q names %q", stderr, bad)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "out", "results.jsonl")); err == nil || stdout != "" {
				t.Errorf("games were played: stdout %q", stdout)
			}
		})
	}
}
