// Package deal deals hidden cards (or pieces) to the places they may be,
// uniformly over the deals that fit what a seat has seen: the engines'
// samplers (engine.Sampler) share it, so that each states only what its
// game's views tell (which kinds each place may take), not how to draw.
//
// A place is a slot, one card each, with the set of kinds it may take
// as a bit mask (kinds are small numbers below 64). A deal puts each card
// of the pool in one slot; deals are told apart by which card of the
// pool lands where, so two copies of one kind are two cards. That is
// the chance of a deal when the cards were shuffled and dealt face down
// and then some of them were seen not to be of some kinds: a seat's
// older cards that must avoid a colour and a card it drew since that may
// be anything are different slots.
package deal

import (
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Any is the mask of a slot that takes every kind.
const Any = ^uint64(0)

// Only is the mask of a slot that takes only the given kinds.
func Only(kinds ...uint8) uint64 {
	var m uint64
	for _, k := range kinds {
		m |= 1 << k
	}
	return m
}

// Sweeps is how many swaps per slot Deal walks when it must mix: enough
// that the favour of the slots filled first is not measurable in the
// uniformity and mixing tests' samples (engine/deal, engine/uno, also
// with ARENA_THOROUGH's ten times more), where 6 was the fewest that
// passed them all; twice as many cost a tenth of a Boon search's time.
const Sweeps = 10

// Deal deals pool to slots (len(pool) == len(slots)) and writes the
// card each slot takes to dst, which it returns (reusing its memory).
// It reports false when no deal fits (or the lengths differ).
//
// It shuffles the pool, fills the slots that take some kinds only,
// fewest kinds first, each with the first card left that fits, and the
// other slots with the rest in a fresh shuffle. That is exactly uniform
// when the restricted slots share one mask (they get a uniform draw of
// the cards that fit, the rest a uniform shuffle) or differ only by
// slots that take one kind (a card known to be there). Otherwise the
// slots filled first would be favoured, so random swaps of two slots
// follow, each made when both cards still fit: a Metropolis walk whose
// stationary distribution is the uniform one over the deals that fit.
// When filling in turn finds no card for a slot although a deal fits,
// a deal found by matching starts the walk instead.
func Deal(rng *rand.Rand, pool []uint8, slots []uint64, dst []uint8) ([]uint8, bool) {
	if len(pool) != len(slots) {
		return dst, false
	}
	left := append([]uint8(nil), pool...)
	rng.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
	dst = slices.Grow(dst[:0], len(slots))[:len(slots)]
	var order []int
	for i, m := range slots {
		if m != Any {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return bits.OnesCount64(slots[a]) - bits.OnesCount64(slots[b]) })
	left, filled := fill(slots, order, left, dst)
	if !filled {
		// Filling in turn painted itself into a corner (a slot took the
		// only card another could): find a deal that fits by matching.
		// It is no draw at all, so the walk below must mix it.
		var ok bool
		if left, ok = match(pool, slots, order, dst); !ok {
			return dst, false
		}
	}
	// The removals above moved cards around: shuffle what is left again
	// so that the free slots take a uniform order.
	rng.Shuffle(len(left), func(i, j int) { left[i], left[j] = left[j], left[i] })
	k := 0
	for i, m := range slots {
		if m == Any {
			dst[i] = left[k]
			k++
		}
	}
	if mustMix(slots, order) || !filled {
		mix(rng, slots, dst)
	}
	return dst, true
}

// fill gives each restricted slot (order) the first card of left that
// fits, and returns the cards left; false when a slot finds none.
func fill(slots []uint64, order []int, left, dst []uint8) ([]uint8, bool) {
	for _, i := range order {
		m := slots[i]
		j := 0
		for j < len(left) && m&(1<<left[j]) == 0 {
			j++
		}
		if j == len(left) {
			return left, false
		}
		dst[i] = left[j]
		left[j] = left[len(left)-1]
		left = left[:len(left)-1]
	}
	return left, true
}

// match finds a card of pool for every restricted slot (order) by
// augmenting paths (a bipartite matching), writes them to dst and
// returns the cards no slot took; false when no
// matching covers the slots.
func match(pool []uint8, slots []uint64, order []int, dst []uint8) ([]uint8, bool) {
	owner := make([]int, len(pool)) // the slot holding pool[j], -1 none
	for j := range owner {
		owner[j] = -1
	}
	var seen []bool
	var augment func(i int) bool
	augment = func(i int) bool {
		for j, c := range pool {
			if seen[j] || slots[i]&(1<<c) == 0 {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || augment(owner[j]) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	for _, i := range order {
		seen = make([]bool, len(pool))
		if !augment(i) {
			return nil, false
		}
	}
	var left []uint8
	for j, c := range pool {
		if owner[j] < 0 {
			left = append(left, c)
		} else {
			dst[owner[j]] = c
		}
	}
	return left, true
}

// mustMix reports whether the restricted slots (order) take more than
// one mask of several kinds: the case where filling them in turn is not
// uniform.
func mustMix(slots []uint64, order []int) bool {
	var first uint64
	for _, i := range order {
		m := slots[i]
		if bits.OnesCount64(m) <= 1 {
			continue
		}
		if first == 0 {
			first = m
		} else if m != first {
			return true
		}
	}
	return false
}

// mix walks random swaps of two slots, each made when both cards fit
// their new slots.
func mix(rng *rand.Rand, slots []uint64, cards []uint8) {
	n := len(cards)
	for range Sweeps * n {
		i, j := rng.IntN(n), rng.IntN(n)
		a, b := cards[i], cards[j]
		if slots[i]&(1<<b) != 0 && slots[j]&(1<<a) != 0 {
			cards[i], cards[j] = b, a
		}
	}
}
