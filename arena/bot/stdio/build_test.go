package stdio_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/arena/bot/stdio"
)

// write makes a file of mode under dir (and its directories).
func write(t *testing.T, dir, name, data string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // whatever the umask
		t.Fatal(err)
	}
	return p
}

// TestBuildFollowsFilesAfterEquals: the build of "./bot --model=PATH"
// changes when the model behind PATH does, absolute or relative to the
// bot's dir or a bare file name, and does not change with the path: the
// same files elsewhere are the same build.
func TestBuildFollowsFilesAfterEquals(t *testing.T) {
	t.Parallel()
	build := func(c stdio.Command) string {
		t.Helper()
		b, err := c.Build()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name  string
		file  string                  // the model, in the bot's dir
		model func(dir string) string // its argument, for a bot in dir
	}{
		{"absolute", "m.bin", func(dir string) string { return "--model=" + filepath.Join(dir, "m.bin") }},
		{"relative to the bot's dir", "m.bin", func(string) string { return "--model=m.bin" }},
		{"a variable, relative in a directory", "data/m.bin", func(string) string { return "MODEL=data/m.bin" }},
		{"a bare name with no extension", "weights", func(string) string { return "weights" }},
		{"a one-letter flag glued to the path", "m.bin", func(dir string) string { return "-m" + filepath.Join(dir, "m.bin") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			botIn := func(weights string) stdio.Command {
				dir := t.TempDir()
				write(t, dir, "bot", "#!/bin/sh\n", 0o755)
				write(t, dir, tc.file, weights, 0o644)
				return stdio.Command{Name: "m", Argv: []string{"./bot", tc.model(dir)}, Dir: dir}
			}
			c := botIn("weights v1")
			before := build(c)
			write(t, c.Dir, tc.file, "weights v2", 0o644)
			after := build(c)
			if after == before {
				t.Errorf("build %s before and after the model changed", after)
			}
			// The same bot and model elsewhere: the same build.
			if moved := build(botIn("weights v2")); moved != after {
				t.Errorf("the same files in another directory: build %s, want %s", moved, after)
			}
		})
	}
}
