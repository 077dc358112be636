package replays

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arena-dev/arena/engine"
)

// Show re-simulates r and prints it for people, as seat saw it
// (engine.Spectator for the public view, "as everyone saw it"): a header
// with the game, options, seed and bots, the starting position, then for
// every ply the seat and bot that moved, the action in the game's notation
// and the think time, followed by the board as seat saw it after the move
// (RenderText(seat) when the state is an engine.TextRenderer, else the
// JSON of View(seat)). Strikes and forfeits are shown where they happened
// and the result at the end.
//
// Show stops with an error at the first move the engine rejects; use
// Verify to check a replay completely.
func Show(w io.Writer, r *Replay, seat int) error {
	n := len(r.Header.Seats)
	if seat != engine.Spectator && (seat < 0 || seat >= n) {
		return fmt.Errorf("%s: no seat %d: the game has %d seats (0-%d), or use %d for the spectator view",
			r.name(), seat, n, n-1, engine.Spectator)
	}
	p := &printer{w: w}
	err := Walk(r, func(st Step) error {
		if st.Event < 0 {
			p.header(r, seat)
			p.f("\n--- start ---\n")
			p.board(st.State, seat)
			return nil
		}
		switch e := r.Events[st.Event]; {
		case e.Strike != nil:
			p.f("\n! strike at ply %d: %s %s", e.Strike.Ply, r.seatName(e.Strike.Seat), e.Strike.Reason)
			p.detail(e.Strike.Detail)
		case e.Forfeit != nil:
			p.f("\n! forfeit at ply %d: %s %s", e.Forfeit.Ply, r.seatName(e.Forfeit.Seat), e.Forfeit.Reason)
			p.detail(e.Forfeit.Detail)
		case e.Move != nil:
			m := e.Move
			by := ""
			if m.By == ByReferee {
				by = "  [by referee]"
			}
			p.f("\n--- ply %d: %s: %s  (%s)%s%s\n", m.Ply, r.seatName(m.Seat), st.Action, m.Think(), by, noteText(m))
			p.board(st.State, seat)
		}
		return nil
	})
	if p.err != nil {
		return p.err
	}
	if err != nil {
		return err
	}
	res := &r.Result
	p.f("\n--- result after %d plies: %s ---\n", res.Plies, orNone(engine.NameSeats(res.Reason, r.Bots())))
	for i, si := range r.Header.Seats {
		if i >= len(res.Ranks) || i >= len(res.Scores) {
			break
		}
		line := fmt.Sprintf("rank %d  score %g  %s", res.Ranks[i], res.Scores[i], r.seatName(si.Seat))
		for _, f := range res.Forfeits {
			if f.Seat == i {
				line += "  (forfeit: " + string(f.Reason) + ")"
			}
		}
		p.f("%s\n", line)
	}
	return p.err
}

// noteText is a move's note as Show prints it beside the move: its JSON
// with every character a terminal would act on escaped (a note is a bot's
// text, and may hold escape sequences), or why it was dropped.
func noteText(m *Move) string {
	switch {
	case len(m.Note) > 0:
		return "  note: " + printable(string(m.Note))
	case m.NoteDropped != "":
		return "  [note dropped: " + printable(m.NoteDropped) + "]"
	}
	return ""
}

// printable escapes, as JSON does (\uXXXX), every rune of s that is not
// printable: control characters (C0, DEL, C1), line and paragraph
// separators, invalid UTF-8. Inside a JSON string the result is still the
// same string.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case r == ' ' || strconv.IsPrint(r):
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+((r-0x10000)>>10), 0xdc00+((r-0x10000)&0x3ff))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// printer remembers the first write error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) f(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

func (p *printer) detail(d string) {
	if d != "" {
		p.f(": %s", d)
	}
	p.f("\n")
}

// header prints the game, options, seed, bots and whose view is shown.
func (p *printer) header(r *Replay, seat int) {
	h := &r.Header
	p.f("game %s  (replay format %d, arena %s)\n", h.Game, h.Format, orNone(h.Arena))
	keys := make([]string, 0, len(h.Options))
	for k := range h.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	opts := make([]string, len(keys))
	for i, k := range keys {
		opts[i] = k + "=" + h.Options[k]
	}
	p.f("options %s\n", orNone(strings.Join(opts, " ")))
	p.f("seed %d  match %s  game %s", h.Seed, orNone(h.Match), orNone(h.GameID))
	if !h.Started.IsZero() {
		p.f("  started %s", h.Started.Format(time.RFC3339))
	}
	p.f("\n")
	for _, si := range h.Seats {
		p.f("seat %d: %s\n", si.Seat, si.Bot)
	}
	if seat == engine.Spectator {
		p.f("view: spectator\n")
	} else {
		p.f("view: %s\n", r.seatName(seat))
	}
}

// board prints what seat sees of st.
func (p *printer) board(st engine.State, seat int) {
	if tr, ok := st.(engine.TextRenderer); ok {
		text := tr.RenderText(seat)
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		p.f("%s", text)
		return
	}
	b, err := json.Marshal(st.View(seat))
	if err != nil {
		p.f("(view not printable: %v)\n", err)
		return
	}
	p.f("%s\n", b)
}
