// Package natstest starts embedded NATS servers and connections for the
// tests of the packages that speak NATS (kept apart from testkit, so that
// other tests do not link a NATS server).
package natstest

import (
	"testing"

	"github.com/arena-dev/arena/arena/remote"
	"github.com/nats-io/nats.go"
)

// Server starts an embedded NATS server (remote.StartServer) for the
// test and returns its URL; it is shut down when the test ends.
func Server(tb testing.TB, o remote.ServerOptions) string {
	tb.Helper()
	ns, err := remote.StartServer(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ns.Shutdown(); ns.WaitForShutdown() })
	return ns.ClientURL()
}

// Dial connects to url for the test; the connection is closed when the
// test ends.
func Dial(tb testing.TB, url string, opts ...nats.Option) *nats.Conn {
	tb.Helper()
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	return nc
}
