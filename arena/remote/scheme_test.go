package remote_test

import (
	"errors"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/remote"
)

// "nats:ID" is a remote bot: its id checked, its build its command, and
// no launcher without a run's connection (an UnboundError); bound, the
// bots of one id share one launcher (the bot's capacity is one).
func TestScheme(t *testing.T) {
	if _, err := bot.Parse("far", "nats:no.dots", ""); !errors.Is(err, remote.ErrID) {
		t.Errorf("bad id: %v", err)
	}
	var specs []bot.Spec
	for _, name := range []string{"a", "b"} {
		s, err := bot.Parse(name, "nats:alice", "")
		if err != nil {
			t.Fatal(err)
		}
		specs = append(specs, s)
	}
	if b, err := specs[0].Target.(bot.Builder).Build(); err != nil || b != "nats:alice" || specs[0].Target.String() != "nats:alice" {
		t.Errorf("build %q, %v", b, err)
	}
	if _, local := specs[0].Target.(bot.Local); local {
		t.Error("a remote bot takes no env here")
	}
	var ue *bot.UnboundError
	if err := bot.Bind(specs, nil); !errors.As(err, &ue) || ue.Scheme != remote.SchemeName || ue.Needs == "" {
		t.Fatalf("unbound: %v", err)
	}
	if err := bot.Bind(specs, bot.Bindings{remote.SchemeName: &remote.Binding{}}); err != nil {
		t.Fatal(err)
	}
	if l, ok := specs[0].Launcher.(*remote.Launcher); !ok || l.ID != "alice" || specs[1].Launcher != specs[0].Launcher {
		t.Errorf("launchers %#v, %#v", specs[0].Launcher, specs[1].Launcher)
	}
}
