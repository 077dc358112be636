package check

import (
	"errors"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/remote"
)

func TestValidate(t *testing.T) {
	good := Config{Games: 2, Move: time.Second, Startup: time.Second, MaxLine: 1}
	cases := []struct {
		name  string
		edit  func(*Config)
		field string // "" valid
		msg   string
	}{
		{"valid", func(*Config) {}, "", ""},
		{"no margin is fine", func(c *Config) { c.Margin = 0 }, "", ""},
		{"no games", func(c *Config) { c.Games = 0 }, "Games", "check: Games: 0: want at least 1"},
		{"no move time", func(c *Config) { c.Move = 0 }, "Move", "check: Move: 0s: want a positive duration"},
		{"negative startup", func(c *Config) { c.Startup = -time.Second }, "Startup", "check: Startup: -1s: want a positive duration"},
		{"negative margin", func(c *Config) { c.Margin = -time.Millisecond }, "Margin", "check: Margin: -1ms: must not be negative"},
		{"no line", func(c *Config) { c.MaxLine = 0 }, "MaxLine", "check: MaxLine: 0: want at least 1"},
		{"the first mistake", func(c *Config) { c.Games, c.MaxLine = 0, 0 }, "Games", "check: Games: 0: want at least 1"},
	}
	for _, tc := range cases {
		cfg := good
		tc.edit(&cfg)
		err := cfg.Validate()
		var fe *FieldError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.field == "":
		case !errors.As(err, &fe) || fe.Field != tc.field || err.Error() != tc.msg:
			t.Errorf("%s: %v, want a FieldError of %s: %q", tc.name, err, tc.field, tc.msg)
		}
	}
}

func TestWords(t *testing.T) {
	if got := Words(stdio.Command{Line: "python3 bot.py", Argv: []string{"python3", "/abs/bot.py"}}); len(got) != 2 || got[1] != "/abs/bot.py" {
		t.Errorf("a local program: %q, want its words", got)
	}
	if got := Words(remote.Target{ID: "alice"}); len(got) != 1 || got[0] != "nats:alice" {
		t.Errorf("a remote bot: %q, want its name as written", got)
	}
}

func TestReportErr(t *testing.T) {
	cases := []struct {
		rep  Report
		want string
	}{
		{Report{OK: true, Checks: make([]Result, 3)}, ""},
		{Report{Failed: 2, Checks: make([]Result, 14)}, "2 of 14 checks failed"},
	}
	for _, tc := range cases {
		err := tc.rep.Err()
		if (err == nil) != (tc.want == "") || (err != nil && err.Error() != tc.want) {
			t.Errorf("%+v: %v, want %q", tc.rep, err, tc.want)
		}
	}
}
