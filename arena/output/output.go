// Package output is the one seam between a run and what a person (or a
// program) reads of it, in the spirit of fastchess's single output
// interface: a run reports its games, warnings and end to an Output, and
// the command picks the Output that prints in its format. The arena's
// formats are here: arena match's progress lines and summary table with
// its Elo and LOS lines (Match), a tournament's progress and its events
// (Tournament), an SPRT's progress (SPRT), arena play's sentences for a
// person (Play), the end summary as JSON (JSON), and nothing (Discard).
// arena games prints the games the engine registry knows through it too
// (Games, GamesJSON, Schema): the descriptions are the engines'; so do
// arena check (Check) and arena replay verify and html (Replays).
// A new command (the ladder) reports through the same interface, with
// one of these or an Output of its own.
//
// The text of every format is part of the arena's interface: scripts and
// CI logs read it, so it changes only on purpose.
package output

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/tournament"
)

// Output is where a run reports. Its methods are called from one
// goroutine at a time (the runs call their progress hooks in order).
type Output interface {
	// Game reports a game that finished and counts.
	Game(Game)
	// Warn reports what the run's user should know that does not stop
	// it: msg is one line, without the "arena: warning: " it is given.
	Warn(msg string)
	// End reports that the run is over, with what it concluded (the
	// parts it has; none when it failed). A terminal's live display
	// ends here.
	End(End) error
}

// Game is a finished game as a run reports it.
type Game struct {
	// Record is the game's line of the ledger (zero for an SPRT status,
	// which is about pairs rather than one game).
	Record ledger.Record
	// Done counts the run's games counted, this one included, and Total
	// is how many it plays (-1: not known, as for a bracket).
	Done, Total int
	// Summary is the run's tallies so far, this game included; nil for
	// a run that keeps none.
	Summary *match.Summary
	// Suspended are the bots this game's result suspended, if any.
	Suspended []run.Suspension
	// Tournament is a tournament's progress (its stage, estimate and
	// rate), nil for other runs.
	Tournament *tournament.Progress
	// SPRT is an SPRT run's test after the pair (or game, unpaired) this
	// game completed, nil for other runs.
	SPRT *sprt.Status
	// Final marks a run's last status, which an Output that thins its
	// lines out (one a second) says unless it has said it already.
	Final bool
}

// TournamentGame is the Game a tournament's progress reports.
func TournamentGame(p tournament.Progress) Game {
	return Game{Record: p.Last, Done: p.Done, Total: p.Total, Summary: p.Summary, Suspended: p.Suspended, Tournament: &p}
}

// End is what a run concluded.
type End struct {
	// Summary is the games' tallies (match, play); nil when none.
	Summary *match.Summary
	// Took is the run's wall time.
	Took time.Duration
	// SPRT is an SPRT run's summary, nil for other runs.
	SPRT *sprt.Summary
}

// Warnings writes warnings as the arena says them, "arena: warning:
// MSG", to W (nil: nowhere). The text Outputs embed it.
type Warnings struct{ W io.Writer }

// Warn writes msg as a warning line.
func (w Warnings) Warn(msg string) {
	if w.W != nil {
		fmt.Fprintf(w.W, "arena: warning: %s\n", msg)
	}
}

// Discard is the quiet Output: it says nothing.
type Discard struct{}

func (Discard) Game(Game)     {}
func (Discard) Warn(string)   {}
func (Discard) End(End) error { return nil }

// JSON is an Output whose end summary is one indented JSON object on W
// (an SPRT run's summary, else the match summary of a run that played a
// game), instead of Output's text; its games and warnings are
// Output's.
type JSON struct {
	Output
	W io.Writer
}

// End writes the summary as JSON.
func (j JSON) End(e End) error {
	var v any
	switch {
	case e.SPRT != nil:
		v = e.SPRT
	case e.Summary != nil && e.Summary.Games > 0:
		v = e.Summary
	default:
		return nil
	}
	return WriteJSON(j.W, v)
}

// WriteJSON writes v to w as the arena's JSON output is written: one
// object, indented by two spaces.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Kind is which command's text an Output of New prints.
type Kind int

// The kinds of New.
const (
	MatchText      Kind = iota // Match
	SPRTText                   // SPRT
	TournamentText             // Tournament
)

// Options choose a command's Output (New), as its flags say.
type Options struct {
	Kind Kind
	// Progress receives progress lines and warnings (stderr), Out the
	// results (stdout).
	Progress, Out io.Writer
	// Quiet (--quiet) drops the progress lines; warnings stay, but a
	// quiet tournament says nothing at all (its run warns on its own).
	Quiet bool
	// JSON (--json) writes the end summary as JSON on Out instead.
	JSON bool
	// Kept (--out): a forfeit says where the bot's whole stderr is.
	Kept bool
}

// Lines is where a run's own lines go (its first lines, MatchHeader and
// the like): Progress, or nowhere when Quiet.
func (o Options) Lines() io.Writer {
	if o.Quiet {
		return io.Discard
	}
	return o.Progress
}

// New is the Output o chooses: one place for what --quiet and --json
// mean to every run.
func New(o Options) Output {
	var out Output
	switch o.Kind {
	case SPRTText:
		s := NewSPRT(o.Lines(), o.Out)
		s.Warnings.W = o.Progress
		out = s
	case TournamentText:
		if o.Quiet {
			return Discard{}
		}
		// On a terminal, a live bar; in CI logs, plain lines at most
		// once a second.
		out = NewTournament(o.Progress)
	default:
		out = Match{Warnings: Warnings{W: o.Progress}, Progress: o.Lines(), Out: o.Out, Kept: o.Kept}
	}
	if o.JSON {
		out = JSON{Output: out, W: o.Out}
	}
	return out
}
