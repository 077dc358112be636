package web

// ring keeps the last max items added to it: what the pages show of a
// ladder of any length, in memory that does not grow with it.
type ring[T any] struct {
	items []T
	next  int // where the next item goes, once items is full
	max   int
}

func newRing[T any](max int) ring[T] { return ring[T]{max: max} }

func (r *ring[T]) add(x T) {
	if len(r.items) < r.max {
		r.items = append(r.items, x)
		return
	}
	r.items[r.next] = x
	r.next = (r.next + 1) % r.max
}

func (r *ring[T]) len() int { return len(r.items) }

// last are the last n items (all if fewer), oldest first.
func (r *ring[T]) last(n int) []T {
	n = max(min(n, len(r.items)), 0)
	out := make([]T, 0, n)
	start := r.next - n // the oldest wanted, before wrapping
	if len(r.items) < r.max {
		start = len(r.items) - n
	}
	for i := range n {
		out = append(out, r.items[((start+i)%len(r.items)+len(r.items))%len(r.items)])
	}
	return out
}
