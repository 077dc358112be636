package stdio_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
)

// A command with no registered scheme is a program: checked by Parse,
// not looked for by ParseUnchecked (a withdrawn bot), and bound as
// itself, named, unconfined by default.
func TestScheme(t *testing.T) {
	s, err := bot.Parse("a", "sh -c true", "")
	if err != nil {
		t.Fatal(err)
	}
	c, ok := s.Target.(stdio.Command)
	if !ok || c.Scheme() != stdio.SchemeName || c.String() != "sh -c true" || len(c.Argv) != 3 {
		t.Fatalf("target %#v", s.Target)
	}
	if _, err := bot.Parse("a", "./no-such-bot", ""); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing program: %v", err)
	}
	u, err := bot.ParseUnchecked("a", "./no-such-bot", "")
	if err != nil || len(u.Target.(stdio.Command).Argv) != 0 || len(stdio.Programs([]bot.Spec{u})) != 0 {
		t.Errorf("unchecked: %+v, %v", u, err)
	}
	local, ok := s.Target.(bot.Local)
	if !ok || local.WithEnv([]string{"X=1"}).(stdio.Command).Env[0] != "X=1" {
		t.Errorf("a program takes env: %#v", s.Target)
	}
	specs := []bot.Spec{s}
	if err := bot.Bind(specs, nil); err != nil {
		t.Fatal(err)
	}
	if l, ok := specs[0].Launcher.(stdio.Command); !ok || l.Name != "a" || l.Sandbox != nil {
		t.Errorf("bound: %#v", specs[0].Launcher)
	}
}
