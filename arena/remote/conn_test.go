package remote_test

import (
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"

	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/arena/transport/conntest"
	"github.com/arena-dev/arena/internal/natstest"
)

// server starts an embedded server for the test and returns its URL.
func server(t *testing.T) string { return natstest.Server(t, remote.ServerOptions{}) }

func connect(t *testing.T, url string) *nats.Conn { return natstest.Dial(t, url) }

// The NATS session passes the transport conformance suite: the referee
// and the bot on connections of their own to a real server over TCP.
func TestConnNATS(t *testing.T) {
	url := server(t)
	ref, bot := connect(t, url), connect(t, url)
	conntest.TestConn(t, func(t *testing.T, maxLine int) (transport.Conn, conntest.Bot) {
		s := remote.Session{Bot: "b", ID: nuid.Next()}
		c, err := remote.NewConn(ref, s, maxLine)
		if err != nil {
			t.Fatal(err)
		}
		b, err := remote.NewBotEnd(bot, s, maxLine)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close(); b.Exit() })
		return c, flushingBot{b}
	})
}

// flushingBot is a BotEnd whose Write returns once the server has the
// bytes, as conntest.Bot asks: "in the transport".
type flushingBot struct{ *remote.BotEnd }

func (b flushingBot) Write(p []byte) (int, error) {
	n, err := b.BotEnd.Write(p)
	if err == nil {
		err = b.Flush()
	}
	return n, err
}
