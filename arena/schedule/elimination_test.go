package schedule

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// lostMatches counts decided matches lost per bot, and returns the played
// matches.
func lostMatches(v BracketView, bots int) ([]int, int) {
	lost := make([]int, bots)
	played := 0
	for _, r := range v.Rounds {
		for _, m := range r.Matches {
			if m.Status != "done" {
				continue
			}
			played++
			for _, b := range m.Bots {
				if b != m.Winner {
					lost[b]++
				}
			}
		}
	}
	return lost, played
}

func TestBracketOrder(t *testing.T) {
	got := bracketOrder(16)
	want := []int{0, 15, 7, 8, 3, 12, 4, 11, 1, 14, 6, 9, 2, 13, 5, 10}
	if !slices.Equal(got, want) {
		t.Errorf("bracket order %v, want %v", got, want)
	}
}

func TestSingleElimination(t *testing.T) {
	for bots := 2; bots <= 33; bots++ {
		t.Run(fmt.Sprintf("n%d", bots), func(t *testing.T) {
			// Seed the strongest bots last, so upsets of seeding happen.
			seeding := make([]int, bots)
			for i := range seeding {
				seeding[i] = bots - 1 - i
			}
			c := Config{Bots: bots, Seats: 2, Rounds: 1, GamesPerEncounter: 2, Seeding: seeding}
			s, err := SingleElimination(c)
			if err != nil {
				t.Fatal(err)
			}
			ledger := simulate(t, s, strongest, uint64(bots), 6)
			x := s.(*Elimination)
			v := x.Bracket()
			if v.Champion != 0 || v.Status != "done" {
				t.Fatalf("champion %d (%s), want the strongest bot 0", v.Champion, v.Status)
			}
			size := 1
			for size < bots {
				size *= 2
			}
			// Byes go to the top seeds.
			walkovers := 0
			for _, m := range v.Rounds[0].Matches {
				if m.Status == "walkover" {
					walkovers++
					if m.Seeds[0] > size-bots {
						t.Errorf("seed %d has a bye", m.Seeds[0])
					}
				}
			}
			if walkovers != size-bots {
				t.Errorf("%d byes, want %d", walkovers, size-bots)
			}
			lost, played := lostMatches(v, bots)
			if played != bots-1 {
				t.Errorf("%d matches played, want %d", played, bots-1)
			}
			for b, n := range lost {
				if want := min(1, b); n != want {
					t.Errorf("bot %d lost %d matches, want %d", b, n, want)
				}
			}
			if len(ledger) != 2*(bots-1) {
				t.Errorf("%d games, want %d", len(ledger), 2*(bots-1))
			}
			if s.Total() != -1 {
				t.Errorf("Total %d", s.Total())
			}
		})
	}
}

// With no early stop and no extension possible, the total is known.
func TestSingleEliminationTotal(t *testing.T) {
	for _, gpe := range []int{2, 4} {
		c := Config{Bots: 11, Seats: 2, Rounds: 1, GamesPerEncounter: gpe, MaxGames: gpe}
		s, _ := SingleElimination(c)
		if n := len(simulate(t, s, hashed(1), 1, 4)); s.Total() != 10*gpe || n != s.Total() {
			t.Errorf("gpe %d: Total %d, played %d", gpe, s.Total(), n)
		}
	}
}

// Seeds 1 and 2 meet only in the final.
func TestEliminationTopSeedsMeetLate(t *testing.T) {
	s, _ := SingleElimination(Config{Bots: 16, Seats: 2, Rounds: 1, GamesPerEncounter: 2})
	simulate(t, s, strongest, 1, 4)
	v := s.(*Elimination).Bracket()
	final := v.Rounds[len(v.Rounds)-1].Matches[0]
	if final.Bots != [2]int{0, 1} {
		t.Errorf("final %v", final.Bots)
	}
	semis := v.Rounds[len(v.Rounds)-2].Matches
	if semis[0].Seeds != [2]int{1, 4} || semis[1].Seeds != [2]int{2, 3} {
		t.Errorf("semi-finals %v %v", semis[0].Seeds, semis[1].Seeds)
	}
}

// runMatch plays a two-bot elimination and reports how many games were
// handed out before each wait, and the games.
func runMatch(t *testing.T, c Config, res resultFn) (batches []int, games []Game, v BracketView) {
	t.Helper()
	s, err := SingleElimination(c)
	if err != nil {
		t.Fatal(err)
	}
	for {
		var batch []Game
		var st Status
		for {
			var g Game
			g, st = s.Next()
			if st != Ready {
				break
			}
			batch = append(batch, g)
		}
		if len(batch) > 0 {
			batches = append(batches, len(batch))
		}
		if st == Done {
			return batches, games, s.(*Elimination).Bracket()
		}
		if len(batch) == 0 {
			t.Fatal("waiting with nothing in flight")
		}
		for i := len(batch) - 1; i >= 0; i-- { // results in reverse order
			s.Result(batch[i], res(batch[i]))
		}
		games = append(games, batch...)
	}
}

// The encounter rule, precisely.
func TestEliminationEncounter(t *testing.T) {
	seat0Wins := func(Game) []int { return []int{1, 2} }
	drawsFirst := func(n int) resultFn { // the first n games drawn, then the lower index wins
		return func(g Game) []int {
			var k int
			fmt.Sscanf(g.ID[strings.LastIndex(g.ID, "-g")+2:], "%d", &k)
			if k <= n {
				return []int{1, 1}
			}
			return strongest(g)
		}
	}
	oneEach := func(g Game) []int { // seat 0 wins games 1-6 (3-3), then the lower index
		var k int
		fmt.Sscanf(g.ID[strings.LastIndex(g.ID, "-g")+2:], "%d", &k)
		if k >= 7 {
			return strongest(g)
		}
		return seat0Wins(g)
	}
	cases := []struct {
		name    string
		c       Config
		res     resultFn
		batches []int
		winner  int
		score   [2]float64
		decided string
	}{
		// 4 games: a 2-0 first pair can still be caught, so both pairs go
		// out at once and are both played.
		{"g4-sweep", Config{GamesPerEncounter: 4}, strongest, []int{4}, 0, [2]float64{4, 0}, "score"},
		// 6 games: two pairs at once; 4-0 after them is out of reach (3 of
		// 6 points would only draw), so the third pair is never played.
		{"g6-early-stop", Config{GamesPerEncounter: 6}, strongest, []int{4}, 0, [2]float64{4, 0}, "score"},
		// 6 games, 2-2 after two pairs: the third pair is played, 3-3 then
		// extends by one pair, which bot 0 wins 2-0.
		{"g6-extended", Config{GamesPerEncounter: 6}, oneEach, []int{4, 2, 2}, 0, [2]float64{5, 3}, "score"},
		// 2 games drawn twice over, then decided: one pair at a time.
		{"g2-extension", Config{GamesPerEncounter: 2}, drawsFirst(4), []int{2, 2, 2}, 0, [2]float64{4, 2}, "score"},
		// Seat 0 always wins: every pair is 1-1; the cap decides for the
		// higher seed.
		{"g2-cap", Config{GamesPerEncounter: 2, MaxGames: 6}, seat0Wins, []int{2, 2, 2}, 0, [2]float64{3, 3}, "tie-break"},
		{"g2-cap-seeded", Config{GamesPerEncounter: 2, MaxGames: 4, Seeding: []int{1}}, seat0Wins, []int{2, 2}, 1, [2]float64{2, 2}, "tie-break"},
		// Every game drawn and no cap given: TieCapFactor times the
		// planned games, then the higher seed (it played on for ever).
		{"g2-always-drawn", Config{GamesPerEncounter: 2}, drawsFirst(1 << 30), []int{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 0, [2]float64{10, 10}, "tie-break"},
		{"g4-always-drawn", Config{GamesPerEncounter: 4}, drawsFirst(1 << 30), append([]int{4}, slices.Repeat([]int{2}, 18)...), 0, [2]float64{20, 20}, "tie-break"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			c.Bots, c.Seats, c.Rounds = 2, 2, 1
			batches, games, v := runMatch(t, c, tc.res)
			if !slices.Equal(batches, tc.batches) {
				t.Errorf("batches %v, want %v", batches, tc.batches)
			}
			m := v.Rounds[0].Matches[0]
			pts := m.Points
			if m.Bots[0] != 0 {
				pts[0], pts[1] = pts[1], pts[0]
			}
			if m.Winner != tc.winner || pts != tc.score || m.Decided != tc.decided || m.Games != len(games) {
				t.Errorf("winner %d score %v (%s) in %d games, want %d %v (%s)", m.Winner, pts, m.Decided, m.Games, tc.winner, tc.score, tc.decided)
			}
			// Pairs share a deal, seats swapped; the first seat alternates by pair.
			for i := 0; i < len(games); i += 2 {
				a, b := games[i], games[i+1]
				if a.Deal != b.Deal || a.Seats[0] != b.Seats[1] || (i > 0 && a.Deal == games[i-1].Deal) {
					t.Errorf("games %d,%d are not a pair: %+v %+v", i, i+1, a, b)
				}
			}
		})
	}
}

func TestDoubleElimination(t *testing.T) {
	for bots := 2; bots <= 17; bots++ {
		for ri, res := range []resultFn{strongest, hashed(uint64(bots))} {
			t.Run(fmt.Sprintf("n%d-res%d", bots, ri), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(bots), 1))
				c := Config{Bots: bots, Seats: 2, Rounds: 1, GamesPerEncounter: 2, Seeding: rng.Perm(bots)}
				s, err := DoubleElimination(c)
				if err != nil {
					t.Fatal(err)
				}
				simulate(t, s, res, uint64(bots), 5)
				v := s.(*Elimination).Bracket()
				if v.Status != "done" || v.Champion < 0 {
					t.Fatalf("not finished: %+v", v)
				}
				lost, played := lostMatches(v, bots)
				for b, n := range lost {
					switch {
					case b == v.Champion && n > 1:
						t.Errorf("champion %d lost %d matches", b, n)
					case b != v.Champion && n != 2:
						t.Errorf("bot %d lost %d matches, want 2", b, n)
					}
				}
				gf := v.Rounds[len(v.Rounds)-2].Matches[0]
				reset := v.Rounds[len(v.Rounds)-1].Matches[0]
				wantPlayed := 2*bots - 2
				if gf.Winner == gf.Bots[1] {
					wantPlayed++
					if reset.Status != "done" || reset.Bots != gf.Bots {
						t.Errorf("losers' champion won the final but reset is %+v", reset)
					}
				} else if reset.Status != "not needed" {
					t.Errorf("winners' champion won the final but reset is %+v", reset)
				}
				if played != wantPlayed {
					t.Errorf("%d matches played, want %d", played, wantPlayed)
				}
				if ri == 0 && (v.Champion != 0 || lost[0] != 0) {
					t.Errorf("champion %d, want the strongest", v.Champion)
				}
			})
		}
	}
}

// The grand-final reset, both ways.
func TestGrandFinalReset(t *testing.T) {
	for _, upset := range []bool{false, true} {
		s, _ := DoubleElimination(Config{Bots: 4, Seats: 2, Rounds: 1, GamesPerEncounter: 2})
		res := func(g Game) []int {
			r := strongest(g)
			if upset && strings.HasPrefix(g.ID, "gf1-") {
				r[0], r[1] = r[1], r[0]
			}
			return r
		}
		ledger := simulate(t, s, res, 1, 3)
		v := s.(*Elimination).Bracket()
		gf, reset := v.Rounds[len(v.Rounds)-2].Matches[0], v.Rounds[len(v.Rounds)-1].Matches[0]
		if gf.Bots != [2]int{0, 1} {
			t.Fatalf("grand final %v", gf.Bots)
		}
		gf2 := 0
		for _, p := range ledger {
			if strings.HasPrefix(p.g.ID, "gf2-") {
				gf2++
			}
		}
		if !upset && (gf.Winner != 0 || reset.Status != "not needed" || gf2 != 0) {
			t.Errorf("no upset: final %+v reset %+v, %d reset games", gf, reset, gf2)
		}
		if upset && (gf.Winner != 1 || reset.Status != "done" || reset.Winner != 0 || gf2 != 2) {
			t.Errorf("upset: final %+v reset %+v, %d reset games", gf, reset, gf2)
		}
		if v.Champion != 0 {
			t.Errorf("champion %d", v.Champion)
		}
	}
}

func TestEliminationResume(t *testing.T) {
	for _, bots := range []int{5, 9} {
		for _, gpe := range []int{2, 6} {
			c := Config{Bots: bots, Seats: 2, Rounds: 1, GamesPerEncounter: gpe, MaxGames: 12}
			checkResume(t, func() Scheduler { s, _ := SingleElimination(c); return s }, hashed(uint64(gpe)))
			checkResume(t, func() Scheduler { s, _ := DoubleElimination(c); return s }, hashed(uint64(gpe+1)))
		}
	}
}

func TestBracketRendering(t *testing.T) {
	s, _ := DoubleElimination(Config{Bots: 4, Seats: 2, Rounds: 1, GamesPerEncounter: 2})
	names := []string{"ann", "bob", "cat", "dan"}
	x := s.(*Elimination)
	before := x.Bracket().Text(names)
	for _, want := range []string{
		"Winners' bracket\n  Round 1 (stage 1)\n    w1-m01  [1] ann vs [4] dan\n    w1-m02  [2] bob vs [3] cat\n",
		"    w2-m01  (winner w1-m01) vs (winner w1-m02)\n",
		"    l2-m01  (winner l1-m01) vs (loser w2-m01)\n",
		"Grand final\n  Final (stage 4)\n    gf1     (winner w2-m01) vs (winner l2-m01)\n",
	} {
		if !strings.Contains(before, want) {
			t.Errorf("before play, missing %q in\n%s", want, before)
		}
	}
	simulate(t, s, strongest, 1, 2)
	v := x.Bracket()
	text := v.Text(names)
	for _, want := range []string{
		"    w1-m01  [1] ann vs [4] dan  2-0  -> ann\n",
		"    w2-m01  [1] ann vs [2] bob  2-0  -> ann\n",
		"Losers' bracket\n  Round 1 (stage 2)\n    l1-m01  [4] dan vs [3] cat  0-2  -> cat\n",
		"    l2-m01  [3] cat vs [2] bob  0-2  -> bob\n",
		"    gf1     [1] ann vs [2] bob  2-0  -> ann\n",
		"  Reset (stage 5)\n    gf2     [1] ann vs [2] bob  not needed\n",
		"\nChampion: ann\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"format":"double"`, `"champion":0`, `"status":"done"`,
		`{"id":"gf1","bots":[0,1],"seeds":[1,2],"from":["winner w2-m01","winner l2-m01"],"points":[2,0],"wins":[2,0],"games":2,"winner":0,"status":"done","decided":"score"}`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("JSON lacks %s:\n%s", want, data)
		}
	}
	var back BracketView
	if err := json.Unmarshal(data, &back); err != nil || back.Text(names) != text {
		t.Errorf("JSON round trip: %v", err)
	}
	// Single elimination with a bye.
	s, _ = SingleElimination(Config{Bots: 3, Seats: 2, Rounds: 1, GamesPerEncounter: 2})
	simulate(t, s, strongest, 1, 2)
	text = s.(*Elimination).Bracket().Text(names)
	for _, want := range []string{"Bracket\n", "    w1-m01  [1] ann vs bye  walkover -> ann\n", "Champion: ann"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

func TestAdaptiveConfigErrors(t *testing.T) {
	ok := Config{Bots: 8, Seats: 2, Rounds: 3, GamesPerEncounter: 2}
	with := func(f func(*Config)) Config { c := ok; f(&c); return c }
	cases := []struct {
		c    Config
		f    func(Config) (Scheduler, error)
		want string
	}{
		{with(func(c *Config) { c.Seats = 3; c.GamesPerEncounter = 3 }), Swiss, "2 seats"},
		{with(func(c *Config) { c.GamesPerEncounter = 3 }), Swiss, "even"},
		{with(func(c *Config) { c.Seeding = []int{1, 1} }), Swiss, "twice"},
		{with(func(c *Config) { c.Seeding = []int{8} }), SingleElimination, "out of range"},
		{with(func(c *Config) { c.Seats = 4; c.GamesPerEncounter = 4 }), DoubleElimination, "table elimination"},
		{with(func(c *Config) { c.MaxGames = 3 }), SingleElimination, "max games"},
		{with(func(c *Config) { c.GamesPerEncounter = 4; c.MaxGames = 2 }), DoubleElimination, "max games"},
		{with(func(c *Config) { c.Seats = 4; c.GamesPerEncounter = 6 }), TableElimination, "multiple of 4"},
		{with(func(c *Config) { c.Seats = 4; c.GamesPerEncounter = 4; c.Advance = 4 }), TableElimination, "advance"},
	}
	for _, tc := range cases {
		if _, err := tc.f(tc.c); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.c, err, tc.want)
		}
	}
	for _, f := range []func(Config) (Scheduler, error){Swiss, SingleElimination, DoubleElimination, TableElimination} {
		if _, err := f(ok); err != nil {
			t.Error(err)
		}
	}
}
