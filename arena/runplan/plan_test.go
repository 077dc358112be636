package runplan_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/natstest"
	"github.com/arena-dev/arena/internal/usage"
)

func spec(t *testing.T, flag string) bot.Spec {
	t.Helper()
	s, err := bot.ParseFlag(flag)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A plan refuses what it was given wrongly with a *usage.Error (exit 2),
// a bot that needs the output directory with a *RefusedError that
// Refused names, and opens nothing.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	inOut := filepath.Join(out, "bot.sh")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inOut, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		plan  runplan.Plan
		usage bool
		want  string
	}{
		{"trace names no bot", runplan.Plan{Bots: []bot.Spec{spec(t, "a=sh")}, Trace: "b"}, true, `--trace "b": no such bot (want 0 or a)`},
		{"no secret file", runplan.Plan{SecretFile: filepath.Join(dir, "none")}, true, "--deal-secret: "},
		{"bot in out", runplan.Plan{Bots: []bot.Spec{spec(t, "a=sh "+inOut)}, Out: out,
			Refused: func(r *runplan.RefusedError) error { return fmt.Errorf("--out %s: %w", r.Dir, r.Err) }}, false, "--out " + out + ": "},
		{"no grace", runplan.Plan{Bots: []bot.Spec{spec(t, "a=nats:alice")}}, true, "--nats-grace 0s: want a positive duration"},
		{"bad listen", runplan.Plan{Bots: []bot.Spec{spec(t, "a=nats:alice")}, NATS: runplan.NATS{Listen: "nowhere", Grace: time.Second}}, true, "--nats-listen: "},
		{"max deliver", runplan.Plan{Distributed: &runplan.Distributed{Lease: time.Second}}, true, "--max-deliver 0: want at least 1"},
		{"lease", runplan.Plan{Distributed: &runplan.Distributed{MaxDeliver: 1}}, true, "--lease 0s: want a positive duration"},
		{"workers", runplan.Plan{Distributed: &runplan.Distributed{MaxDeliver: 1, Lease: time.Second, Workers: -1}}, true, "--workers -1: want 0 or more"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.plan.Limits = sandbox.DefaultLimits
			r, err := tc.plan.Open()
			if err == nil {
				r.Close()
				t.Fatal("opened")
			}
			var u *usage.Error
			if errors.As(err, &u) != tc.usage || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v (usage %v): want %q, usage %v", err, errors.As(err, &u), tc.want, tc.usage)
			}
		})
	}
}

// A secret file given is read, its directory hidden, and said in the
// run's first line; Confined sees the bots confined before NATS.
func TestOpenSecret(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, deal.FileName)
	want := deal.New()
	if err := deal.Write(path, want); err != nil {
		t.Fatal(err)
	}
	confined := false
	r, err := runplan.Plan{Bots: []bot.Spec{spec(t, "a=sh")}, SecretFile: path, Limits: sandbox.DefaultLimits,
		Confined: func(r *runplan.Run) { confined = r.Sandbox != nil && r.Bots[0].Launcher != nil }}.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if !r.Secret.Equal(want) || r.SecretFile != path || !confined {
		t.Errorf("secret %v from %q, confined %v: want %v from %q, confined", r.Secret, r.SecretFile, confined, want, path)
	}
	if got := r.SecretNote("out"); got != "deal secret "+path {
		t.Errorf("note %q", got)
	}
}

func TestSecretNote(t *testing.T) {
	for _, tc := range []struct{ file, out, want string }{
		{"/s/deal-secret", "out", "deal secret /s/deal-secret"},
		{"", "out", "deal secret " + filepath.Join("out", deal.FileName)},
		{"", "", "a fresh deal secret, kept in memory only"},
	} {
		if got := runplan.SecretNote(tc.file, tc.out); got != tc.want {
			t.Errorf("SecretNote(%q, %q) = %q, want %q", tc.file, tc.out, got, tc.want)
		}
	}
}

// A remote bot is bound to a link to the server given; Close closes it.
func TestOpenRemote(t *testing.T) {
	url := natstest.Server(t, remote.ServerOptions{Host: "127.0.0.1", Port: -1})
	r, err := runplan.Plan{Bots: []bot.Spec{spec(t, "a=nats:alice"), spec(t, "b=sh")}, Limits: sandbox.DefaultLimits,
		NATS: runplan.NATS{URL: url, Grace: time.Second}, Wait: time.Second}.Open()
	if err != nil {
		t.Fatal(err)
	}
	if r.Link == nil || r.Executor != nil || r.Bots[0].Launcher == nil || r.Bots[1].Launcher == nil {
		t.Fatalf("link %v, executor %v, bots %+v: want a link, no executor, both bound", r.Link, r.Executor != nil, r.Bots)
	}
	nc := r.Link.NC
	r.Close()
	if !nc.IsClosed() {
		t.Error("the link is open after Close")
	}
}

// A distributed run without a server embeds one, says where it is, and
// keeps its JetStream store in the output directory.
func TestOpenDistributed(t *testing.T) {
	out := t.TempDir()
	var log strings.Builder
	r, err := runplan.Plan{Out: out, Limits: sandbox.DefaultLimits, Log: &log,
		NATS:        runplan.NATS{Listen: "127.0.0.1:0", Grace: time.Second},
		Distributed: &runplan.Distributed{MaxDeliver: 1, Lease: time.Second, Concurrency: 1, Seats: 2}}.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Executor == nil || !r.Link.Embedded {
		t.Fatalf("executor %v, link %+v: want both, embedded", r.Executor != nil, r.Link)
	}
	if !strings.Contains(log.String(), "arena: NATS server for remote bots at "+r.Link.URL) {
		t.Errorf("log %q: want the server's URL", log.String())
	}
	if _, err := os.Stat(filepath.Join(out, "jetstream")); err != nil {
		t.Errorf("store: %v", err)
	}
}

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // the confined bots' wrapper is this binary
	os.Exit(m.Run())
}
