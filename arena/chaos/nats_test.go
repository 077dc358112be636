//go:build linux

package chaos_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/internal/natstest"
)

// TestChaosOverNATS is the whole chaos suite (Go, Python and shell bots) served remotely, as
// arena connect serves them: each behind remote.Serve on a NATS
// connection of its own, its processes started as a stdio bot's are,
// against the local random bot. Each must be recorded with the reasons
// it is recorded with over stdio (the suite's expectations).
func TestChaosOverNATS(t *testing.T) {
	bots := suite(t)
	url := natstest.Server(t, remote.ServerOptions{})
	dial := func() *nats.Conn { return natstest.Dial(t, url) }
	kv := newToken() // the served processes carry it: survivors are found
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, len(bots))
	defer func() {
		cancel()
		for range bots {
			if err := <-served; err != context.Canceled {
				t.Errorf("Serve: %v", err)
			}
		}
		for _, s := range survivors(kv) {
			t.Errorf("bot process survived: %s", s)
		}
	}()
	files := suiteGauntlets("chaos-nats", bots, func(b chaosBot) string { return remote.Prefix + b.name })
	for _, b := range bots {
		argv, err := stdio.ParseCommand(b.cmd, "")
		if err != nil {
			t.Fatal(err)
		}
		cmd := stdio.Command{Name: b.name, Argv: argv, Env: []string{kv, "GOMAXPROCS=2"}}
		go func() {
			srv := remote.Server{NC: dial(), ID: b.name, Sessions: 4, Start: func(opt bot.LaunchOptions) (bot.Endpoint, error) {
				return cmd.Launch(b.name, opt)
			}}
			served <- srv.Serve(ctx)
		}()
	}
	ref := dial()
	r := runSuite(t, files, 3*time.Minute, false, bot.Bindings{remote.SchemeName: &remote.Binding{NC: ref, Wait: 4 * time.Second}})
	got := checkGames(t, r, bots, map[string]bool{"random": true})
	var lines []string
	for _, b := range bots {
		lines = append(lines, fmt.Sprintf("%s %v", b.name, got[b.name]))
	}
	t.Logf("%d games over NATS in %v; reasons: %s", len(r.recs), r.elapsed.Round(time.Millisecond), strings.Join(lines, "; "))
}
