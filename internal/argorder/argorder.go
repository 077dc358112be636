// Package argorder lets a subcommand's flags come after its positional
// arguments, which urfave/cli v2 does not read.
package argorder

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/internal/completion"
)

// FlagsFirst moves a subcommand's flags ahead of its positional arguments,
// so `arena replay show FILE --seat 1` works as users expect (urfave/cli v2
// stops reading flags at the first positional argument). Which flags take
// a value comes from the command's own flag definitions; "--" ends flags.
func FlagsFirst(app *cli.App, args []string) []string {
	if len(args) < 2 || args[len(args)-1] == completion.Flag {
		// The completion flag must stay last, and with no "--" before it,
		// for urfave/cli to answer it.
		return args
	}
	out := []string{args[0]}
	cmds, flags := app.Commands, app.Flags
	i := 1
	for ; i < len(args); i++ { // walk the command path
		var next *cli.Command
		for _, c := range cmds {
			if c.HasName(args[i]) {
				next = c
			}
		}
		if next == nil {
			break
		}
		out = append(out, args[i])
		cmds, flags = next.Subcommands, next.Flags
	}
	takesValue := map[string]bool{}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var flagArgs, positional []string
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			flagArgs = append(flagArgs, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(args) {
				i++
				flagArgs = append(flagArgs, args[i])
			}
			continue
		}
		positional = append(positional, a)
	}
	out = append(out, flagArgs...)
	if len(positional) > 0 {
		out = append(append(out, "--"), positional...)
	}
	return out
}
