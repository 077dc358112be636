package tournament

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/bots"
	_ "github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/sdk"
)

// TestMain lets this test binary be a bot: the bundled random bot, whose
// choices depend only on the seed in hello (so runs are reproducible);
// with a deal log, one that remembers its deals (memoryBot).
func TestMain(m *testing.M) {
	sandbox.RunWrapperIfAsked() // the bots' wrapper is this test binary
	if name := os.Getenv("ARENA_TOURNAMENT_BOT"); name != "" {
		bot, _ := bots.New(name)
		if log := os.Getenv(envDealLog); log != "" {
			bot = &memoryBot{Bot: bot, log: log, seen: map[uint64]bool{}}
		}
		if err := sdk.Run(os.Stdin, os.Stdout, bot, sdk.Options{}); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(testkit.Main(m)) // removes what testkit.Build made
}

func testConfig(t *testing.T, n int, concurrency int) *Config {
	t.Helper()
	seed := uint64(7)
	f := File{Name: "cup", Game: "banqi", Options: map[string]string{"max_plies": "120"}, GamesPerEncounter: 2, Settings: options.Settings{Seed: &seed, Concurrency: concurrency}}
	for i := range n {
		kind := "random"
		if i == 0 {
			kind = "greedy"
		}
		f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("b%d", i), Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": kind}})
	}
	c := resolve(t, f)
	c.Secret = testSecret // the same games from the same seed, in any directory
	return c
}

// resolve resolves f as the tournament file "test" in the current
// directory, failing the test if it does not resolve.
func resolve(t *testing.T, f File) *Config {
	t.Helper()
	c, err := f.Resolve("test", ".")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// runRecords runs c's tournament into a new directory and returns it and
// the records of its ledger.
func runRecords(t *testing.T, c *Config) (string, []ledger.Record) {
	t.Helper()
	out := t.TempDir()
	if _, err := Run(context.Background(), c, out, Options{}); err != nil {
		t.Fatal(err)
	}
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return out, recs
}

// testSecret keys the deals of testConfig's tournaments.
var testSecret = &deal.Secret{7, 7, 7}

func standingsJSON(t *testing.T, c *Config, out string) *Standings {
	t.Helper()
	recs, torn, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if err != nil || torn != nil {
		t.Fatalf("ledger: %v %v", err, torn)
	}
	names := make([]string, len(c.Bots))
	for i, b := range c.Bots {
		names[i] = b.Name
	}
	s, _ := c.NewScheduler()
	st, err := Compute(c.Name, "banqi", c.Format, 2, s.Total(), names, recs)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestRoundRobinRun(t *testing.T) {
	t.Parallel()
	c := testConfig(t, 4, 2)
	out := t.TempDir()
	sum, err := Run(context.Background(), c, out, Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if len(recs) != 12 || sum.Bots[0].Games != 6 {
		t.Fatalf("%d games recorded, bot 0 played %d; want 12 and 6", len(recs), sum.Bots[0].Games)
	}
	seen := map[string]bool{}
	for _, r := range recs {
		if seen[r.GameID] {
			t.Fatalf("game %s recorded twice", r.GameID)
		}
		seen[r.GameID] = true
		rep, err := r.ReplaySource(out).Read()
		if err != nil {
			t.Fatal(err)
		}
		if err := replays.Verify(rep); err != nil {
			t.Fatalf("%s: %v", r.Replay, err)
		}
	}
	st := standingsJSON(t, c, out)
	if st.Standings[0].Name != "b0" {
		t.Errorf("greedy should top random bots: %+v", st.Standings[0])
	}
	total := 0.0
	for _, r := range st.Standings {
		total += r.Score
	}
	if total != 12 {
		t.Errorf("scores add to %v, want 12 (one point per game)", total)
	}
	if len(st.Pairs) != 6 || st.Pairs[0].A != "b0" || st.Pairs[0].Wins+st.Pairs[0].Draws+st.Pairs[0].Losses != 2 || st.Pairs[0].LOS < 0.5 {
		t.Errorf("pairs: %+v", st.Pairs)
	}

	// A bracket seeded from this run's ratings puts its winner first.
	seed := uint64(1)
	next := File{Name: "ko", Game: "banqi", Format: "single-elimination", SeedingFrom: out, Settings: options.Settings{Seed: &seed}}
	for _, b := range c.File.Bots {
		next.Bots = append([]BotFile{b}, next.Bots...) // file order reversed: b3 b2 b1 b0
	}
	nc, err := next.Resolve("ko.yaml", ".")
	if err != nil {
		t.Fatal(err)
	}
	if first := nc.Bots[nc.Schedule.Seeding[0]].Name; first != st.Standings[0].Name || len(nc.Schedule.Seeding) != 4 {
		t.Errorf("seeding from ratings starts with %s (%v), want %s", first, nc.File.Seeding, st.Standings[0].Name)
	}
}

// TestResumeAfterInterrupts stops a run three times at different points
// and resumes it; the final standings must be exactly those of a run that
// was never stopped, with no game played twice.
func TestResumeAfterInterrupts(t *testing.T) {
	t.Parallel()
	whole := t.TempDir()
	c := testConfig(t, 5, 2)
	if _, err := Run(context.Background(), c, whole, Options{}); err != nil {
		t.Fatal(err)
	}
	want := standingsJSON(t, c, whole)

	out := t.TempDir()
	for _, stopAfter := range []int{2, 7, 13} {
		ctx, cancel := context.WithCancel(context.Background())
		_, err := Run(ctx, testConfig(t, 5, 2), out, Options{OnGame: func(p Progress) {
			if p.Done >= stopAfter {
				cancel()
			}
		}})
		cancel()
		if !errors.Is(err, ErrInterrupted) {
			t.Fatalf("stop after %d: %v, want an interruption", stopAfter, err)
		}
	}
	if _, err := Run(context.Background(), testConfig(t, 5, 2), out, Options{}); err != nil {
		t.Fatal(err)
	}
	got := standingsJSON(t, c, out)
	if !reflect.DeepEqual(got.Standings, want.Standings) || got.Games != want.Games {
		t.Fatalf("resumed standings differ:\n got %+v\nwant %+v", got.Standings, want.Standings)
	}
}

func TestResumeRefusesAnotherTournament(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	c := testConfig(t, 2, 1)
	if _, err := Run(context.Background(), c, out, Options{}); err != nil {
		t.Fatal(err)
	}
	other := testConfig(t, 3, 1)
	if _, err := Run(context.Background(), other, out, Options{}); err == nil {
		t.Fatal("a different tournament was run into the same directory")
	}
}

// TestEveryFormat runs each format with real bot processes, 2-seat Banqi
// and 4-seat Boon: the run completes, every scheduled game is recorded
// once, every replay verifies, and the format's details are there.
func TestEveryFormat(t *testing.T) {
	cases := []struct {
		format, game string
		seats, bots  int
		gpe          int
		extra        func(*File)
		check        func(*testing.T, schedule.Details)
	}{
		{"round-robin", "boon", 4, 6, 4, nil, nil},
		{"gauntlet", "banqi", 2, 4, 2, func(f *File) { f.Gauntlet = []string{"b0"} }, nil},
		{"gauntlet", "boon", 4, 6, 4, func(f *File) { f.Gauntlet = []string{"b0"} }, nil},
		{"swiss", "banqi", 2, 5, 2, func(f *File) { f.Rounds = 3 }, func(t *testing.T, d schedule.Details) {
			if len(d.Swiss) != 5 {
				t.Errorf("swiss standings: %+v", d.Swiss)
			}
		}},
		{"single-elimination", "banqi", 2, 5, 2, nil, func(t *testing.T, d schedule.Details) {
			if d.Bracket == nil {
				t.Error("no bracket")
			}
		}},
		{"double-elimination", "banqi", 2, 4, 2, nil, func(t *testing.T, d schedule.Details) {
			if d.Bracket == nil {
				t.Error("no bracket")
			}
		}},
		{"table-elimination", "boon", 4, 8, 4, func(f *File) { f.Advance = 2 }, func(t *testing.T, d schedule.Details) {
			if d.Tables == nil {
				t.Error("no table view")
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.format+"-"+tc.game, func(t *testing.T) {
			t.Parallel()
			seed := uint64(11)
			f := File{Name: "f", Game: tc.game, Seats: tc.seats, Format: tc.format, GamesPerEncounter: tc.gpe, Settings: options.Settings{Seed: &seed, Concurrency: 2}}
			if tc.game == "banqi" {
				f.Options = map[string]string{"max_plies": "150"}
			}
			for i := range tc.bots {
				kind := "random"
				if i == 0 {
					kind = "greedy"
				}
				f.Bots = append(f.Bots, BotFile{Name: fmt.Sprintf("b%d", i), Command: os.Args[0], Env: map[string]string{"ARENA_TOURNAMENT_BOT": kind}})
			}
			if tc.extra != nil {
				tc.extra(&f)
			}
			c := resolve(t, f)
			out, recs := runRecords(t, c)
			if len(recs) == 0 {
				t.Fatalf("%d records", len(recs))
			}
			s, err := c.Rebuild(recs)
			if err != nil {
				t.Fatal(err)
			}
			if _, st := s.Next(); st != schedule.Done {
				t.Fatalf("after the run the schedule is not done (status %d)", st)
			}
			if total := s.Total(); total >= 0 && total != len(recs) {
				t.Errorf("%d games recorded, schedule has %d", len(recs), total)
			}
			ids := map[string]bool{}
			for _, r := range recs {
				if ids[r.GameID] || len(r.Bots) != tc.seats {
					t.Fatalf("game %s duplicated or wrong size", r.GameID)
				}
				ids[r.GameID] = true
				rep, err := r.ReplaySource(out).Read()
				if err == nil {
					err = replays.Verify(rep)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if tc.check != nil {
				tc.check(t, schedule.DetailsOf(s))
			}
		})
	}
}

// TestFreshDeals: with fresh_deals no two games share a deal; without it,
// by cycle every pairing of the cycle plays the same deal, by encounter
// each pairing has a deal of its own, which both its games play (2 games
// per encounter: one deal, seats swapped).
func TestFreshDeals(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		fresh bool
		share string
		deals int // of the 6 games of 3 pairings
	}{
		{false, ShareCycle, 1},
		{false, ShareEncounter, 3},
		{true, ShareEncounter, 6},
		{true, ShareCycle, 6},
	} {
		c := testConfig(t, 3, 2)
		c.File.FreshDeals, c.File.ShareDeals = tc.fresh, tc.share
		out := t.TempDir()
		if _, err := Run(context.Background(), c, out, Options{}); err != nil {
			t.Fatal(err)
		}
		recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
		seeds := map[uint64]int{}
		byEncounter := map[string]map[uint64]bool{}
		for _, r := range recs {
			seeds[r.Seed]++
			enc := schedule.Game{ID: strings.TrimPrefix(r.GameID, c.Name+"-")}.Encounter()
			if byEncounter[enc] == nil {
				byEncounter[enc] = map[uint64]bool{}
			}
			byEncounter[enc][r.Seed] = true
		}
		if len(seeds) != tc.deals {
			t.Errorf("fresh %v, share %s: %d games on %d deals, want %d", tc.fresh, tc.share, len(recs), len(seeds), tc.deals)
		}
		for enc, s := range byEncounter {
			if !tc.fresh && len(s) != 1 {
				t.Errorf("share %s: encounter %s on %d deals, want its 2 games on one", tc.share, enc, len(s))
			}
		}
	}
}
