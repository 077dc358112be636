package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"time"
)

// DefaultAddr is where the page is served when no address is given:
// loopback, on a port the system picks free.
const DefaultAddr = "127.0.0.1:0"

// ErrNotLoopback is an address to serve the page on that other machines
// may reach, not allowed unless asked for (Listen's beyond): the page
// shows the person's hand and takes moves for them, and is served over
// plain HTTP.
var ErrNotLoopback = errors.New("not a loopback address")

// Listen listens on addr for the page: DefaultAddr when addr is "", a
// bare port or ":PORT" on 127.0.0.1. A host that is not loopback
// (127.0.0.0/8, ::1, localhost) is refused with ErrNotLoopback unless
// beyond says the person wants the page served beyond this machine.
func Listen(addr string, beyond bool) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	if _, err := net.LookupPort("tcp", addr); err == nil && addr[0] != ':' {
		addr = ":" + addr
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("web address %q: want HOST:PORT or a port, as 127.0.0.1:8080 or 8080", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if ip := net.ParseIP(host); !beyond && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("web address %q: %w: the page shows your hand to whoever reaches it (say so with --web-beyond-loopback)", addr, ErrNotLoopback)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("web address %q: %w", addr, err)
	}
	return ln, nil
}

// URL is the page's address on ln.
func (s *Server) URL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + s.Path()
}

// shutdownTime bounds how long a stopping server waits for the requests
// in flight (the feeds have ended: the seat is closed first).
const shutdownTime = 2 * time.Second

// Serve serves s on ln until ctx ends; then it closes the seat (the
// pages' feeds end) and shuts down. done is closed once it has.
func (s *Server) Serve(ctx context.Context, ln net.Listener) (done <-chan struct{}) {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	served := make(chan struct{})
	go func() {
		defer close(served)
		hs.Serve(ln) // ends at Shutdown; a listener's failure ends the page, not the game
	}()
	end := make(chan struct{})
	go func() {
		defer close(end)
		<-ctx.Done()
		s.seat.Close()
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTime)
		defer cancel()
		hs.Shutdown(sctx)
		<-served
	}()
	return end
}

// Open asks the system to open url in the person's browser (xdg-open,
// open, or start), without waiting for the browser.
func Open(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("opening the page: %w (open %s yourself)", err, url)
	}
	go cmd.Wait() // reaped whenever it ends
	return nil
}
