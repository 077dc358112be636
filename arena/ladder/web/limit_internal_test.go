package web

import (
	"io"
	"net"
	"testing"
)

// TestLimitListener: past its bound a listener closes what it accepts,
// and a connection closed makes room for another.
func TestLimitListener(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := limitListener(raw, 2)
	defer ln.Close()
	accepted := make(chan net.Conn)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(accepted)
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	dial()
	dial()
	first, second := <-accepted, <-accepted
	defer second.Close()
	extra := dial()
	// The third is closed by the listener: its client reads EOF.
	if _, err := extra.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("a connection past the bound: read %v, want EOF", err)
	}
	first.Close()
	dial()
	c := <-accepted
	c.Close()
}
