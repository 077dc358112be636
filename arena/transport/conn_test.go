package transport_test

import (
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/arena/transport/conntest"
)

func TestConnPipe(t *testing.T) {
	conntest.TestConn(t, func(t *testing.T, maxLine int) (transport.Conn, conntest.Bot) {
		c, b := transport.Pipe(maxLine)
		t.Cleanup(func() { c.Close() })
		return c, b
	})
}

// in is the deadline d from now.
func in(d time.Duration) time.Time { return time.Now().Add(d) }
