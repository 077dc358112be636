package tournament

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/protocol"
)

// startLogged is the command of a bot that writes a line to a log file
// each time it is started, then runs cmd (exec, so that closing the bot
// ends cmd); starts counts those lines.
func startLogged(t *testing.T, name, cmd string) (command string, starts func() int) {
	t.Helper()
	dir := t.TempDir()
	log := filepath.Join(dir, name+".starts")
	script := filepath.Join(dir, name+".sh")
	body := fmt.Sprintf("#!/bin/sh\necho started >> '%s'\nexec %s\n", log, cmd)
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, func() int {
		b, _ := os.ReadFile(log)
		return bytes.Count(b, []byte("\n"))
	}
}

// rosterFile is a tournament of three of this test binary's random bots
// (the caller adds more), rounds cycles (or Swiss rounds), gpe games an
// encounter, one game at a time, with a startup limit short enough for
// a bot that never says ready to cost little, and long enough for a
// loaded machine to start a bot, and a sleeper to write its line, well
// within it.
func rosterFile(format string, rounds, gpe int) File {
	seed := uint64(5)
	f := File{Name: "sus", Game: "banqi", Format: format, Options: map[string]string{"max_plies": "12"}, GamesPerEncounter: gpe,
		Rounds: rounds, Settings: options.Settings{Seed: &seed, Concurrency: 1, Clock: options.Clock{Startup: options.Duration(time.Second)}}}
	for i := range 3 {
		f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("r%d", i), Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": "random"}})
	}
	return f
}

// settled resolves f for a run into out as arena tournament run does
// (Plan.Settle: who plays is taken from the saved tournament), with
// bots to withdraw and readmit.
func settled(t *testing.T, f File, out string, withdraw, readmit []string) (*Config, *Plan) {
	t.Helper()
	p := &Plan{File: f, Src: "test", BaseDir: ".", Out: out, Withdraw: withdraw, Readmit: readmit}
	if err := p.Settle(false); err != nil {
		t.Fatal(err)
	}
	c := resolve(t, p.File)
	c.Secret = testSecret
	return c, p
}

// runUntil runs c into out until stop says so (nil: to the end).
func runUntil(t *testing.T, c *Config, out string, stop func(Progress) bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Run(ctx, c, out, Options{OnGame: func(p Progress) {
		if stop != nil && stop(p) {
			cancel()
		}
	}})
	if err != nil && !(stop != nil && errors.Is(err, ErrInterrupted)) {
		t.Fatal(err)
	}
}

// gamesOf are the recorded games of bot in out's ledger, and of them
// those it forfeited with a detail that contains why.
func gamesOf(t *testing.T, out, bot, why string) (games, forfeited int) {
	t.Helper()
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		for s, b := range r.Bots {
			if b != bot {
				continue
			}
			games++
			for _, f := range r.Forfeits {
				if f.Seat == s && f.Reason == protocol.ReasonStartup && strings.Contains(f.Detail, why) {
					forfeited++
				}
			}
		}
	}
	return games, forfeited
}

// TestNeverReadyBotIsSuspended: a bot that never says ready (it sleeps)
// fails to start in three games in a row and is suspended: the rest of
// its games are recorded as forfeits saying so without it being started
// again, a resume keeps it suspended (it is in tournament.json), and
// --readmit lets it try again (and fail three more times).
func TestNeverReadyBotIsSuspended(t *testing.T) {
	t.Parallel()
	sleeper, starts := startLogged(t, "sleeper", "sleep 60")
	f := rosterFile("round-robin", 2, 2)
	f.Bots = append(f.Bots, BotFile{Name: "sleeper", Command: sleeper})
	out := t.TempDir()
	const suspended = "suspended after 3 startup failures in a row"

	// The first run stops at the game that suspends it.
	c, _ := settled(t, f, out, nil, nil)
	// (The others may fail to start too on a loaded machine: only the
	// sleeper is looked at.)
	var said []run.Suspension
	runUntil(t, c, out, func(p Progress) bool {
		for _, s := range p.Suspended {
			if s.Name == "sleeper" {
				said = append(said, s)
			}
		}
		return len(said) > 0
	})
	if n := starts(); n != 3 {
		t.Fatalf("the sleeper was started %d times before its suspension, want 3", n)
	}
	if len(said) != 1 || !strings.Contains(said[0].Why, suspended) {
		t.Fatalf("progress told of suspensions %+v, want the sleeper's", said)
	}
	saved, err := LoadSaved(out)
	if err != nil || !strings.Contains(saved.Suspended["sleeper"], suspended) {
		t.Fatalf("tournament.json: suspended %v (%v), want the sleeper", saved.Suspended, err)
	}

	// A resume from the same file keeps it out: two more of its games are
	// recorded as forfeits without starting it.
	c, _ = settled(t, f, out, nil, nil)
	before, _ := gamesOf(t, out, "sleeper", "")
	runUntil(t, c, out, func(Progress) bool {
		n, _ := gamesOf(t, out, "sleeper", "")
		return n >= before+2
	})
	if n := starts(); n != 3 {
		t.Fatalf("the resumed run started the suspended sleeper: %d starts, want 3", n)
	}
	games, forfeits := gamesOf(t, out, "sleeper", suspended)
	if games < before+2 || forfeits != games-3 {
		t.Fatalf("the sleeper has %d games recorded, %d of them forfeits as suspended; want every game after its third", games, forfeits)
	}

	// Readmitted, it is started again, and suspended again after three
	// more games; the tournament ends with every game recorded.
	c, p := settled(t, f, out, nil, []string{"sleeper"})
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "bot sleeper readmitted") {
		t.Fatalf("notes %q, want the readmission", p.Notes)
	}
	runUntil(t, c, out, nil)
	if n := starts(); n != 6 {
		t.Fatalf("the readmitted sleeper was started %d times in all, want 3 + 3", n)
	}
	games, _ = gamesOf(t, out, "sleeper", "")
	if sched, _ := c.NewScheduler(); games != 12 || sched.Total() != 24 {
		t.Fatalf("the sleeper has %d games of %d recorded, want 12", games, sched.Total())
	}
	checkVerifies(t, out)
	st, err := ReadStandings(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Standings {
		if r.Name == "sleeper" && (!strings.Contains(r.Withdrawn, suspended) || r.Forfeits != 12) {
			t.Errorf("standings row %s: withdrawn %q, %d forfeits", r.Name, r.Withdrawn, r.Forfeits)
		}
	}
	var table strings.Builder
	st.Table(&table)
	if !strings.Contains(table.String(), "sleeper plays no more: "+suspended) {
		t.Errorf("the standings table does not say the sleeper is suspended:\n%s", table.String())
	}
}

// checkVerifies fails the test unless out verifies: every game, those
// decided without starting a bot included, matches its replay.
func checkVerifies(t *testing.T, out string) {
	t.Helper()
	v, err := Verify(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range v.Problems {
		t.Errorf("verify: %v", p)
	}
}

// TestWithdrawnBotForfeitsWhatIsLeft: an organiser removes a bot from a
// tournament's file while it runs and resumes; the bot is withdrawn
// (saved, not sealed), never started again, and each format goes on to
// its end with the bot's remaining games recorded as its forfeits: a
// round-robin's, a Swiss's, an elimination bracket's (which the others
// then win by forfeit).
func TestWithdrawnBotForfeitsWhatIsLeft(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"round-robin", "swiss", "single-elimination"} {
		t.Run(format, func(t *testing.T) {
			t.Parallel()
			quitter, starts := startLogged(t, "quitter", os.Args[0])
			// 4 games an encounter: one stopped after the bot's first game
			// has games left to play in every format.
			f := rosterFile(format, 3, 4)
			if format == "single-elimination" {
				f.MaxGames = 6 // the random bots draw at the ply cap: ties would extend an encounter for ever
			}
			f.Bots = append(f.Bots, BotFile{Name: "quitter", Command: quitter, Env: map[string]string{"ARENA_TOURNAMENT_BOT": "random"}})
			out := t.TempDir()
			c, _ := settled(t, f, out, nil, nil)
			runUntil(t, c, out, func(p Progress) bool { return slices.Contains(p.Last.Bots, "quitter") })
			played, _ := gamesOf(t, out, "quitter", "")
			before := starts()

			// Removed from the file: the resume withdraws it.
			edited := f
			edited.Bots = f.Bots[:3]
			c, p := settled(t, edited, out, nil, nil)
			if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "bot quitter removed from the tournament's bots: withdrawn") {
				t.Fatalf("notes %q, want the withdrawal", p.Notes)
			}
			runUntil(t, c, out, nil)
			if n := starts(); n != before {
				t.Fatalf("the withdrawn bot was started %d more times", n-before)
			}
			games, forfeits := gamesOf(t, out, "quitter", WithdrawnWhy)
			if games-played != forfeits || forfeits == 0 {
				t.Fatalf("quitter: %d games before, %d after, %d of them forfeits as withdrawn; want every game after", played, games, forfeits)
			}
			saved, err := LoadSaved(out)
			if err != nil || len(saved.Withdrawn) != 1 || len(saved.Bots) != 4 {
				t.Fatalf("tournament.json: %d bots, withdrawn %v (%v); want the 4 bots, quitter withdrawn", len(saved.Bots), saved.Withdrawn, err)
			}
			checkVerifies(t, out)
			st, err := ReadStandings(out)
			if err != nil {
				t.Fatal(err)
			}
			if st.Games != st.Total && st.Total >= 0 {
				t.Fatalf("%d of %d games recorded", st.Games, st.Total)
			}
			for _, r := range st.Standings {
				if (r.Name == "quitter") != (r.Withdrawn == WithdrawnWhy) {
					t.Errorf("standings row %s: withdrawn %q", r.Name, r.Withdrawn)
				}
			}
		})
	}
}

// TestBotListChangesAreNamed: a tournament begun with one bot list and
// resumed with another that is not the same list less some bots is
// refused, the message naming what changed in a few words rather than
// both lists.
func TestBotListChangesAreNamed(t *testing.T) {
	t.Parallel()
	base := []BotFile{{Name: "a", Command: "./a"}, {Name: "b", Command: "./b"}, {Name: "sleeper", Command: "./s"}}
	for _, tc := range []struct {
		name string
		now  []BotFile
		want string
	}{
		{"removed", base[:2], "bot sleeper removed"},
		{"command changed", []BotFile{base[0], {Name: "b", Command: "./b2"}, base[2]}, `bot b's command changed ("./b" there, "./b2" now)`},
		{"added", append(append([]BotFile{}, base...), BotFile{Name: "new", Command: "./n"}), "bot new added"},
		{"env changed", []BotFile{base[0], base[1], {Name: "sleeper", Command: "./s", Env: map[string]string{"K": "secret"}}}, "bot sleeper's env changed"},
		{"reordered", []BotFile{base[1], base[0], base[2]}, "the bots' order changed (the schedule follows it)"},
		{"removed and changed", []BotFile{{Name: "a", Command: "./a2"}, base[1]}, `bot a's command changed ("./a" there, "./a2" now); bot sleeper removed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := botsDiff(base, tc.now)
			if got != tc.want {
				t.Errorf("botsDiff: %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "secret") {
				t.Errorf("botsDiff shows an env value: %q", got)
			}
		})
	}

	// Through a resume: the refusal is a line, not two lists of bots.
	seed := uint64(3)
	f := File{Name: "d", Game: "banqi", Options: map[string]string{"max_plies": "4"}, Settings: options.Settings{Seed: &seed, Concurrency: 1}}
	for i := range 30 {
		f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("bot%02d", i), Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": "random"}})
	}
	out := t.TempDir()
	c := resolve(t, f)
	if err := saveConfig(c, out); err != nil {
		t.Fatal(err)
	}
	f.Bots[7].Env = map[string]string{"ARENA_TOURNAMENT_BOT": "greedy"}
	_, err := Run(context.Background(), resolve(t, f), out, Options{})
	if err == nil || !strings.Contains(err.Error(), "bot bot07's env changed") || len(err.Error()) > 400 {
		t.Fatalf("resume with a bot changed: %v, want a short message naming bot07's env", err)
	}
}

// TestEmptyEnvIsNoEnv: a bot written with "env: {}" in the tournament
// file is the bot saved without env (tournament.json leaves an empty env
// out): a resume from that file keeps a suspended bot out, and a refusal
// names the field that did change rather than the bots.
func TestEmptyEnvIsNoEnv(t *testing.T) {
	t.Parallel()
	f := rosterFile("round-robin", 1, 2)
	f.Bots = append(f.Bots, BotFile{Name: "s", Command: os.Args[0]})
	out := t.TempDir()
	c, _ := settled(t, f, out, nil, nil)
	if err := c.suspend(run.Suspension{Bot: 3, Name: "s", Why: "suspended after a startup failure (x)"}, out); err != nil {
		t.Fatal(err)
	}
	edited := f
	edited.Bots = slices.Clone(f.Bots)
	edited.Bots[3].Env = map[string]string{}
	p := &Plan{File: edited, Src: "test", BaseDir: ".", Out: out}
	if err := p.Settle(false); err != nil {
		t.Fatal(err)
	}
	if _, ok := p.File.Suspended["s"]; !ok {
		t.Errorf("resumed with env {}: suspended %v, want s kept out", p.File.Suspended)
	}
	if got := botsDiff(f.Bots, edited.Bots); got != "" {
		t.Errorf("botsDiff of an empty env and none: %q, want none", got)
	}
	seed := uint64(99)
	edited.Seed = &seed
	if got := diffField(sealed(f), sealed(edited)); !strings.Contains(got, `"seed" differs`) {
		t.Errorf("a seed changed (and an empty env): %q, want the seed named", got)
	}
}

// TestSuspendedSeatAtATable: at a 4-seat table a suspended bot's seat
// forfeits without the bot being started, and the three others play the
// game out (the referee moving for the empty seat) rather than winning
// it by forfeit; failure.max_startup_failures sets how soon.
func TestSuspendedSeatAtATable(t *testing.T) {
	t.Parallel()
	sleeper, starts := startLogged(t, "sleeper", "sleep 60")
	f := rosterFile("round-robin", 1, 4)
	f.Game, f.Seats, f.Options = "uno", 4, map[string]string{"target": "0"}
	one := 1
	f.Failure.MaxStartupFailures = &one
	f.Bots = append(f.Bots, BotFile{Name: "sleeper", Command: sleeper})
	out := t.TempDir()
	c, _ := settled(t, f, out, nil, nil)
	runUntil(t, c, out, nil)
	if n := starts(); n != 1 {
		t.Fatalf("the sleeper was started %d times, want 1", n)
	}
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if err != nil || len(recs) != 4 {
		t.Fatalf("%d games recorded (%v), want 4", len(recs), err)
	}
	for _, r := range recs[1:] {
		i := slices.IndexFunc(r.Forfeits, func(f ledger.SeatFailure) bool { return f.Bot == "sleeper" })
		if i < 0 || !strings.HasPrefix(r.Forfeits[i].Detail, "suspended after a startup failure") {
			t.Errorf("game %s: forfeits %+v, want the suspended sleeper's", r.GameID, r.Forfeits)
		}
		// (Another bot may fail to start on a loaded machine: then the
		// game may be over sooner.)
		if len(r.Forfeits) == 1 && r.Plies == 0 {
			t.Errorf("game %s: 0 plies: the three others did not play", r.GameID)
		}
	}
	checkVerifies(t, out)
}
