package judge

import (
	"encoding/json"
	"strconv"

	"github.com/arena-dev/arena/engine/jsonw"
	"github.com/arena-dev/arena/protocol"
)

// AppendHello appends h as protocol.Line encodes it (encoding/json's
// bytes, without the newline), without reflection: every game sends one
// to each seat, and encoding/json's reflection was a tenth of the
// referee's CPU in a match of two-ply games.
func AppendHello(b []byte, h protocol.Hello) []byte {
	b = append(b, `{"type":`...)
	b = jsonw.String(b, h.Type)
	b = append(b, `,"protocol":`...)
	b = strconv.AppendInt(b, int64(h.Protocol), 10)
	b = append(b, `,"game":`...)
	b = jsonw.String(b, h.Game)
	b = append(b, `,"options":`...)
	b = jsonw.StringMap(b, h.Options)
	b = append(b, `,"seat":`...)
	b = strconv.AppendInt(b, int64(h.Seat), 10)
	b = append(b, `,"seats":`...)
	b = strconv.AppendInt(b, int64(h.Seats), 10)
	b = append(b, `,"players":`...)
	b = jsonw.Strings(b, h.Players)
	b = append(b, `,"match":`...)
	b = jsonw.String(b, h.Match)
	b = append(b, `,"game_id":`...)
	b = jsonw.String(b, h.GameID)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, h.Seed, 10)
	b = append(b, `,"clock":`...)
	b = h.Clock.AppendJSON(b)
	return append(b, '}')
}

// AppendEnd appends e as protocol.Line encodes it, without reflection
// where its view is as encoding/json would copy it (compact, nothing it
// escapes: the views the engines append); any other view goes through
// encoding/json, so that the bytes are the same either way.
func AppendEnd(b []byte, e protocol.End) []byte {
	if !plainJSON(e.View) {
		return append(b, protocol.Line(e)...)
	}
	b = append(b, `{"type":`...)
	b = jsonw.String(b, e.Type)
	b = append(b, `,"game_id":`...)
	b = jsonw.String(b, e.GameID)
	b = append(b, `,"ranks":`...)
	b = jsonw.Ints(b, e.Ranks)
	b = append(b, `,"scores":`...)
	b = jsonw.Floats(b, e.Scores)
	b = append(b, `,"reason":`...)
	b = jsonw.String(b, e.Reason)
	if len(e.Forfeit) > 0 { // omitempty
		b = append(b, `,"forfeits":`...)
		b = jsonw.Strings(b, e.Forfeit)
	}
	b = append(b, `,"view":`...)
	if e.View == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, e.View...)
	}
	return append(b, '}')
}

// plainJSON says encoding/json would copy raw as it is: valid, with no
// white space to take out and nothing it escapes (<, >, &, and U+2028
// and U+2029, whose UTF-8 begins with 0xE2).
func plainJSON(raw json.RawMessage) bool {
	if raw == nil {
		return true
	}
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n', '<', '>', '&', 0xe2:
			return false
		}
	}
	return json.Valid(raw)
}
