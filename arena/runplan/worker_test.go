package runplan_test

import (
	"errors"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/natstest"
	"github.com/arena-dev/arena/internal/usage"
)

// A worker's plan confines each group by its own limits (a group of
// remote bots alone, IfLocal, not at all), holds their bots in order,
// refuses a name repeated across groups, and connects as a client even
// without a remote bot.
func TestOpenGroups(t *testing.T) {
	url := natstest.Server(t, remote.ServerOptions{Host: "127.0.0.1", Port: -1})
	client := runplan.NATS{URL: url, Grace: time.Second, Client: true}
	group := func(confined *int, ifLocal bool, flags ...string) runplan.Group {
		g := runplan.Group{Limits: sandbox.DefaultLimits, IfLocal: ifLocal, Confined: func(*sandbox.Sandbox) { *confined++ }}
		for _, f := range flags {
			g.Bots = append(g.Bots, spec(t, f))
		}
		return g
	}
	for _, tc := range []struct {
		name     string
		groups   func(file, flags *int) []runplan.Group
		names    []string
		confined [2]int // the file's group, the flags'
		dup      string
	}{
		{"file and flags", func(file, flags *int) []runplan.Group {
			return []runplan.Group{group(file, false, "a=sh"), group(flags, true, "r=nats:far", "b=sh")}
		}, []string{"a", "r", "b"}, [2]int{1, 1}, ""},
		{"remote flags alone", func(file, flags *int) []runplan.Group {
			return []runplan.Group{group(file, false, "a=nats:alice"), group(flags, true, "r=nats:far")}
		}, []string{"a", "r"}, [2]int{1, 0}, ""},
		{"a name twice", func(file, flags *int) []runplan.Group {
			return []runplan.Group{group(file, false, "a=sh"), group(flags, true, "a=sh")}
		}, nil, [2]int{1, 1}, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var file, flags int
			r, err := runplan.Plan{Groups: tc.groups(&file, &flags), NATS: client, Wait: time.Second}.Open()
			if got := [2]int{file, flags}; got != tc.confined {
				t.Errorf("confined %v times, want %v", got, tc.confined)
			}
			if tc.dup != "" {
				var dup *bot.DuplicateNameError
				if !errors.As(err, &dup) || dup.Name != tc.dup {
					t.Fatalf("error %v: want %s named twice", err, tc.dup)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			var names []string
			for _, b := range r.Bots {
				names = append(names, b.Name)
				if b.Launcher == nil {
					t.Errorf("bot %s unbound", b.Name)
				}
			}
			if len(names) != len(tc.names) {
				t.Fatalf("bots %v, want %v", names, tc.names)
			}
			for i := range names {
				if names[i] != tc.names[i] {
					t.Errorf("bots %v, want %v", names, tc.names)
				}
			}
			if r.Link == nil || r.Sandbox != nil {
				t.Errorf("link %v, sandbox %v: want a link, no one sandbox", r.Link, r.Sandbox)
			}
		})
	}
}

// A worker's key and TLS are its client flags', not a run's --nats-*.
func TestOpenClientRefusesItsFlags(t *testing.T) {
	_, err := runplan.Plan{Groups: []runplan.Group{{Bots: []bot.Spec{spec(t, "a=sh")}, Limits: sandbox.DefaultLimits}},
		NATS: runplan.NATS{URL: "nats://127.0.0.1:1", Grace: time.Second, Client: true, Cert: "c.pem"}}.Open()
	var u *usage.Error
	if !errors.As(err, &u) || err.Error() != "--creds/--tls-ca/--tls-cert/--tls-key: a client certificate needs both its certificate and its key" {
		t.Errorf("error %v: want a usage error naming the client flags", err)
	}
}
