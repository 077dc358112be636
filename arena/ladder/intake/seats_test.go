package intake_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
)

// TestSeatRange: a ladder of 2 to 4 seats judges a submission at 2 and
// at 4: a bot that fails only at 4 seats is refused with the check's
// report at 4.
func TestSeatRange(t *testing.T) {
	t.Parallel()
	dir := initLadder(t, strings.Replace(ladderFile, "seats: 2\n", "seats: 2-4\n", 1))
	twoOnly := strings.Replace(goodBot(t), `        if kind == "hello":`+"\n",
		`        if kind == "hello":`+"\n"+`            if msg["seats"] > 2: return 3`+"\n", 1)
	tests := []struct {
		name, src, verdict string
		says               []string
	}{
		{"any", goodBot(t), intake.VerdictAdmitted, []string{"At 4 seats:", "compliant"}},
		{"two", twoOnly, intake.VerdictRefused, []string{"At 4 seats:", "FAIL"}},
	}
	ids := map[string]string{}
	for _, tt := range tests {
		ids[tt.name] = submit(t, dir, tt.name, map[string]string{"bot.py": tt.src}, "python3 bot.py")
	}
	process(t, dir)
	for _, tt := range tests {
		rep, err := intake.Status(dir, ids[tt.name])
		if err != nil || rep.Verdict != tt.verdict {
			t.Fatalf("%s: %+v, %v; want %s", tt.name, rep, err, tt.verdict)
		}
		at2, at4, _ := strings.Cut(rep.Text, "At 4 seats:")
		for _, s := range tt.says {
			if !strings.Contains(rep.Text, s) {
				t.Errorf("%s: the report does not say %q:\n%s", tt.name, s, rep.Text)
			}
		}
		if tt.verdict == intake.VerdictRefused && (strings.Contains(at2, "FAIL") || !strings.Contains(at4, "FAIL")) {
			t.Errorf("%s: want a pass at 2 seats and a failure at 4:\n%s", tt.name, rep.Text)
		}
	}
}

// TestStopInterruptsValidation: a ladder that stops while a submission
// is judged (a bot that thinks for ever, a move limit of an hour) stops
// then: Process returns ctx's error and the submission waits, not
// decided, for the next run.
func TestStopInterruptsValidation(t *testing.T) {
	t.Parallel()
	dir := initLadder(t, strings.Replace(ladderFile, "  move: 2s\n", "  move: 1h\n", 1))
	mute := "#!/bin/sh\nread hello\necho '{\"type\":\"ready\"}'\nexec sleep 3600\n"
	id := submit(t, dir, "mute", map[string]string{"bot.sh": mute}, "./bot.sh")
	l, err := ladder.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx, cancel := context.WithCancel(context.Background())
	// Whenever the stop comes (before the check starts, at its hello or
	// its first turn), the submission is not decided.
	stop := time.AfterFunc(time.Second, cancel)
	defer stop.Stop()
	reps, err := intake.Process(ctx, l, intake.Options{})
	if !errors.Is(err, context.Canceled) || len(reps) != 0 {
		t.Fatalf("Process: %+v, %v; want no verdict and context.Canceled", reps, err)
	}
	if rep, err := intake.Status(dir, id); err != nil || rep.Verdict != intake.VerdictWaiting {
		t.Errorf("the submission after the stop: %+v, %v; want it waiting", rep, err)
	}
	if b := l.Roster.State().Bot("mute"); b == nil || len(b.Pending) != 1 {
		t.Errorf("mute in the roster: %+v; want its submission logged, not decided", b)
	}
}
