package remote

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/internal/bytesize"
)

// InputError is a value given to Connect, ServeBot or ServeConfig that
// they refuse before anything starts. Input names it: the field of
// Client ("Client": its key and TLS files), of Server ("Sessions") or of
// ServeConfig ("Listen", "TLS", "MaxStore", "MaxMemory", "Keys"), so
// that a command says it by its own flag. Value is the value as the
// message shows it ("" when Err says it already).
type InputError struct {
	Input string
	Value string
	Err   error
}

func (e *InputError) Error() string {
	if e.Value == "" {
		return e.Input + ": " + e.Err.Error()
	}
	return e.Input + " " + e.Value + ": " + e.Err.Error()
}

func (e *InputError) Unwrap() error { return e.Err }

// ConnectError is a server that could not be reached at URL: not the
// input's mistake, since a server that is down may be up later.
type ConnectError struct {
	URL string
	Err error
}

func (e *ConnectError) Error() string { return e.URL + ": " + e.Err.Error() }
func (e *ConnectError) Unwrap() error { return e.Err }

// Connect connects to the server at url as cl says (ConnectOptions),
// with more options if given. A Client it cannot use is an *InputError
// (Input "Client"), a server it cannot reach a *ConnectError.
func Connect(url string, cl Client, more ...nats.Option) (*nats.Conn, error) {
	opts, err := ConnectOptions(cl)
	if err != nil {
		return nil, &InputError{Input: "Client", Err: err}
	}
	nc, err := nats.Connect(url, append(opts, more...)...)
	if err != nil {
		return nil, &ConnectError{URL: url, Err: err}
	}
	return nc, nil
}

// ServeBot serves a bot to the arenas of the server at url until ctx
// ends, which is the way to stop it (nil then): it connects as cl says,
// with cl.BotID the bot served (srv.ID), and serves it with srv, whose NC
// it sets. arena connect serves a program so, arena bot --nats a bundled
// bot. Fewer than one session at once is an *InputError (Input
// "Sessions").
func ServeBot(ctx context.Context, url string, cl Client, srv Server) error {
	if srv.Sessions < 1 {
		return &InputError{Input: "Sessions", Value: strconv.Itoa(srv.Sessions), Err: errors.New("want at least 1")}
	}
	cl.BotID = srv.ID
	nc, err := Connect(url, cl)
	if err != nil {
		return err
	}
	defer nc.Close()
	srv.NC = nc
	err = srv.Serve(ctx)
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// ServeConfig is a server of its own (arena serve) as it was given, in
// text: Options checks it, and makes the ServerOptions StartServer takes.
type ServeConfig struct {
	// Listen is HOST:PORT (SplitHostPort).
	Listen string
	// TLSCert and TLSKey are the server's certificate and key ("": no
	// TLS; serverTLS).
	TLSCert, TLSKey string
	// Keys is a directory of keys (ReadKeys): only they connect. "":
	// anyone who reaches Listen connects, with every permission.
	Keys string
	// Store is JetStream's store directory; MaxStore and MaxMemory its
	// bounds, sizes such as 1GiB (bytesize).
	Store               string
	MaxStore, MaxMemory string
	// Violations is ServerOptions' Violations.
	Violations io.Writer
}

// Options checks c and makes its server's options; a mistake is an
// *InputError naming the field.
func (c ServeConfig) Options() (ServerOptions, error) {
	host, port, err := SplitHostPort(c.Listen)
	if err != nil {
		return ServerOptions{}, &InputError{Input: "Listen", Err: err}
	}
	o := ServerOptions{Host: host, Port: port, Violations: c.Violations, StoreDir: c.Store}
	if c.TLSCert != "" || c.TLSKey != "" {
		if o.TLS, err = serverTLS(c.TLSCert, c.TLSKey); err != nil {
			return o, &InputError{Input: "TLS", Err: err}
		}
	}
	for _, b := range []struct {
		input, value string
		dst          *int64
	}{{"MaxStore", c.MaxStore, &o.MaxStore}, {"MaxMemory", c.MaxMemory, &o.MaxMemory}} {
		if *b.dst, err = bytesize.Parse(b.value); err != nil || *b.dst <= 0 {
			return o, &InputError{Input: b.input, Value: strconv.Quote(b.value), Err: errors.New("want a size such as 1GiB")}
		}
	}
	if c.Keys == "" {
		return o, nil
	}
	if o.Keys, err = ReadKeys(c.Keys); err != nil {
		return o, &InputError{Input: "Keys", Err: err}
	}
	if _, ok := o.Keys[ArenaKey]; !ok {
		return o, &InputError{Input: "Keys", Value: c.Keys, Err: errors.New("no " + ArenaKey + PublicExt + ", the arenas' key (arena nats add-bot makes it)")}
	}
	return o, nil
}

// Access is how bots and arenas reach a server started from a
// ServeConfig: what the server's first lines tell its users.
type Access struct {
	// URL is the server's, for clients.
	URL string
	// Store, MaxStore and MaxMemory are JetStream's, as given.
	Store, MaxStore, MaxMemory string
	// Open: there are no keys, so anyone who reaches Listen connects.
	Open   bool
	Listen string
	// KeysDir holds BotKeys bots' keys; BotCreds is the name of a bot's
	// key file there, with BOTID for the bot, and ArenaCreds the path of
	// the arenas' key ("" both when Open).
	KeysDir              string
	BotKeys              int
	BotCreds, ArenaCreds string
}

// Access says how the server at url, started from c with options o
// (c.Options), is reached.
func (c ServeConfig) Access(url string, o ServerOptions) Access {
	a := Access{URL: url, Store: c.Store, MaxStore: c.MaxStore, MaxMemory: c.MaxMemory, Open: c.Keys == "", Listen: c.Listen}
	if !a.Open {
		a.KeysDir, a.BotKeys = c.Keys, len(o.Keys)-1 // the arenas' key is no bot's
		a.BotCreds, a.ArenaCreds = "BOTID"+SeedExt, filepath.Join(c.Keys, ArenaKey+SeedExt)
	}
	return a
}
