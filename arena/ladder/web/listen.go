package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// DefaultAddr is where the leaderboard listens when no address is given:
// loopback, so that nothing is served beyond this machine unless asked.
const DefaultAddr = "127.0.0.1:8080"

// Bounds on the connections Serve holds, so that clients cannot take the
// files and memory of the process it shares with the games (run --http):
// MaxConns at once (one more is closed as soon as accepted), each idle
// between requests at most idleTime.
const (
	MaxConns = 1024
	idleTime = time.Minute
)

// shutdownTime bounds how long a stopping server waits for the requests
// in flight (the feeds end at once: Close).
const shutdownTime = 2 * time.Second

// ListenAddr is addr as the leaderboard listens on it: a bare port
// ("8080") or one with no host (":8080") is on loopback; a host given,
// 0.0.0.0 included, is taken as it is (what an organiser who wants the
// page seen from other machines writes).
func ListenAddr(addr string) (string, error) {
	if addr == "" {
		return DefaultAddr, nil
	}
	if _, err := net.LookupPort("tcp", addr); err == nil && addr[0] != ':' {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("leaderboard address %q: want HOST:PORT or a port, as 127.0.0.1:8080 or 8080", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// Start listens on addr (ListenAddr) and serves s there until ctx
// ends, then closes s and shuts down; done is closed then. url is the
// page's address. An address taken or not this machine's is the error,
// before anything is served.
func Start(ctx context.Context, addr string, s *Server) (url string, done <-chan struct{}, err error) {
	addr, err = ListenAddr(addr)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return "", nil, fmt.Errorf("leaderboard: %w (another program, perhaps another arena, listens on %s: give another port with --http)", err, addr)
	}
	if err != nil {
		return "", nil, fmt.Errorf("leaderboard: %w", err)
	}
	ln = limitListener(ln, MaxConns)
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idleTime}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	end := make(chan struct{})
	go func() {
		defer close(end)
		select {
		case <-served: // a listener that failed: nothing more to serve
			s.Close()
			return
		case <-ctx.Done():
		}
		s.Close() // ends the feeds, which Shutdown would wait for
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTime)
		defer cancel()
		hs.Shutdown(sctx)
		<-served
	}()
	return "http://" + ln.Addr().String() + "/", end, nil
}

// limited is a listener that holds at most cap(slots) connections: one
// accepted beyond is closed at once, rather than waited for (which would
// leave the clients queued in the kernel and the server's Accept stuck
// at a shutdown).
type limited struct {
	net.Listener
	slots chan struct{}
}

func limitListener(ln net.Listener, n int) net.Listener {
	return &limited{Listener: ln, slots: make(chan struct{}, n)}
}

func (l *limited) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &slotConn{Conn: c, free: sync.OnceFunc(func() { <-l.slots })}, nil
		default:
			c.Close()
		}
	}
}

// slotConn gives its slot back once closed.
type slotConn struct {
	net.Conn
	free func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.free()
	return err
}
