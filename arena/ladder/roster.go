package ladder

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/arena/ledger"
)

// RosterName is the roster log's name inside a ladder directory.
const RosterName = "roster.jsonl"

// The kinds of roster events.
const (
	// Submitted: a submission was taken from submissions/incoming
	// (Submission names it) for bot Bot.
	Submitted = "submitted"
	// Admitted: a version passed its checks (or is bundled) and becomes
	// the bot's active one, retiring the one before; it clears a
	// suspension or a withdrawal.
	Admitted = "admitted"
	// Refused: a submission failed its build or validation (Report: the
	// check's report).
	Refused = "refused"
	// Retired: version Version stops playing; its games stay.
	Retired = "retired"
	// Suspended: the bot kept crashing or timing out (Reason); it plays
	// no more until a new version is admitted.
	Suspended = "suspended"
	// Withdrawn: its owner (or the organiser) took the bot out; it plays
	// no more until a new version is admitted.
	Withdrawn = "withdrawn"
	// Pruned: version Version's files were removed (submissions.
	// max_versions); its games stay in the ledger.
	Pruned = "pruned"
)

// Event is one line of the roster log. Lines are written by the ledger's
// writer (ledger.Writer: appended, synced, checksummed) and read by its
// reader, so a torn last line is dropped and an edited one told apart
// exactly as in results.jsonl.
type Event struct {
	Kind       string `json:"event"`
	Time       string `json:"time,omitempty"` // RFC 3339, for people
	Bot        string `json:"bot"`
	Submission string `json:"submission,omitempty"`
	Version    int    `json:"version,omitempty"`
	Build      string `json:"build,omitempty"` // the build hash of an admitted version
	Command    string `json:"command,omitempty"`
	Dir        string `json:"dir,omitempty"` // its files, relative to the ladder directory
	Bundled    bool   `json:"bundled,omitempty"`
	Report     string `json:"report,omitempty"`
	Reason     string `json:"reason,omitempty"`
	// Owner is the uid, in decimal, of the user who wrote the submission
	// or request (submitted and its verdict, withdrawn); "" if unknown.
	Owner string `json:"owner,omitempty"`
	// Game is the game whose result suspended the bot (suspended): its
	// reason tells of that game, which the leaderboard keeps hidden
	// while its table is in play.
	Game string `json:"game,omitempty"`
}

// The statuses of a bot (Bot.Status).
const (
	StatusPending = "pending" // submitted, nothing admitted yet
	// StatusRefused: every submission refused, none admitted, none
	// waiting. Not "pending": its owner must submit again.
	StatusRefused   = "refused"
	StatusActive    = "active"
	StatusRetired   = "retired" // no active version
	StatusSuspended = "suspended"
	StatusWithdrawn = "withdrawn"
)

// Version is one admitted version of a bot.
type Version struct {
	N       int
	Build   string
	Command string
	Dir     string
	Bundled bool
	Retired bool
	Pruned  bool // its files are gone (max_versions)
}

// Bot is a bot of the roster: its versions (Versions[n-1] is version
// n), the active one (0: none) and its status.
type Bot struct {
	Name     string
	Versions []Version
	Active   int
	Status   string
	Reason   string // why it is suspended or withdrawn
	// SuspendedBy is the game whose result suspended it, while it is
	// suspended ("" if none is recorded).
	SuspendedBy string
	Pending     []string // submissions taken but not decided yet
	Refusals    []Event  // its refused submissions, with their reports
	// Owner is the uid (decimal) of the user the name belongs to: the
	// first to submit under it; "" for a bundled bot (the organiser's)
	// or one submitted before owners were recorded.
	Owner string
}

// ActiveName is the active version's name in the ledger ("" if none).
func (b *Bot) ActiveName() string {
	if b.Active == 0 {
		return ""
	}
	return VersionName(b.Name, b.Active)
}

// VersionName is the name version n of bot plays under, in the ledger
// and replays: NAME.vN (so every version is rated apart).
func VersionName(bot string, n int) string { return bot + ".v" + strconv.Itoa(n) }

// SplitVersion splits a name VersionName made; ok is false for another.
func SplitVersion(name string) (bot string, n int, ok bool) {
	i := strings.LastIndex(name, ".v")
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(name[i+2:])
	if err != nil || n < 1 || strconv.Itoa(n) != name[i+2:] {
		return "", 0, false
	}
	return name[:i], n, true
}

// Roster is the state the roster log describes: each bot, in the order
// it first appeared.
type Roster struct {
	Bots  []*Bot
	byBot map[string]*Bot
}

// ErrRoster is an event that does not follow from the ones before it
// (a version out of order, an event for a bot never seen): a roster log
// the arena did not write.
var ErrRoster = errors.New("roster event out of place")

// Bot returns the bot of that name, nil if there is none.
func (r *Roster) Bot(name string) *Bot { return r.byBot[name] }

// Next is the number the next admitted version of bot takes.
func (r *Roster) Next(bot string) int {
	if b := r.byBot[bot]; b != nil {
		return len(b.Versions) + 1
	}
	return 1
}

// Apply makes e part of the state; an event that cannot follow the
// state is an error wrapping ErrRoster, and changes nothing.
func (r *Roster) Apply(e Event) (err error) {
	b := r.byBot[e.Bot]
	if b == nil {
		if e.Kind != Submitted && e.Kind != Admitted {
			return fmt.Errorf("%w: %s for %q, which was never submitted", ErrRoster, e.Kind, e.Bot)
		}
		if e.Bot == "" {
			return fmt.Errorf("%w: %s without a bot", ErrRoster, e.Kind)
		}
		b = &Bot{Name: e.Bot, Status: StatusPending}
		defer func() {
			if err != nil {
				return
			}
			if r.byBot == nil {
				r.byBot = map[string]*Bot{}
			}
			r.byBot[e.Bot] = b
			r.Bots = append(r.Bots, b)
		}()
	}
	if b.Owner == "" && !e.Bundled && (e.Kind == Submitted || e.Kind == Admitted) {
		b.Owner = e.Owner // the first to submit under a name has it
	}
	switch e.Kind {
	case Submitted:
		b.Pending = append(b.Pending, e.Submission)
		if b.Status == StatusRefused {
			b.Status = StatusPending
		}
	case Admitted:
		if e.Version != len(b.Versions)+1 {
			return fmt.Errorf("%w: %s admitted as version %d, after %d versions", ErrRoster, e.Bot, e.Version, len(b.Versions))
		}
		if b.Active > 0 {
			b.Versions[b.Active-1].Retired = true
		}
		b.Versions = append(b.Versions, Version{N: e.Version, Build: e.Build, Command: e.Command, Dir: e.Dir, Bundled: e.Bundled})
		b.Active, b.Status, b.Reason, b.SuspendedBy = e.Version, StatusActive, "", ""
		b.Pending = remove(b.Pending, e.Submission)
	case Refused:
		b.Refusals = append(b.Refusals, e)
		b.Pending = remove(b.Pending, e.Submission)
		if len(b.Versions) == 0 && len(b.Pending) == 0 {
			b.Status = StatusRefused
		}
	case Retired:
		if e.Version < 1 || e.Version > len(b.Versions) {
			return fmt.Errorf("%w: %s has no version %d to retire", ErrRoster, e.Bot, e.Version)
		}
		b.Versions[e.Version-1].Retired = true
		if b.Active == e.Version {
			b.Active = 0
			if b.Status == StatusActive {
				b.Status = StatusRetired
			}
		}
	case Pruned:
		if e.Version < 1 || e.Version > len(b.Versions) || b.Active == e.Version {
			return fmt.Errorf("%w: %s has no version %d to prune (or it is the active one)", ErrRoster, e.Bot, e.Version)
		}
		b.Versions[e.Version-1].Pruned = true
	case Suspended, Withdrawn:
		b.Status, b.Reason, b.SuspendedBy = StatusWithdrawn, e.Reason, ""
		if e.Kind == Suspended {
			b.Status, b.SuspendedBy = StatusSuspended, e.Game
		}
	default:
		return fmt.Errorf("%w: unknown event %q", ErrRoster, e.Kind)
	}
	return nil
}

func remove(list []string, s string) []string {
	for i, x := range list {
		if x == s {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// RosterRead is what reading a roster log found beside its events: a
// torn last line dropped, lines edited after they were written (each
// wrapping ledger.ErrEdited, naming its line); they count as they read.
type RosterRead struct {
	Torn   *ledger.Torn
	Edited []error
}

// ReadRoster replays the roster log at path into its state. A missing
// file is an empty roster. An event that does not follow from those
// before it is a *ledger.LineError wrapping ErrRoster.
func ReadRoster(path string) (*Roster, RosterRead, error) {
	entries, torn, err := ledger.ReadEntries[Event](path)
	read := RosterRead{Torn: torn}
	if err != nil {
		return nil, read, err
	}
	r := &Roster{}
	for _, e := range entries {
		if err := e.EditedError(); err != nil {
			read.Edited = append(read.Edited, &ledger.LineError{Path: path, Line: e.Line, Err: err})
		}
		if err := r.Apply(e.Record); err != nil {
			return nil, read, &ledger.LineError{Path: path, Line: e.Line, Err: err}
		}
	}
	return r, read, nil
}

// RosterLog appends to a roster log and keeps its state. Only the
// holder of the ladder directory's lock has one (Open), so there is one
// writer.
type RosterLog struct {
	w     *ledger.Writer
	state *Roster
}

// openRoster opens the roster log at path for appending, its torn last
// line (if any) cut off (ledger.Open), and reads its state.
func openRoster(path string) (*RosterLog, RosterRead, error) {
	w, err := ledger.Open(path)
	if err != nil {
		return nil, RosterRead{}, err
	}
	r, read, err := ReadRoster(path)
	if err != nil {
		w.Close()
		return nil, read, err
	}
	return &RosterLog{w: w, state: r}, read, nil
}

// State is the roster as the log now says. The caller must not change it.
func (l *RosterLog) State() *Roster { return l.state }

// Append checks e against the state, writes it (synced: it survives a
// crash once Append returns) and applies it. An event out of place is
// neither written nor applied.
func (l *RosterLog) Append(e Event) error {
	if err := l.state.check(e); err != nil {
		return err
	}
	if err := l.w.Append(e); err != nil {
		return err
	}
	return l.state.Apply(e)
}

// check is Apply without its effect: Apply on a copy of e's bot alone.
func (r *Roster) check(e Event) error {
	scratch := &Roster{byBot: map[string]*Bot{}}
	if b := r.byBot[e.Bot]; b != nil {
		c := *b
		c.Versions = append([]Version(nil), b.Versions...)
		scratch.byBot[e.Bot] = &c
	}
	return scratch.Apply(e)
}

// Close closes the log.
func (l *RosterLog) Close() error { return l.w.Close() }
