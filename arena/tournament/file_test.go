package tournament

import (
	"strings"
	"testing"

	_ "github.com/arena-dev/arena/engine/banqi"
)

func TestFileErrorsNameTheField(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"misspelt field", "name: t\ngame: banqi\nbots: []\nconcurency: 2\n", "line 4: field concurency not found"},
		{"bad duration", "name: t\ngame: banqi\nclock:\n  move: fast\nbots: []\n", `line 4: "fast" is not a duration`},
		{"wrong type", "name: t\ngame: banqi\nrounds: many\nbots: []\n", "line 3"},
		{"missing name", "game: banqi\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "t.yaml: name: missing"},
		{"unknown game", "name: t\ngame: chess\nbots: [{name: a, command: arena bot random}]\n", `game: unknown game "chess"`},
		{"no bots", "name: t\ngame: banqi\n", "bots: no bots"},
		{"missing command", "name: t\ngame: banqi\nbots: [{name: a}, {name: b, command: x}]\n", "bots[0].command: missing"},
		{"program not found", "name: t\ngame: banqi\nbots: [{name: a, command: ./nope}, {name: b, command: arena bot random}]\n", `bots[0].command: command "./nope" not found`},
		{"bad bot dir", "name: t\ngame: banqi\nbots: [{name: a, command: arena bot random, dir: /no/such}, {name: b, command: arena bot random}]\n", "bots[0].dir"},
		{"duplicate bot", "name: t\ngame: banqi\nbots: [{name: a, command: arena bot random}, {name: a, command: arena bot random}]\n", "bots[1].name: \"a\" is used twice"},
		{"bad option", "name: t\ngame: banqi\noptions: {ranks: fr}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "options: game banqi option ranks"},
		{"bad seats", "name: t\ngame: banqi\nseats: 3\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}, {name: c, command: arena bot random}]\n", "seats: game banqi needs 2 seats"},
		{"bad format", "name: t\ngame: banqi\nformat: league\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", `format: "league" is not a format`},
		{"gauntlet without runner", "name: t\ngame: banqi\nformat: gauntlet\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "gauntlet: a gauntlet needs"},
		{"gauntlet unknown bot", "name: t\ngame: banqi\nformat: gauntlet\ngauntlet: [zed]\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", `gauntlet: "zed" is not one of the bots`},
		{"odd games per encounter", "name: t\ngame: banqi\ngames_per_encounter: 3\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "round-robin: games per encounter must be even"},
		{"bad tc", "name: t\ngame: banqi\nclock: {tc: soon}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "clock.tc"},
		{"bad policy", "name: t\ngame: banqi\nfailure: {policy: shrug}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n", "failure.policy"},
		{"empty file", "", "t.yaml: the file is empty"},
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
			if !strings.Contains(err.Error(), "t.yaml") {
				t.Errorf("error does not name the file: %v", err)
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
	if !strings.Contains(strings.Join(c.Bots[1].Env, " "), "X=1") {
		t.Errorf("bot env not passed: %v", c.Bots[1].Env)
	}
}
