package output_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/protocol"
)

// Two games of a match between a and b: a wins the first, b forfeits
// the second (crash, its stderr's last line kept).
var (
	won     = ledger.Record{Index: 0, GameID: "m-g0000", Bots: []string{"a", "b"}, Ranks: []int{1, 2}, Plies: 12, Reason: "seat 1 resigned"}
	crashed = ledger.Record{Index: 1, GameID: "m-g0001", Bots: []string{"b", "a"}, Ranks: []int{2, 1}, Plies: 1, Reason: "seat 0 forfeited: crash",
		Forfeits: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 0, Reason: protocol.ReasonCrash, Detail: "exited with status 1"}, Bot: "b", StderrLast: "boom"}}}
)

func summaryOf(recs ...ledger.Record) *match.Summary {
	sum := match.NewSummary([]string{"a", "b"})
	for _, r := range recs {
		sum.Add(r)
	}
	return sum
}

func ExampleMatch() {
	var o output.Output = output.Match{Progress: os.Stdout, Out: os.Stdout}
	o.Game(output.Game{Record: won, Done: 1, Total: 2})
	o.Game(output.Game{Record: crashed, Done: 2, Total: 2})
	// Output:
	// game 1/2 m-g0000: a 1st, b 2nd, 12 plies, seat 1 (b) resigned
	// game 2/2 m-g0001: a 1st, b 2nd, 1 ply, seat 0 (b) forfeited: crash [b forfeited: crash: exited with status 1; its stderr ends with "boom" (--out DIR keeps each bot's whole stderr)]
}

// TestMatch: the games' lines go to Progress, the summary to Out and
// only when a game was played, the warnings to Warnings.
func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		name          string
		end           output.End
		kept          bool
		wantProgress  []string
		wantOut, none []string
	}{
		{"two games", output.End{Summary: summaryOf(won, crashed), Took: 1500 * time.Millisecond}, false,
			[]string{"game 2/2 m-g0001: a 1st, b 2nd, 1 ply", `(--out DIR keeps each bot's whole stderr)`},
			[]string{"│ a   │", "Elo difference a vs b: ", "LOS a vs b: ", "2 games in 1.5s\n"}, []string{"results in"}},
		{"kept", output.End{Summary: summaryOf(won, crashed), Took: time.Second}, true,
			[]string{`its stderr ends with "boom"]`}, []string{"2 games in 1s"}, []string{"--out DIR"}},
		{"no game", output.End{Summary: summaryOf()}, false, nil, nil, []string{"games"}},
		{"a failed run", output.End{}, false, nil, nil, []string{"games"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var progress, out, warn strings.Builder
			o := output.Match{Warnings: output.Warnings{W: &warn}, Progress: &progress, Out: &out, Kept: tc.kept}
			if tc.end.Summary != nil {
				for i, r := range []ledger.Record{won, crashed}[:tc.end.Summary.Games] {
					o.Game(output.Game{Record: r, Done: i + 1, Total: 2})
				}
			}
			o.Warn("careful")
			if err := o.End(tc.end); err != nil {
				t.Fatal(err)
			}
			if warn.String() != "arena: warning: careful\n" {
				t.Errorf("warnings %q", warn.String())
			}
			has(t, "progress", progress.String(), tc.wantProgress, tc.none)
			has(t, "out", out.String(), tc.wantOut, tc.none)
		})
	}
}

// has checks that text holds each of want and none of not.
func has(t *testing.T, what, text string, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: no %q in:\n%s", what, w, text)
		}
	}
	for _, n := range not {
		if strings.Contains(text, n) {
			t.Errorf("%s: %q in:\n%s", what, n, text)
		}
	}
}

// TestJSON: the end summary as one indented JSON object, the games as
// the Output wrapped says them; nothing for a run that played none.
func TestJSON(t *testing.T) {
	var progress, out strings.Builder
	o := output.JSON{Output: output.Match{Progress: &progress, Out: &out}, W: &out}
	o.Game(output.Game{Record: won, Total: 1})
	if err := o.End(output.End{Summary: summaryOf()}); err != nil || out.Len() != 0 {
		t.Fatalf("no game: %q, %v", out.String(), err)
	}
	sum := summaryOf(won)
	if err := o.End(output.End{Summary: sum, Took: time.Second}); err != nil {
		t.Fatal(err)
	}
	want, _ := json.MarshalIndent(sum, "", "  ")
	if out.String() != string(want)+"\n" {
		t.Errorf("JSON %q, want %q", out.String(), want)
	}
	if !strings.HasPrefix(progress.String(), "game 1/1 m-g0000: ") {
		t.Errorf("progress %q", progress.String())
	}
	out.Reset()
	s := &sprt.Summary{Test: "new", Base: "old"}
	if err := o.End(output.End{Summary: sum, SPRT: s}); err != nil {
		t.Fatal(err)
	}
	want, _ = json.MarshalIndent(s, "", "  ")
	if out.String() != string(want)+"\n" {
		t.Errorf("an SPRT's JSON %q, want %q", out.String(), want)
	}
}

// TestDiscard: the quiet Output says nothing and fails at nothing.
func TestDiscard(t *testing.T) {
	var o output.Output = output.Discard{}
	o.Game(output.Game{Record: won})
	o.Warn("x")
	if err := o.End(output.End{Summary: summaryOf(won)}); err != nil {
		t.Fatal(err)
	}
}

// TestSPRT: a status line after the first counted pair, then at most one
// a second; the last status unless it was the last line; the summary
// text at the end.
func TestSPRT(t *testing.T) {
	st := func(games int) *sprt.Status { return &sprt.Status{Paired: true, Pairs: games / 2, Games: games} }
	for _, tc := range []struct {
		name  string
		games []output.Game
		lines int
	}{
		{"thinned out", []output.Game{{SPRT: st(2)}, {SPRT: st(4)}, {SPRT: st(6)}}, 1},
		{"the last status", []output.Game{{SPRT: st(2)}, {SPRT: st(4)}, {SPRT: st(4), Final: true}}, 2},
		{"said already", []output.Game{{SPRT: st(2)}, {SPRT: st(2), Final: true}}, 1},
		{"nothing counted", []output.Game{{Record: won}, {SPRT: st(0), Final: true}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var progress strings.Builder
			o := output.NewSPRT(&progress, nil)
			for _, g := range tc.games {
				o.Game(g)
			}
			lines := strings.Count(progress.String(), "\n")
			if lines != tc.lines || (lines > 0 && !strings.HasPrefix(progress.String(), "pairs 1 [0 0 0 0 0] LLR ")) {
				t.Errorf("%d lines, want %d:\n%s", lines, tc.lines, progress.String())
			}
		})
	}
	var out strings.Builder
	s := &sprt.Summary{Test: "new", Base: "old", Verdict: sprt.H1}
	if err := output.NewSPRT(nil, &out).End(output.End{SPRT: s}); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := s.Text(&want); err != nil || out.String() != want.String() {
		t.Errorf("summary %q, want %q (%v)", out.String(), want.String(), err)
	}
}

// TestTournament: a game with a forfeit or a strike gets its line, a
// forfeit of a bot that takes no part does not, a suspension gets one;
// the progress line comes for the first game and the last, with the
// forfeit totals.
func TestTournament(t *testing.T) {
	absent := ledger.Record{GameID: "t-g2", Bots: []string{"a", "b"}, Ranks: []int{1, 2}, Reason: "seat 1 forfeited: crash",
		Forfeits: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: protocol.ReasonCrash, Detail: "suspended"}, Bot: "b", Absent: true}}}
	sum := summaryOf(won)
	progress := func(done int, last ledger.Record, s ...run.Suspension) tournament.Progress {
		sum.Add(last)
		return tournament.Progress{Done: done, Total: 3, Elapsed: time.Second, Last: last, Summary: sum, Suspended: s}
	}
	var w strings.Builder
	o := output.NewTournament(&w)
	o.Game(output.TournamentGame(progress(1, won)))
	o.Game(output.TournamentGame(progress(2, crashed, run.Suspension{Name: "b", Why: "suspended after 1 startup failure"})))
	o.Game(output.TournamentGame(progress(3, absent)))
	if err := o.End(output.End{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	want := []string{
		"[1/3] 1.0 games/s, ETA 2s, leader a (100%), last m-g0000: seat 1 (b) resigned",
		`[2/3] game m-g0001: [b forfeited: crash: exited with status 1; its stderr ends with "boom"]`,
		"arena: bot b suspended after 1 startup failure: its remaining games are forfeits, recorded without starting it (a resume keeps it out; --readmit b lets it play again)",
		"[3/3] 3.0 games/s, ETA 0s, leader a (100%), last t-g2: seat 1 (b) forfeited: crash (forfeits: b 2)",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// person records what a Play shows.
type person struct{ shown []string }

func (p *person) GameOver(id string, lines []string) {
	p.shown = append(p.shown, "over "+id+": "+strings.Join(lines, " | "))
}
func (p *person) Say(lines []string) { p.shown = append(p.shown, strings.Join(lines, " | ")) }

// TestPlay: each game's end in sentences, the outcome after more than
// one game only.
func TestPlay(t *testing.T) {
	left := ledger.Record{Index: 1, GameID: "p-g1", Bots: []string{"b", "a"}, Ranks: []int{1, 2}, Reason: "seat 1 forfeited: left",
		Forfeits: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: protocol.ReasonLeft, Detail: "typed q"}, Bot: "a"}}}
	for _, tc := range []struct {
		name  string
		games []ledger.Record
		want  []string
	}{
		{"one game", []ledger.Record{won}, []string{"over m-g0000: === Game over: a won. Seat 1 (b) resigned."}},
		{"the person left the second", []ledger.Record{won, left}, []string{
			"over m-g0000: === Game 1 of 2 over: a won. Seat 1 (b) resigned.",
			"over p-g1: === Game 2 of 2 over: b won.",
			"=== After 2 games: | a: 1 win, 0 draws and 1 loss (1 forfeit). | b: 1 win, 0 draws and 1 loss. | " +
				"Elo difference a vs b: +0.0 (1 game pair: too few for an interval) | " +
				"LOS a vs b: 50.0% (the chance that the stronger is a, from the decisive games: 1 won, 1 lost; draws do not count)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &person{}
			o := output.Play{Person: p, Name: "a"}
			for _, r := range tc.games {
				o.Game(output.Game{Record: r, Total: len(tc.games)})
			}
			if err := o.End(output.End{Summary: summaryOf(tc.games...)}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.shown, tc.want) {
				t.Errorf("shown\n%q\nwant\n%q", p.shown, tc.want)
			}
		})
	}
}

// TestEventLine: what arena connect says of each event.
func TestEventLine(t *testing.T) {
	hello := protocol.Hello{GameID: "g1", Seat: 1, Players: []string{"near", "far"}}
	for _, tc := range []struct {
		e    remote.Event
		want string
	}{
		{remote.Event{Kind: remote.SessionStarted, Session: 2, Running: 2}, "session 2 started (2 running)"},
		{remote.Event{Kind: remote.GameEnded, Session: 2, Running: 2, Game: &remote.Game{Hello: hello, End: &protocol.End{GameID: "g1", Ranks: []int{2, 1}, Reason: "all captured"}}},
			"session 2: game g1 as far (seat 1): 1st of 2 (far 1st, near 2nd), all captured"},
		{remote.Event{Kind: remote.GameEnded, Session: 2, Game: &remote.Game{Hello: hello, End: &protocol.End{GameID: "g1", Ranks: []int{1}, Reason: "odd"}}},
			"session 2: game g1 ended: odd"},
		{remote.Event{Kind: remote.SessionEnded, Session: 2, Running: 1, Why: "bye"}, "session 2 ended: bye (1 running)"},
		{remote.Event{Kind: remote.SessionEnded, Session: 3, Game: &remote.Game{Hello: hello}, Why: "closed"},
			"session 3 ended in game g1, before its end (the bot forfeited it, or the run stopped): closed (0 running)"},
	} {
		if got := output.EventLine(tc.e); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", fmt.Sprint(tc.e.Kind), got, tc.want)
		}
	}
}
