package remote

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Link is a run's NATS: its connection, a way to make more (a
// distributed run's local workers each have one), and the embedded
// server when there is one. Close undoes it all.
type Link struct {
	NC  *nats.Conn
	URL string
	// Embedded: the server runs in this process (Embed), not elsewhere
	// (DialLink).
	Embedded bool
	dial     func() (*nats.Conn, error)
	closers  []func()
}

// Dial makes another connection to the same server.
func (l *Link) Dial() (*nats.Conn, error) {
	nc, err := l.dial()
	if err == nil {
		l.closers = append(l.closers, nc.Close)
	}
	return nc, err
}

// Close closes every connection made, then the embedded server.
func (l *Link) Close() {
	for i := len(l.closers) - 1; i >= 0; i-- {
		l.closers[i]()
	}
}

// DialLink is a Link to the server at url, run elsewhere (arena serve),
// connected with opts (ConnectOptions).
func DialLink(url string, opts ...nats.Option) (*Link, error) {
	link := &Link{URL: url, dial: func() (*nats.Conn, error) { return nats.Connect(url, opts...) }}
	var err error
	if link.NC, err = link.Dial(); err != nil {
		return nil, err
	}
	return link, nil
}

// portFile is where an embedded server with JetStream remembers its
// port, in its store.
const portFile = "port"

// Embed starts an embedded server (StartServer) and links to it in
// process. With a JetStream store (o.StoreDir: a distributed run) and a
// free port asked for, the server takes the port of the run's last
// start if it can (the store's port file), so that workers elsewhere
// reconnect to a restarted coordinator; what fails of that is a
// warning on warn (nil: none), and the server takes a free port.
func Embed(o ServerOptions, warn io.Writer) (*Link, error) {
	if warn == nil {
		warn = io.Discard
	}
	free := o.Port
	path := ""
	if o.StoreDir != "" {
		path = filepath.Join(o.StoreDir, portFile)
	}
	remembered := 0
	if (o.Port == server.RANDOM_PORT || o.Port == 0) && path != "" {
		if b, err := os.ReadFile(path); err == nil {
			if remembered, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
				fmt.Fprintf(warn, "arena: warning: %s holds no port (%v): the server takes a free one, and workers must be given its new URL\n", path, err)
			}
		}
	}
	if remembered > 0 {
		o.Port = remembered
	}
	ns, err := StartServer(o)
	if err != nil && remembered > 0 {
		fmt.Fprintf(warn, "arena: warning: port %d of the run's last start is taken (%v): workers must reconnect to a new one\n", remembered, err)
		o.Port = free
		ns, err = StartServer(o)
	}
	if err != nil {
		return nil, err
	}
	if addr, ok := ns.Addr().(*net.TCPAddr); ok && path != "" {
		if err := os.WriteFile(path, []byte(strconv.Itoa(addr.Port)+"\n"), 0o644); err != nil {
			fmt.Fprintf(warn, "arena: warning: %v: workers elsewhere will not find a restarted run on port %d\n", err, addr.Port)
		}
	}
	link := &Link{URL: ns.ClientURL(), Embedded: true, dial: func() (*nats.Conn, error) { return nats.Connect("", nats.InProcessServer(ns)) },
		closers: []func(){func() { ns.Shutdown(); ns.WaitForShutdown() }}}
	if link.NC, err = link.Dial(); err != nil {
		link.Close()
		return nil, err
	}
	return link, nil
}

// SplitHostPort reads HOST:PORT for a server to listen on; port 0 is a
// free one (server.RANDOM_PORT).
func SplitHostPort(s string) (string, int, error) {
	host, p, err := net.SplitHostPort(s)
	if err != nil {
		return "", 0, fmt.Errorf("%q: want HOST:PORT", s)
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("%q: want HOST:PORT with a port from 0 to 65535", s)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	return host, port, nil
}

// serverTLS is a server's TLS from its certificate and key (PEM files).
func serverTLS(certFile, keyFile string) (*tls.Config, error) {
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	return &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}, nil
}
