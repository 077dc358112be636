package check

import (
	"fmt"
	"io"
	"strings"
)

// Text writes the report for a person: each check as PASS, FAIL, WARN
// or SKIP with its reason, hint and the last lines exchanged, the end
// of the bot's stderr, and the verdict.
func (rep *Report) Text(w io.Writer) {
	for _, r := range rep.Checks {
		fmt.Fprintf(w, "%s %s: %s\n", strings.ToUpper(string(r.Status)), r.Name, r.Detail)
		if r.Hint != "" {
			fmt.Fprintf(w, "     hint: %s\n", r.Hint)
		}
		if len(r.Transcript) > 0 {
			fmt.Fprintf(w, "     the last lines exchanged (R> checker, B> bot):\n")
			for _, l := range r.Transcript {
				fmt.Fprintf(w, "       %s\n", l)
			}
		}
	}
	if rep.StderrTail != "" {
		fmt.Fprintf(w, "the bot's stderr ended with:\n")
		lines := strings.Split(strings.TrimRight(rep.StderrTail, "\n"), "\n")
		if len(lines) > 10 {
			lines = lines[len(lines)-10:]
		}
		for _, l := range lines {
			fmt.Fprintf(w, "  | %s\n", l)
		}
	}
	verdict := "compliant"
	if !rep.OK {
		verdict = "NOT compliant"
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d warnings, %d skipped: %s\n", rep.Passed, rep.Failed, rep.Warnings, rep.Skipped, verdict)
}
