package output

import (
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/tournament"

	"github.com/arena-dev/arena/internal/words"
)

// Tournament is a tournament's progress text on Progress. Each game with
// a forfeit or a strike, and each bot suspended, gets a line as it
// happens (tournamentEvents); the run's progress line (tournament's
// Progress.Line with the forfeit and strike totals) comes at most once
// a second and after the last game. On a terminal it is a live bar
// instead, the events printed above it. Make one with NewTournament.
type Tournament struct {
	Warnings
	progress io.Writer
	last     time.Time
	// On a terminal:
	term *os.File
	bar  *progressbar.ProgressBar
}

// NewTournament is a tournament's progress text on w, a live bar when w
// is a terminal.
func NewTournament(w io.Writer) *Tournament {
	t := &Tournament{progress: w}
	if f, ok := w.(*os.File); ok && isatty.IsTerminal(f.Fd()) {
		t.term = f
	}
	return t
}

// Game writes the game's events and, when due, the progress line (or
// redraws the bar).
func (t *Tournament) Game(g Game) {
	if t.term != nil {
		t.drawBar(g)
		return
	}
	for _, line := range tournamentEvents(g) {
		fmt.Fprintln(t.progress, line)
	}
	if time.Since(t.last) < time.Second && g.Done != g.Total {
		return
	}
	t.last = time.Now()
	fmt.Fprintln(t.progress, g.Tournament.Line()+forfeitTotals(g.Summary)+strikeTotals(g.Summary))
}

func (t *Tournament) drawBar(g Game) {
	p := g.Tournament
	if t.bar == nil {
		f := t.term
		t.bar = progressbar.NewOptions(p.Total, progressbar.OptionSetWriter(f), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowIts(), progressbar.OptionSetItsString("games"), progressbar.OptionFullWidth(),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(f) }))
	}
	if p.Total < 0 && p.Estimate > 0 {
		t.bar.ChangeMax(p.Estimate) // a bracket: about so many games
	}
	for _, line := range tournamentEvents(g) {
		progressbar.Bprintln(t.bar, line) // above the bar, at its next drawing
	}
	t.bar.Describe(fitBar(p.Headline()+forfeitTotals(g.Summary)+strikeTotals(g.Summary), terminalWidth(t.term)))
	t.bar.Set(p.Done)
}

// End ends the bar's line, so that what follows starts a line of its
// own. The standings are the tournament's own (tournament.Standings).
func (t *Tournament) End(End) error {
	if t.bar != nil && !t.bar.IsFinished() {
		return t.bar.Exit()
	}
	return nil
}

// tournamentEvents are the lines a tournament's progress prints as they
// happen, whatever its throttle: a line for each game with a forfeit or
// a strike (failuresText, as arena match says it; a forfeit of a bot
// that took no part is said once, when it was suspended, not game after
// game), and one for each bot suspended. g is a TournamentGame.
func tournamentEvents(g Game) []string {
	var lines []string
	r := g.Record
	r.Forfeits = slices.DeleteFunc(slices.Clone(r.Forfeits), func(f ledger.SeatFailure) bool { return f.Absent })
	if text := failuresText(r, true); text != "" {
		lines = append(lines, fmt.Sprintf("%s game %s:%s", g.Tournament.Count(), r.GameID, text))
	}
	for _, s := range g.Suspended {
		lines = append(lines, fmt.Sprintf("arena: %s (a resume keeps it out; --readmit %s lets it play again)", s, s.Name))
	}
	return lines
}

// barRoom is what a progress bar line takes beside its description: the
// percentage, a bar of a few cells, the count, the rate and the times
// ("  87% |███| (1234/5000, 12 games/s) [1m30s:10m0s]").
const barRoom = 45

// fitBar shortens a progress bar's description so that the whole line
// fits a terminal of width columns: a line that wraps leaves its first
// half behind at every redraw. What is cut is said above the bar anyway
// (a game's forfeits, in lines of their own).
func fitBar(desc string, width int) string {
	return words.Clip(desc, width-barRoom)
}

// terminalWidth is the width of the terminal f is, 80 if it cannot be
// told.
func terminalWidth(f *os.File) int {
	if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 0 {
		return w
	}
	return 80
}

// Verified is what arena tournament verify says of dir: a line per
// problem, or that every game matched its replay.
func Verified(w io.Writer, dir string, v *tournament.Verified) {
	for _, p := range v.Problems {
		fmt.Fprintln(w, p.Error())
	}
	if len(v.Problems) == 0 {
		fmt.Fprintf(w, "ok %s: %d games, each matching its replay\n", dir, v.Games)
	}
}
