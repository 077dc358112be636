package argorder

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/internal/completion"
)

// TestFlagsFirst: a command's flags move ahead of its positional
// arguments, each with its value when it takes one; "--" ends flags;
// the completion flag stays last.
func TestFlagsFirst(t *testing.T) {
	app := &cli.App{Name: "arena", Commands: []*cli.Command{{
		Name: "replay",
		Subcommands: []*cli.Command{{
			Name:  "show",
			Flags: []cli.Flag{&cli.IntFlag{Name: "seat"}, &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}}},
		}},
	}}}
	tests := []struct{ args, want string }{
		{"arena", "arena"},
		{"arena replay show FILE --seat 1", "arena replay show --seat 1 -- FILE"},
		{"arena replay show FILE -q --seat=2 MORE", "arena replay show -q --seat=2 -- FILE MORE"},
		{"arena replay show FILE -- --seat 1", "arena replay show -- FILE --seat 1"},
		{"arena replay show -q", "arena replay show -q"},
		{"arena replay show FILE " + completion.Flag, "arena replay show FILE " + completion.Flag},
	}
	for _, tc := range tests {
		if got := strings.Join(FlagsFirst(app, strings.Fields(tc.args)), " "); got != tc.want {
			t.Errorf("FlagsFirst(%s) = %s, want %s", tc.args, got, tc.want)
		}
	}
}
