package tournament

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkRestartBots measures what restarting the bots for every game
// (restart_bots, --restart-bots) costs a match: the same games of two
// copies of the bundled random bot (this test binary), one at a time, in
// one run: confined as tournament run confines them with processes kept,
// confined with a fresh process for every game, and with a fresh plain
// process (no sandbox) for every game. It prints the time per game of
// each, restart/kept, what one more process costs a game confined against
// plain (restart/plain-per-process: the issue-16 figure, <= 3x), the
// processes started per game and how long a game waited for them. With
// RestartBots the pool starts each bot's next process while a game is
// played and closes the finished one in the background
// (pool.Pool.OneGame), so a game as long as a start (a few ms of plies)
// hides it; a shorter one cannot.
//
// Confined bots start through arena-sandbox, built for the run, as they
// do for a user who builds the arena as the README says (go build -o bin/
// ./cmd/arena ./cmd/arena-sandbox); restart-reexec/plain-per-process is
// the same restart with no wrapper beside the arena, which then runs
// itself again as the wrapper (go run ./cmd/arena; here the test binary).
// ARENA_BENCH_GAMES (default 200) sets the games, ARENA_BENCH_MAX_ACTIONS
// (default: none, a whole Uno hand) cuts them short.
//
//	go test -run '^$' -bench RestartBots -benchtime 1x ./arena/tournament/
//	ARENA_BENCH_MAX_ACTIONS=20 go test -run '^$' -bench RestartBots -benchtime 1x ./arena/tournament/
func BenchmarkRestartBots(b *testing.B) {
	games := 200
	if n, err := strconv.Atoi(os.Getenv("ARENA_BENCH_GAMES")); err == nil && n > 1 {
		games = n
	}
	gameOptions := map[string]string{"target": "0"}
	if n := os.Getenv("ARENA_BENCH_MAX_ACTIONS"); n != "" {
		gameOptions["max_actions"] = n
	}
	type result struct {
		perGame, waited time.Duration
		started         float64
	}
	// setup is how the bots are run: a fresh process per game or not, in
	// the sandbox or as plain processes.
	type setup struct {
		restart, confine bool
		wrapper          string // the sandbox wrapper: "" for the executable itself
	}
	wrapper := testkit.Build(b, "./cmd/arena-sandbox")
	measure := func(how setup) result {
		seed := uint64(9)
		f := File{Name: "restart-bench", Game: "uno", Options: gameOptions, GamesPerEncounter: 2, Rounds: games / 2, Settings: options.Settings{Seed: &seed, Concurrency: 1, RestartBots: how.restart, Clock: options.Clock{Move: options.Duration(5 * time.Second)}}}
		for _, name := range []string{"a", "b"} {
			f.Bots = append(f.Bots, BotFile{Name: name, Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": "random"}})
		}
		c, err := f.Resolve("bench", ".")
		if err != nil {
			b.Fatal(err)
		}
		out := b.TempDir()
		if how.confine {
			c.BotOptions.Wrapper = how.wrapper
			if _, err := c.Confine("bench", out); err != nil {
				b.Fatal(err)
			}
		}
		var local *run.Local
		start := time.Now()
		_, err = Run(context.Background(), c, out, Options{Executor: func(rc run.Config) (run.Executor, error) {
			local = run.NewLocal(rc, nil)
			return local, nil
		}})
		elapsed := time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
		if len(recs) != games/2*2 {
			b.Fatalf("%d games recorded, want %d", len(recs), games/2*2)
		}
		n := time.Duration(len(recs))
		st := local.PoolStats()
		return result{elapsed / n, st.Waited / n, float64(st.Started) / float64(len(recs))}
	}
	for range b.N {
		kept := measure(setup{confine: true, wrapper: wrapper})
		fresh := measure(setup{restart: true, confine: true, wrapper: wrapper})
		reexec := measure(setup{restart: true, confine: true})
		plain := measure(setup{restart: true})
		ratio := float64(fresh.perGame) / float64(kept.perGame)
		// What one more process costs a game, confined and isolated as a
		// tournament runs bots, and as a plain spawn with no sandbox (the
		// issue-16 figure: isolated <= 3x plain).
		overKept := func(r result) time.Duration { return (r.perGame - kept.perGame) / 2 } // two seats, a process each
		perProcess, reexecPerProcess, plainPerProcess := overKept(fresh), overKept(reexec), overKept(plain)
		b.Logf("processes kept: %v per game, %.2f started per game; restarted: %v per game (%.2fx), %.2f started per game, waited %v per game for them; %v more per bot process; "+
			"no wrapper beside the arena: %v per game, %v more per bot process; plain spawns, no sandbox: %v per game, %v more per bot process",
			kept.perGame.Round(time.Microsecond), kept.started, fresh.perGame.Round(time.Microsecond), ratio, fresh.started,
			fresh.waited.Round(time.Microsecond), perProcess.Round(time.Microsecond),
			reexec.perGame.Round(time.Microsecond), reexecPerProcess.Round(time.Microsecond),
			plain.perGame.Round(time.Microsecond), plainPerProcess.Round(time.Microsecond))
		b.ReportMetric(ratio, "restart/kept")
		b.ReportMetric(float64(kept.perGame.Microseconds()), "kept-us/game")
		b.ReportMetric(float64(fresh.perGame.Microseconds()), "restart-us/game")
		b.ReportMetric(float64(reexec.perGame.Microseconds()), "reexec-restart-us/game")
		b.ReportMetric(float64(plain.perGame.Microseconds()), "plain-restart-us/game")
		if plainPerProcess > 0 {
			b.ReportMetric(float64(perProcess)/float64(plainPerProcess), "restart/plain-per-process")
			b.ReportMetric(float64(reexecPerProcess)/float64(plainPerProcess), "restart-reexec/plain-per-process")
		}
	}
}
