package membot_test

import (
	"errors"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/membot"
)

func TestScheme(t *testing.T) {
	for _, tc := range []struct {
		cmd     string
		err     bool
		policy  string
		command string
	}{
		{"mem:random", false, "random", "mem:random"},
		{" mem:first", false, "first", "mem:first"},
		{"mem:best", true, "", ""},
	} {
		s, err := bot.Parse("m", tc.cmd, "")
		if tc.err {
			var se *bot.SpecError
			if !errors.As(err, &se) || se.Field != bot.FieldCommand {
				t.Errorf("%q: %v, want a command error", tc.cmd, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tc.cmd, err)
		}
		if tgt, ok := s.Target.(membot.Target); !ok || tgt.Policy != tc.policy || tgt.String() != tc.command {
			t.Errorf("%q: target %#v", tc.cmd, s.Target)
		}
		if err := bot.Bind([]bot.Spec{s}, nil); err != nil {
			t.Errorf("%q: bind: %v", tc.cmd, err)
		}
	}
}
