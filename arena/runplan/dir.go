package runplan

import (
	"io"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
)

// Dir says where a run writes and what it may find there.
type Dir struct {
	// Out is the output directory; "" keeps nothing (run.Discard).
	Out string
	// Warn (nil: none) is told of a stale lock and leftovers removed.
	Warn io.Writer
	// Run names this run in the error of a directory holding another
	// run's games ("this sprt").
	Run string
	// Ours says whether a game id already in Out is one of this kind of
	// run's (run.CheckOtherRun); nil: none is.
	Ours func(gameID string) bool
	// Held, if set, is called once the directory is held, before it is
	// checked for other runs: a refusal of its own (an sprt that finds
	// an earlier sprt's report).
	Held func() error
	// Line is the ledger line of a game (run.Dir.Sink); nil: the record.
	Line func(run.Table, ledger.Record) any
	// Secret is the deal secret given (--deal-secret); nil: Out's, or a
	// fresh one.
	Secret *deal.Secret
	// Deal, if set, takes the run's secret in place of Secret and Out's:
	// a run that resumes (a tournament) checks that the secret deals the
	// games its ledger holds, which Held read. Such a run judges in Held
	// what the directory holds: Run and Ours are not used.
	Deal func() (*deal.Secret, error)
}

// Held is an opened Dir: the sink and the deal secret of the run.
type Held struct {
	Sink   run.Sink
	Secret *deal.Secret
	dir    *run.Dir
}

// Close releases the output directory: call it when every bot is gone
// and every log is written (after run.Run returns).
func (o *Held) Close() {
	if o.dir != nil {
		o.dir.Close()
	}
}

// OpenDir holds p.Out (if any), checks it, takes the deal secret, which
// is stored there before the first game, and opens its sink: a refused
// secret leaves the ledger as it was. On error nothing is held.
func OpenDir(p Dir) (*Held, error) {
	o := &Held{Sink: run.Discard}
	if p.Out == "" {
		o.Secret, _ = run.DealSecret(p.Secret, "") // given, or fresh: no error
		return o, nil
	}
	dir, err := run.OpenDir(p.Out, p.Warn)
	if err != nil {
		return nil, err
	}
	o.dir = dir
	if err := o.open(p); err != nil {
		dir.Close()
		return nil, err
	}
	return o, nil
}

func (o *Held) open(p Dir) (err error) {
	if p.Held != nil {
		if err := p.Held(); err != nil {
			return err
		}
	}
	if p.Deal != nil {
		o.Secret, err = p.Deal()
	} else if err = run.CheckOtherRun(p.Out, p.Run, p.Ours); err == nil {
		o.Secret, err = run.DealSecret(p.Secret, p.Out)
	}
	if err != nil {
		return err
	}
	files, err := o.dir.Sink(p.Line)
	if err != nil {
		return err
	}
	o.Sink = files
	return nil
}
