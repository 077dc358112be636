package web

import (
	"encoding/json"
	"slices"
	"sync"
)

// Bounds on what the feed keeps for a page that connects (or reconnects)
// mid-game: the current game's messages from its hello, at most keptTurns
// of its turns (a long Uno game has thousands; the oldest go first), and
// the results of at most keptResults earlier games.
const (
	keptTurns   = 400
	keptResults = 20
)

// entry is one message to the page: its sequence number (the event id
// of the feed, from 1) and its JSON.
type entry struct {
	seq  int64
	kind string
	data []byte
}

// feed is what the seat tells the page, in order. Pages read it from any
// point they have seen (since), and wait for more (wake).
type feed struct {
	mu      sync.Mutex
	log     []entry
	seq     int64         // the last message's number
	dropped int64         // the highest number no longer kept
	wake    chan struct{} // closed and replaced at each message
	closed  bool
}

func newFeed() *feed { return &feed{wake: make(chan struct{})} }

// publish appends msg (a value that marshals to an object with a "type")
// of kind to the feed and wakes its readers.
func (f *feed) publish(kind string, msg any) {
	data, err := json.Marshal(msg)
	if err != nil { // a view is raw JSON the referee wrote; nothing else can fail
		data, _ = json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	if kind == kindHello {
		f.forget(func(e entry) bool { return e.kind != kindResult }, 0)
		f.forget(func(e entry) bool { return e.kind == kindResult }, keptResults)
	}
	f.log = append(f.log, entry{seq: f.seq, kind: kind, data: data})
	if kind == kindTurn {
		f.forget(func(e entry) bool { return e.kind == kindTurn }, keptTurns)
	}
	close(f.wake)
	f.wake = make(chan struct{})
}

// forget drops the oldest entries that match until at most keep match.
func (f *feed) forget(match func(entry) bool, keep int) {
	n := 0
	for _, e := range f.log {
		if match(e) {
			n++
		}
	}
	f.log = slices.DeleteFunc(f.log, func(e entry) bool {
		if n > keep && match(e) {
			n--
			f.dropped = max(f.dropped, e.seq)
			return true
		}
		return false
	})
}

// since is the messages after number after, and whether they are all of
// them (false: some were forgotten, the page must start again from the
// messages returned, which are all the feed keeps); wake is closed at
// the next message, done says the feed has ended.
func (f *feed) since(after int64) (msgs []entry, whole bool, wake <-chan struct{}, done bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	whole = after >= f.dropped && after <= f.seq
	for _, e := range f.log {
		if !whole || e.seq > after {
			msgs = append(msgs, e)
		}
	}
	return msgs, whole, f.wake, f.closed
}

// close ends the feed: readers send what is left and stop.
func (f *feed) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.wake)
		f.wake = make(chan struct{})
	}
}
