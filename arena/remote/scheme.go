package remote

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
)

// SchemeName is the scheme of a bot that runs elsewhere and is reached
// over NATS: its command is "nats:BOTID".
const SchemeName = "nats"

// Prefix starts a remote bot's command.
const Prefix = SchemeName + ":"

func init() { bot.Register(SchemeName, scheme{}) }

var botID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// ErrID is a remote bot id that cannot be a subject token.
var ErrID = errors.New("a NATS bot id holds only letters, digits, '_' and '-', and starts with a letter or digit")

// CheckID validates a remote bot's id: it is a token of every NATS
// subject of the bot.
func CheckID(id string) error {
	if !botID.MatchString(id) {
		return fmt.Errorf("%w: %q", ErrID, id)
	}
	return nil
}

// Target is a remote bot: the id it is served under.
type Target struct{ ID string }

// Scheme is "nats".
func (Target) Scheme() string { return SchemeName }

// String is the command as written: "nats:ID".
func (t Target) String() string { return Prefix + t.ID }

// Build names the bot as a distributed run's jobs do ("nats:ID"): a
// remote bot is whatever serves its id.
func (t Target) Build() (string, error) { return t.String(), nil }

// scheme parses "nats:ID" (the dir a bot may be given means nothing
// here: the bot's owner runs it where they like).
type scheme struct{}

func (scheme) Parse(id, _ string) (bot.Target, error) {
	if err := CheckID(id); err != nil {
		return nil, err
	}
	return Target{ID: id}, nil
}

// Needs is what a run must bind for these bots (Binding).
func (scheme) Needs() string { return "NATS connection" }

// Binding binds remote bots to a run's NATS connection: one Launcher per
// bot id, so that bots named twice on one id share its capacity.
type Binding struct {
	NC *nats.Conn
	// Wait and Grace are the Launchers' (Launcher).
	Wait, Grace time.Duration
	// Presence, if set, is the Launchers' (Launcher.Served): it follows
	// every bot bound from then on.
	Presence *Presence

	launchers map[string]*Launcher
}

// Bind is the Launcher of t's id on b.NC.
func (b *Binding) Bind(t bot.Target, _ string) (bot.Launcher, error) {
	id := t.(Target).ID // the scheme's own target: Bind is by scheme
	if l, ok := b.launchers[id]; ok {
		return l, nil
	}
	if b.launchers == nil {
		b.launchers = map[string]*Launcher{}
	}
	l := &Launcher{NC: b.NC, ID: id, Wait: b.Wait, Grace: b.Grace, Presence: b.Presence}
	if b.Presence != nil {
		b.Presence.Track(id)
	}
	b.launchers[id] = l
	return l, nil
}
