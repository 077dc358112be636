package remote

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// Credentials are nkey seed files: one per bot, and one for arenas. An
// nkey needs no operator, account or JWT set-up (a .creds file does): the
// server keeps only public keys, a bot proves itself by signing the
// server's nonce with its seed, and a leaked public key grants nothing.
// Revoking a bot is deleting its .pub and restarting the server. On an
// existing cluster run in operator mode, a .creds file from the cluster's
// tooling (nsc) works as well wherever a seed does (docs/remote.md).
const (
	SeedExt   = ".nk"  // a seed, secret: handed to the bot's owner only
	PublicExt = ".pub" // the public key the server checks
	// ArenaKey is the name of the arenas' key in a keys directory.
	ArenaKey = "arena"
)

// ErrKeyExists: a key of that name is in the directory already.
var ErrKeyExists = errors.New("a key of that name exists already")

// AddBot makes bot id's key in dir (AddKey), and before it, the first
// time, the arenas' key (ArenaKey): arenaSeed is the arenas' seed file
// when it was made now, "" when dir had it already (its .pub); it is set
// also when the bot's key then fails.
func AddBot(dir, id string) (arenaSeed, seed string, err error) {
	if err := CheckID(id); err != nil {
		return "", "", err
	}
	if _, err := os.Stat(filepath.Join(dir, ArenaKey+PublicExt)); err != nil {
		if arenaSeed, err = AddKey(dir, ArenaKey); err != nil {
			return "", "", err
		}
	}
	seed, err = AddKey(dir, id)
	return arenaSeed, seed, err
}

// AddKey makes a new user nkey named name in dir: NAME.nk (the seed,
// mode 0600) and NAME.pub. It refuses to overwrite either.
func AddKey(dir, name string) (seedPath string, err error) {
	if name != ArenaKey {
		if err := CheckID(name); err != nil {
			return "", err
		}
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", err
	}
	seed, _ := kp.Seed()
	pub, _ := kp.PublicKey()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	seedPath, pubPath := filepath.Join(dir, name+SeedExt), filepath.Join(dir, name+PublicExt)
	for _, p := range []string{seedPath, pubPath} {
		if _, err := os.Stat(p); err == nil {
			return "", fmt.Errorf("%s: %w", p, ErrKeyExists)
		}
	}
	if err := os.WriteFile(seedPath, append(seed, '\n'), 0o600); err != nil {
		return "", err
	}
	if err := os.WriteFile(pubPath, []byte(pub+"\n"), 0o644); err != nil {
		os.Remove(seedPath)
		return "", err
	}
	return seedPath, nil
}

// ReadKeys reads the public keys of dir: name -> key (the arenas' as
// ArenaKey).
func ReadKeys(dir string) (map[string]string, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*"+PublicExt))
	if err != nil {
		return nil, err
	}
	keys := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		pub := strings.TrimSpace(string(b))
		if !nkeys.IsValidPublicUserKey(pub) {
			return nil, fmt.Errorf("%s: not a public user nkey", p)
		}
		keys[strings.TrimSuffix(filepath.Base(p), PublicExt)] = pub
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s: no keys (*%s); make them with arena nats add-bot", dir, PublicExt)
	}
	return keys, nil
}

// BotPermissions are what bot id may do: subscribe to its own subjects
// (session requests, the referee's lines, probes) and to its own inbox,
// publish only its own lines, answers to requests made of it, and to its
// own open subject (Serve asks there whether the bot is served already).
// It can read nothing of another bot or of the referee.
func BotPermissions(id string) *server.Permissions {
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: []string{"arena.ref." + id + ".>", OpenSubject(id)}},
		Subscribe: &server.SubjectPermission{Allow: []string{"arena.bot." + id + ".>", InboxPrefix(id) + ".>"}},
		Response:  &server.ResponsePermission{MaxMsgs: 1, Expires: time.Minute},
	}
}

// InboxPrefix is bot id's own inbox prefix: never the shared _INBOX, in
// which one client could read another's replies.
func InboxPrefix(id string) string { return "_INBOX_" + id }

// nkeyUsers are the server's users for keys: the arena unrestricted,
// every other key a bot of that id.
func nkeyUsers(keys map[string]string) []*server.NkeyUser {
	var users []*server.NkeyUser
	for name, pub := range keys {
		u := &server.NkeyUser{Nkey: pub}
		if name != ArenaKey {
			u.Permissions = BotPermissions(name)
		}
		users = append(users, u)
	}
	return users
}

// Client says how a client connects: its key, and TLS.
type Client struct {
	// Creds is an nkey seed file, or a .creds file ("": none).
	Creds string
	// BotID, if set, is the bot the client serves: it uses the bot's own
	// inbox prefix, the only one its key may subscribe to.
	BotID string
	// CA verifies the server's TLS certificate (a PEM file); Cert and
	// Key are the client's own, when the server asks for one.
	CA, Cert, Key string
}

// ConnectOptions are the NATS options of a client connecting as cl says.
func ConnectOptions(cl Client) ([]nats.Option, error) {
	var opts []nats.Option
	if cl.BotID != "" {
		opts = append(opts, nats.CustomInboxPrefix(InboxPrefix(cl.BotID)))
	}
	if cl.CA != "" {
		opts = append(opts, nats.RootCAs(cl.CA))
	}
	if cl.Cert != "" || cl.Key != "" {
		if cl.Cert == "" || cl.Key == "" {
			return nil, errors.New("a client certificate needs both its certificate and its key")
		}
		opts = append(opts, nats.ClientCert(cl.Cert, cl.Key))
	}
	if cl.Creds == "" {
		return opts, nil
	}
	b, err := os.ReadFile(cl.Creds)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("SU")) { // a user seed
		o, err := nats.NkeyOptionFromSeed(cl.Creds)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", cl.Creds, err)
		}
		return append(opts, o), nil
	}
	return append(opts, nats.UserCredentials(cl.Creds)), nil
}
