// Package stop is how a long-running command is stopped: the first
// SIGINT or SIGTERM ends its context, with the signal as the cause, and
// a second kills the process at once.
package stop

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mattn/go-isatty"
)

// signals are the signals that stop a long-running command cleanly:
// Ctrl-C (SIGINT), and SIGTERM, which timeout, docker stop, Kubernetes
// and CI runners send to cancel a job. Both are handled alike: no new
// game starts, nothing half-done is recorded, and the reports are
// written.
var signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// names name signals as people know them (syscall's own names are
// "interrupt" and "terminated").
var names = map[os.Signal]string{os.Interrupt: "SIGINT", syscall.SIGTERM: "SIGTERM"}

// Name is sig as people know it: SIGINT, SIGTERM.
func Name(sig os.Signal) string {
	if name, ok := names[sig]; ok {
		return name
	}
	return sig.String()
}

// By is the cause (context.Cause) of a command's context ended by a
// signal. It is a cancellation: errors.Is(err, context.Canceled) holds
// for it, as for any context cancelled.
type By struct{ Signal os.Signal }

func (s By) Error() string { return Name(s.Signal) }

func (s By) Unwrap() error { return context.Canceled }

// Context is the context of every long-running command (match, play,
// tournament run, sprt, worker, connect, serve, bench): it ends at the
// first of the stop signals, with By as its cause, and says so on w (the
// command's stderr) at once (Say). The command then winds down (what
// that takes is its own: a tournament gives running games a few
// seconds). A second signal is not caught: it kills the process at
// once, as the signal's default action does. Nothing recorded is lost
// that way either, since every recorded game is durable (a run killed
// outright resumes, docs/tournaments.md), but the reports of that run
// are not written. release stops catching the signals; call it when the
// command ends.
func Context(w io.Writer) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, signals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-caught:
			// Before the command sees the cancellation, so that a second
			// signal already finds the default action.
			signal.Stop(caught)
			Say(w, By{sig})
			cancel(By{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(caught)
		close(done)
		cancel(context.Canceled)
	}
}

// Say tells the person who pressed Ctrl-C (or the log of a job that was
// cancelled) at once that the command heard it, before the seconds
// winding down takes: one who hears nothing presses again, and a second
// signal stops the command without its reports. On a terminal a
// progress bar may hold the line: the message starts a line of its own.
func Say(w io.Writer, by By) {
	newline := ""
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		newline = "\n"
	}
	fmt.Fprintf(w, "%sarena: %s: stopping cleanly, which may take a few seconds; a second signal stops at once, without the reports\n", newline, by)
}
