package remote_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/remote"
)

// ServeConfig.Options refuses each input it cannot use with an
// *InputError naming the field, checked in order, before anything starts.
func TestServeConfigRefuses(t *testing.T) {
	empty, keys, noArena := t.TempDir(), t.TempDir(), t.TempDir()
	if _, _, err := remote.AddBot(keys, "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := remote.AddKey(noArena, "alice"); err != nil {
		t.Fatal(err)
	}
	good := remote.ServeConfig{Listen: "127.0.0.1:0", MaxStore: "1GiB", MaxMemory: "256MiB"}
	for _, tc := range []struct {
		name  string
		edit  func(*remote.ServeConfig)
		input string
		want  string // how the error begins
	}{
		{"good", func(*remote.ServeConfig) {}, "", ""},
		{"good with keys", func(c *remote.ServeConfig) { c.Keys = keys }, "", ""},
		{"listen without a port", func(c *remote.ServeConfig) { c.Listen = "localhost" }, "Listen", `Listen: "localhost": want HOST:PORT`},
		{"half a certificate", func(c *remote.ServeConfig) { c.TLSCert = filepath.Join(empty, "cert.pem") }, "TLS", "TLS: open "},
		{"store size", func(c *remote.ServeConfig) { c.MaxStore = "lots" }, "MaxStore", `MaxStore "lots": want a size such as 1GiB`},
		{"no memory", func(c *remote.ServeConfig) { c.MaxMemory = "0" }, "MaxMemory", `MaxMemory "0": want a size such as 1GiB`},
		{"no keys", func(c *remote.ServeConfig) { c.Keys = empty }, "Keys", "Keys: "},
		{"keys without the arenas' key", func(c *remote.ServeConfig) { c.Keys = noArena }, "Keys", "Keys " + noArena + ": no arena.pub, the arenas' key (arena nats add-bot makes it)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := good
			tc.edit(&cfg)
			o, err := cfg.Options()
			if tc.input == "" {
				if err != nil || o.Port == 0 || (cfg.Keys != "" && len(o.Keys) != 2) {
					t.Errorf("options %+v, error %v: want them, with the keys read", o, err)
				}
				return
			}
			var in *remote.InputError
			if !errors.As(err, &in) || in.Input != tc.input || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v: want %s, %q", err, tc.input, tc.want)
			}
		})
	}
}

// Access says what a server's users need: with keys, the key files;
// without, that it is open.
func TestServeConfigAccess(t *testing.T) {
	o := remote.ServerOptions{Keys: map[string]string{"arena": "A", "alice": "B", "bob": "C"}}
	a := remote.ServeConfig{Listen: "0.0.0.0:4222", Keys: "keys", Store: "s", MaxStore: "1GiB", MaxMemory: "1MiB"}.Access("nats://h:4222", o)
	want := remote.Access{URL: "nats://h:4222", Store: "s", MaxStore: "1GiB", MaxMemory: "1MiB", Listen: "0.0.0.0:4222",
		KeysDir: "keys", BotKeys: 2, BotCreds: "BOTID.nk", ArenaCreds: filepath.Join("keys", "arena.nk")}
	if a != want {
		t.Errorf("with keys: %+v, want %+v", a, want)
	}
	if a := (remote.ServeConfig{Listen: "127.0.0.1:0"}).Access("nats://h:1", remote.ServerOptions{}); !a.Open || a.BotCreds != "" || a.ArenaCreds != "" {
		t.Errorf("without keys: %+v, want open, no key files", a)
	}
}

// Connect and ServeBot refuse a client they cannot use (InputError) and
// a server they cannot reach (ConnectError), and serve no fewer than one
// session at once.
func TestServeBotRefuses(t *testing.T) {
	unreachable := "nats://127.0.0.1:1"
	for _, tc := range []struct {
		name  string
		cl    remote.Client
		srv   remote.Server
		input string // "" for a ConnectError
	}{
		{"no sessions", remote.Client{}, remote.Server{ID: "alice"}, "Sessions"},
		{"half a client certificate", remote.Client{Cert: "c.pem"}, remote.Server{ID: "alice", Sessions: 1}, "Client"},
		{"no server", remote.Client{}, remote.Server{ID: "alice", Sessions: 1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := remote.ServeBot(context.Background(), unreachable, tc.cl, tc.srv)
			var in *remote.InputError
			var conn *remote.ConnectError
			switch {
			case tc.input != "" && (!errors.As(err, &in) || in.Input != tc.input):
				t.Errorf("error %v: want an InputError of %s", err, tc.input)
			case tc.input == "" && (!errors.As(err, &conn) || conn.URL != unreachable):
				t.Errorf("error %v: want a ConnectError of %s", err, unreachable)
			}
		})
	}
}
