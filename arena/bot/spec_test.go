package bot_test

import (
	"errors"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
)

// echo is a test scheme: its target is its address; it binds itself
// unless named "needy", which needs a run's binding.
type echo struct{ name string }

type echoTarget struct{ scheme, addr string }

func (t echoTarget) Scheme() string { return t.scheme }
func (t echoTarget) String() string { return t.scheme + ":" + t.addr }

func (e echo) Parse(address, _ string) (bot.Target, error) {
	if address == "bad" {
		return nil, errors.New("bad address")
	}
	return echoTarget{e.name, address}, nil
}

type launcher struct{ bot.Launcher }

type selfBound struct{ echo }

func (selfBound) Bind(bot.Target, string) (bot.Launcher, error) { return launcher{}, nil }

type needy struct{ echo }

func (needy) Needs() string { return "test connection" }

func init() {
	bot.Register("echo-self", selfBound{echo{"echo-self"}})
	bot.Register("echo-needy", needy{echo{"echo-needy"}})
	bot.Register(bot.DefaultScheme, selfBound{echo{bot.DefaultScheme}}) // stands in for arena/bot/stdio
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, cmd string
		scheme    string // "" when an error is wanted
		field     bot.Field
		wrapped   error
	}{
		{"a", "echo-self:x", "echo-self", "", nil},
		{"a", "  echo-needy:y", "echo-needy", "", nil},
		{"a", "python3 bot.py", bot.DefaultScheme, "", nil},
		{"a", "unregistered:z", bot.DefaultScheme, "", nil}, // not a scheme: a program's words
		{".a", "echo-self:x", "", bot.FieldName, nil},
		{"a", "  ", "", bot.FieldCommand, bot.ErrNoCommand},
		{"a", "echo-self:bad", "", bot.FieldCommand, nil},
	} {
		s, err := bot.Parse(tc.name, tc.cmd, "")
		if tc.scheme != "" {
			if err != nil || s.Name != tc.name || s.Target.Scheme() != tc.scheme || s.Launcher != nil {
				t.Errorf("Parse(%q, %q) = %+v, %v; want scheme %s, unbound", tc.name, tc.cmd, s, err, tc.scheme)
			}
			continue
		}
		var se *bot.SpecError
		if !errors.As(err, &se) || se.Field != tc.field || se.Bot != tc.name || (tc.wrapped != nil && !errors.Is(err, tc.wrapped)) {
			t.Errorf("Parse(%q, %q): %v, want a SpecError on %s", tc.name, tc.cmd, err, tc.field)
		}
	}
}

func TestParseFlag(t *testing.T) {
	for _, flag := range []string{"a", "a=", "a=  "} {
		if _, err := bot.ParseFlag(flag); !errors.Is(err, bot.ErrFlag) {
			t.Errorf("ParseFlag(%q): %v, want ErrFlag", flag, err)
		}
	}
	if s, err := bot.ParseFlag("a=echo-self:x=y"); err != nil || s.Name != "a" || s.Target.String() != "echo-self:x=y" {
		t.Errorf("ParseFlag: %+v, %v", s, err)
	}
}

func TestBind(t *testing.T) {
	parse := func(cmds ...string) []bot.Spec {
		var out []bot.Spec
		for i, c := range cmds {
			s, err := bot.Parse(string(rune('a'+i)), c, "")
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		return out
	}
	specs := parse("echo-self:x", "echo-needy:y")
	var ue *bot.UnboundError
	if err := bot.Bind(specs, nil); !errors.As(err, &ue) || ue.Bot != "b" || ue.Scheme != "echo-needy" || ue.Needs != "test connection" {
		t.Fatalf("unbound: %v", err)
	}
	given := launcher{}
	specs = parse("echo-self:x", "echo-needy:y")
	kept := &launcher{} // a pointer: told apart from what Bind gives
	specs[0].Launcher = kept
	if err := bot.Bind(specs, bot.Bindings{"echo-needy": selfBound{}}); err != nil {
		t.Fatal(err)
	}
	if specs[0].Launcher != kept || specs[1].Launcher != given {
		t.Errorf("bound: %+v", specs)
	}
}

func TestRegisterPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    bot.Scheme
	}{{"echo-self", echo{}}, {"nil", nil}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q, %v) did not panic", tc.name, tc.s)
				}
			}()
			bot.Register(tc.name, tc.s)
		}()
	}
}

func TestCheckNames(t *testing.T) {
	var dup *bot.DuplicateNameError
	err := bot.CheckNames([]bot.Spec{{Name: "a"}, {Name: "b"}, {Name: "a"}})
	if !errors.As(err, &dup) || dup.Name != "a" || dup.Index != 2 || err.Error() != `bot name "a" is used twice` {
		t.Errorf("CheckNames: %v", err)
	}
	if err := bot.CheckNames([]bot.Spec{{Name: "a"}, {Name: "b"}}); err != nil {
		t.Errorf("CheckNames: %v", err)
	}
}
