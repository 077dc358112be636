package deal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// TestDealUniform deals small pools to two seats (two slots each) and a
// pile: every way to deal the pool's cards to the slots that fits must
// be equally likely. An outcome tells a deal only by what each seat
// holds in slots of each mask (a seat's cards are a set), so the chance
// of each outcome is the number of deals giving it over all deals that
// fit, both counted by enumeration.
func TestDealUniform(t *testing.T) {
	const a, b, c, d, e = 1, 2, 3, 4, 5
	cases := []struct {
		name  string
		pool  []uint8
		slots []uint64
	}{
		{"two seats restricted", []uint8{a, b, c, d, e}, []uint64{Only(a, b, c), Only(a, b, c), Only(b, c, d, e), Only(b, c, d, e), Any}},
		{"one older card", []uint8{a, b, c, d, e}, []uint64{Only(a, b, c), Any, Any, Any, Any}},
		{"two seats with fresh cards", []uint8{a, b, c, d, e}, []uint64{Only(a, b), Any, Only(b, c, d), Any, Any}},
		{"a known card", []uint8{a, b, c, d, e}, []uint64{Only(d), Only(a, b, d, e), Only(a, b, c, d, e), Any, Any}},
		{"copies of a kind", []uint8{a, a, b, b, c}, []uint64{Only(a, c), Only(a, c), Only(b, c), Any, Any}},
		{"nothing restricted", []uint8{a, b, c, d, e}, []uint64{Any, Any, Any, Any, Any}},
	}
	groups := []int{0, 2, 4, 5} // the seats' and the pile's first slots
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			n := testkit.Pick(20000, 200000)
			counts := map[string]int{}
			var dst []uint8
			for range n {
				var ok bool
				if dst, ok = Deal(rng, cs.pool, cs.slots, dst); !ok {
					t.Fatal("no deal")
				}
				counts[outcome(cs.slots, dst, groups)]++
			}
			ways, total := fitting(cs.pool, cs.slots, groups)
			if len(counts) != len(ways) {
				t.Fatalf("%d outcomes came up, %d fit: %v", len(counts), len(ways), counts)
			}
			chi := 0.0
			for k, w := range ways {
				e := float64(n) * float64(w) / float64(total)
				chi += (float64(counts[k]) - e) * (float64(counts[k]) - e) / e
			}
			if lim := chiSquareLimit(len(ways) - 1); chi > lim {
				t.Fatalf("chi-square %.1f over %d outcomes (limit %.1f): %v", chi, len(ways), lim, counts)
			}
		})
	}
}

// TestDealCorner: filling the two-kind slot first may take the only
// card the other slot fits; the deal must still be found.
func TestDealCorner(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var dst []uint8
	for range 100 {
		var ok bool
		if dst, ok = Deal(rng, []uint8{1, 2, 5}, []uint64{Only(1, 2), Only(1, 3, 4), Any}, dst); !ok {
			t.Fatal("no deal")
		}
		if dst[0] != 2 || dst[1] != 1 || dst[2] != 5 {
			t.Fatalf("deal %v, want [2 1 5]", dst)
		}
	}
}

func TestDealNoFit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	cases := []struct {
		name  string
		pool  []uint8
		slots []uint64
	}{
		{"no card of a kind", []uint8{1, 2}, []uint64{Only(3), Any}},
		{"lengths differ", []uint8{1, 2}, []uint64{Any}},
		{"two slots for one card", []uint8{1, 2}, []uint64{Only(1), Only(1)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := Deal(rng, c.pool, c.slots, nil); ok {
				t.Fatal("dealt")
			}
		})
	}
}

// chiSquareLimit is the 0.1% point of chi-square with df degrees of
// freedom (Wilson-Hilferty); df 0 has none to measure.
func chiSquareLimit(df int) float64 {
	if df <= 0 {
		return math.Inf(1)
	}
	const z = 3.09
	d := float64(df)
	x := 1 - 2/(9*d) + z*math.Sqrt(2/(9*d))
	return d * x * x * x
}

// outcome is what a deal shows: each group's cards in slots of each
// mask, as sets.
func outcome(slots []uint64, cards []uint8, groups []int) string {
	k := ""
	for g := 0; g+1 < len(groups); g++ {
		byMask := map[uint64][]uint8{}
		var masks []uint64
		for i := groups[g]; i < groups[g+1]; i++ {
			if _, ok := byMask[slots[i]]; !ok {
				masks = append(masks, slots[i])
			}
			byMask[slots[i]] = append(byMask[slots[i]], cards[i])
		}
		slices.Sort(masks)
		for _, m := range masks {
			slices.Sort(byMask[m])
			k += fmt.Sprint(byMask[m])
		}
		k += "|"
	}
	return k
}

// fitting counts the deals of pool's cards (each card distinct, copies
// of a kind too) to slots that fit, by outcome and in all.
func fitting(pool []uint8, slots []uint64, groups []int) (map[string]int, int) {
	ways, total := map[string]int{}, 0
	cards := make([]uint8, len(slots))
	var rec func(i int, left []uint8)
	rec = func(i int, left []uint8) {
		if i == len(slots) {
			ways[outcome(slots, cards, groups)]++
			total++
			return
		}
		for j, c := range left {
			if slots[i]&(1<<c) != 0 {
				cards[i] = c
				rec(i+1, append(slices.Clone(left[:j]), left[j+1:]...))
			}
		}
	}
	rec(0, pool)
	return ways, total
}

// Example deals four cards: seat one's older card lacks kind 0 (it drew
// rather than play one), its card drawn since may be anything, and the
// rest goes to the pile.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	pool := []uint8{0, 0, 1, 2}
	slots := []uint64{Only(1, 2), Any, Any, Any}
	cards, ok := Deal(rng, pool, slots, nil)
	fmt.Println(ok, cards[0] != 0, len(cards))
	// Output: true true 4
}
