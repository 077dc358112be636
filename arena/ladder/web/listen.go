package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// DefaultAddr is where the leaderboard listens when no address is given:
// loopback, so that nothing is served beyond this machine unless asked.
const DefaultAddr = "127.0.0.1:8080"

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

// Serve serves s on addr (ListenAddr) until ctx ends, then closes s
// and shuts down. listening is told the page's URL once it listens.
func Serve(ctx context.Context, addr string, s *Server, listening func(url string)) error {
	addr, err := ListenAddr(addr)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("leaderboard: %w (another program, perhaps another arena, listens on %s: give another port with --http)", err, addr)
	}
	if err != nil {
		return fmt.Errorf("leaderboard: %w", err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	if listening != nil {
		listening("http://" + ln.Addr().String() + "/")
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		s.Close()
		return err
	case <-ctx.Done():
	}
	s.Close() // ends the feeds, which Shutdown would wait for
	sctx, cancel := context.WithTimeout(context.Background(), shutdownTime)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
