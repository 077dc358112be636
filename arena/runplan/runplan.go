// Package runplan is the preamble every command that plays games from
// flags shares (arena match and arena sprt; a tournament's directory
// holds more and opens it its own way): hold the output directory, make
// sure it holds no other run's games, open the sink its games go to, and
// take the deal secret (the one given, the directory's, or a fresh one
// stored before the first game); then say which of a run's errors are
// the command line's mistake rather than the run's.
package runplan

import (
	"errors"
	"fmt"
	"io"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
)

// Plan says where a run writes and what it may find there.
type Plan struct {
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
}

// Open is an opened plan: the sink and the deal secret of the run.
type Open struct {
	Sink   run.Sink
	Secret *deal.Secret
	dir    *run.Dir
}

// Close releases the output directory: call it when every bot is gone
// and every log is written (after run.Run returns).
func (o *Open) Close() {
	if o.dir != nil {
		o.dir.Close()
	}
}

// Start holds p.Out (if any), checks it, opens its sink and takes the
// deal secret, which is stored there before the first game. On error
// nothing is held.
func Start(p Plan) (*Open, error) {
	o := &Open{Sink: run.Discard}
	if p.Out != "" {
		dir, err := run.OpenDir(p.Out, p.Warn)
		if err != nil {
			return nil, err
		}
		o.dir = dir
		if err := o.open(p); err != nil {
			dir.Close()
			return nil, err
		}
	}
	secret, err := run.DealSecret(p.Secret, p.Out)
	if err != nil {
		o.Close()
		return nil, err
	}
	o.Secret = secret
	return o, nil
}

func (o *Open) open(p Plan) error {
	if p.Held != nil {
		if err := p.Held(); err != nil {
			return err
		}
	}
	if err := run.CheckOtherRun(p.Out, p.Run, p.Ours); err != nil {
		return err
	}
	files, err := o.dir.Sink(p.Line)
	if err != nil {
		return err
	}
	o.Sink = files
	return nil
}

// CommandLine is the command line's mistake in a run's error, if it is
// one (exit 2, not 1), else nil: an output directory holding another
// run's games, or a deal secret given (read from secretFile, "" if none)
// that is not the directory's, said with the flag that gave it.
func CommandLine(err error, secretFile string) error {
	var other *run.OtherRunError
	switch {
	case errors.As(err, &other):
		return err
	case secretFile != "" && errors.Is(err, deal.ErrMismatch):
		return fmt.Errorf("--deal-secret %s: %w", secretFile, err)
	}
	return nil
}
