package sprt

import (
	"errors"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/stats"
)

func TestSettleSaysTheField(t *testing.T) {
	filler := func(used bool) (bot.Spec, error) {
		if !used {
			return bot.Spec{}, nil
		}
		return stdio.Command{Name: "new", Argv: []string{"filler"}}.Spec(), nil
	}
	for _, tc := range []struct {
		name  string
		game  string
		edit  func(*Config, *Given)
		field string // "" no *FieldError
		said  string // FieldError.Flag("flag", "given")
	}{
		{"fine", "banqi", func(*Config, *Given) {}, "", ""},
		{"same names", "banqi", func(c *Config, _ *Given) { c.Base.Name = "new" }, "Test",
			`--flag "given": name "new" is the --base's too; give the bots different names`},
		{"one seat", "banqi", func(c *Config, g *Given) { c.Seats, g.Seats = 1, true }, "Seats",
			"--flag 1: base and test need 2 seats at least"},
		{"filler clash", "uno", func(c *Config, g *Given) { c.Seats, g.Seats, c.Base.Name = 3, true, "new1" }, "Filler",
			`--flag "given": its seats are named new1, which clashes with --base or --test; give it another NAME`},
		{"one game", "banqi", func(c *Config, _ *Given) { c.MaxGames = 1 }, "MaxGames",
			"--flag 1: want 0 (no cap) or at least 2 (one pair)"},
		{"negative time", "banqi", func(c *Config, _ *Given) { c.MaxTime = -time.Second }, "MaxTime",
			"--flag -1s: want a duration such as 100m, or 0 (no budget)"},
		{"no concurrency", "banqi", func(c *Config, g *Given) { g.Concurrency = true }, "Concurrency",
			"--flag 0: want at least 1"},
	} {
		c := testConfig(t, tc.game, 2)
		c.Seats, c.Options = 0, nil
		g := Given{Filler: filler}
		tc.edit(c, &g)
		err := c.Settle(g)
		var fe *FieldError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.field == "":
			if c.Seats != 2 || c.Concurrency < 1 || c.Options == nil {
				t.Errorf("%s: not filled in: %+v", tc.name, c)
			}
		case !errors.As(err, &fe) || fe.Field != tc.field:
			t.Errorf("%s: %v, want a *FieldError of %s", tc.name, err, tc.field)
		case fe.Flag("flag", "given").Error() != tc.said:
			t.Errorf("%s: says %q, want %q", tc.name, fe.Flag("flag", "given"), tc.said)
		}
	}
	c := testConfig(t, "banqi", 2)
	c.SPRT = stats.SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}
	var pe *stats.ParamError
	if err := c.Settle(Given{Filler: filler}); !errors.As(err, &pe) {
		t.Errorf("elo0 > elo1: %v, want a *stats.ParamError", err)
	}
}

func TestExitCode(t *testing.T) {
	for v, want := range map[Verdict]int{H1: 0, H0: 3, Inconclusive: 4, Aborted: 1, Running: 1} {
		if got := v.ExitCode(); got != want {
			t.Errorf("%s: exit %d, want %d", v, got, want)
		}
	}
}
