package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/intake"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/words"
)

// LadderGame is a ladder's progress line for a game it counted: the
// game's number in the ledger (a ladder has no total), its id, the
// places, plies and how it ended, its forfeits and strikes (as
// GameLine says them; the ladder keeps every log), and each bot's
// rating after it, as rating tells it (the ladder's mu - 3 sigma):
//
//	game 12 cup-t000006-g2: greedy.v1 1st, me.v1 2nd, 54 plies, all 16 red pieces captured; ratings greedy.v1 3.2, me.v1 -1.5
func LadderGame(r ledger.Record, rating func(version string) float64) string {
	ratings := make([]string, len(r.Bots))
	for i, b := range r.Bots {
		ratings[i] = fmt.Sprintf("%s %.1f", b, rating(b))
	}
	return fmt.Sprintf("game %d %s: %s, %s, %s%s; ratings %s", r.Index+1, r.GameID, PlacesText(r.Bots, r.Ranks),
		words.Count(r.Plies, "ply", "plies"), engine.NameSeats(r.Reason, r.Bots), failuresText(r, true), strings.Join(ratings, ", "))
}

// SubmissionReport writes a submission's verdict, then its report.
func SubmissionReport(w io.Writer, rep intake.Report) {
	switch rep.Verdict {
	case intake.VerdictAdmitted:
		fmt.Fprintf(w, "submission %s: admitted as %s (build %s)\n", rep.ID, ladder.VersionName(rep.Bot, rep.Version), rep.Build)
	case intake.VerdictWaiting:
		fmt.Fprintf(w, "submission %s: waiting for the ladder's run to judge it\n", rep.ID)
	case intake.VerdictWithdrawn:
		fmt.Fprintf(w, "request %s: %s withdrawn\n", rep.ID, rep.Bot)
	default:
		fmt.Fprintf(w, "submission %s: %s %s\n", rep.ID, rep.Bot, rep.Verdict)
	}
	if rep.Text != "" {
		fmt.Fprintln(w, rep.Text)
	}
}

// LadderStandings prints a ladder's standings, a version a row.
func LadderStandings(w io.Writer, st *ladder.Standings) error {
	fmt.Fprintf(w, "%s: %s ladder, %s seats, %s\n", st.Name, st.Game, st.Seats, words.Count(st.Games, "game", "games"))
	cross := map[string]string{"bradley-terry": "BT Elo", "plackett-luce": "PL ordinal"}[st.CrossCheck]
	t := tablewriter.NewWriter(w)
	t.Header("rank", "version", "status", "rating", "interval", "games", cross)
	for _, r := range st.Rows {
		rank, status, check := "-", r.Status, ""
		if r.Rank > 0 {
			rank = fmt.Sprint(r.Rank)
		}
		if r.Reason != "" {
			status += ": " + r.Reason
		}
		if r.CrossCheck != nil {
			check = fmt.Sprintf("%+.1f", *r.CrossCheck)
		}
		t.Append(rank, r.Version, status, fmt.Sprintf("%.1f", r.Rating), fmt.Sprintf("[%.1f, %.1f]", r.Low, r.High), r.Games, check)
	}
	if err := t.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%s\n", strings.Join(words.Wrap("rating: mu - 3 sigma of the Weng-Lin (Plackett-Luce) skill, a cautious figure that rises with games; "+
		"interval: mu -+ 3 sigma, where the skill is (99.7 %), the rating its low end; rank: among the active versions. "+cross+": the rating arena tournament standings would give the same games, a cross-check.", 80, ""), "\n"))
	return err
}

// LadderStart is a ladder run's first line: the ladder, its bots and
// games so far, and how to stop it.
func LadderStart(w io.Writer, st *ladder.Standings) {
	fmt.Fprintf(w, "arena: ladder %s: %s, %s seats, %s active, %s recorded; stop with Ctrl-C or SIGTERM (a run resumes where it stopped)\n",
		st.Name, st.Game, st.Seats, words.Count(st.Active(), "bot", "bots"), words.Count(st.Games, "game", "games"))
}

// LadderStopped says how the run of ladder name in dir ended: a final's
// verdict, then why it stopped (cause, the signal, for a run
// interrupted), its games and how to resume it.
func LadderStopped(w io.Writer, name, dir string, cause error, res *ladder.Result) {
	why := any(res.Ending) // a final that ended by itself
	if res.Ending == ladder.Interrupted {
		why = cause
	} else {
		fmt.Fprintf(w, "arena: final %s: %v\n", res.Ending, res.Verdict)
	}
	cut := ""
	if res.Abandoned > 0 {
		cut = fmt.Sprintf(" (%s cut short, played again by the next run)", words.Count(res.Abandoned, "game", "games"))
	}
	fmt.Fprintf(w, "arena: ladder %s stopped (%v) after %s this run (%d in all); every finished game is recorded%s; resume with: arena ladder run %s\n",
		name, why, words.Count(res.Played, "game", "games"), res.Resumed+res.Played, cut, words.ShellQuote(dir))
}

// IntakeLine is a ladder run's line for a request its intake decided:
//
//	arena: py.v2 admitted (submission ID)
//	arena: py refused (submission ID): FAIL no-crash: ... (the report's first failure)
//	arena: py withdrawn (request ID)
func IntakeLine(rep intake.Report) string {
	switch rep.Verdict {
	case intake.VerdictAdmitted:
		return fmt.Sprintf("arena: %s admitted (submission %s)", ladder.VersionName(rep.Bot, rep.Version), rep.ID)
	case intake.VerdictWithdrawn:
		return fmt.Sprintf("arena: %s withdrawn (request %s)", rep.Bot, rep.ID)
	}
	first, _, _ := strings.Cut(rep.Text, "\n") // the check's first failure, or why it was not judged
	for _, line := range strings.Split(rep.Text, "\n") {
		if strings.HasPrefix(line, "FAIL") {
			first = line
			break
		}
	}
	if rep.Bot == "" {
		rep.Bot = "a submission"
	}
	return fmt.Sprintf("arena: %s %s (submission %s): %s", rep.Bot, rep.Verdict, rep.ID, first)
}
