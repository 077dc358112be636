package run_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/internal/proctest"
)

// envBot makes the test binary the bundled random bot: the stdio bots
// of these tests are real processes (os.Args[0]), each bot's carrying a
// token of its own in its environment, so that a test can tell whose
// processes are left (proctest.WithEnv).
const envBot = "ARENA_RUN_TEST_BOT"

func TestMain(m *testing.M) {
	if os.Getenv(envBot) != "" {
		if err := bots.Session("random", bots.Options{}, "1")(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

var botTokens atomic.Int64

// processBot is a random bot run as a process of its own, and the token
// its processes carry.
func processBot(name string) (bot.Spec, string) {
	token := fmt.Sprintf("ARENA_RUN_TEST_TOKEN=%d-%s-%d", os.Getpid(), name, botTokens.Add(1))
	return stdio.Command{Name: name, Argv: []string{os.Args[0]}, Env: append(os.Environ(), envBot+"=1", token)}.Spec(), token
}

// growingSource is a ladder's Source in miniature: bots a and b play;
// after addAfter games it adds c, which plays both; after retireAfter
// games it retires b, and a and c play on; last it seats b once more,
// as a table picked before a retirement would.
type growingSource struct {
	t                     *testing.T
	roster                *run.Roster
	c                     bot.Spec
	addAfter, retireAfter int
	games, concurrency    int
	tokenB                string

	next, counted int
	added         int // c's index, once added (else -1)
	seatedC       int // the seats c was given
	bBefore       int // b's processes just before its retirement
	retired       bool
	bInFlight     int  // tables seating b handed out and not counted
	checkedGone   bool // no process of b was left while the run went on
	seatedRetired bool
}

func (s *growingSource) Next() (run.Table, schedule.Status) {
	if s.next-s.counted >= s.concurrency {
		// Tables chosen from what is known now, as a ladder's are: a
		// run with processes to reuse would otherwise read Lookahead
		// tables ahead of those it starts.
		return run.Table{}, schedule.Wait
	}
	var seats []int
	switch {
	case s.next >= s.games && s.retired && !s.seatedRetired:
		if s.bInFlight > 0 || !s.checkedGone {
			return run.Table{}, schedule.Wait
		}
		s.seatedRetired = true
		seats = []int{1, 0}
	case s.next >= s.games:
		return run.Table{}, schedule.Done
	case s.retired:
		seats = []int{0, s.added}
	case s.added >= 0:
		seats = [][]int{{s.added, 0}, {1, s.added}, {0, 1}}[s.next%3]
	default:
		seats = []int{s.next % 2, 1 - s.next%2}
	}
	i := s.next
	s.next++
	for _, b := range seats {
		switch {
		case b == 1:
			s.bInFlight++
		case b == s.added:
			s.seatedC++
		}
	}
	return run.Table{Game: schedule.Game{Seats: seats}, Index: i, GameID: fmt.Sprintf("r-g%02d", i), Seed: uint64(500 + i)}, schedule.Ready
}

func (s *growingSource) Result(t run.Table, _ ledger.Record) error {
	s.counted++
	for _, b := range t.Seats {
		if b == 1 {
			s.bInFlight--
		}
	}
	switch {
	case s.counted == s.addAfter:
		i, err := s.roster.Add(s.c)
		if err != nil {
			return err
		}
		s.added = i
	case s.counted == s.retireAfter:
		s.bBefore = len(proctest.WithEnv(s.tokenB))
		if err := s.roster.Retire(1); err != nil {
			return err
		}
		s.retired = true
	}
	if s.retired && s.bInFlight == 0 && !s.checkedGone {
		// Every game b was in has ended: none of its processes is left,
		// while the run goes on (a's and c's are kept for their games).
		s.checkedGone = true
		if left := proctest.WithEnv(s.tokenB); len(left) != 0 {
			s.t.Errorf("processes of retired bot b while the run goes on: %v", left)
		}
	}
	return nil
}

// TestRosterGrowsWhileTheRunGoesOn: a bot added to a running run's
// roster takes the next index and is seated in later tables, its
// sessions started by the run's pool; a retired one has no process left
// once its games in progress end, is never started again, and a table
// that still seats it is played without it (a forfeit, Absent).
func TestRosterGrowsWhileTheRunGoesOn(t *testing.T) {
	t.Parallel()
	a, tokenA := processBot("a")
	b, tokenB := processBot("b")
	c, tokenC := processBot("c")
	roster := run.NewRoster([]bot.Spec{a, b})
	const concurrency = 2
	cfg := config(t, nil, concurrency)
	cfg.Bots, cfg.Roster = nil, roster
	src := &growingSource{t: t, roster: roster, c: c, addAfter: 3, retireAfter: 9, games: 14, concurrency: concurrency, tokenB: tokenB, added: -1}
	sink := &memorySink{}
	res, err := run.Run(context.Background(), cfg, src, nil, sink)
	if err != nil {
		t.Fatal(err)
	}
	if res.Done != src.games+1 {
		t.Fatalf("%d games counted, want %d", res.Done, src.games+1)
	}
	if src.added != 2 || roster.Len() != 3 || roster.Name(2) != "c" || !roster.Retired(1) {
		t.Fatalf("roster: c at %d of %d, b retired %v", src.added, roster.Len(), roster.Retired(1))
	}
	if src.bBefore == 0 {
		t.Error("b had no process when it was retired: the test would show nothing")
	}
	if !src.checkedGone {
		t.Error("the run never had b's games all ended")
	}
	playedC := 0
	for _, rec := range sink.lines {
		last := rec.GameID == fmt.Sprintf("r-g%02d", src.games)
		for s, name := range rec.Bots {
			forfeit := slices.IndexFunc(rec.Forfeits, func(f ledger.SeatFailure) bool { return f.Seat == s })
			switch {
			case last && name == "b":
				if forfeit < 0 || !rec.Forfeits[forfeit].Absent || !strings.Contains(rec.Forfeits[forfeit].Detail, "retired") {
					t.Errorf("%s seats retired bot b: forfeits %+v, want b's, absent, retired", rec.GameID, rec.Forfeits)
				}
			case forfeit >= 0:
				t.Errorf("%s: %s forfeited: %+v", rec.GameID, name, rec.Forfeits[forfeit])
			case name == "c":
				playedC++
			}
		}
	}
	if playedC != src.seatedC || playedC <= src.games-src.retireAfter {
		t.Errorf("c played %d seats of the %d it was given: want all, and more than the %d games after b's retirement",
			playedC, src.seatedC, src.games-src.retireAfter)
	}
	for _, tok := range []string{tokenA, tokenB, tokenC} {
		if left := proctest.WithEnv(tok); len(left) != 0 {
			t.Errorf("processes left after the run: %v", left)
		}
	}
}

// recorder is a RosterWatcher that notes what it is told, and refuses
// bots named "refused".
type recorder struct{ told []string }

func (r *recorder) AddBot(i int, spec bot.Spec) error {
	if spec.Name == "refused" {
		return errors.New("no build")
	}
	r.told = append(r.told, fmt.Sprintf("add %d %s", i, spec.Name))
	return nil
}
func (r *recorder) RetireBot(i int) { r.told = append(r.told, fmt.Sprintf("retire %d", i)) }

// TestRosterWatch: a watcher is told of the bots so far and then of each
// change, in index order; a bot a watcher refuses is not added and takes
// no index; indices are never reused; stop ends the watch.
func TestRosterWatch(t *testing.T) {
	r := run.NewRoster([]bot.Spec{{Name: "a"}, {Name: "b"}})
	if err := r.Retire(1); err != nil {
		t.Fatal(err)
	}
	w := &recorder{}
	stop, err := r.Watch(w)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Add(bot.Spec{Name: "refused"}); err == nil {
		t.Error("a refused bot was added")
	}
	if i, err := r.Add(bot.Spec{Name: "c"}); i != 2 || err != nil {
		t.Errorf("Add(c) = %d, %v: want 2", i, err)
	}
	if err := r.Retire(2); err != nil {
		t.Fatal(err)
	}
	if err := r.Retire(2); err != nil { // twice: nothing more
		t.Fatal(err)
	}
	if err := r.Retire(7); err == nil {
		t.Error("Retire of a bot never added: want an error")
	}
	stop()
	if i, _ := r.Add(bot.Spec{Name: "d"}); i != 3 {
		t.Errorf("Add(d) = %d: want 3", i)
	}
	want := []string{"add 0 a", "add 1 b", "retire 1", "add 2 c", "retire 2"}
	if !slices.Equal(w.told, want) {
		t.Errorf("the watcher was told %q, want %q", w.told, want)
	}
	if r.Len() != 4 || !r.Retired(1) || r.Retired(0) || r.Name(3) != "d" {
		t.Errorf("roster: %d bots, retired 0 %v 1 %v, bot 3 %q", r.Len(), r.Retired(0), r.Retired(1), r.Name(3))
	}
	if _, err := run.NewRoster([]bot.Spec{{Name: "refused"}}).Watch(&recorder{}); err == nil {
		t.Error("Watch of a roster with a bot the watcher refuses: want an error")
	}
}
