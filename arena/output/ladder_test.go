package output_test

import (
	"testing"

	"github.com/arena-dev/arena/arena/ladder/intake"
	"github.com/arena-dev/arena/arena/output"
)

func TestIntakeLine(t *testing.T) {
	tests := []struct {
		rep  intake.Report
		want string
	}{
		{intake.Report{ID: "s1", Bot: "py", Verdict: intake.VerdictAdmitted, Version: 2}, "arena: py.v2 admitted (submission s1)"},
		{intake.Report{ID: "s2", Bot: "py", Verdict: intake.VerdictWithdrawn}, "arena: py withdrawn (request s2)"},
		{intake.Report{ID: "s3", Bot: "py", Verdict: intake.VerdictRefused, Text: "PASS start: started\nFAIL no-crash: exited with status 3\nFAIL bye"},
			"arena: py refused (submission s3): FAIL no-crash: exited with status 3"},
		{intake.Report{ID: "s4", Verdict: intake.VerdictRefused, Text: "a submission without a valid manifest (EOF)"},
			"arena: a submission refused (submission s4): a submission without a valid manifest (EOF)"},
	}
	for _, tt := range tests {
		if got := output.IntakeLine(tt.rep); got != tt.want {
			t.Errorf("IntakeLine(%+v) = %q, want %q", tt.rep, got, tt.want)
		}
	}
}
