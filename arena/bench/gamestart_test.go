//go:build linux

package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/internal/testkit"
)

// BenchmarkGameStart is what a game costs beyond its moves, the way a
// user pays it: whole `arena match` runs of two-ply Banqi games
// (max_plies=2) between two minimal bots, against a JSON ping-pong
// round trip measured in the same run (the floor of one move). Each
// round runs the match with G and with 2G games (the order alternating)
// and takes the difference over G, so that the arena's and the bots'
// process starts, which both runs pay, cancel out; that leaves per game
// the hello and ready, the deal, two moves, the result line, the replay
// pack's append and the ledger line with their syncs. The bots are not
// isolated (--bot-isolate no), as fastchess's engines are not: the
// sandbox's cost is measured apart (docs/performance.md).
//
//   - pingpong-us/rt: the JSON ping-pong to the minimal bot;
//   - game-us: a whole two-ply game through `arena match`, median of the
//     rounds;
//   - start-us: game-us less two ping-pong round trips (its two moves at
//     the floor): the game's cost beyond its moves;
//   - start/rt: start-us over pingpong-us/rt, the figure
//     (fastchess: 0.11 ms, a few round trips);
//   - game-cpu-us: the CPU time a game costs the arena and its two bots
//     together (the same difference, of their rusage), which other work
//     on the machine moves far less than the wall time;
//   - move-us and move/rt: a move as `arena match` plays it, from games
//     of 42 plies less as many two-ply games, against the ping-pong
//     round trip (the per-move target: at most 1.0);
//   - referee-game-us: the same two-ply game through the referee alone,
//     in the test process, to two minimal bots it keeps (no pool, no
//     replay, no ledger, no run): of game-us, what the game's messages
//     cost; the rest (run-us = game-us - referee-game-us) is the run's
//     (the pool, the recorder, the output directory, its goroutines).
//
// Measured 2026-12-05 (1000x, load 2-7, four pairs interleaved with the
// build before issue 40's changes): game-us 418-480 -> 290-351, start/rt
// 17.9-18.8 -> 12.1-13.3, game-cpu-us 528-606 -> 334-414, move/rt
// 1.79-1.81 -> 1.53-1.63 (docs/performance.md, a game's start).
//
// Run it as (ARENA_BENCH_ARENA=PATH: that arena binary, not this tree's):
//
//	go test -run '^$' -bench GameStart -benchtime 1000x ./arena/bench
func BenchmarkGameStart(b *testing.B) {
	games := max(b.N, 100)
	arena := arenaUnderTest(b)
	kids := blockingChildren(b, "minimal")
	turns := testkit.Turns(b, "banqi", 2, nil, 0, 400)
	refConns := processes(b, []string{os.Args[0]}, "minimal")
	g, opts := testkit.Setup(b, "banqi", 2, map[string]string{"max_plies": "2"})
	dir := b.TempDir()
	script := minimalScript(b, dir)
	// run plays n games and returns their wall time and the CPU time of
	// the arena and its bots (the arena waits for its bots, so its rusage
	// holds theirs): the CPU figure, which other work on the machine
	// moves far less than the wall time.
	run := func(n, plies int) (time.Duration, time.Duration) {
		out := filepath.Join(dir, strconv.Itoa(n))
		os.RemoveAll(out)
		bot := "'" + script + "'"
		cmd := exec.Command(arena, "match", "--game", "banqi", "--option", "max_plies="+strconv.Itoa(plies), "--games", strconv.Itoa(n),
			"--bot", "a="+bot, "--bot", "b="+bot, "--out", out, "-q", "--bot-isolate", "no")
		start := time.Now()
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", cmd.Args, err, msg)
		}
		took := time.Since(start)
		ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		results, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		if played := bytes.Count(results, []byte(`"plies":`+strconv.Itoa(plies)+`,"forfeits":[]`)); played != n {
			b.Fatalf("%d of %d games played their %d plies without a forfeit: the figure would not be a game's", played, n, plies)
		}
		return took, cpu
	}
	const rounds = 5
	// The per-move figure's games: half as many as the short run's, 20
	// times the plies, so that the error of the fixed cost estimated
	// from the short runs (the processes' starts, tens of milliseconds
	// of noise) is a fraction of a microsecond a move.
	const longPlies = 42
	longGames := max(games/2, 50)
	var perGame, cpuGame, perMove, rt, refGame []float64
	b.ResetTimer()
	for r := range rounds {
		var one, two, long, cpuOne, cpuTwo time.Duration
		if r%2 == 0 {
			one, cpuOne = run(games, 2)
			two, cpuTwo = run(2*games, 2)
			long, _ = run(longGames, longPlies)
		} else {
			long, _ = run(longGames, longPlies)
			two, cpuTwo = run(2*games, 2)
			one, cpuOne = run(games, 2)
		}
		perGame = append(perGame, float64(two-one)/float64(games)/1e3)
		cpuGame = append(cpuGame, float64(cpuTwo-cpuOne)/float64(games)/1e3)
		// The long games less as many two-ply ones (the line through the
		// two runs above: the process starts and longGames games' starts),
		// over the plies they have more.
		fixed, game := 2*one-two, (two-one)/time.Duration(games)
		short := fixed + game*time.Duration(longGames)
		perMove = append(perMove, float64(long-short)/float64(longGames*(longPlies-2))/1e3)
		start := time.Now()
		jsonPingPong(b, kids, turns, 0, 2000)
		rt = append(rt, float64(time.Since(start))/2000/1e3)
		took, moves := playGames(b, refConns, g, opts, 2*games)
		if moves != 2*games {
			b.Fatalf("%d games made %d moves, not two each", games, moves)
		}
		refGame = append(refGame, float64(took)/float64(games)/1e3)
	}
	b.StopTimer()
	game, pp := median(perGame), median(rt)
	b.ReportMetric(pp, "pingpong-us/rt")
	b.ReportMetric(game, "game-us")
	b.ReportMetric(game-2*pp, "start-us")
	b.ReportMetric((game-2*pp)/pp, "start/rt")
	b.ReportMetric(median(cpuGame), "game-cpu-us")
	b.ReportMetric(median(refGame), "referee-game-us")
	b.ReportMetric(game-median(refGame), "run-us")
	b.ReportMetric(median(perMove), "move-us")
	b.ReportMetric(median(perMove)/pp, "move/rt")
	b.ReportMetric(0, "ns/op")
}

// minimalScript writes in dir a script that runs the minimal bot (this
// test binary as the "minimal" child) and returns its path: a bot's
// environment is the arena's few variables, not the test's, so the
// script says which bot the test binary is.
func minimalScript(b *testing.B, dir string) string {
	script := filepath.Join(dir, "minimal.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nARENA_BENCH_BOT=minimal exec '"+os.Args[0]+"'\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	return script
}
