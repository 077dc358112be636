package output

import (
	"fmt"
	"io"

	"github.com/arena-dev/arena/arena/sandbox"
)

// Confinement is how a run starts: one line saying how bots are
// confined (sb), and when verbose the details after it, one aspect a
// line; prefix begins each line ("arena: ").
func Confinement(w io.Writer, prefix string, sb *sandbox.Sandbox, verbose bool) {
	if !verbose {
		fmt.Fprintf(w, "%s%s (details: --verbose)\n", prefix, sb.Summary())
		return
	}
	fmt.Fprintf(w, "%s%s\n", prefix, sb.Summary())
	for _, d := range sb.Details() {
		fmt.Fprintf(w, "%ssandbox: %s\n", prefix, d)
	}
}

// Sandbox is what arena sandbox prints: the line a run starts with, then
// every detail, indented.
func Sandbox(w io.Writer, sb *sandbox.Sandbox) {
	fmt.Fprintln(w, sb.Summary())
	for _, d := range sb.Details() {
		fmt.Fprintf(w, "  %s\n", d)
	}
}
