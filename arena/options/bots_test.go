package options

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/usage"
)

// parse runs read on the context of args parsed with flags.
func parse(t *testing.T, flags []cli.Flag, args []string, read func(*cli.Context)) {
	t.Helper()
	app := &cli.App{Name: "t", Flags: flags, DisableSliceFlagSeparator: true,
		Action: func(c *cli.Context) error { read(c); return nil }}
	if err := app.Run(append([]string{"t"}, args...)); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
}

func TestPlanFlagsOrder(t *testing.T) {
	var names []string
	for _, f := range PlanFlags() {
		names = append(names, f.Names()[0])
	}
	want := []string{"nats", "nats-listen", "nats-creds", "nats-grace", "nats-ca", "nats-cert", "nats-key",
		"distributed", "workers", "lease", "max-deliver"}
	for _, f := range SandboxFlags() {
		want = append(want, f.Names()[0])
	}
	if !slices.Equal(names, want) {
		t.Errorf("PlanFlags = %q, want %q", names, want)
	}
}

func TestReadNATS(t *testing.T) {
	for _, tc := range []struct {
		args []string
		nats runplan.NATS
		dist *runplan.Distributed
	}{
		{nil, runplan.NATS{Listen: "127.0.0.1:0", Grace: remote.DefaultGrace}, nil},
		{[]string{"--nats", "nats://h:1", "--nats-creds", "k.nk", "--nats-ca", "ca", "--nats-cert", "c", "--nats-key", "k", "--nats-grace", "3s", "--workers", "2"},
			runplan.NATS{URL: "nats://h:1", Listen: "127.0.0.1:0", Creds: "k.nk", CA: "ca", Cert: "c", Key: "k", Grace: 3 * time.Second}, nil},
		{[]string{"--distributed"}, runplan.NATS{Listen: "127.0.0.1:0", Grace: remote.DefaultGrace},
			&runplan.Distributed{Lease: cluster.DefaultAckWait, MaxDeliver: cluster.DefaultMaxDeliver, Concurrency: 4, Seats: 3}},
		{[]string{"--distributed", "--workers", "0", "--lease", "1m", "--max-deliver", "2"}, runplan.NATS{Listen: "127.0.0.1:0", Grace: remote.DefaultGrace},
			&runplan.Distributed{WorkersGiven: true, Lease: time.Minute, MaxDeliver: 2, Concurrency: 4, Seats: 3}},
	} {
		// Flags of their own: a flag's value is set in place.
		parse(t, append(NATSFlags(), DistributedFlags()...), tc.args, func(c *cli.Context) {
			n, d := ReadNATS(c, 4, 3)
			if n != tc.nats {
				t.Errorf("%q: NATS %+v, want %+v", tc.args, n, tc.nats)
			}
			if (d == nil) != (tc.dist == nil) || d != nil && *d != *tc.dist {
				t.Errorf("%q: Distributed %+v, want %+v", tc.args, d, tc.dist)
			}
		})
	}
}

func TestReadClient(t *testing.T) {
	args := []string{"--nats", "u", "--creds", "w.nk", "--tls-ca", "ca", "--tls-cert", "c", "--tls-key", "k"}
	parse(t, ClientFlags("key"), args, func(c *cli.Context) {
		if got, want := ReadClient(c), (remote.Client{Creds: "w.nk", CA: "ca", Cert: "c", Key: "k"}); got != want {
			t.Errorf("ReadClient = %+v, want %+v", got, want)
		}
	})
}

// TestReadPlanErrors: a sandbox flag's mistake is the command line's,
// said with the flag.
func TestReadPlanErrors(t *testing.T) {
	t.Setenv("ARENA_BOT_ENV", "")
	flags := func() []cli.Flag { return append(PlanFlags(), Flags(Own, "deal-secret")...) }
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--bot-memory", "lots"}, `--bot-memory: "lots" is not a size (try 64MiB, 1GiB, or unlimited)`},
		{[]string{"--bot-cpu-time", "soon"}, `--bot-cpu-time: `},
		{[]string{"--bot-procs", "-3"}, `--bot-procs: "-3" is not a count (a whole number, or unlimited)`},
		{[]string{"--bot-isolate", "maybe"}, `--bot-isolate: "maybe": want auto, yes or no`},
	} {
		parse(t, flags(), tc.args, func(c *cli.Context) {
			var p runplan.Plan
			err := ReadPlan(c, &p, 1, 2)
			var u *usage.Error
			if !errors.As(err, &u) || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%q: %v, want a usage error %s", tc.args, err, tc.err)
			}
		})
	}
	parse(t, flags(), []string{"--deal-secret", "s", "--nats", "u", "--bot-memory", "1GiB"}, func(c *cli.Context) {
		var p runplan.Plan
		if err := ReadPlan(c, &p, 1, 2); err != nil {
			t.Fatal(err)
		}
		if p.SecretFile != "s" || p.NATS.URL != "u" || p.Limits.Memory != 1<<30 || p.Refused == nil || p.Distributed != nil {
			t.Errorf("ReadPlan = %+v", p)
		}
	})
}

func TestRefusal(t *testing.T) {
	bad := errors.New("not here")
	contest := &sandbox.ContestError{Missing: []sandbox.Protection{{Name: "private files", Missing: "why"}}}
	for _, tc := range []struct {
		refused runplan.RefusedError
		want    string
	}{
		{runplan.RefusedError{Dir: "out", Err: bad}, "--out out: not here"},
		{runplan.RefusedError{Err: &sandbox.OptionError{Option: "User", Err: bad}}, "--bot-user: not here"},
		{runplan.RefusedError{Err: &sandbox.OptionError{Option: "ReadWrite", Err: bad}}, "--bot-rw: not here"},
		{runplan.RefusedError{Err: &sandbox.OptionError{Option: "Hide", Err: bad}}, ""}, // no flag: the error itself
		{runplan.RefusedError{Err: contest}, "--contest: refusing to start, this machine or these settings do not provide: private files (why)"},
		{runplan.RefusedError{Err: bad}, ""},
	} {
		if tc.want == "" {
			tc.want = tc.refused.Err.Error()
		}
		err := Refusal(&tc.refused)
		var u *usage.Error
		if !errors.As(err, &u) || err.Error() != tc.want || !errors.Is(err, bad) && !errors.Is(err, tc.refused.Err) {
			t.Errorf("Refusal(%v) = %v, want a usage error %q", tc.refused.Err, err, tc.want)
		}
	}
}

func TestReadGame(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"--game", "nope"}, `--game: unknown game "nope"`},
		{[]string{"--game", "nope", "--option", "x"}, `--game: unknown game "nope"`},
	} {
		parse(t, []cli.Flag{GameFlag("g"), OptionFlag()}, tc.args, func(c *cli.Context) {
			_, _, err := ReadGame(c)
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%q: %v, want %s", tc.args, err, tc.err)
			}
		})
	}
}
