package runplan

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/internal/usage"
)

// RefusedError is a run's bots refused: by the sandbox (Err from
// sandbox.New: a limit or protection this machine cannot provide), or,
// with Dir set, a bot that needs a file in the output directory Dir,
// which isolated bots do not see. Plan.Refused names the input behind it.
type RefusedError struct {
	Dir string
	Err error
}

func (e *RefusedError) Error() string { return e.Err.Error() }
func (e *RefusedError) Unwrap() error { return e.Err }

// Confine runs every local bot of specs in the sandbox lim and opts
// describe (stdio.Confine): it checks that this machine can provide it
// (another user and no network need privileges). Isolated bots do not
// see the output directory out ("" none; created here if need be), nor
// what opts.Hide names, nor the other bots' programs; a bot that names a
// file in out is refused now, not forfeited in every game: a finished
// game of a rotation block tells the deal of the next. A refusal is a
// *RefusedError.
func Confine(specs []bot.Spec, lim sandbox.Limits, opts sandbox.Options, out string) (*sandbox.Sandbox, error) {
	if out != "" {
		if err := stdio.CheckOutside(specs, out); err != nil {
			return nil, &RefusedError{Dir: out, Err: err}
		}
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, fmt.Errorf("output directory: %w", err)
		}
		opts.Hide = append([]string{out}, opts.Hide...)
	}
	opts.Programs = append(opts.Programs[:len(opts.Programs):len(opts.Programs)], stdio.Programs(specs)...) // a remote bot runs elsewhere
	sb, err := sandbox.New(lim, opts)
	if err != nil {
		return nil, &RefusedError{Err: err}
	}
	stdio.Confine(specs, sb)
	return sb, nil
}

// Group is bots confined together, apart from a plan's other groups
// (Plan.Groups): by their own limits, which see no output directory.
type Group struct {
	Bots    []bot.Spec
	Limits  sandbox.Limits
	Sandbox sandbox.Options
	// Refused (nil: the error itself) names the input behind a
	// *RefusedError, as Plan.Refused does.
	Refused func(*RefusedError) error
	// IfLocal: a group of remote bots alone is not confined (its limits
	// are not checked, and Confined is not called), since they run
	// elsewhere.
	IfLocal bool
	// Confined, if set, is told the group's sandbox once it is made: a
	// command says how the group's bots are confined.
	Confined func(*sandbox.Sandbox)
}

// confineGroups confines each group in turn, and returns their bots
// together, their names checked (bot.CheckNames).
func confineGroups(groups []Group) ([]bot.Spec, error) {
	var all []bot.Spec
	for _, g := range groups {
		if !g.IfLocal || len(stdio.Programs(g.Bots)) > 0 {
			if _, err := g.Confine(); err != nil {
				return nil, err
			}
		}
		all = append(all, g.Bots...)
	}
	return all, bot.CheckNames(all)
}

// Confine confines g's bots (Confine, with no output directory), a
// refusal named by g.Refused, and tells g.Confined.
func (g Group) Confine() (*sandbox.Sandbox, error) {
	sb, err := Confine(g.Bots, g.Limits, g.Sandbox, "")
	var refused *RefusedError
	if errors.As(err, &refused) && g.Refused != nil {
		return nil, g.Refused(refused)
	}
	if err != nil {
		return nil, err
	}
	if g.Confined != nil {
		g.Confined(sb)
	}
	return sb, nil
}

// readSecret reads the deal secret file given (path): the secret and
// the file's absolute path. Bots that need something in that file's
// directory are refused, since isolated bots do not see it.
func readSecret(path string, bots []bot.Spec) (*deal.Secret, string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, "", usage.Errorf("--deal-secret %s: %v", path, err)
	}
	s, err := deal.Read(abs)
	if err != nil {
		return nil, "", usage.Errorf("--deal-secret: %w", err)
	}
	if err := stdio.CheckOutside(bots, filepath.Dir(abs)); err != nil {
		return nil, "", usage.Errorf("--deal-secret %s: %w", path, err)
	}
	return s, abs, nil
}

// hideSecret adds the directory of a reused secret file to what isolated
// bots may not see (an earlier run's output directory, most likely: its
// results tell the deals a reproduced run deals again), unless it is the
// output directory, which is hidden anyway.
func hideSecret(hide []string, secretFile, out string) []string {
	if secretFile == "" {
		return hide
	}
	dir := filepath.Dir(secretFile)
	if abs, err := filepath.Abs(out); err == nil && out != "" && abs == dir {
		return hide
	}
	return append(hide[:len(hide):len(hide)], dir)
}

// SecretNote says where the deal secret of a run into out is, for its
// first line: secretFile, given ("" none), or out's.
func SecretNote(secretFile, out string) string {
	switch {
	case secretFile != "":
		return "deal secret " + secretFile
	case out != "":
		return "deal secret " + filepath.Join(out, deal.FileName)
	}
	return "a fresh deal secret, kept in memory only"
}
