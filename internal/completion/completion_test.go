package completion

import (
	"errors"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestScript: each shell's script calls arena back with Flag (fish's
// is urfave/cli's, from the app); another shell has none.
func TestScript(t *testing.T) {
	app := &cli.App{Name: "arena", Commands: []*cli.Command{{Name: "match"}}}
	tests := []struct {
		shell string
		want  string
		err   error
	}{
		{"bash", Flag, nil},
		{"zsh", Flag, nil},
		{"fish", "complete -c arena", nil},
		{"csh", "", ErrShell},
	}
	for _, tc := range tests {
		script, err := Script(app, tc.shell)
		if !errors.Is(err, tc.err) || !strings.Contains(script, tc.want) {
			t.Errorf("Script(%s): %v, want %v with %q:\n%s", tc.shell, err, tc.err, tc.want, script)
		}
	}
}
