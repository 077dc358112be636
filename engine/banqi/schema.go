package banqi

import (
	"math"
	"strings"
	"sync"

	"github.com/arena-dev/arena/engine/schema"
)

// Schema implements engine.Schemer: the JSON Schema of Banqi's options,
// views and actions (docs/games/banqi.md).
func (Game) Schema() []byte { return schemaDoc() }

var schemaDoc = sync.OnceValue(func() []byte { return schema.Marshal(buildSchema()) })

// pieceLegend names every letter of the board: "K King, G Guard, ...".
func pieceLegend() string {
	var parts []string
	for t := range Type(7) {
		parts = append(parts, string(typeLetters[t])+" "+t.Name())
	}
	return strings.Join(parts, ", ")
}

// setPattern is a pattern for a multiset of pieces of one colour written
// as letters in K G M R N C P order: at most Count of each.
func setPattern(c Colour) string {
	var b strings.Builder
	b.WriteString("^")
	for t := range Type(7) {
		l := MakePiece(c, t).Letter()
		b.WriteByte(l)
		if Count[t] == 1 {
			b.WriteString("?")
		} else {
			b.WriteString("{0," + string(rune('0'+Count[t])) + "}")
		}
	}
	b.WriteString("$")
	return b.String()
}

func buildSchema() *schema.Node {
	letters := typeLetters + strings.ToLower(typeLetters)
	legend := pieceLegend()
	square := "[a-d][1-8]"
	byColour := func(desc string) *schema.Node {
		return schema.Object(desc,
			schema.P("red", schema.Pattern("red pieces (upper case), in K G M R N C P order", setPattern(Red))),
			schema.P("black", schema.Pattern("black pieces (lower case), in k g m r n c p order", setPattern(Black))),
		)
	}
	public := func(seat bool) []schema.Prop {
		var ps []schema.Prop
		if seat {
			ps = append(ps, schema.P("you", schema.Object("your seat and your colour",
				schema.P("seat", schema.Int("your seat", 0, 1)),
				schema.P("colour", schema.OrNull("your colour, null before the first flip", schema.Ref("colour"))),
			)))
		}
		return append(ps,
			schema.P("board", schema.Array("8 strings of 4 letters, row 8 first: board[0] is a8 b8 c8 d8, board[7] is a1 b1 c1 d1",
				schema.Pattern("one row, columns a to d: "+legend+"; red upper case, black lower case, X face down, - empty",
					"^["+letters+"X-]{4}$"), 8, 8)),
			schema.P("colours", schema.Array("colour per seat, null before the first flip",
				schema.OrNull("", schema.Ref("colour")), 2, 2)),
			schema.P("to_move", schema.Int("seat to act", 0, 1)),
			schema.P("chain", schema.OrNull("square of the piece that must capture again or stop (chain_capture), else null", schema.Ref("square"))),
			schema.P("captured", byColour("captured pieces per colour, letters in KGMRNCP order")),
			schema.P("facedown", byColour("the multiset still face down, per colour (public: it follows from the board and the captures)")),
			schema.P("ply", schema.Int("actions applied so far", 0, math.MaxInt)),
			schema.P("plies_since_progress", schema.Int("moves since the last flip or capture", 0, math.MaxInt)),
			schema.P("repeats", schema.Int("how many times the current position has occurred (3 ends the game)", 1, 3)),
			schema.Opt("last", schema.Pattern("the last action with what it revealed: b3(K) a flip, b3-b4 a move or capture, b3-b4(k) an attack on a face-down piece, stop; absent at the start",
				"^(stop|"+square+`\([`+letters+`]\)|`+square+"-"+square+`(\([`+letters+`]\))?)$`)),
			schema.P("ranks", schema.Enum("the capture hierarchy in force (option ranks)", "taiwan", "hk")),
		)
	}
	sq := func(desc string) *schema.Node { return schema.RefDesc("square", desc) }
	action := schema.Union("one Banqi action; legal order: during a capture chain the chain piece's captures then stop, otherwise flips, moves, captures, each by square index (a8=0 ... d1=31)",
		schema.Object("flip a face-down piece", schema.P("type", schema.Const("flip")), schema.P("square", sq("the face-down piece"))),
		schema.Object("move an own face-up piece one square up, down, left or right onto an empty square",
			schema.P("type", schema.Const("move")), schema.P("from", sq("")), schema.P("to", sq(""))),
		schema.Object("capture a face-up enemy piece (adjacent, or a Taiwanese Cannon's jump over one screen); with capture_facedown also an attack on a face-down piece",
			schema.P("type", schema.Const("capture")), schema.P("from", sq("")), schema.P("to", sq(""))),
		schema.Object("end a capture chain (chain_capture only)", schema.P("type", schema.Const("stop"))),
	)
	return schema.Document("banqi", "Banqi",
		"Banqi (Chinese dark chess) wire JSON, protocol version 1: hello.options, the views (turn.view, end.view; the spectator view of replays has no you) and the actions. Board letters: "+legend+"; red upper case, black lower case, X face down, - empty. See docs/games/banqi.md.",
		schema.Def{Name: "options", Schema: schema.OptionsObject("hello.options: every Banqi option, resolved, as strings", Options)},
		schema.Def{Name: "view", Schema: schema.Object("a seat's view (turn.view, end.view); Banqi has no private information, the seat view is the public view plus you", public(true)...)},
		schema.Def{Name: "spectator_view", Schema: schema.Object("the public view (seat -1, replays): the seat view without you", public(false)...)},
		schema.Def{Name: "action", Schema: action},
		schema.Def{Name: "square", Schema: schema.Pattern("a square: column a-d, row 1-8 (index (8-row)*4 + column: a8=0, d1=31)", "^"+square+"$")},
		schema.Def{Name: "colour", Schema: schema.Enum("a side", "red", "black")},
	)
}
