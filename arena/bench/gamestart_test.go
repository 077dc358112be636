//go:build linux

package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
//     (fastchess: 0.11 ms, a few round trips).
//
// Run it as:
//
//	go test -run '^$' -bench GameStart -benchtime 1000x ./arena/bench
func BenchmarkGameStart(b *testing.B) {
	games := max(b.N, 100)
	arena := testkit.Build(b, "./cmd/arena")
	kids := blockingChildren(b, "minimal")
	turns := testkit.Turns(b, "banqi", 2, nil, 0, 400)
	dir := b.TempDir()
	script := minimalScript(b, dir)
	run := func(n int) time.Duration {
		out := filepath.Join(dir, strconv.Itoa(n))
		os.RemoveAll(out)
		bot := "'" + script + "'"
		cmd := exec.Command(arena, "match", "--game", "banqi", "--option", "max_plies=2", "--games", strconv.Itoa(n),
			"--bot", "a="+bot, "--bot", "b="+bot, "--out", out, "-q", "--bot-isolate", "no")
		start := time.Now()
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %v\n%s", cmd.Args, err, msg)
		}
		took := time.Since(start)
		results, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
		if err != nil {
			b.Fatal(err)
		}
		if played := bytes.Count(results, []byte(`"plies":2,"forfeits":[]`)); played != n {
			b.Fatalf("%d of %d games played their two plies without a forfeit: the figure would not be a game's", played, n)
		}
		return took
	}
	const rounds = 5
	var perGame, rt []float64
	b.ResetTimer()
	for r := range rounds {
		var one, two time.Duration
		if r%2 == 0 {
			one, two = run(games), run(2*games)
		} else {
			two, one = run(2*games), run(games)
		}
		perGame = append(perGame, float64(two-one)/float64(games)/1e3)
		start := time.Now()
		jsonPingPong(b, kids, turns, 0, 2000)
		rt = append(rt, float64(time.Since(start))/2000/1e3)
	}
	b.StopTimer()
	game, pp := median(perGame), median(rt)
	b.ReportMetric(pp, "pingpong-us/rt")
	b.ReportMetric(game, "game-us")
	b.ReportMetric(game-2*pp, "start-us")
	b.ReportMetric((game-2*pp)/pp, "start/rt")
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
