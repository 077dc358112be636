package bot

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Spec is a bot as the arena runs it: its name, what its command names
// (Target), and how to start its sessions (Launcher, nil until a run
// binds it: Bind).
type Spec struct {
	Name     string
	Target   Target
	Launcher Launcher
}

// Target is what a bot's command names, as its scheme parsed it: a local
// program, a remote bot's id.
type Target interface {
	// Scheme is the name the scheme registered under ("stdio", "nats").
	Scheme() string
	// String is the command as written.
	String() string
}

// Scheme parses the commands of one kind of bot (Register).
type Scheme interface {
	// Parse reads a command's address (the command without its
	// "scheme:" prefix; for the default scheme, the whole command). dir
	// is the directory the bot is given ("" for none), against which
	// relative paths resolve.
	Parse(address, dir string) (Target, error)
}

// Checker is implemented by Schemes whose Parse looks for what the
// target needs on this machine (a program and its files): Unchecked
// makes the target without looking, for a bot that will not run here (a
// withdrawn one, or a run read only for its results).
type Checker interface {
	Unchecked(address, dir string) (Target, error)
}

// Local is implemented by Targets that run on this machine and so take
// the variables (and, through Parse, the directory) their caller gives
// them, as a tournament file's bot does. A Target without it runs
// elsewhere: its owner sets those where it runs.
type Local interface {
	Target
	WithEnv(env []string) Target
}

// Binder makes the Launcher of a Target, from what a run holds (a
// sandbox, a NATS connection). name is the bot's.
type Binder interface {
	Bind(t Target, name string) (Launcher, error)
}

// Needer is implemented by Schemes whose bots need something a run must
// bind (Bindings): Needs says what, for UnboundError.
type Needer interface {
	Needs() string
}

// Bindings are a run's binders, by scheme name.
type Bindings map[string]Binder

// DefaultScheme parses a command that names no registered scheme.
const DefaultScheme = "stdio"

var (
	schemesMu sync.RWMutex
	schemes   = map[string]Scheme{}
)

// Register makes a scheme available under name: a command "name:..."
// is then parsed by s. Like sql.Register, it panics on a nil scheme or a
// name registered twice; it is meant for a package's init.
func Register(name string, s Scheme) {
	schemesMu.Lock()
	defer schemesMu.Unlock()
	if s == nil {
		panic("bot: Register scheme is nil")
	}
	if _, dup := schemes[name]; dup {
		panic("bot: Register called twice for scheme " + name)
	}
	schemes[name] = s
}

// Schemes lists the registered schemes' names, sorted.
func Schemes() []string {
	schemesMu.RLock()
	defer schemesMu.RUnlock()
	out := make([]string, 0, len(schemes))
	for n := range schemes {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func lookup(name string) (Scheme, bool) {
	schemesMu.RLock()
	defer schemesMu.RUnlock()
	s, ok := schemes[name]
	return s, ok
}

// schemeOf is the scheme a command names and its address: the prefix
// before its first ':' when a scheme of that name is registered, else
// the default scheme and the whole command.
func schemeOf(cmdline string) (name, address string, s Scheme, err error) {
	trimmed := strings.TrimSpace(cmdline)
	if prefix, rest, ok := strings.Cut(trimmed, ":"); ok {
		if s, ok := lookup(prefix); ok {
			return prefix, rest, s, nil
		}
	}
	if s, ok := lookup(DefaultScheme); ok {
		return DefaultScheme, cmdline, s, nil
	}
	return DefaultScheme, cmdline, nil, &UnknownSchemeError{Scheme: DefaultScheme}
}

// Field is the part of a bot's description an error is about.
type Field string

// The fields of a SpecError.
const (
	FieldName    Field = "name"
	FieldCommand Field = "command"
)

// ErrNoCommand is a bot given an empty command.
var ErrNoCommand = errors.New("empty command")

// ErrFlag is a bot flag that is not NAME=CMD (ParseFlag).
var ErrFlag = errors.New("want NAME=CMD")

// SpecError is a bot that cannot be parsed: the name it was given, the
// field at fault, and why. Its text is Err's alone: where the bot was
// given (a flag, a file's field) is for the caller to say.
type SpecError struct {
	Bot   string
	Field Field
	Err   error
}

func (e *SpecError) Error() string { return e.Err.Error() }
func (e *SpecError) Unwrap() error { return e.Err }

// UnknownSchemeError is a command whose scheme no package registered
// (the default one, when arena/bot/stdio is not linked in).
type UnknownSchemeError struct{ Scheme string }

func (e *UnknownSchemeError) Error() string {
	return fmt.Sprintf("no bot scheme %q is registered (known: %s)", e.Scheme, strings.Join(Schemes(), ", "))
}

// Parse is the one parser of a bot: its name (CheckName) and its command
// line, whose "scheme:" prefix, when a registered scheme has that name,
// picks the scheme that parses the rest; any other command is the
// default scheme's (a program run over stdio). dir is the bot's
// directory ("" for none). The Spec has no Launcher yet (Bind). Errors
// are *SpecError.
func Parse(name, cmdline, dir string) (Spec, error) {
	return parse(name, cmdline, dir, false)
}

// ParseUnchecked is Parse for a bot that will not run here: a scheme
// that looks for what its bots need on this machine (Checker) does not.
func ParseUnchecked(name, cmdline, dir string) (Spec, error) {
	return parse(name, cmdline, dir, true)
}

func parse(name, cmdline, dir string, unchecked bool) (Spec, error) {
	if err := CheckName(name); err != nil {
		return Spec{}, &SpecError{Bot: name, Field: FieldName, Err: err}
	}
	if strings.TrimSpace(cmdline) == "" {
		return Spec{}, &SpecError{Bot: name, Field: FieldCommand, Err: ErrNoCommand}
	}
	_, address, s, err := schemeOf(cmdline)
	if err != nil {
		return Spec{}, &SpecError{Bot: name, Field: FieldCommand, Err: err}
	}
	var t Target
	if c, ok := s.(Checker); ok && unchecked {
		t, err = c.Unchecked(address, dir)
	} else {
		t, err = s.Parse(address, dir)
	}
	if err != nil {
		return Spec{}, &SpecError{Bot: name, Field: FieldCommand, Err: err}
	}
	return Spec{Name: name, Target: t}, nil
}

// ParseFlag parses a bot given as NAME=CMD (a --bot flag): ErrFlag
// without '=' or with an empty CMD, else as Parse.
func ParseFlag(flag string) (Spec, error) {
	name, cmdline, ok := SplitFlag(flag)
	if !ok || strings.TrimSpace(cmdline) == "" {
		return Spec{}, ErrFlag
	}
	return Parse(name, cmdline, "")
}

// UnboundError is a bot whose scheme the run gave nothing to launch it
// with: no Binder in its Bindings, and the scheme is none itself.
type UnboundError struct {
	Bot, Scheme string
	Needs       string // what its scheme needs ("a NATS connection"), or ""
}

func (e *UnboundError) Error() string {
	if e.Needs == "" {
		return fmt.Sprintf("bot %s: nothing launches %s: bots here", e.Bot, e.Scheme)
	}
	return fmt.Sprintf("bot %s: the run has %s bots but no %s to reach them", e.Bot, e.Scheme+":", e.Needs)
}

// Bind gives every spec without a Launcher one: its scheme's binder in
// b, else the registered scheme itself when it is a Binder (a scheme
// that needs nothing of the run), else an *UnboundError. Specs already
// bound are left as they are, so that a run may bind some itself.
func Bind(specs []Spec, b Bindings) error {
	for i := range specs {
		s := &specs[i]
		if s.Launcher != nil {
			continue
		}
		if s.Target == nil {
			return &UnboundError{Bot: s.Name, Scheme: "(none)"}
		}
		scheme := s.Target.Scheme()
		binder, ok := b[scheme]
		if !ok {
			reg, _ := lookup(scheme)
			if binder, ok = reg.(Binder); !ok {
				e := &UnboundError{Bot: s.Name, Scheme: scheme}
				if n, ok := reg.(Needer); ok {
					e.Needs = n.Needs()
				}
				return e
			}
		}
		l, err := binder.Bind(s.Target, s.Name)
		if err != nil {
			return fmt.Errorf("bot %s: %w", s.Name, err)
		}
		s.Launcher = l
	}
	return nil
}

// HasScheme says whether a spec's target is of the scheme name.
func HasScheme(specs []Spec, name string) bool {
	return slices.ContainsFunc(specs, func(s Spec) bool { return s.Target != nil && s.Target.Scheme() == name })
}

var botName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// CheckName validates a bot name: it becomes a directory name for logs.
func CheckName(name string) error {
	if !botName.MatchString(name) {
		return fmt.Errorf("bot name %q may hold only letters, digits, '.', '_' and '-' (and must not start with '.', '_' or '-')", name)
	}
	return nil
}

// DuplicateNameError is a bot name given to two bots; Index is the
// second one's.
type DuplicateNameError struct {
	Name  string
	Index int
}

func (e *DuplicateNameError) Error() string { return fmt.Sprintf("bot name %q is used twice", e.Name) }

// CheckNames refuses two specs of one name: the first name used again,
// as a *DuplicateNameError.
func CheckNames(specs []Spec) error {
	seen := make(map[string]bool, len(specs))
	for i, s := range specs {
		if seen[s.Name] {
			return &DuplicateNameError{Name: s.Name, Index: i}
		}
		seen[s.Name] = true
	}
	return nil
}
