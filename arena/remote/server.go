package remote

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure an embedded NATS server.
type ServerOptions struct {
	// Host and Port to listen on: loopback and a free port by default
	// (Port 0 here means a free port, not NATS's 4222).
	Host string
	Port int
	// MaxPayload bounds one message: at least a protocol line (0: 1 MiB
	// plus room for headers).
	MaxPayload int32
	// Keys, if set, are the only users (ReadKeys): each bot limited to
	// its own subjects (BotPermissions), the arenas (ArenaKey) not.
	Keys map[string]string
	// Violations (nil: none) receives the permission violations the
	// server sees, rate-limited (a few lines, then one every 10 s, with
	// a count of those held back).
	Violations io.Writer
	// StoreDir, if set, enables JetStream (for distributed runs) with its
	// store there: always a directory of its own, since every embedded
	// server on a host left to the default would share one. MaxStore and
	// MaxMemory bound it (0: DefaultMaxStore, DefaultMaxMemory; NATS's
	// own defaults are three quarters of the disk and of the memory).
	StoreDir            string
	MaxStore, MaxMemory int64
	// TLS, if set, is the server's TLS (its certificate; ClientAuth to
	// ask clients for theirs).
	TLS *tls.Config
}

// JetStream's bounds when none are given.
const (
	DefaultMaxStore  = 1 << 30   // 1 GiB on disk
	DefaultMaxMemory = 256 << 20 // 256 MiB in memory
)

// startWait bounds how long StartServer waits for the server to accept
// connections.
const startWait = 10 * time.Second

// defaultMaxPayload holds a line of protocol.DefaultMaxLine and its
// headers.
const defaultMaxPayload = 1<<20 + 4<<10

// StartServer starts an embedded NATS server in this process. It never
// handles signals itself (the arena does) and logs nothing but, to
// o.Violations, permission violations.
func StartServer(o ServerOptions) (*server.Server, error) {
	opts := &server.Options{Host: o.Host, Port: o.Port, NoSigs: true, NoLog: true, MaxPayload: o.MaxPayload, Nkeys: nkeyUsers(o.Keys)}
	if opts.Host == "" {
		opts.Host = "127.0.0.1"
	}
	if opts.Port == 0 {
		opts.Port = server.RANDOM_PORT // 0 would be 4222
	}
	if opts.MaxPayload == 0 {
		opts.MaxPayload = defaultMaxPayload
	}
	if o.TLS != nil {
		opts.TLS, opts.TLSConfig = true, o.TLS
		opts.TLSVerify = o.TLS.ClientAuth == tls.RequireAndVerifyClientCert
	}
	if o.StoreDir != "" {
		opts.JetStream, opts.StoreDir = true, o.StoreDir
		opts.JetStreamMaxStore, opts.JetStreamMaxMemory = o.MaxStore, o.MaxMemory
		if opts.JetStreamMaxStore <= 0 {
			opts.JetStreamMaxStore = DefaultMaxStore
		}
		if opts.JetStreamMaxMemory <= 0 {
			opts.JetStreamMaxMemory = DefaultMaxMemory
		}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server: %w", err)
	}
	if o.Violations != nil {
		ns.SetLoggerV2(newViolationLog(o.Violations, o.Keys), false, false, false)
	}
	ns.Start()
	if !ns.ReadyForConnections(startWait) {
		ns.Shutdown()
		return nil, errors.New("nats server: not ready for connections after " + startWait.String())
	}
	return ns, nil
}
