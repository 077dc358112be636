package engineserver

// handles are the server's live objects (states, observers, and whatever
// another op file keeps) by handle: positive, unique within the process,
// never reused, at most max live at once.
type handles struct {
	max  int
	last int64
	live map[int64]any
}

// add keeps v under a new handle, or refuses past the limit.
func (hs *handles) add(v any) (int64, error) {
	if len(hs.live) >= hs.max {
		return 0, fail(Limit, "%d handles are live, the most this server keeps (--max-states): free some", hs.max)
	}
	hs.last++
	hs.live[hs.last] = v
	return hs.last, nil
}

// lookup is the object of kind T under h; what names the kind in the
// error ("state", "observer").
func lookup[T any](hs *handles, h *int64, what string) (T, error) {
	var zero T
	if h == nil {
		return zero, fail(BadRequest, "the request has no %q handle", what)
	}
	v, ok := hs.live[*h]
	if !ok {
		return zero, fail(NoHandle, "no %s %d: it was never created, or was freed", what, *h)
	}
	t, ok := v.(T)
	if !ok {
		return zero, fail(NoHandle, "handle %d is not a %s", *h, what)
	}
	return t, nil
}

// free drops the handles given, and counts those that were live.
func (hs *handles) free(hh []int64) int {
	n := 0
	for _, h := range hh {
		if _, ok := hs.live[h]; ok {
			delete(hs.live, h)
			n++
		}
	}
	return n
}
