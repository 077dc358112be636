package ladder_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/internal/testkit"
)

// heap is the live heap after a collection: what the process keeps.
func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// synthesize appends n games to the ledger of the ladder in dir, as its
// run would record them (complete units of k games, seats rotated, the
// deal the secret gives each table, random finishing orders), without
// playing them: a million games take seconds to write this way and
// minutes to play. The ladder must have played at least one game (the
// names and the next table come from its ledger).
func synthesize(tb testing.TB, dir string, n int) {
	tb.Helper()
	l, err := ladder.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	c := l.Config
	l.Close()
	secret, err := deal.InDir(dir, nil)
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, ledger.FileName)
	var names []string
	index, seq := 0, int64(0)
	if _, err := ledger.Each(path, func(e ledger.Entry[ledger.Record]) error {
		for _, b := range e.Record.Bots {
			if !slices.Contains(names, b) {
				names = append(names, b)
			}
		}
		index, seq = e.Record.Index+1, max(seq, int64(e.Record.Round))
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	k := c.Seats.Max
	w, err := ledger.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer w.Close()
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	for index < n {
		seq++
		perm := rng.Perm(len(names))[:k]
		for g := range k {
			rec := ledger.Record{Index: index, GameID: fmt.Sprintf("%s-t%06d-g%d", c.Name, seq, g+1), Round: int(seq),
				Seed: secret.Seed(c.Seed, "deal", uint64(seq)), Bots: make([]string, k), Ranks: make([]int, k),
				Scores: make([]float64, k), Reason: "synthetic", Plies: 100}
			for seat := range k {
				rec.Bots[seat] = names[perm[(seat+g)%k]]
			}
			for p, r := range rng.Perm(k) {
				rec.Ranks[p] = r
			}
			if err := w.AppendUnsynced(rec); err != nil {
				tb.Fatal(err)
			}
			index++
		}
	}
	if err := w.Sync(); err != nil {
		tb.Fatal(err)
	}
}

// resumeHeap runs the ladder in dir for one game and returns the live
// heap at its end (the resumed state included) and the games resumed.
func resumeHeap(tb testing.TB, dir string) (uint64, int) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var h uint64
	res, err := ladder.Run(ctx, dir, ladder.RunOptions{Warn: io.Discard, OnGame: func(ladder.Progress) {
		if h == 0 {
			h = heap()
		}
		cancel()
	}})
	if err != nil {
		tb.Fatal(err)
	}
	return h, res.Resumed
}

// BenchmarkResumeMemory reports the live heap of a ladder run resumed
// from a ledger of N games (30 in-memory bots, 4 seats), N from 10^4 to
// 10^6 (10^6 with ARENA_THOROUGH=1): flat if the run keeps nothing per
// game. The games are synthesized (written as a run records them, not
// played: see synthesize); BenchmarkRunMemory plays them.
func BenchmarkResumeMemory(b *testing.B) {
	sizes := testkit.Pick([]int{1e4, 1e5}, []int{1e4, 1e5, 1e6})
	for _, n := range sizes {
		b.Run(fmt.Sprintf("games=%d", n), func(b *testing.B) {
			dir := initMem(b, "4", 30, 1)
			runFor(b, dir, 1)
			synthesize(b, dir, n)
			var h uint64
			for b.Loop() {
				var resumed int
				if h, resumed = resumeHeap(b, dir); resumed < n {
					b.Fatalf("resumed %d games, wrote %d", resumed, n)
				}
			}
			b.ReportMetric(float64(h)/(1<<20), "heap-MiB")
			b.ReportMetric(float64(h)/float64(n), "heap-B/game")
		})
	}
}

// BenchmarkRunMemory plays games with in-memory bots (uno, 30 bots, 4
// seats) and reports the live heap after the first tenth of them and at
// the end, and the growth per game between the two: what a long run
// keeps per game it plays (0 if flat). And the fairness of that run,
// from its ledger: the largest gap of a bot (tables started between two
// of its own; the matchmaker's bound is 3 ceil(30/4) = 24 for a bot free
// throughout, which a bot busy in a table of a concurrent game is not)
// and the largest seat spread over complete units.
func BenchmarkRunMemory(b *testing.B) {
	games := testkit.Pick(1000, 10000)
	var first, last uint64
	var gap, spread int
	for b.Loop() {
		dir := initMem(b, "4", 30, 2)
		ctx, cancel := context.WithCancel(context.Background())
		_, err := ladder.Run(ctx, dir, ladder.RunOptions{Warn: io.Discard, OnGame: func(p ladder.Progress) {
			switch p.Done {
			case games / 10:
				first = heap()
			case games:
				last = heap()
				cancel()
			}
		}})
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		gap, spread = fairness(readLedger(b, dir))
	}
	b.ReportMetric(float64(gap), "max-gap-tables")
	b.ReportMetric(float64(spread), "seat-spread")
	b.ReportMetric(float64(first)/(1<<20), "heap-MiB-at-tenth")
	b.ReportMetric(float64(last)/(1<<20), "heap-MiB-at-end")
	b.ReportMetric((float64(last)-float64(first))/float64(games-games/10), "growth-B/game")
}

// fairness is the largest number of tables the ladder started between
// two tables of one bot (from table 0), and the largest difference
// between two seat counts of a bot over complete units.
func fairness(recs []ledger.Record) (gap, spread int) {
	last := map[string]int{}
	for _, r := range recs { // tables start in ledger order, but for the units played at once
		for _, name := range r.Bots {
			if r.Round > last[name] {
				gap = max(gap, r.Round-last[name]-1)
				last[name] = r.Round
			}
		}
	}
	return gap, seatSpread(recs)
}
