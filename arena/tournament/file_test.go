package tournament

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/bot/stdio"
	_ "github.com/arena-dev/arena/engine/banqi"
)

func TestFileErrorsNameTheField(t *testing.T) {
	cases := []struct {
		name, yaml, want string
		err              error // the sentinel it wraps, if any
	}{
		{"misspelt field", "name: t\ngame: banqi\nbots: []\nconcurency: 2\n", "t.yaml: line 4: concurency: unknown key (the keys here: name, game, options,", ErrUnknownKey},
		{"misspelt bot field", "name: t\ngame: banqi\nbots:\n  - name: a\n    cmd: arena bot random\n", "t.yaml: line 5: bots[0].cmd: unknown key (the keys in bots[0]: name, command, dir, env)", ErrUnknownKey},
		{"misspelt limits field", "name: t\ngame: banqi\nlimits: {memroy: 1GiB}\nbots: []\n", "line 3: limits.memroy: unknown key (the keys in limits: memory, cpu_time,", ErrUnknownKey},
		{"bad duration", "name: t\ngame: banqi\nclock:\n  move: fast\nbots: []\n", `line 4: clock.move: "fast" is not a duration`, ErrWrongType},
		{"wrong type", "name: t\ngame: banqi\nrounds: many\nbots: []\n", `line 3: rounds: want a whole number, got "many"`, ErrWrongType},
		{"not a list", "name: t\ngame: banqi\ngauntlet: mybot\nbots: []\n", `line 3: gauntlet: want a list`, ErrWrongType},
		{"bots not a list", "name: t\ngame: banqi\nbots: {name: a}\n", `line 3: bots: want a list`, ErrWrongType},
		{"bot not a mapping", "name: t\ngame: banqi\nbots: [alice]\n", `line 3: bots[0]: want keys and values (name, command, dir, env), got "alice"`, ErrWrongType},
		{"negative seed", "name: t\ngame: banqi\nseed: -1\nbots: []\n", `line 3: seed: want a whole number, 0 or more, got "-1"`, ErrWrongType},
		{"missing name", "game: banqi\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "t.yaml: name: missing", nil},
		{"unknown game", "name: t\ngame: chess\nbots: [{name: a, command: arena bot random}]\n", `game: unknown game "chess"`, nil},
		{"no bots", "name: t\ngame: banqi\n", "bots: no bots", nil},
		{"missing command", "name: t\ngame: banqi\nbots: [{name: a}, {name: b, command: x}]\n", "bots[0].command: missing", nil},
		{"program not found", "name: t\ngame: banqi\nbots: [{name: a, command: ./nope}, {name: b, command: arena bot random}]\n", `bots[0].command: command "./nope" not found`, nil},
		{"bad bot dir", "name: t\ngame: banqi\nbots: [{name: a, command: arena bot random, dir: /no/such}, {name: b, command: arena bot random}]\n", "bots[0].dir", nil},
		{"duplicate bot", "name: t\ngame: banqi\nbots: [{name: a, command: arena bot random}, {name: a, command: arena bot random}]\n", "bots[1].name: \"a\" is used twice", nil},
		{"bad option", "name: t\ngame: banqi\noptions: {ranks: fr}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "options: game banqi option ranks", nil},
		{"bad seats", "name: t\ngame: banqi\nseats: 3\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}, {name: c, command: arena bot random}]\n", "seats: game banqi needs 2 seats", nil},
		{"bad format", "name: t\ngame: banqi\nformat: league\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", `format: "league" is not a format`, nil},
		{"gauntlet without runner", "name: t\ngame: banqi\nformat: gauntlet\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "gauntlet: a gauntlet needs", nil},
		{"gauntlet unknown bot", "name: t\ngame: banqi\nformat: gauntlet\ngauntlet: [zed]\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", `gauntlet: "zed" is not one of the bots`, nil},
		{"odd games per encounter", "name: t\ngame: banqi\ngames_per_encounter: 3\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "round-robin: games per encounter must be even", nil},
		{"bad tc", "name: t\ngame: banqi\nclock: {tc: soon}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "clock.tc", nil},
		{"bad policy", "name: t\ngame: banqi\nfailure: {policy: shrug}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "failure.policy", nil},
		{"empty file", "", "t.yaml: the file is empty", ErrEmptyFile},
		{"too large", "name: t\ngame: banqi\nbots: []\n# " + strings.Repeat("x", MaxFileSize) + "\n", "t.yaml: file too large: more than 1MiB", ErrTooLarge},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFile("t.yaml", []byte(tc.yaml))
			if err == nil {
				_, err = f.Resolve("t.yaml", ".")
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, tc.want)
			}
			if tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("error does not wrap %v: %v", tc.err, err)
			}
			if !strings.Contains(err.Error(), "t.yaml") {
				t.Errorf("error does not name the file: %v", err)
			}
			if strings.Contains(err.Error(), "tournament.") || strings.Contains(err.Error(), "unmarshal") {
				t.Errorf("error speaks Go, not YAML: %v", err)
			}
		})
	}
}

func TestFileDefaults(t *testing.T) {
	f, err := ParseFile("t.yaml", []byte("name: t\ngame: banqi\nbots:\n  - name: a\n    command: arena bot random\n  - name: b\n    command: arena bot greedy\n    env: {X: \"1\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Resolve("t.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	if c.Seats != 2 || c.Format != "round-robin" || c.Schedule.Rounds != 1 || c.Schedule.GamesPerEncounter != 2 ||
		c.Limits.Move <= 0 || c.Policy != "forfeit" || c.Concurrency < 1 || c.File.Seed == nil {
		t.Fatalf("defaults: %+v", c)
	}
	if !strings.Contains(strings.Join(c.Bots[1].Target.(stdio.Command).Env, " "), "X=1") {
		t.Errorf("bot env not passed: %v", c.Bots[1].Target)
	}
}

// TestLoadFileRefusesAHugeFile: a file over MaxFileSize (one 100 MB line
// would do; one byte over the bound is enough) is refused unread, the
// error naming the file and the bound.
func TestLoadFileRefusesAHugeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cup.yaml")
	if err := os.WriteFile(path, []byte("name: "+strings.Repeat("x", MaxFileSize)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(path)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "1MiB") {
		t.Fatalf("LoadFile: %v; want ErrTooLarge naming %s and the bound", err, path)
	}
}
