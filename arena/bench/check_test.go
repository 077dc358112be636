package bench_test

import (
	"errors"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bench"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/boon"
)

// Setup refuses each field a command gives wrongly, naming it, and
// resolves a good config's options.
func TestSetup(t *testing.T) {
	banqi, _ := engine.Lookup("banqi")
	boon, _ := engine.Lookup("boon")
	good := bench.Config{Game: banqi, Move: 100 * time.Millisecond, Games: 40}
	for _, tc := range []struct {
		name  string
		edit  func(*bench.Config)
		field string
		want  string
	}{
		{"good", func(*bench.Config) {}, "", ""},
		{"three seats", func(c *bench.Config) { c.Game = boon }, "Game", "Game boon: arena bench plays two copies of a bot, and boon needs 3 seats at least"},
		{"no move clock", func(c *bench.Config) { c.Move = 0 }, "Move", "Move 0s: want a positive duration, such as 100ms"},
		{"no games", func(c *bench.Config) { c.Games = 0 }, "Games", "Games 0: want at least 1"},
		{"negative concurrency", func(c *bench.Config) { c.MaxConcurrency = -1 }, "MaxConcurrency", "MaxConcurrency -1: want 0 (the default) or more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := good
			tc.edit(&cfg)
			err := cfg.Setup(nil)
			var fe *bench.FieldError
			switch {
			case tc.field == "" && (err != nil || cfg.Options == nil):
				t.Errorf("error %v, options %v: want none, resolved", err, cfg.Options)
			case tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field || err.Error() != tc.want):
				t.Errorf("error %v: want %q", err, tc.want)
			}
		})
	}
	if err := (&bench.Config{Game: banqi, Move: time.Second, Games: 1}).Setup(engine.Options{"no-such-option": "1"}); err == nil {
		t.Error("an unknown game option was accepted")
	}
}
