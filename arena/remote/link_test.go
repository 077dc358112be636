package remote_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/arena-dev/arena/arena/remote"
)

func TestSplitHostPort(t *testing.T) {
	for _, tc := range []struct {
		in, host string
		port     int
		bad      bool
	}{
		{in: "127.0.0.1:4222", host: "127.0.0.1", port: 4222},
		{in: "0.0.0.0:0", host: "0.0.0.0", port: natsserver.RANDOM_PORT},
		{in: ":65535", port: 65535},
		{in: "localhost", bad: true},
		{in: "h:65536", bad: true},
		{in: "h:-1", bad: true},
		{in: "h:http", bad: true},
	} {
		host, port, err := remote.SplitHostPort(tc.in)
		if (err != nil) != tc.bad || host != tc.host || port != tc.port {
			t.Errorf("%q: %q %d %v", tc.in, host, port, err)
		}
	}
}

// TestEmbedKeepsItsPort: an embedded server with a JetStream store takes
// the port of its last start, so that workers elsewhere find a restarted
// run; a port file that holds no port is a warning, and a free port.
func TestEmbedKeepsItsPort(t *testing.T) {
	store := t.TempDir()
	o := remote.ServerOptions{Host: "127.0.0.1", Port: natsserver.RANDOM_PORT, StoreDir: store}
	var warn strings.Builder
	first, err := remote.Embed(o, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if !first.Embedded || !first.NC.IsConnected() {
		t.Fatalf("embedded %v, connected %v", first.Embedded, first.NC.IsConnected())
	}
	nc, err := first.Dial()
	if err != nil || !nc.IsConnected() {
		t.Fatalf("another connection: %v", err)
	}
	url := first.URL
	first.Close()
	if !nc.IsClosed() {
		t.Error("Close left a connection Dial made open")
	}
	again, err := remote.Embed(o, &warn)
	if err != nil {
		t.Fatal(err)
	}
	if again.URL != url {
		t.Errorf("restarted at %s, want %s", again.URL, url)
	}
	again.Close()
	if warn.Len() != 0 {
		t.Errorf("warnings: %s", warn.String())
	}

	if err := os.WriteFile(filepath.Join(store, "port"), []byte("no port\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := remote.Embed(o, &warn)
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	if !strings.Contains(warn.String(), "holds no port") {
		t.Errorf("warnings %q, want one about the port file", warn.String())
	}
	if _, _, err := net.SplitHostPort(strings.TrimPrefix(third.URL, "nats://")); err != nil {
		t.Errorf("URL %q: %v", third.URL, err)
	}
}

func TestDialLink(t *testing.T) {
	served, err := remote.Embed(remote.ServerOptions{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer served.Close()
	link, err := remote.DialLink(served.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	if link.Embedded || link.URL != served.URL || !link.NC.IsConnected() {
		t.Errorf("link %+v", link)
	}
	if _, err := remote.DialLink("nats://127.0.0.1:1"); err == nil {
		t.Error("a link to no server")
	}
}
