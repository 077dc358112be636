// Package stdio is the default bot scheme: a bot program run on this
// machine as a child process that speaks the protocol over its stdin and
// stdout, confined by arena/sandbox when the run binds one (Binding).
// It checks a command before any game (ParseCommand: the program is
// there and runnable, its script and model files exist, a bundled bot
// "arena bot NAME" is one), and names a build of it for distributed runs
// (Command.Build).
//
// Importing it registers the scheme "stdio" with arena/bot: a command
// with no registered "scheme:" prefix is one of these.
package stdio

import (
	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/sandbox"
)

// SchemeName is the name the scheme registers under: arena/bot's
// default.
const SchemeName = bot.DefaultScheme

func init() { bot.Register(SchemeName, scheme{}) }

// scheme parses commands into Commands; unconfined, it binds them as
// they are.
type scheme struct{}

// Parse is ParseCommand: the Command's Argv, to run in dir.
func (scheme) Parse(cmdline, dir string) (bot.Target, error) {
	argv, err := ParseCommand(cmdline, dir)
	if err != nil {
		return nil, err
	}
	return Command{Line: cmdline, Argv: argv, Dir: dir}, nil
}

// Unchecked is a Command that was not looked for: it has no Argv, and is
// never started (a withdrawn bot, a run read for its results).
func (scheme) Unchecked(cmdline, dir string) (bot.Target, error) {
	return Command{Line: cmdline, Dir: dir}, nil
}

// Bind runs bots unconfined: the default when a run binds no sandbox.
func (scheme) Bind(t bot.Target, name string) (bot.Launcher, error) { return Binding{}.Bind(t, name) }

// Binding binds stdio bots to a run's sandbox: every process of theirs
// is confined in it (none if Sandbox is nil).
type Binding struct {
	Sandbox *sandbox.Sandbox
}

// Bind is the Command t, named name, in b.Sandbox.
func (b Binding) Bind(t bot.Target, name string) (bot.Launcher, error) {
	c := t.(Command) // the scheme's own target: Bind is by scheme
	c.Name, c.Sandbox = name, b.Sandbox
	return c, nil
}

// Confine binds the stdio bots among specs that are not bound yet to sb
// (the others are left for bot.Bind).
func Confine(specs []bot.Spec, sb *sandbox.Sandbox) {
	for i, s := range specs {
		if c, ok := s.Target.(Command); ok && s.Launcher == nil {
			specs[i].Launcher, _ = Binding{Sandbox: sb}.Bind(c, s.Name)
		}
	}
}

// Programs are what a sandbox needs to know of the stdio bots among
// specs (their programs and directories), in order; bots that run
// elsewhere, or were not looked for, are not among them.
func Programs(specs []bot.Spec) []sandbox.Program {
	var out []sandbox.Program
	for _, s := range specs {
		if c, ok := s.Target.(Command); ok && len(c.Argv) > 0 {
			out = append(out, sandbox.Program{Argv: c.Argv, Dir: c.Dir})
		}
	}
	return out
}
