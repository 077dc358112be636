// Package runplan is the preamble every command that plays games shares
// (arena match, play, sprt, tournament run and worker). A command fills
// a Plan from its flags (or a tournament file) as plain values, and
// Open makes its bots ready to play: the deal secret read, the local
// bots confined in one sandbox that hides the output directory and the
// secret, the remote ones bound to a NATS link (dialled or an embedded
// server), the executor of a distributed run with its local workers,
// one bot traced. Close releases it all, in order. The output directory
// itself is held by the run (match.Run, sprt.Run, tournament.Run)
// through OpenDir: held, checked for other runs' games, its deal secret
// taken and its sink opened. CommandLine and usage.Error say which errors
// are the command line's mistake rather than the run's.
package runplan

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/usage"
)

// Plan is what a run's bots need, as a command was given it.
type Plan struct {
	// Bots are the run's bots (bot.Parse); Open binds them, in place.
	Bots []bot.Spec
	// Out is the output directory ("" none): isolated bots do not see it,
	// and no bot may need a file in it.
	Out string
	// SecretFile is the deal secret file given ("" none). Open reads it
	// unless Secret is set (already read, as a tournament file's is);
	// isolated bots do not see its directory.
	SecretFile string
	Secret     *deal.Secret
	// Limits and Sandbox confine the local bots (sandbox.New); Sandbox's
	// Hide gains Out and the secret's directory. With a User, Out is
	// made readable to the arena's user only.
	Limits  sandbox.Limits
	Sandbox sandbox.Options
	// Refused (nil: the error itself) names the input behind a
	// *RefusedError: a flag, or a tournament file's field.
	Refused func(*RefusedError) error
	// NATS reaches remote bots, and the workers of a Distributed run
	// (nil: played here). Wait is how long a game waits for a remote
	// bot to be served (the startup time).
	NATS        NATS
	Distributed *Distributed
	Wait        time.Duration
	// Trace names the bot (its name, or its number from 0) whose
	// protocol lines are copied to Log; "" none.
	Trace string
	// Log (nil: none) is told what the bots' owners and workers need:
	// the embedded server's URL, the distributed run's workers, their
	// warnings, and the traced lines.
	Log io.Writer
	// Confined, if set, is called once the bots are confined and before
	// NATS is reached: a command's first lines go there.
	Confined func(*Run)
	// Groups, if set, are bots confined apart, each group by limits of
	// its own (arena worker's: a tournament file's bots by its limits,
	// the --bot flags' by the sandbox flags), in place of Bots, Limits,
	// Sandbox, Refused and Confined: Run.Bots holds them all, in order,
	// and Run.Sandbox is nil. A name repeated across them is a
	// *bot.DuplicateNameError.
	Groups []Group
	// Version is the arena version the local workers report.
	Version string
}

// Run is an opened Plan.
type Run struct {
	// Bots are the plan's, bound.
	Bots []bot.Spec
	// Secret is the deal secret given (nil: the output directory's, or a
	// fresh one), SecretFile its absolute path ("" none).
	Secret     *deal.Secret
	SecretFile string
	// Sandbox confines the local bots.
	Sandbox *sandbox.Sandbox
	// Link is the NATS link, nil without remote bots or Distributed.
	Link *remote.Link
	// Executor makes a distributed run's executor (nil: played here).
	Executor func(run.Config) (run.Executor, error)
	tracer   *bot.Tracer
	undo     []func()
}

// Open makes p's bots ready: their secret read, confined, reached. On
// error whatever it opened is closed again.
func (p Plan) Open() (*Run, error) {
	r := &Run{Bots: p.Bots, Secret: p.Secret, SecretFile: p.SecretFile}
	trace := -1
	if p.Trace != "" {
		var err error
		if trace, err = FindBot(p.Bots, p.Trace); err != nil {
			return nil, err
		}
	}
	if r.Secret == nil && p.SecretFile != "" {
		var err error
		if r.Secret, r.SecretFile, err = readSecret(p.SecretFile, p.Bots); err != nil {
			return nil, err
		}
	}
	if err := r.confine(p); err != nil {
		return nil, err
	}
	if err := r.reach(p); err != nil {
		r.Close()
		return nil, err
	}
	if trace >= 0 {
		r.tracer = bot.Traced(r.Bots[trace].Launcher, logOf(p.Log))
		r.Bots[trace].Launcher = r.tracer
	}
	return r, nil
}

// confine confines p's bots: in one sandbox, or by Groups.
func (r *Run) confine(p Plan) error {
	if p.Groups != nil {
		bots, err := confineGroups(p.Groups)
		r.Bots = bots
		return err
	}
	opts := p.Sandbox
	opts.Hide = hideSecret(opts.Hide, r.SecretFile, p.Out)
	sb, err := Confine(p.Bots, p.Limits, opts, p.Out)
	var refused *RefusedError
	if errors.As(err, &refused) && p.Refused != nil {
		return p.Refused(refused)
	}
	if err != nil {
		return err
	}
	r.Sandbox = sb
	if p.Sandbox.User != "" && p.Out != "" {
		// Bots running as another user cannot read results or replays.
		if err := privateDir(p.Out); err != nil {
			return err
		}
	}
	if p.Confined != nil {
		p.Confined(r)
	}
	return nil
}

// Defer has Close call f (before what Open made, which f may use).
func (r *Run) Defer(f func()) { r.undo = append(r.undo, f) }

// Flush writes the traced bot's last lines, if one is traced: call it
// when the run returns, before its summary.
func (r *Run) Flush() {
	if r.tracer != nil {
		r.tracer.Flush()
	}
}

// Close releases what Open opened, last first: the local workers, the
// NATS link, an embedded server's temporary store.
func (r *Run) Close() {
	for i := len(r.undo) - 1; i >= 0; i-- {
		r.undo[i]()
	}
	r.undo = nil
}

// SecretNote says where the deal secret of a run into out is, for its
// first line.
func (r *Run) SecretNote(out string) string {
	return SecretNote(r.SecretFile, out)
}

// FindBot is the index of the bot which names (by its name, or its
// number from 0).
func FindBot(bots []bot.Spec, which string) (int, error) {
	names := make([]string, len(bots))
	for i, b := range bots {
		if b.Name == which || strconv.Itoa(i) == which {
			return i, nil
		}
		names[i] = fmt.Sprintf("%d or %s", i, b.Name)
	}
	return -1, usage.Errorf("--trace %q: no such bot (want %s)", which, strings.Join(names, ", "))
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

// Err is the error a run played on r returned, as the command says it:
// the command line's mistake (CommandLine, with r's secret file) as a
// *usage.Error, any other as it is.
func (r *Run) Err(err error) error {
	if u := CommandLine(err, r.SecretFile); u != nil {
		return usage.Wrap(u)
	}
	return err
}

func logOf(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// privateDir creates dir (if needed) readable by the arena's user only.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	return nil
}
