package report_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/report"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/sprt"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/bots"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/banqi"
	_ "github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// envBot makes this test binary a bot: a bundled one (random, greedy),
// or "striker", a random bot that names an illegal action every
// strikeEvery turns (a strike under the random policy, a forfeit at the
// last strike).
const envBot = "ARENA_REPORT_BOT"

const strikeEvery = 7

func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // the bots' wrapper is this test binary
	if name := os.Getenv(envBot); name != "" {
		var b sdk.Bot
		if name == "striker" {
			random, _ := bots.New("random")
			b = &striker{Bot: random}
		} else {
			var err error
			if b, err = bots.New(name); err != nil {
				os.Exit(3)
			}
		}
		if err := sdk.Run(os.Stdin, os.Stdout, b, sdk.Options{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type striker struct {
	sdk.Bot
	turns int
}

func (s *striker) Act(t *protocol.Turn) (int, error) {
	if s.turns++; s.turns%strikeEvery == 0 {
		return len(t.Legal), nil // out of range: illegal
	}
	return s.Bot.Act(t)
}

// botFile is a tournament bot played by this binary as kind, or, for
// kind "false", a command that exits at once (a forfeit every game).
func botFile(name, kind string) tournament.BotFile {
	if kind == "false" {
		return tournament.BotFile{Name: name, Command: "false"}
	}
	return tournament.BotFile{Name: name, Command: os.Args[0], Env: map[string]string{envBot: kind}}
}

// runTournament plays a real tournament of f into a new directory (of
// banqi, 120 plies at most, unless f names its game).
func runTournament(t *testing.T, f tournament.File) string {
	t.Helper()
	seed := uint64(11)
	f.Seed = &seed
	if f.Game == "" {
		f.Game, f.Options = "banqi", map[string]string{"max_plies": "120"}
	}
	if f.GamesPerEncounter == 0 {
		f.GamesPerEncounter = 2
	}
	f.Concurrency = 2
	c, err := f.Resolve("test", ".")
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := tournament.Run(context.Background(), c, out, tournament.Options{}); err != nil {
		t.Fatal(err)
	}
	return out
}

func setup(t *testing.T, seats int) (engine.Game, engine.Options) {
	t.Helper()
	g, err := engine.Lookup("banqi")
	if err != nil {
		t.Fatal(err)
	}
	opts, err := engine.Setup(g, seats, map[string]string{"max_plies": "120"})
	if err != nil {
		t.Fatal(err)
	}
	return g, opts
}

func command(name, kind string) stdio.Command {
	return stdio.Command{Name: name, Argv: []string{os.Args[0]}, Env: append(os.Environ(), envBot+"="+kind)}
}

// runMatch plays a real match of games games into a new directory.
func runMatch(t *testing.T, games int) string {
	t.Helper()
	g, opts := setup(t, 2)
	out := t.TempDir()
	_, err := match.Run(context.Background(), match.Config{Game: g, Options: opts, Games: games, Seed: 5, OutDir: out},
		[]bot.Spec{command("greedy", "greedy").Spec(), command("random", "random").Spec()})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runSPRT plays a real SPRT of greedy (test) against random (base) into
// a new directory and writes its sprt.json as arena sprt does.
func runSPRT(t *testing.T) (string, *sprt.Summary) {
	t.Helper()
	g, opts := setup(t, 2)
	out := t.TempDir()
	cfg := sprt.Config{Game: g, Options: opts, Test: command("new", "greedy").Spec(), Base: command("old", "random").Spec(),
		SPRT: stats.SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, MaxGames: 200, Concurrency: 2, Paired: true,
		Seed: 3, OutDir: out, Settings: run.Settings{}}
	res, err := sprt.Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := sprt.NewSummary(&cfg, res)
	if err := sprt.WriteSummary(out, sum); err != nil {
		t.Fatal(err)
	}
	return out, sum
}

// syntheticRoundRobin writes a round-robin directory of n bots (one game
// pair per encounter) whose games were not played: results drawn at
// random, in the schedule's own seats and ids, so tournament.Open reads
// it as a real run's. For sizes no test can play.
func syntheticRoundRobin(t testing.TB, n int) string {
	t.Helper()
	seed := uint64(1)
	f := tournament.File{Name: "big", Game: "banqi", GamesPerEncounter: 2, Settings: options.Settings{Seed: &seed}}
	for i := range n {
		f.Bots = append(f.Bots, tournament.BotFile{Name: fmt.Sprintf("bot%03d", i), Command: "true"})
	}
	rng := rand.New(rand.NewPCG(1, 2))
	return syntheticTournament(t, f, func(seats []int) bool {
		// The lower-numbered bot wins 60% of the time: a gradient to see.
		return (seats[0] < seats[1]) != (rng.Float64() < 0.4)
	})
}

// syntheticTournament writes the directory of the 2-seat tournament f
// whose games were not played: seat 0 of each game the schedule hands
// out wins if first says so (seats are bot indexes), in the schedule's
// own seats and ids, so tournament.Open reads it as a real run's.
func syntheticTournament(t testing.TB, f tournament.File, first func(seats []int) bool) string {
	t.Helper()
	c, err := f.Resolve("test", ".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data, err := json.Marshal(c.File)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, tournament.SavedConfig), data, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := c.NewScheduler()
	if err != nil {
		t.Fatal(err)
	}
	w, err := ledger.Open(filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for i := 0; ; i++ {
		g, st := s.Next()
		if st != schedule.Ready {
			break
		}
		rec := ledger.Record{Index: i, GameID: c.Name + "-" + g.ID, Round: g.Round, Reason: "checkmate", Plies: 40}
		for _, b := range g.Seats {
			rec.Bots = append(rec.Bots, c.Bots[b].Name)
		}
		rec.Ranks = []int{1, 2}
		if !first(g.Seats) {
			rec.Ranks = []int{2, 1}
		}
		if err := w.AppendUnsynced(rec); err != nil {
			t.Fatal(err)
		}
		s.Result(g, rec.Ranks)
	}
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeLedger writes records as dir's results.jsonl (a match directory
// written by hand).
func writeLedger(t *testing.T, dir string, records []ledger.Record) {
	t.Helper()
	w, err := ledger.Open(filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, r := range records {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
}

// reportDuringSPRT plays a real SPRT of two random bots (no bound is
// near for many pairs) into a new directory and, once pairs pairs are
// counted, writes the directory's report while the run plays on; then it
// stops the run (as a kill would, before any verdict is written). It
// returns the directory, the run's config and its status at the report.
func reportDuringSPRT(t *testing.T, pairs int) (string, sprt.Config, sprt.Status) {
	t.Helper()
	g, opts := setup(t, 2)
	out := t.TempDir()
	cfg := sprt.Config{Game: g, Options: opts, Test: command("new", "random").Spec(), Base: command("old", "random").Spec(),
		SPRT: stats.SPRT{Elo0: -5, Elo1: 5, Alpha: 0.01, Beta: 0.01}, Concurrency: 2, Paired: true, Seed: 9, OutDir: out}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var at sprt.Status
	var reportErr error
	_, err := sprt.Run(ctx, cfg, func(st sprt.Status) {
		if st.Pairs == pairs && at.Pairs == 0 {
			at = st
			_, reportErr = report.Write(out, "", report.Options{})
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the run ended with %v before it was stopped", err)
	}
	if reportErr != nil {
		t.Fatalf("report during the run: %v", reportErr)
	}
	return out, cfg, at
}
