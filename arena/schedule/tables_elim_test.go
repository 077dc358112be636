package schedule

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestTableElimination(t *testing.T) {
	cases := []struct{ bots, seats, advance, gpe int }{
		{4, 4, 1, 4}, {5, 4, 1, 4}, {5, 4, 2, 4}, {7, 4, 3, 4}, {9, 3, 1, 3}, {10, 3, 2, 6},
		{16, 4, 2, 4}, {17, 4, 2, 4}, {30, 4, 1, 4}, {12, 6, 3, 6}, {7, 2, 1, 2}, {20, 5, 4, 5}, {64, 4, 0, 4}, {100, 3, 1, 3},
	}
	for _, tc := range cases {
		for ri, res := range []resultFn{strongest, hashed(uint64(tc.bots))} {
			t.Run(fmt.Sprintf("n%d-k%d-a%d-res%d", tc.bots, tc.seats, tc.advance, ri), func(t *testing.T) {
				c := Config{Bots: tc.bots, Seats: tc.seats, Rounds: 1, GamesPerEncounter: tc.gpe, Advance: tc.advance}
				s, err := TableElimination(c)
				if err != nil {
					t.Fatal(err)
				}
				ledger := simulate(t, s, res, 4, 9)
				if len(ledger) != s.Total() {
					t.Fatalf("%d games, Total %d", len(ledger), s.Total())
				}
				x := s.(*TableKnockout)
				v := x.View()
				if v.Status != "done" || v.Winner < 0 || len(v.Ranking) != tc.seats {
					t.Fatalf("not finished: %+v", v)
				}
				if ri == 0 && v.Winner != 0 {
					t.Errorf("winner %d, want the strongest", v.Winner)
				}
				// Games per table: every rotation, full tables.
				tables := map[string][][]int{}
				for _, p := range ledger {
					key := p.g.ID[:strings.LastIndex(p.g.ID, "-g")]
					tables[key] = append(tables[key], p.g.Seats)
				}
				for key, seatings := range tables {
					if len(seatings) != tc.gpe {
						t.Errorf("table %s: %d games", key, len(seatings))
					}
					for st := range tc.seats {
						count := map[int]int{}
						for _, seats := range seatings {
							count[seats[st]]++
							if len(slices.Compact(slices.Sorted(slices.Values(seats)))) != tc.seats {
								t.Fatalf("table %s: %v", key, seats)
							}
						}
						if len(count) != tc.seats {
							t.Errorf("table %s seat %d: %v", key, st, count)
						}
					}
				}
				alive := make([]int, tc.bots)
				for i := range alive {
					alive[i] = i
				}
				for ri, r := range v.Rounds {
					if r.Alive != len(alive) {
						t.Fatalf("round %d: %d alive, want %d", r.Round, r.Alive, len(alive))
					}
					var seated []int
					seated = append(seated, r.Byes...)
					if len(r.Byes) >= tc.seats {
						t.Errorf("round %d: %d byes", r.Round, len(r.Byes))
					}
					for i, b := range r.Byes { // byes to the best seeds
						if b != alive[i] {
							t.Errorf("round %d: byes %v, alive %v", r.Round, r.Byes, alive)
						}
					}
					var next []int
					next = append(next, r.Byes...)
					for ti, tb := range r.Tables {
						if len(tb.Bots) != tc.seats || tb.Status != "done" {
							t.Fatalf("round %d table %d: %+v", r.Round, ti, tb)
						}
						seated = append(seated, tb.Bots...)
						// Snake seating: table i's best seed is the i-th player.
						if tb.Bots[0] != alive[len(r.Byes)+ti] {
							t.Errorf("round %d table %d starts with %d", r.Round, ti, tb.Bots[0])
						}
						if r.Final {
							continue
						}
						if tb.Advance < 1 || tb.Advance >= tc.seats {
							t.Errorf("round %d table %d advances %d", r.Round, ti, tb.Advance)
						}
						next = append(next, tb.Order[:tb.Advance]...)
						// Order follows placement points.
						for j := 1; j < len(tb.Order); j++ {
							pi, pj := slices.Index(tb.Bots, tb.Order[j-1]), slices.Index(tb.Bots, tb.Order[j])
							if tb.Points[pi] < tb.Points[pj] {
								t.Errorf("table %s order %v points %v", tb.ID, tb.Order, tb.Points)
							}
						}
					}
					slices.Sort(seated)
					if !slices.Equal(seated, alive) {
						t.Fatalf("round %d: seated %v, alive %v", r.Round, seated, alive)
					}
					if r.Final != (ri == len(v.Rounds)-1) || r.Final != (len(alive) == tc.seats) {
						t.Errorf("round %d final %v with %d alive", r.Round, r.Final, len(alive))
					}
					slices.Sort(next)
					alive = next
				}
			})
		}
	}
}

// Placement points and the tie-break rule on a hand-made table.
func TestTablePlacement(t *testing.T) {
	// 4 bots, one final table of 4 games. Ranks by seat of each game
	// (seat s holds table[(s+g)%4], table = [0 1 2 3]):
	res := func(g Game) []int {
		switch g.ID {
		case "e1-t01-g1": // seats 0 1 2 3
			return []int{1, 1, 3, 4} // 0 and 1 tie first: 5/6 each
		case "e1-t01-g2": // seats 1 2 3 0
			return []int{4, 1, 2, 3}
		case "e1-t01-g3": // seats 2 3 0 1
			return []int{4, 3, 1, 2}
		default: // seats 3 0 1 2
			return []int{1, 4, 2, 3}
		}
	}
	s, _ := TableElimination(Config{Bots: 4, Seats: 4, Rounds: 1, GamesPerEncounter: 4})
	simulate(t, s, res, 1, 4)
	v := s.(*TableKnockout).View()
	tb := v.Rounds[0].Tables[0]
	// bot 0: 5/6 + 1/3 + 1 + 0 = 13/6; bot 1: 5/6 + 0 + 2/3 + 2/3 = 13/6;
	// bot 2: 1/3 + 1 + 0 + 1/3 = 5/3; bot 3: 0 + 2/3 + 1/3 + 1 = 2.
	// Bots 0 and 1 tie, both with a first place: the better seed goes first.
	want := []float64{13.0 / 6, 13.0 / 6, 5.0 / 3, 2}
	for i, p := range tb.Points {
		if d := p - want[i]; d > 1e-9 || d < -1e-9 {
			t.Errorf("points %v, want %v", tb.Points, want)
		}
	}
	if !slices.Equal(v.Ranking, []int{0, 1, 3, 2}) || v.Winner != 0 {
		t.Errorf("ranking %v winner %d", v.Ranking, v.Winner)
	}
	// Equal points, the better best rank first. Three seats, table [0 1 2]:
	// g1 seats 0 1 2 ranks 2 1 3; g2 seats 1 2 0 ranks 3 1 2; g3 seats
	// 2 0 1 ranks 1 2 2. Bot 0: 1/2 + 1/2 + 1/4 = 5/4, best rank 2; bot 1:
	// 1 + 0 + 1/4 = 5/4, best rank 1; bot 2: 0 + 1 + 1 = 2.
	three := func(g Game) []int {
		return map[string][]int{"e1-t01-g1": {2, 1, 3}, "e1-t01-g2": {3, 1, 2}, "e1-t01-g3": {1, 2, 2}}[g.ID]
	}
	s, _ = TableElimination(Config{Bots: 3, Seats: 3, Rounds: 1, GamesPerEncounter: 3})
	simulate(t, s, three, 1, 3)
	if v := s.(*TableKnockout).View(); !slices.Equal(v.Ranking, []int{2, 1, 0}) || v.Rounds[0].Tables[0].Points[0] != 1.25 {
		t.Errorf("best-rank tie-break: ranking %v points %v", v.Ranking, v.Rounds[0].Tables[0].Points)
	}
	// Equal points and best ranks: seed order.
	tie := func(g Game) []int { return []int{1, 2, 2, 2} } // whoever sits first wins
	s, _ = TableElimination(Config{Bots: 4, Seats: 4, Rounds: 1, GamesPerEncounter: 4, Seeding: []int{2, 0, 3, 1}})
	simulate(t, s, tie, 1, 4)
	if v := s.(*TableKnockout).View(); !slices.Equal(v.Ranking, []int{2, 0, 3, 1}) {
		t.Errorf("all tied: ranking %v, want seed order", v.Ranking)
	}
}

func TestTableEliminationResume(t *testing.T) {
	c := Config{Bots: 23, Seats: 4, Rounds: 1, GamesPerEncounter: 8, Advance: 2}
	checkResume(t, func() Scheduler { s, _ := TableElimination(c); return s }, hashed(5))
}

func TestTableRendering(t *testing.T) {
	s, _ := TableElimination(Config{Bots: 9, Seats: 4, Rounds: 1, GamesPerEncounter: 4, Advance: 2})
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	x := s.(*TableKnockout)
	simulate(t, s, strongest, 1, 4)
	v := x.View()
	text := v.Text(names)
	// 9 bots: one bye (a), tables b e f i / c d g h, two from each: 5 left,
	// then a bye again and one table; the last round tops up to 4.
	for _, want := range []string{
		"Round 1: 9 bots\n  byes: a\n  e1-t01  b 4.00, e 2.67, f 1.33, i 0.00  (done, 4 games)  -> b, e\n  e1-t02  c 4.00, d 2.67, g 1.33, h 0.00  (done, 4 games)  -> c, d\n",
		"Round 2: 5 bots\n  byes: a\n  e2-t01  b 4.00, c 2.67, d 1.33, e 0.00  (done, 4 games)  -> b, c, d\n",
		"Round 3 (final table): 4 bots\n  e3-t01  a 4.00, b 2.67, c 1.33, d 0.00  (done, 4 games)\n",
		"Winner: a\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
	data, _ := json.Marshal(v)
	if !strings.Contains(string(data), `"winner":0`) || !strings.Contains(string(data), `"ranking":[0,1,2,3]`) {
		t.Errorf("JSON %s", data)
	}
}
