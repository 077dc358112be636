package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// xFuture is the unknown field added to every message of the main
// session: a bot must ignore fields it does not know.
const xFuture = `"x_future":{"note":"unknown fields must be ignored","list":[1,2.5,"x",null,true],"nested":{"a":{}}}`

// unknownType is a message of a type no bot knows, sent once after the
// first ready: bots must ignore it, and not answer it.
const unknownType = `{"type":"x_future_notice",` + xFuture + `}`

// kindNotice marks the exchange of unknownType.
const kindNotice = "notice"

// errDone is what a probe's conn answers once it has the first turn's
// answer (or when asked for an answer to nothing): the referee then counts
// the bot out of a game that has nothing more to tell.
var errDone = fmt.Errorf("%w: the check needs no more of this game", transport.ErrClosed)

// conn is the bot as the referee sees it during a check. It passes every
// line on, keeping the last ones for a protocol error's transcript, and
// adds check's probes: an unknown field in every message (in a turn's
// view and clock too) and, after the first ready, a message of an unknown
// type. It is as lenient as docs/check.md promises: a line that is not a
// protocol message may be noise before the answer, and an extra answer to
// an earlier turn is a leftover, so both are set aside while the answer
// may still come; an answer that misses the deadline is still waited for
// a while and handed on as if on time. What it set aside, how long the
// bot took and what failed on the wire is kept per message sent (an
// exchange), for the session to judge once the referee has judged the
// answers. Close only marks the bot out of the game: the process serves
// the next one.
type conn struct {
	p      transport.Conn
	extras bool // add the unknown fields
	notice bool // the unknown message type is still to be sent
	probe  bool // stop after the first answered turn
	// graces are how long an answer is still waited for after the
	// deadline of a hello and of a turn.
	helloGrace, turnGrace time.Duration
	turnSent              func(id int64) // told as each turn is about to go out

	trail []string    // the last lines exchanged
	log   []*exchange // the current game's messages, in order
	out   bool        // the referee closed it: the bot is out of this game
	done  bool        // a probe has its answer: nothing more goes out
}

// exchange is one message sent to the bot and what came back.
type exchange struct {
	kind    string    // protocol.TypeHello, TypeTurn, TypeEnd or kindNotice
	id      int64     // a turn's id
	turn    []byte    // a turn as the referee wrote it, for a failure's hint
	start   time.Time // just before the message went out
	sendErr error     // the message could not be written

	aside  [][]byte      // lines set aside: noise and extra answers, in order
	reply  []byte        // the line handed on as the answer
	think  time.Duration // time to the reply (to the first line set aside, if that is the reply)
	late   bool          // nothing came by the deadline
	waited time.Duration // how long the reading went on, when nothing came in the end
	// err is what ended the reading: handed on without a reply, or read
	// right after the reply that was made of a line set aside.
	err error
}

func (c *conn) newGame() { c.log, c.out = nil, false }

// Send passes a message of the referee on, with the probes.
func (c *conn) Send(line []byte, deadline time.Time) error {
	if c.done {
		return errDone
	}
	typ, _ := protocol.PeekType(line)
	ex := &exchange{kind: typ}
	var members []string // those that get the unknown field too
	if typ == protocol.TypeTurn {
		members = []string{"view", "clock"}
		var t struct {
			ID int64 `json:"id"`
		}
		_ = json.Unmarshal(line, &t)
		ex.id, ex.turn = t.ID, bytes.Clone(line) // the referee reuses its buffer
	}
	// The unknown message type goes out after the first ready, before
	// whatever comes next.
	if c.notice && typ != protocol.TypeHello {
		c.notice = false
		if err := c.send([]byte(unknownType), time.Now().Add(time.Second)); err != nil {
			c.log = append(c.log, &exchange{kind: kindNotice, id: ex.id, sendErr: err})
			return err
		}
	}
	if typ == protocol.TypeTurn {
		c.turnSent(ex.id)
	}
	if c.extras {
		line = addField(line, xFuture, members...)
	}
	c.log = append(c.log, ex)
	ex.start = time.Now()
	ex.sendErr = c.send(line, deadline)
	return ex.sendErr
}

// Receive reads the answer to the last message (a hello or a turn): the
// first protocol message that is not an extra answer, at once; else, at
// the deadline, the first line set aside; else whatever comes first in
// the grace after it.
func (c *conn) Receive(deadline time.Time) ([]byte, error) {
	if c.done || len(c.log) == 0 {
		return nil, errDone
	}
	ex := c.log[len(c.log)-1]
	grace := c.turnGrace
	if ex.kind == protocol.TypeHello {
		grace = c.helloGrace
	}
	for {
		dl := deadline
		if ex.late {
			dl = deadline.Add(grace)
		}
		line, err := c.receive(dl)
		elapsed := time.Since(ex.start)
		if err != nil {
			if errors.Is(err, transport.ErrTimeout) && !ex.late && len(ex.aside) == 0 {
				ex.late = true
				continue
			}
			ex.waited = elapsed
			if line := ex.takeAside(); line != nil {
				if !errors.Is(err, transport.ErrTimeout) {
					ex.err = err
				}
				return c.answer(ex, line, ex.think)
			}
			ex.err = err
			return nil, err
		}
		if !ex.late {
			// The transport's deadline judges lateness: a line it delivered
			// came in time, whatever the checker's own scheduling delay.
			elapsed = min(elapsed, deadline.Sub(ex.start))
		}
		_, notMessage := protocol.PeekType(line)
		extra := extraAnswer(ex.kind, ex.id, line)
		switch {
		case notMessage == nil && !extra: // the answer, right or wrong
			return c.answer(ex, line, elapsed)
		case ex.late && !(extra && ex.kind == protocol.TypeHello): // whatever comes late
			return c.answer(ex, line, elapsed)
		}
		if len(ex.aside) == 0 {
			ex.think = elapsed
		}
		ex.aside = append(ex.aside, line)
		if ex.late {
			// An action, late, at hello: the referee would skip it and
			// wait on, but it is all the bot said (the session judges it).
			ex.err = transport.ErrTimeout
			return nil, ex.err
		}
	}
}

func (c *conn) answer(ex *exchange, line []byte, think time.Duration) ([]byte, error) {
	ex.reply, ex.think = line, think
	if c.probe && ex.kind == protocol.TypeTurn {
		c.done = true
	}
	return line, nil
}

// takeAside removes and returns the line set aside that is judged as the
// answer when no other came: the first that is not an extra answer, or at
// a turn the first of all; nil if there is none.
func (ex *exchange) takeAside() []byte {
	i := slices.IndexFunc(ex.aside, func(l []byte) bool { return !extraAnswer(ex.kind, ex.id, l) })
	if i < 0 && ex.kind == protocol.TypeTurn && len(ex.aside) > 0 {
		i = 0
	}
	if i < 0 {
		return nil
	}
	line := ex.aside[i]
	ex.aside = slices.Delete(ex.aside, i, i+1)
	return line
}

// extraAnswer tells an answer nobody asked for: at hello any action (a
// late one to the previous game), at turn id one to an earlier turn.
func extraAnswer(kind string, id int64, line []byte) bool {
	if kind == protocol.TypeHello {
		t, err := protocol.PeekType(line)
		return err == nil && t == protocol.TypeAction
	}
	var a protocol.Action
	return json.Unmarshal(line, &a) == nil && a.Type == protocol.TypeAction && a.ID >= 1 && a.ID < id
}

// Close marks the bot out of the game; the session ends the process.
func (c *conn) Close() error {
	c.out = true
	return nil
}

// trailLen is how many lines a protocol error's transcript shows, and
// trailClip how much of each.
const (
	trailLen  = 6
	trailClip = 160
)

// send writes a line to the bot, keeping it for the transcript.
func (c *conn) send(line []byte, deadline time.Time) error {
	c.keep("R> ", line)
	return c.p.Send(line, deadline)
}

// receive reads a line from the bot, keeping it for the transcript.
func (c *conn) receive(deadline time.Time) ([]byte, error) {
	line, err := c.p.Receive(deadline)
	if err == nil {
		c.keep("B> ", line)
	}
	return line, err
}

func (c *conn) keep(dir string, line []byte) {
	if len(c.trail) == trailLen {
		c.trail = append(c.trail[:0], c.trail[1:]...)
	}
	c.trail = append(c.trail, dir+transcriptLine(line, trailClip))
}

// transcriptLine shows a line as it was sent when it is printable UTF-8,
// else quoted; past max bytes it is cut (at a character boundary) and its
// length given.
func transcriptLine(b []byte, max int) string {
	printable := utf8.Valid(b) && !bytes.ContainsFunc(b, func(r rune) bool { return r < ' ' || r == 0x7f })
	if !printable {
		return protocol.Excerpt(b, max)
	}
	if len(b) <= max {
		return string(b)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", b[:cut], len(b))
}

// addField adds field to the JSON object obj, and to those of its members
// named in members that are objects too (a turn's view and clock); obj is
// returned as it is if it is not an object.
func addField(obj []byte, field string, members ...string) []byte {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return obj
	}
	if len(members) > 0 {
		obj = addFieldIn(obj, field, members)
	}
	out := make([]byte, 0, len(obj)+len(field)+1)
	out = append(out, obj[:len(obj)-1]...)
	if len(bytes.TrimSpace(obj[1:len(obj)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, field...)
	return append(out, '}')
}

// addFieldIn adds field to obj's members named in members, keeping the
// order of the members (a reader sees the turn's "type" and "id" first).
func addFieldIn(obj []byte, field string, members []string) []byte {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return obj
	}
	out := []byte{'{'}
	for dec.More() {
		k, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil {
			return obj
		}
		key, _ := json.Marshal(k)
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(out, key...), ':')
		if name, _ := k.(string); slices.Contains(members, name) {
			v = addField(v, field)
		}
		out = append(out, v...)
	}
	return append(out, '}')
}

// checkerSeat plays one of the checker's seats in-process: a random legal
// action every turn, drawn from the session's one stream so that a seed
// gives the same checker moves. Once the bot is out of the game (or a
// probe has its answer) it leaves too, at its next turn: the rest of the
// game would judge nothing.
type checkerSeat struct {
	rng   *rand.Rand
	bot   *conn
	reply []byte
}

func (s *checkerSeat) Send(line []byte, _ time.Time) error {
	s.reply = nil
	switch t, _ := protocol.PeekType(line); t {
	case protocol.TypeHello:
		s.reply = []byte(`{"type":"ready"}`)
	case protocol.TypeTurn:
		if s.bot.out || s.bot.done {
			return transport.ErrClosed
		}
		var turn struct {
			ID    int64      `json:"id"`
			Legal []struct{} `json:"legal"`
		}
		if err := json.Unmarshal(line, &turn); err != nil || len(turn.Legal) == 0 {
			return fmt.Errorf("%w: the checker cannot read its turn (%v)", transport.ErrClosed, err)
		}
		s.reply = fmt.Appendf(nil, `{"type":"action","id":%d,"index":%d}`, turn.ID, s.rng.IntN(len(turn.Legal)))
	}
	return nil
}

func (s *checkerSeat) Receive(time.Time) ([]byte, error) {
	r := s.reply
	s.reply = nil
	if r == nil {
		return nil, transport.ErrTimeout
	}
	return r, nil
}

func (s *checkerSeat) Close() error { return nil }
