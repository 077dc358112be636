package ladder

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/arena/tournament"
	_ "github.com/arena-dev/arena/engine/banqi"
	_ "github.com/arena-dev/arena/engine/uno"
)

// good is a valid ladder file; the tests below spoil one line of it.
const good = `name: cup
game: uno
seats: 2-4
clock:
  move: 500ms
rating:
  beta: 4
  mu: 0
matchmaking:
  placement_sigma: 3
  max_gap: 40
submissions:
  build_time: 2m
  build_memory: 1GiB
  validation_games: 6
bots:
  - name: random
    command: /bin/cat
  - name: greedy
    command: /bin/cat
`

// writeFile writes data as a ladder file in a temporary directory.
func writeFile(t *testing.T, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ladder.yaml")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadFileErrors(t *testing.T) {
	tests := []struct {
		name, data string
		line       int
		key        string
		is         error
	}{
		{"unknown key", strings.Replace(good, "seats: 2-4", "seat: 2-4", 1), 3, "seat", tournament.ErrUnknownKey},
		{"unknown nested key", strings.Replace(good, "  beta: 4", "  betta: 4", 1), 7, "rating.betta", tournament.ErrUnknownKey},
		{"wrong type", strings.Replace(good, "  beta: 4", "  beta: high", 1), 7, "rating.beta", tournament.ErrWrongType},
		{"not a list", strings.Replace(good, "seats: 2-4", "seats: [2, 4]", 1), 3, "seats", tournament.ErrWrongType},
		{"bad duration", strings.Replace(good, "build_time: 2m", "build_time: soon", 1), 13, "submissions.build_time", tournament.ErrWrongType},
		{"bots not a list", good[:strings.Index(good, "bots:")] + "bots: random\n", 16, "bots", tournament.ErrWrongType},
		{"empty", "", 0, "", tournament.ErrEmptyFile},
		{"too large", good + "#" + strings.Repeat("x", tournament.MaxFileSize), 0, "", tournament.ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.data)
			_, err := LoadFile(path)
			var fe *tournament.FileError
			if !errors.As(err, &fe) || !errors.Is(err, tt.is) {
				t.Fatalf("error %v, want a *FileError wrapping %v", err, tt.is)
			}
			if fe.File != path || fe.Line != tt.line || fe.Key != tt.key {
				t.Errorf("error at %s line %d key %q, want %s line %d key %q (%v)", fe.File, fe.Line, fe.Key, path, tt.line, tt.key, err)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	tests := []struct {
		name, from, to, field string
	}{
		{"no name", "name: cup", "name:", "name"},
		{"name with a space", "name: cup", "name: the cup", "name"},
		{"no game", "game: uno", "game:", "game"},
		{"unknown game", "game: uno", "game: chess", "game"},
		{"seats backwards", "seats: 2-4", "seats: 4-2", "seats"},
		{"seats not a number", "seats: 2-4", "seats: many", "seats"},
		{"seats beyond the game", "game: uno", "game: banqi", "seats"},
		{"bad clock", "  move: 500ms", "  move: 500ms\n  tc: fast", "clock.tc"},
		{"negative beta", "  beta: 4", "  beta: -4", "rating.beta"},
		{"negative gap", "max_gap: 40", "max_gap: -1", "matchmaking.max_gap"},
		{"bad build memory", "build_memory: 1GiB", "build_memory: lots", "submissions.build_memory"},
		{"share_deals", "game: uno", "game: uno\nshare_deals: cycle", "share_deals"},
		{"bad limits", "game: uno", "game: uno\nlimits:\n  memory: lots", "limits"},
		{"version-like bot name", "name: random", "name: random.v2", "bots[0].name"},
		{"bot without command", "    command: /bin/cat\n  - name: greedy", "    command: /bin/cat\n  - name: greedy\n    command: ''\n  - name: x", "bots[1].command"},
		{"bot twice", "name: greedy", "name: random", "bots[1].name"},
		{"no bots", good[strings.Index(good, "bots:"):], "bots: []\n", "bots"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, strings.Replace(good, tt.from, tt.to, 1))
			f, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.Resolve(path, filepath.Dir(path))
			var fe *options.FieldError
			if !errors.As(err, &fe) || fe.Field != tt.field || fe.Src != path {
				t.Fatalf("error %v, want a *FieldError of %s in %s", err, tt.field, path)
			}
		})
	}
}

func TestResolveDefaults(t *testing.T) {
	path := writeFile(t, "name: cup\ngame: banqi\nbots:\n  - name: a\n    command: /bin/cat\n")
	f, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Resolve(path, filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if c.Seats.Min != 2 || c.Seats.Max != 2 {
		t.Errorf("seats %+v, want the game's 2", c.Seats)
	}
	if c.Rating != stats.DefaultParams() || c.Initial != stats.DefaultSkill() {
		t.Errorf("rating %+v %+v, want stats' defaults", c.Rating, c.Initial)
	}
	if c.Submissions != Defaults {
		t.Errorf("submissions %+v, want %+v", c.Submissions, Defaults)
	}
	if c.File.Seed == nil || *c.File.Seed != c.Seed {
		t.Errorf("the seed is not kept in the file (%v, %d)", c.File.Seed, c.Seed)
	}

	// And the given values of good.
	path = writeFile(t, good)
	if f, err = LoadFile(path); err != nil {
		t.Fatal(err)
	}
	if c, err = f.Resolve(path, filepath.Dir(path)); err != nil {
		t.Fatal(err)
	}
	want := Submissions{BuildTime: 2 * time.Minute, BuildMemory: 1 << 30, ValidationGames: 6, MaxVersions: Defaults.MaxVersions, SuspendAfter: Defaults.SuspendAfter}
	if c.Seats.Min != 2 || c.Seats.Max != 4 || c.Rating.Beta != 4 || c.Initial.Mu != 0 || c.Submissions != want ||
		c.Matchmaking.PlacementSigma != 3 || c.Matchmaking.MaxGap != 40 || c.Matchmaking.Beta != 4 || c.Limits.Move != 500*time.Millisecond {
		t.Errorf("config %+v", c)
	}
}
