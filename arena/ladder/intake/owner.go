package intake

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ladder"
)

// submission is a submission directory opened for reading: its files
// are read through root alone, and owner is the uid of the user who
// made the directory (ran Submit), -1 where files have no owners.
type submission struct {
	root  *os.Root
	owner int
}

// openSubmission opens the submission directory dir. dir must be a
// directory, not a link, and the directory opened must be the one
// looked at (a writer that swaps it for a link to someone else's
// directory meanwhile is refused), so that its owner is the user who
// wrote what is read through root.
func openSubmission(dir string) (*submission, error) {
	before, err := os.Lstat(dir)
	if err != nil {
		return nil, err
	}
	if !before.IsDir() {
		return nil, fmt.Errorf("%s is not a directory (%v)", filepath.Base(dir), before.Mode().Type())
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	after, err := root.Stat(".")
	if err == nil && !os.SameFile(before, after) {
		err = fmt.Errorf("%s changed while it was opened", filepath.Base(dir))
	}
	if err != nil {
		root.Close()
		return nil, err
	}
	uid, known := fileOwner(after)
	if !known {
		uid = -1
	}
	return &submission{root: root, owner: uid}, nil
}

// uidString is uid as an Event's Owner ("" if unknown).
func uidString(uid int) string {
	if uid < 0 {
		return ""
	}
	return strconv.Itoa(uid)
}

// authorise says whether the user uid may submit m (or withdraw its
// bot): a name belongs to the first user who submitted under it; the
// organiser (the ladder's user, or root) may act for any. A name with
// no owner recorded is anyone's to submit under (a bundled bot is then
// refused for what it is), and only the organiser's to withdraw.
func authorise(r *ladder.Roster, m Manifest, uid int) error {
	if uid < 0 || organiser(uid) {
		return nil
	}
	b := r.Bot(m.Name)
	if b == nil || b.Owner == uidString(uid) || (b.Owner == "" && !m.Withdraw) {
		return nil
	}
	if m.Withdraw {
		return fmt.Errorf("bot %s belongs to another user: only they or the organiser may withdraw it", m.Name)
	}
	return fmt.Errorf("bot %s belongs to another user: submit under another name", m.Name)
}

// authoriseRemote refuses a contestant's submission of a bot served
// from elsewhere (a command of another scheme than a program run here:
// nats:ID), before it claims the name. Its owner is whoever serves it,
// which the ladder cannot tell from here: a contestant could name
// another's served bot and own it. The organiser, who gives out its
// key, enters it.
func authoriseRemote(m Manifest, uid int) error {
	if m.Withdraw || uid < 0 || organiser(uid) {
		return nil
	}
	spec, err := bot.Parse(m.Name, m.Command, "")
	if err != nil {
		return nil // judged, and refused, as any command
	}
	if _, local := spec.Target.(stdio.Command); local {
		return nil
	}
	return fmt.Errorf("%s: a bot served from elsewhere is entered by the organiser, who gives its key (arena nats add-bot %s): ask them to submit it", m.Command, m.Name)
}

// withdraw carries out the request m (authorised) from directory dir:
// bot m.Name is logged withdrawn, the run told (opts.Withdrawn).
func withdraw(l *ladder.Ladder, dir string, m Manifest, uid int, opts Options) (*Report, error) {
	b := l.Roster.State().Bot(m.Name)
	var why string
	switch {
	case b == nil:
		why = fmt.Sprintf("no bot %s in the ladder to withdraw", m.Name)
	case b.Status == ladder.StatusWithdrawn:
		why = fmt.Sprintf("bot %s is withdrawn already", m.Name)
	}
	if why != "" {
		rep := refusal(m.ID, m.Name, "%s", why)
		return &rep, finish(l, dir, rep)
	}
	reason := m.Reason
	if reason == "" {
		reason = "on request" // said after "withdrawn: " (standings, pages)
	}
	e := ladder.Event{Kind: ladder.Withdrawn, Time: now(), Bot: m.Name, Submission: m.ID, Reason: reason, Owner: uidString(uid)}
	if err := l.Roster.Append(e); err != nil {
		return nil, err
	}
	if opts.Withdrawn != nil {
		opts.Withdrawn(e)
	}
	rep := reportOf(m.ID, &e)
	rep.Text = reason
	return &rep, finish(l, dir, rep)
}
