package bot_test

import (
	"testing"

	"github.com/arena-dev/arena/arena/bot"
)

func TestParseFlagsErrors(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   string // "" no error
	}{
		{[]string{"a=x", "b=y"}, ""},
		{[]string{"a"}, `--bot "a": want NAME=CMD`},
		{[]string{"a="}, `--bot "a=": want NAME=CMD`},
		{[]string{"a=x", "a=y"}, `--bot "a=y": name "a" is used twice`},
		{[]string{".a=x"}, `--bot ".a=x": bot name ".a" may hold only letters, digits, '.', '_' and '-' (and must not start with '.', '_' or '-')`},
		{[]string{"a=nope:x"}, ""}, // not a registered scheme: the default one's command
	} {
		_, err := bot.ParseFlags("bot", tc.values)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ParseFlags(%q): %q, want %q", tc.values, got, tc.want)
		}
	}
}

func TestParseRequiredFlag(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"", "--base NAME=CMD is required"},
		{"  ", "--base NAME=CMD is required"},
		{"old", `--base "old": want NAME=CMD`},
		{"old=x", ""},
	} {
		_, err := bot.ParseRequiredFlag("base", tc.value)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("ParseRequiredFlag(%q): %q, want %q", tc.value, got, tc.want)
		}
	}
}

func TestSplitFlag(t *testing.T) {
	for _, tc := range []struct {
		flag, name, cmd string
		ok              bool
	}{
		{"a=b=c", "a", "b=c", true},
		{"a=", "a", "", true},
		{"a", "a", "", false},
	} {
		name, cmd, ok := bot.SplitFlag(tc.flag)
		if name != tc.name || cmd != tc.cmd || ok != tc.ok {
			t.Errorf("SplitFlag(%q) = %q, %q, %v", tc.flag, name, cmd, ok)
		}
	}
}
