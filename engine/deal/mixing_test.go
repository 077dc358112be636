package deal

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// The two tests below check that Deal's walk of swaps mixes (Sweeps)
// where filling in turn is far from uniform: with 1 or 2 sweeps instead
// of 10 both fail (measured when they were written).

// mixCase is a mid-size deal too large to enumerate: 36 cards (12
// kinds, 3 copies), three seats of five cards each, every seat lacking
// three kinds of its own (a colour it could not play), the rest to the
// pile. Filling in turn favours the seats filled first; only the walk
// of swaps makes it uniform.
func mixCase() (pool []uint8, slots []uint64, seats [][2]int) {
	for k := range uint8(12) {
		pool = append(pool, k, k, k)
	}
	lacks := [][]uint8{{0, 1, 2}, {2, 3, 4}, {4, 5, 6}}
	for s, l := range lacks {
		seats = append(seats, [2]int{5 * s, 5*s + 5})
		for range 5 {
			slots = append(slots, ^Only(l...))
		}
	}
	seats = append(seats, [2]int{15, 36})
	for range 21 {
		slots = append(slots, Any)
	}
	return pool, slots, seats
}

// kindMeans is the mean number of each kind (below 12) each seat (and
// the pile) holds over n deals by deal, and its variance.
func kindMeans(n int, seats [][2]int, deal func() []uint8) (mean, variance [][12]float64) {
	return classMeans(n, seats, func(k uint8) uint8 { return k }, deal)
}

// classMeans is kindMeans of the classes of kinds (below 12).
func classMeans(n int, seats [][2]int, class func(uint8) uint8, deal func() []uint8) (mean, variance [][12]float64) {
	mean, variance = make([][12]float64, len(seats)), make([][12]float64, len(seats))
	for range n {
		cards := deal()
		for s, r := range seats {
			var c [12]float64
			for _, k := range cards[r[0]:r[1]] {
				c[class(k)]++
			}
			for k := range c {
				mean[s][k] += c[k] / float64(n)
				variance[s][k] += c[k] * c[k] / float64(n)
			}
		}
	}
	for s := range mean {
		for k := range mean[s] {
			variance[s][k] -= mean[s][k] * mean[s][k]
		}
	}
	return mean, variance
}

// worstZ is the largest difference, in standard errors, between two
// sets of means over n deals each.
func worstZ(n int, m1, v1, m2, v2 [][12]float64) float64 {
	worst := 0.0
	for s := range m1 {
		for k := range m1[s] {
			se := math.Sqrt((v1[s][k] + v2[s][k]) / float64(n))
			if se > 0 {
				worst = max(worst, math.Abs(m1[s][k]-m2[s][k])/se)
			}
		}
	}
	return worst
}

// TestDealMixes compares Deal on mixCase with exact uniform deals,
// drawn by rejection (shuffle until the deal fits): the mean count of
// every kind in every seat must agree within 5 standard errors. The
// same comparison catches the fill without the walk, so the test can
// see poor mixing.
func TestDealMixes(t *testing.T) {
	t.Parallel()
	pool, slots, seats := mixCase()
	rng := rand.New(rand.NewPCG(11, 12))
	n := testkit.Pick(6000, 80000)
	fits := func(cards []uint8) bool {
		for i, k := range cards {
			if slots[i]&(1<<k) == 0 {
				return false
			}
		}
		return true
	}
	shuffled := append([]uint8(nil), pool...)
	mu, vu := kindMeans(n, seats, func() []uint8 {
		for {
			rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			if fits(shuffled) {
				return shuffled
			}
		}
	})
	var dst []uint8
	md, vd := kindMeans(n, seats, func() []uint8 {
		var ok bool
		if dst, ok = Deal(rng, pool, slots, dst); !ok {
			t.Fatal("no deal")
		}
		return dst
	})
	z := worstZ(n, mu, vu, md, vd)
	zf := 0.0
	defer func() {
		t.Logf("worst difference from uniform deals: Deal %.1f, the fill alone %.1f standard errors", z, zf)
	}()
	if z > 5 {
		t.Errorf("Deal's kind counts differ from uniform deals' by %.1f standard errors", z)
	}
	// Without the walk: filled in turn.
	order := []int{}
	for i, m := range slots {
		if m != Any {
			order = append(order, i)
		}
	}
	mf, vf := kindMeans(n, seats, func() []uint8 {
		left := append([]uint8(nil), pool...)
		rng.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
		dst = append(dst[:0], make([]uint8, len(slots))...)
		left, ok := fill(slots, order, left, dst)
		if !ok {
			return dst // painted into a corner: rare, counted as it is
		}
		copy(dst[15:], left)
		return dst
	})
	if zf = worstZ(n, mu, vu, mf, vf); zf < 8 {
		t.Errorf("filling in turn differs from uniform deals by only %.1f standard errors: the test cannot see poor mixing", zf)
	}
}

// TestDealMixesLarge: on an Uno-sized deal (80 cards of 40 kinds in 4
// colours, six seats of seven cards each lacking a colour, some two,
// the rest to the pile), too large for exact uniform deals, Deal agrees
// with itself walked ten times longer: the walk has converged. Means
// of each colour's count in each seat, within 5 standard errors.
func TestDealMixesLarge(t *testing.T) {
	t.Parallel()
	var pool []uint8
	for k := range uint8(40) {
		pool = append(pool, k, k)
	}
	colour := func(k uint8) uint8 { return k / 10 }
	mask := func(cs ...uint8) uint64 {
		var m uint64
		for k := range uint8(40) {
			for _, c := range cs {
				if colour(k) == c {
					m |= 1 << k
				}
			}
		}
		return ^m
	}
	var slots []uint64
	var seats [][2]int
	for s, lack := range [][]uint8{{0}, {1}, {2}, {3}, {0, 1}, {2, 3}} {
		seats = append(seats, [2]int{7 * s, 7*s + 7})
		for range 7 {
			slots = append(slots, mask(lack...))
		}
	}
	seats = append(seats, [2]int{42, 80})
	for len(slots) < len(pool) {
		slots = append(slots, Any)
	}
	rng := rand.New(rand.NewPCG(13, 14))
	n := testkit.Pick(2000, 30000)
	var dst []uint8
	deal := func(extra int) func() []uint8 {
		return func() []uint8 {
			var ok bool
			if dst, ok = Deal(rng, pool, slots, dst); !ok {
				t.Fatal("no deal")
			}
			for range extra {
				mix(rng, slots, dst)
			}
			return dst
		}
	}
	m1, v1 := classMeans(n, seats, colour, deal(0))
	m2, v2 := classMeans(n, seats, colour, deal(9))
	z := worstZ(n, m1, v1, m2, v2)
	t.Logf("worst difference from a walk ten times longer: %.1f standard errors", z)
	if z > 5 {
		t.Errorf("Deal's colour counts differ from a walk ten times longer by %.1f standard errors: the walk has not mixed", z)
	}
}
