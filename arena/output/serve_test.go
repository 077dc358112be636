package output_test

import (
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/remote"
)

func TestServed(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    remote.Access
		want string
	}{
		{"open", remote.Access{URL: "nats://h:1", Store: "s", MaxStore: "1GiB", MaxMemory: "256MiB", Open: true, Listen: "0.0.0.0:1"},
			`arena: NATS server at nats://h:1 (JetStream store s, at most 1GiB on disk, 256MiB in memory)
arena: warning: no --keys: anyone who reaches 0.0.0.0:1 can connect, read every bot's lines and speak for any bot; use it only on a network you trust
arena: bots:  arena connect --nats nats://h:1 --bot BOTID -- CMD
arena: games: arena match --nats nats://h:1 --bot NAME=nats:BOTID ...
`},
		{"keys", remote.Access{URL: "nats://h:1", Store: "s", MaxStore: "1GiB", MaxMemory: "256MiB", Listen: "0.0.0.0:1",
			KeysDir: "k", BotKeys: 2, BotCreds: "BOTID.nk", ArenaCreds: "k/arena.nk"},
			`arena: NATS server at nats://h:1 (JetStream store s, at most 1GiB on disk, 256MiB in memory)
arena: 2 bot keys from k
arena: bots:  arena connect --nats nats://h:1 --creds BOTID.nk --bot BOTID -- CMD
arena: games: arena match --nats nats://h:1 --nats-creds k/arena.nk --bot NAME=nats:BOTID ...
`},
	} {
		var b strings.Builder
		output.Served(&b, tc.a)
		if b.String() != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, b.String(), tc.want)
		}
	}
}

func TestWorker(t *testing.T) {
	var b strings.Builder
	output.Worker(&b, "w1", "nats://h:1", 2, []bot.Spec{{Name: "far"}, {Name: "r1"}})
	if want := "arena: worker w1 at nats://h:1, 2 game(s) at once, bots: far, r1\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
