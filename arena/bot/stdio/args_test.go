package stdio_test

import (
	"slices"
	"testing"

	"github.com/arena-dev/arena/arena/bot/stdio"
)

// ParseArgs keeps each word a shell gave whole, whatever it holds.
func TestParseArgs(t *testing.T) {
	for _, args := range [][]string{
		{"sh", "-c", "exit 0"},
		{"sh", "-c", `echo "a b" 'c' $HOME \x`},
		{"sh", "", "two  spaces", "semi;colon"},
	} {
		argv, err := stdio.ParseArgs(args, "")
		if err != nil {
			t.Fatalf("ParseArgs(%q): %v", args, err)
		}
		if len(argv) != len(args) || !slices.Equal(argv[1:], args[1:]) {
			t.Errorf("ParseArgs(%q) = %q: want the same words after the program", args, argv)
		}
	}
	if _, err := stdio.ParseArgs([]string{"no-such-program-here"}, ""); err == nil {
		t.Error("a missing program was accepted")
	}
}
