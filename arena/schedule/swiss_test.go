package schedule

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"testing"
)

// Helpers shared by the adaptive formats' tests.

// resultFn decides a game from the game alone, never from when it is asked.
type resultFn func(g Game) []int

// strongest: the lower bot index ranks better.
func strongest(g Game) []int {
	ranks := make([]int, len(g.Seats))
	for i, a := range g.Seats {
		ranks[i] = 1
		for _, b := range g.Seats {
			if b < a {
				ranks[i]++
			}
		}
	}
	return ranks
}

// hashed gives seeded pseudo-random ranks (ties included) from the game's
// ID and seats.
func hashed(seed uint64) resultFn {
	return func(g Game) []int {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d|%s|%v", seed, g.ID, g.Seats)
		rng := rand.New(rand.NewPCG(h.Sum64(), seed))
		ranks := make([]int, len(g.Seats))
		for i := range ranks {
			ranks[i] = 1 + rng.IntN(len(g.Seats))
		}
		return ranks
	}
}

type played struct {
	g     Game
	ranks []int
}

// simulate drives s like the runner: up to par games in flight, finishing
// a random one at a time. It returns the games in the order they finished
// (the ledger order).
func simulate(t *testing.T, s Scheduler, res resultFn, seed uint64, par int) []played {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	var flight []Game
	var ledger []played
	seen := map[string]bool{}
	for range 1_000_000 {
		st := Ready
		for len(flight) < par {
			var g Game
			g, st = s.Next()
			if st != Ready {
				break
			}
			if seen[g.ID] {
				t.Fatalf("game %s handed out twice", g.ID)
			}
			seen[g.ID] = true
			flight = append(flight, g)
		}
		if len(flight) == 0 {
			if st == Done {
				return ledger
			}
			t.Fatalf("scheduler waits with no game in flight after %d games", len(ledger))
		}
		i := rng.IntN(len(flight))
		g := flight[i]
		flight = slices.Delete(flight, i, i+1)
		r := res(g)
		s.Result(g, r)
		ledger = append(ledger, played{g, r})
	}
	t.Fatal("schedule does not end")
	return nil
}

// gameSet is a ledger keyed by ID, for comparing runs.
func gameSet(ledger []played) map[string]string {
	out := map[string]string{}
	for _, p := range ledger {
		out[p.g.ID] = fmt.Sprintf("r%d d%d %v", p.g.Round, p.g.Deal, p.g.Seats)
	}
	return out
}

func sameGames(t *testing.T, what string, a, b map[string]string) {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%s: %d games vs %d", what, len(a), len(b))
	}
	for id, x := range a {
		if b[id] != x {
			t.Fatalf("%s: game %s is %q vs %q", what, id, x, b[id])
		}
	}
}

// checkResume plays the tournament once, then resumes it twice from a
// prefix of its ledger: fed back as the runner does (on Next, in handout
// order) and fed in shuffled order before the first Next. Both must end
// with the same games.
func checkResume(t *testing.T, mk func() Scheduler, res resultFn) {
	t.Helper()
	full := simulate(t, mk(), res, 1, 7)
	want := gameSet(full)
	// Differently ordered runs give the same games.
	sameGames(t, "serial run", want, gameSet(simulate(t, mk(), res, 2, 1)))
	sameGames(t, "wide run", want, gameSet(simulate(t, mk(), res, 3, 64)))
	for _, cut := range []int{len(full) / 3, len(full) * 3 / 4} {
		ledger := map[string][]int{}
		for _, p := range full[:cut] {
			ledger[p.g.ID] = p.ranks
		}
		// As the runner does: a game found in the ledger is fed back at once.
		s := mk()
		replay := func(g Game) []int { return res(g) }
		got := map[string]string{}
		var flight []Game
		for range 1_000_000 {
			g, st := s.Next()
			if st == Ready {
				if r, ok := ledger[g.ID]; ok {
					s.Result(g, r)
					got[g.ID] = fmt.Sprintf("r%d d%d %v", g.Round, g.Deal, g.Seats)
					continue
				}
				flight = append(flight, g)
				if len(flight) < 5 {
					continue
				}
			}
			if len(flight) == 0 {
				if st != Done {
					t.Fatal("resumed run waits with nothing in flight")
				}
				break
			}
			g = flight[len(flight)-1]
			flight = flight[:len(flight)-1]
			s.Result(g, replay(g))
			got[g.ID] = fmt.Sprintf("r%d d%d %v", g.Round, g.Deal, g.Seats)
		}
		sameGames(t, fmt.Sprintf("resume at %d on Next", cut), want, got)

		// Fed up front, in another order.
		s = mk()
		prefix := slices.Clone(full[:cut])
		rand.New(rand.NewPCG(uint64(cut), 5)).Shuffle(len(prefix), func(i, j int) { prefix[i], prefix[j] = prefix[j], prefix[i] })
		got = map[string]string{}
		for _, p := range prefix {
			s.Result(p.g, p.ranks)
			got[p.g.ID] = fmt.Sprintf("r%d d%d %v", p.g.Round, p.g.Deal, p.g.Seats)
		}
		for _, p := range simulate(t, s, res, 9, 3) {
			if _, dup := got[p.g.ID]; dup {
				t.Fatalf("resume up front: game %s from the ledger handed out again", p.g.ID)
			}
			got[p.g.ID] = fmt.Sprintf("r%d d%d %v", p.g.Round, p.g.Deal, p.g.Seats)
		}
		sameGames(t, fmt.Sprintf("resume at %d up front", cut), want, got)
	}
}

// --- Swiss ---

// maxMatching reports whether bots can be paired off avoiding the pairs in
// met (exhaustive: small fields only).
func perfectAvoiding(bots []int, met map[[2]int]bool) bool {
	if len(bots) == 0 {
		return true
	}
	a := bots[0]
	for i := 1; i < len(bots); i++ {
		if met[pairKey(a, bots[i])] {
			continue
		}
		rest := append(slices.Clone(bots[1:i]), bots[i+1:]...)
		if perfectAvoiding(rest, met) {
			return true
		}
	}
	return false
}

func TestSwissProperties(t *testing.T) {
	for bots := 2; bots <= 21; bots++ {
		for _, gpe := range []int{2, 4} {
			rounds := min(bots+1, 4+bots/3)
			if gpe == 4 {
				rounds = min(rounds, 5)
			}
			for ri, res := range []resultFn{strongest, hashed(uint64(bots))} {
				t.Run(fmt.Sprintf("n%d-g%d-res%d", bots, gpe, ri), func(t *testing.T) {
					c := Config{Bots: bots, Seats: 2, Rounds: rounds, GamesPerEncounter: gpe}
					s, err := Swiss(c)
					if err != nil {
						t.Fatal(err)
					}
					ledger := simulate(t, s, res, uint64(bots*gpe), 5)
					if len(ledger) != s.Total() {
						t.Fatalf("%d games, Total %d", len(ledger), s.Total())
					}
					// Rebuild the rounds.
					byRound := make([]map[[2]int][]Game, rounds+1)
					for i := range byRound {
						byRound[i] = map[[2]int][]Game{}
					}
					half := make([]int, bots)
					for _, p := range ledger {
						g := p.g
						if g.Round < 1 || g.Round > rounds {
							t.Fatalf("game %s in round %d", g.ID, g.Round)
						}
						k := pairKey(g.Seats[0], g.Seats[1])
						byRound[g.Round][k] = append(byRound[g.Round][k], g)
						sc := pairScore(p.ranks)
						half[g.Seats[0]] += sc
						half[g.Seats[1]] += 2 - sc
					}
					met := map[[2]int]bool{}
					byes := make([]int, bots)
					sw := s.(*SwissScheduler)
					for r := 1; r <= rounds; r++ {
						plays := make([]int, bots)
						for k, games := range byRound[r] {
							plays[k[0]]++
							plays[k[1]]++
							if len(games) != gpe {
								t.Fatalf("round %d pair %v: %d games", r, k, len(games))
							}
							deals := map[uint64][][]int{}
							for _, g := range games {
								deals[g.Deal] = append(deals[g.Deal], g.Seats)
							}
							for d, seatings := range deals {
								if len(seatings) != 2 || seatings[0][0] != seatings[1][1] {
									t.Fatalf("round %d deal %d: not a swapped pair: %v", r, d, seatings)
								}
							}
						}
						var bye []int
						for b, n := range plays {
							switch n {
							case 0:
								bye = append(bye, b)
							case 1:
							default:
								t.Fatalf("round %d: bot %d plays %d encounters", r, b, n)
							}
						}
						if len(bye) != bots%2 {
							t.Fatalf("round %d: byes %v", r, bye)
						}
						fewest := slices.Min(byes) // before this round
						for _, b := range bye {
							if byes[b] > fewest {
								t.Fatalf("round %d: bot %d gets a second bye while others have fewer: %v", r, b, byes)
							}
						}
						// Rematches only when unavoidable (given the bye rule).
						rematch := false
						for k := range byRound[r] {
							if met[k] {
								rematch = true
							}
						}
						if rematch {
							avoidable := r <= bots/2
							if bots <= 14 {
								var field []int
								for b := range bots {
									field = append(field, b)
								}
								avoidable = false
								if bots%2 == 0 {
									avoidable = perfectAvoiding(field, met)
								}
								for _, b := range field {
									if bots%2 == 1 && byes[b] == fewest && perfectAvoiding(slices.DeleteFunc(slices.Clone(field), func(x int) bool { return x == b }), met) {
										avoidable = true
									}
								}
							}
							if avoidable {
								t.Fatalf("round %d: a rematch that could have been avoided", r)
							}
						}
						for _, b := range bye {
							byes[b]++
							half[b] += 2 * gpe
						}
						for k := range byRound[r] {
							met[k] = true
						}
					}
					// Standings.
					rows := sw.Standings()
					sum := 0.0
					for _, row := range rows {
						sum += row.Points
						if row.Points != float64(half[row.Bot])/2 {
							t.Errorf("bot %d: %v points, want %v", row.Bot, row.Points, float64(half[row.Bot])/2)
						}
						if len(row.Opponents) != rounds {
							t.Errorf("bot %d: opponents %v", row.Bot, row.Opponents)
						}
						// Seat balance: who started encounters.
						if d := 2*row.Starts - (rounds - row.Byes); d < -2 || d > 2 {
							t.Errorf("bot %d started %d of %d encounters", row.Bot, row.Starts, rounds-row.Byes)
						}
					}
					if want := float64(rounds*(bots/2)*gpe + rounds*(bots%2)*gpe); sum != want {
						t.Errorf("points sum %v, want %v", sum, want)
					}
					if ri == 0 && half[0] != 2*rounds*gpe {
						t.Errorf("the strongest bot scored %v of %d", float64(half[0])/2, rounds*gpe)
					}
				})
			}
		}
	}
}

// With gpe even, every bot has seat 0 in exactly half its games; the
// first-game seat is spread as evenly as the pairings allow.
func TestSwissSeatBalance(t *testing.T) {
	worst := 0
	for bots := 4; bots <= 24; bots += 2 {
		c := Config{Bots: bots, Seats: 2, Rounds: 7, GamesPerEncounter: 2}
		s, _ := Swiss(c)
		simulate(t, s, hashed(7), 1, 8)
		for _, row := range SwissStandings(s) {
			d := 2*row.Starts - (c.Rounds - row.Byes)
			worst = max(worst, d, -d)
		}
	}
	t.Logf("largest start imbalance: %d", worst)
	if worst > 2 {
		t.Errorf("start imbalance %d", worst)
	}
}

func TestSwissRoundOneDutch(t *testing.T) {
	seeding := []int{7, 3, 5, 0, 1, 6, 2, 4}
	s, _ := Swiss(Config{Bots: 8, Seats: 2, Rounds: 1, GamesPerEncounter: 2, Seeding: seeding})
	var got [][2]int
	for {
		g, st := s.Next()
		if st != Ready {
			break
		}
		if g.ID[len(g.ID)-2:] == "g1" {
			got = append(got, [2]int{g.Seats[0], g.Seats[1]})
		}
	}
	// Seeds 1-5, 2-6, 3-7, 4-8; the higher seed starts on odd boards.
	want := [][2]int{{7, 1}, {6, 3}, {5, 2}, {4, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("round 1: %v, want %v", got, want)
	}
	// An odd field: the last seed sits out.
	s, _ = Swiss(Config{Bots: 5, Seats: 2, Rounds: 1, GamesPerEncounter: 2})
	simulate(t, s, strongest, 1, 1)
	for _, row := range SwissStandings(s) {
		if (row.Byes == 1) != (row.Bot == 4) {
			t.Errorf("bot %d has %d byes", row.Bot, row.Byes)
		}
	}
}

// A hand-worked example. Four bots, two rounds, 2 games per encounter,
// the lower index always wins.
//
//	round 1 (seeds 1-3, 2-4): 0 beats 2 2-0, 1 beats 3 2-0
//	round 2 (score groups {0,1} and {2,3}): 0 beats 1, 2 beats 3
//
// Points: 0:4, 1:2, 2:2, 3:0.
// Buchholz: 0: 2+2=4; 1: 0+4=4; 2: 4+0=4; 3: 2+2=4.
// Sonneborn-Berger (opponent's points times the share won):
// 0: 2*1 + 2*1 = 4; 1: 0*1 + 4*0 = 0; 2: 4*0 + 0*1 = 0; 3: 0.
// Five bots, one round: bot 4 has the bye, worth 2 points, no Buchholz.
func TestSwissTieBreaks(t *testing.T) {
	s, _ := Swiss(Config{Bots: 4, Seats: 2, Rounds: 2, GamesPerEncounter: 2})
	simulate(t, s, strongest, 1, 3)
	type row struct {
		bot           int
		pts, buch, sb float64
	}
	var got []row
	for _, r := range SwissStandings(s) {
		got = append(got, row{r.Bot, r.Points, r.Buchholz, r.SonnebornBerger})
	}
	want := []row{{0, 4, 4, 4}, {1, 2, 4, 0}, {2, 2, 4, 0}, {3, 0, 4, 0}}
	if !slices.Equal(got, want) {
		t.Errorf("standings %v, want %v", got, want)
	}

	// Draws and a bye: 3 bots, 1 round, every game drawn.
	s, _ = Swiss(Config{Bots: 3, Seats: 2, Rounds: 2, GamesPerEncounter: 2})
	draw := func(Game) []int { return []int{1, 1} }
	simulate(t, s, draw, 1, 3)
	// Round 1: 0-1 drawn (1 each), 2 bye (2). Round 2: 2 (2 pts) plays 0
	// (1, better seed than 1), drawn; 1 has the bye.
	// Points: 0: 2, 1: 1+2 = 3, 2: 2+1 = 3.
	// Buchholz: 0: 3+3 = 6; 1: 2; 2: 2. SB: 0: (3+3)/2 = 3; 1: 1; 2: 1.
	want = []row{{1, 3, 2, 1}, {2, 3, 2, 1}, {0, 2, 6, 3}}
	got = nil
	for _, r := range SwissStandings(s) {
		got = append(got, row{r.Bot, r.Points, r.Buchholz, r.SonnebornBerger})
	}
	if !slices.Equal(got, want) {
		t.Errorf("standings %v, want %v", got, want)
	}
}

func TestSwissResume(t *testing.T) {
	for _, bots := range []int{7, 12} {
		c := Config{Bots: bots, Seats: 2, Rounds: 5, GamesPerEncounter: 4}
		checkResume(t, func() Scheduler { s, _ := Swiss(c); return s }, hashed(3))
	}
}

// The round is handed out whole before the scheduler waits.
func TestSwissWaitsBetweenRounds(t *testing.T) {
	s, _ := Swiss(Config{Bots: 6, Seats: 2, Rounds: 2, GamesPerEncounter: 2})
	var round []Game
	for {
		g, st := s.Next()
		if st != Ready {
			if st != Wait {
				t.Fatalf("status %v after round 1", st)
			}
			break
		}
		round = append(round, g)
	}
	if len(round) != 6 {
		t.Fatalf("%d games handed out before waiting", len(round))
	}
	for _, g := range round[:5] {
		s.Result(g, strongest(g))
		if _, st := s.Next(); st != Wait {
			t.Fatal("round 2 started before round 1 ended")
		}
	}
	s.Result(round[5], strongest(round[5]))
	if g, st := s.Next(); st != Ready || g.Round != 2 {
		t.Fatalf("round 2 did not start: %v %v", g, st)
	}
}
