package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// Options choose what a page holds. The zero value holds everything: every
// seat's view, the seed, every move.
type Options struct {
	// OneSeat restricts the page to what Seat could know (ForSeat).
	OneSeat bool
	// Seat is the seat the page is written for when OneSeat is set.
	Seat int
}

// ForSeat is the Options of a page for the contestant in seat: only that
// seat's views and what was public.
func ForSeat(seat int) Options { return Options{OneSeat: true, Seat: seat} }

// ErrNoSeat is wrapped by the error for Options naming a seat the game
// does not have.
var ErrNoSeat = errors.New("no such seat")

// page is the data the page's script draws, embedded as JSON.
//
// Positions are numbered from 0 (the start); position p > 0 is the state
// after Moves[p-1]. Frames[p] holds one delta per stored view, the public
// view first and then the seats of Stored in order: the public delta
// turns the public view of position p-1 into that of p (position 0: from
// the empty object), a seat's delta does the same for the seat's part,
// the top-level fields of its view that differ from the public view (a
// field "$absent" lists the public fields its view lacks). A delta is 0
// when nothing changed, else {"s": fields set, "a": arrays appended to,
// "d": fields deleted}. Deltas keep the longest games small: most of a
// view does not change from one move to the next, and what grows (a
// discard pile, a list of tricks) grows at its end.
type page struct {
	Game    string         `json:"game"`
	Arena   string         `json:"arena"`
	Options engine.Options `json:"options"`
	// Seed is a string (JavaScript numbers lose precision above 2^53);
	// absent from a one-seat page, where it would give the hands away.
	Seed    string   `json:"seed,omitempty"`
	Match   string   `json:"match"`
	GameID  string   `json:"game_id"`
	Started string   `json:"started,omitempty"`
	Bots    []string `json:"bots"`
	// For is the seat a one-seat page is written for, -1 for a page of
	// every view.
	For    int        `json:"for"`
	Stored []int      `json:"stored"`
	Frames [][]*delta `json:"frames"`
	Moves  []move     `json:"moves"`
	Notes  []note     `json:"notes"`
	// Result is the replay's, its reason with each seat it mentions
	// named (engine.NameSeats).
	Result replays.Result `json:"result"`
	Clock  protocol.Clock `json:"clock"`
}

// move is the move that led to a position.
type move struct {
	Seat int `json:"seat"`
	// Text is the action in the game's notation, as the page's viewer
	// saw it.
	Text    string `json:"text"`
	ThinkUs int64  `json:"think_us"`
	WaitUs  int64  `json:"wait_us,omitempty"`
	Referee bool   `json:"referee,omitempty"`
	// Note is what the bot said with the move (replays.Move.Note), and
	// NoteDropped why the referee did not keep what it said; on a page
	// for one seat, that seat's only.
	Note        json.RawMessage `json:"note,omitempty"`
	NoteDropped string          `json:"note_dropped,omitempty"`
}

// note is a strike or a forfeit, shown before the move of position
// Pos+1 (a strike: the referee's move that replaced the failed one).
type note struct {
	Pos    int    `json:"pos"`
	Type   string `json:"type"`
	Seat   int    `json:"seat"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// delta is one view's change between positions (see page).
type delta struct {
	Set    map[string]json.RawMessage `json:"s,omitempty"`
	Append map[string]json.RawMessage `json:"a,omitempty"`
	Delete []string                   `json:"d,omitempty"`
}

// fields is a view's top-level JSON fields.
type fields map[string]json.RawMessage

// absentKey is the seat part's field that lists the public fields the
// seat's view lacks.
const absentKey = "$absent"

// build re-simulates r and collects the page's data.
func build(r *replays.Replay, opts Options) (*page, error) {
	h := &r.Header
	n := len(h.Seats)
	if opts.OneSeat && (opts.Seat < 0 || opts.Seat >= n) {
		return nil, fmt.Errorf("%w: seat %d (the game has seats 0-%d)", ErrNoSeat, opts.Seat, n-1)
	}
	p := &page{
		Game: h.Game, Arena: h.Arena, Options: h.Options, Match: h.Match, GameID: h.GameID,
		For: -1, Result: r.Result, Moves: []move{}, Notes: []note{}, Clock: h.Clock,
	}
	if !h.Started.IsZero() {
		p.Started = h.Started.Format(time.RFC3339)
	}
	p.Bots = r.Bots()
	p.Result.Reason = engine.NameSeats(r.Result.Reason, p.Bots)
	if opts.OneSeat {
		p.For = opts.Seat
		p.Stored = []int{opts.Seat}
		// The count of moves would tell how many hidden decisions the
		// others took; the reason and ranks are public.
		p.Result.Plies = 0
	} else {
		p.Seed = strconv.FormatUint(h.Seed, 10)
		p.Stored = make([]int, n)
		for i := range n {
			p.Stored[i] = i
		}
	}
	rules := rulesOf(h.Game)
	c := &collector{seats: p.Stored}
	var (
		base, cur []fields // views of the last sealed position and of the open one
		strike    *note
	)
	seal := func() {
		frame := make([]*delta, len(cur))
		for i := range cur {
			var old fields
			if base != nil {
				old = base[i]
			}
			frame[i] = diff(old, cur[i])
		}
		p.Frames = append(p.Frames, frame)
		base = cur
	}
	err := replays.Walk(r, func(st replays.Step) error {
		views, err := c.viewsOf(st.State)
		if err != nil {
			return err
		}
		if st.Event < 0 {
			cur = views
			return nil
		}
		e := r.Events[st.Event]
		switch {
		case e.Strike != nil:
			strike = &note{Type: replays.TypeStrike, Seat: e.Strike.Seat, Reason: string(e.Strike.Reason), Detail: detailFor(opts, e.Strike)}
		case e.Forfeit != nil:
			p.Notes = append(p.Notes, note{Pos: len(p.Frames), Type: replays.TypeForfeit, Seat: e.Forfeit.Seat,
				Reason: string(e.Forfeit.Reason), Detail: detailFor(opts, e.Forfeit)})
		case e.Move != nil:
			m := e.Move
			if opts.OneSeat && m.Seat != opts.Seat && hidden(rules, cur, views) {
				// Seat never learnt of this decision: it becomes part of
				// the position it follows, strike and all.
				cur, strike = views, nil
				return nil
			}
			if strike != nil {
				strike.Pos = len(p.Frames)
				p.Notes = append(p.Notes, *strike)
				strike = nil
			}
			viewer := -1
			if opts.OneSeat {
				viewer = opts.Seat
			}
			mv := move{
				Seat: m.Seat, Text: rules.text(st.Action, m.Seat, viewer, views[0]),
				ThinkUs: m.ThinkUs, WaitUs: m.WaitUs, Referee: m.By == replays.ByReferee,
			}
			if !opts.OneSeat || m.Seat == opts.Seat {
				// Another seat's note is its bot's thinking, which may
				// name its cards: not in a page for seat k at all.
				mv.Note, mv.NoteDropped = m.Note, m.NoteDropped
			}
			p.Moves = append(p.Moves, mv)
			seal()
			cur = views
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	seal()
	return p, nil
}

// eventsKey is the field of Uno's and Boon's views that lists what
// happened since the seat's last decision. A seat's part keeps only the
// events of the latest move that the public view does not have (a draw
// with the cards drawn, a challenger's reveal): the rest repeats the
// public events of earlier positions, and stored for every seat at every
// position it was two thirds of a long game's page.
const eventsKey = "events"

// collector gathers the views of every position.
type collector struct {
	seats []int
	// events is each stored seat's whole events list at the last
	// position.
	events [][][]byte
}

// viewsOf is the public view of st and the parts of the seats' views
// that differ from it.
func (c *collector) viewsOf(st engine.State) ([]fields, error) {
	pub, err := fieldsOf(st.View(engine.Spectator))
	if err != nil {
		return nil, err
	}
	if c.events == nil {
		c.events = make([][][]byte, len(c.seats))
	}
	out := make([]fields, 0, 1+len(c.seats))
	out = append(out, pub)
	for i, s := range c.seats {
		v, err := fieldsOf(st.View(s))
		if err != nil {
			return nil, err
		}
		part := fields{}
		var absent []string
		for k, raw := range v {
			if k == eventsKey {
				if raw, err = c.private(i, raw, pub[k]); err != nil {
					return nil, err
				}
				if raw == nil {
					continue
				}
			}
			if !bytes.Equal(raw, pub[k]) {
				part[k] = raw
			}
		}
		for k := range pub {
			if _, ok := v[k]; !ok {
				absent = append(absent, k)
			}
		}
		if absent != nil {
			slices.Sort(absent)
			part[absentKey], _ = json.Marshal(absent)
		}
		out = append(out, part)
	}
	return out, nil
}

// private is the array of the events in seat i's events that are new
// since the last position and not among the public ones, nil if none.
func (c *collector) private(i int, events, public json.RawMessage) (json.RawMessage, error) {
	_, list, err := members(events)
	if err != nil {
		return nil, err
	}
	_, pub, err := members(public)
	if err != nil && public != nil {
		return nil, err
	}
	fresh := list
	if prev := c.events[i]; len(prev) <= len(list) && slices.EqualFunc(prev, list[:len(prev)], bytes.Equal) {
		fresh = list[len(prev):]
	}
	c.events[i] = list
	var own [][]byte
	for _, e := range fresh {
		if !slices.ContainsFunc(pub, func(p []byte) bool { return bytes.Equal(p, e) }) {
			own = append(own, e)
		}
	}
	if own == nil {
		return nil, nil
	}
	return append(append([]byte{'['}, bytes.Join(own, []byte{','})...), ']'), nil
}

// fieldsOf splits a view's JSON object into its fields.
func fieldsOf(view any) (fields, error) {
	b, err := engine.AppendJSON(nil, view)
	if err != nil {
		return nil, fmt.Errorf("viewer: encoding a view: %w", err)
	}
	keys, vals, err := members(b)
	if err != nil || b[0] != '{' {
		return nil, fmt.Errorf("viewer: a view is not a JSON object (%.40s)", b)
	}
	f := make(fields, len(keys))
	for i, k := range keys {
		f[k] = vals[i]
	}
	return f, nil
}

// diff is the delta from old to cur, nil when they are equal.
func diff(old, cur fields) *delta {
	d := &delta{}
	for _, k := range slices.Sorted(maps.Keys(cur)) {
		raw := cur[k]
		was, ok := old[k]
		if ok && bytes.Equal(was, raw) {
			continue
		}
		if tail, ok := appended(was, raw); ok {
			if d.Append == nil {
				d.Append = map[string]json.RawMessage{}
			}
			d.Append[k] = tail
			continue
		}
		if d.Set == nil {
			d.Set = map[string]json.RawMessage{}
		}
		d.Set[k] = raw
	}
	for _, k := range slices.Sorted(maps.Keys(old)) {
		if _, ok := cur[k]; !ok {
			d.Delete = append(d.Delete, k)
		}
	}
	if d.Set == nil && d.Append == nil && d.Delete == nil {
		return nil
	}
	return d
}

// appended reports whether cur is the JSON array was with elements added
// at its end, and returns those elements as an array.
func appended(was, cur json.RawMessage) (json.RawMessage, bool) {
	if len(was) < 3 || len(cur) <= len(was) || was[0] != '[' || cur[0] != '[' ||
		!bytes.Equal(was[:len(was)-1], cur[:len(was)-1]) || cur[len(was)-1] != ',' {
		return nil, false
	}
	// was without its "]" is a prefix of cur, followed by a comma: cur's
	// elements after was's are the rest.
	return append([]byte{'['}, cur[len(was):]...), true
}

// hidden reports whether a move by another seat went unseen by the one
// seat of a one-seat page (views: public, that seat's part): its views did
// not change, or the game says the decision is a hidden one.
func hidden(g gameRules, before, after []fields) bool {
	if g.hidden != nil && g.hidden(before[0], after[0]) {
		return true
	}
	for i := range after {
		if diff(before[i], after[i]) != nil {
			return false
		}
	}
	return true
}

// detailFor is a failure's detail as a page may show it: a one-seat page
// keeps only its own seat's. Another seat's detail quotes what that bot
// sent ("{"type":"play","card":"R7"} is not a legal action") or its
// stderr, which can name cards in its hand.
func detailFor(opts Options, f *protocol.Failure) string {
	if opts.OneSeat && f.Seat != opts.Seat {
		return ""
	}
	return f.Detail
}
