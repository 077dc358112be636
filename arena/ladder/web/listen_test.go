package web

import (
	"context"
	"errors"
	"net"
	"strings"
	"syscall"
	"testing"
)

func TestListenAddr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", DefaultAddr},
		{"8080", "127.0.0.1:8080"},
		{":9000", "127.0.0.1:9000"},
		{"0.0.0.0:80", "0.0.0.0:80"},
		{"localhost:0", "localhost:0"},
		{"[::1]:81", "[::1]:81"},
	}
	for _, tt := range tests {
		got, err := ListenAddr(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ListenAddr(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"somewhere", "1.2.3.4"} {
		if _, err := ListenAddr(bad); err == nil {
			t.Errorf("ListenAddr(%q): no error", bad)
		}
	}
}

// TestStartBusyPort: a port another program holds is refused naming the
// address and what to do; the error still wraps the system's.
func TestStartBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, _, err = Start(context.Background(), ln.Addr().String(), nil)
	if !errors.Is(err, syscall.EADDRINUSE) || !strings.Contains(err.Error(), ln.Addr().String()+": give another port with --http") {
		t.Errorf("Start on a busy port: %v", err)
	}
}
