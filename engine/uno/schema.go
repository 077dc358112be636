package uno

import (
	"math"
	"sync"

	"github.com/arena-dev/arena/engine/schema"
)

// Schema implements engine.Schemer: the JSON Schema of the options, views
// and actions (docs/games/uno.md). uno and bounce differ in their option
// defaults and seat counts.
func (g Game) Schema() []byte { return schemaDocs[g.name]() }

var schemaDocs = map[string]func() []byte{
	"uno":    sync.OnceValue(func() []byte { return schema.Marshal(buildSchema(Uno)) }),
	"bounce": sync.OnceValue(func() []byte { return schema.Marshal(buildSchema(Bounce)) }),
}

// The card patterns: a coloured card is its colour letter and face (0-9,
// S Skip, R Reverse, D2 Draw Two), wilds are W and WD4.
const (
	colouredCard = "[RYGB]([0-9]|S|R|D2)"
	wildCard     = "W|WD4"
)

func buildSchema(g Game) *schema.Node {
	n := g.maxSeats
	seat := func(desc string) *schema.Node { return schema.Int(desc, 0, n-1) }
	seats := func(desc string) *schema.Node { return schema.Array(desc, schema.Int("", 0, n-1), 0, n) }
	perSeat := func(desc string, min int) *schema.Node {
		return schema.Array(desc, schema.Int("", min, math.MaxInt), 2, n)
	}
	card := func(desc string) *schema.Node { return schema.RefDesc("card", desc) }
	cards := func(desc string) *schema.Node { return schema.Array(desc, schema.Ref("card"), 0, -1) }
	colour := func(desc string) *schema.Node { return schema.RefDesc("colour", desc) }
	count := func(desc string) *schema.Node { return schema.Int(desc, 1, math.MaxInt) }
	typ := func(t string) schema.Prop { return schema.P("type", schema.Const(t)) }
	evSeat := schema.P("seat", seat("the seat it concerns"))

	event := schema.Union("one event (told apart by type); what happened since your previous decision",
		schema.Object("a card was played", typ("play"), evSeat, schema.P("card", card("")),
			schema.Opt("colour", colour("the colour a Wild named")), schema.Opt("target", seat("the seat a 7 swapped hands with (seven_zero)")),
			schema.Opt("uno", schema.True("the one-card call was made"))),
		schema.Object("cards were drawn", typ("draw"), evSeat,
			schema.Opt("n", count("the number of cards; absent when none could be drawn")),
			schema.P("why", schema.Enum("turn, D2, WD4, uno (missed call), challenge (lost a challenge), bluff (a caught Wild Draw Four), start (a starting Draw Two)", whyNames[:7]...)),
			schema.Opt("cards", schema.Array("the cards drawn: only in the drawing seat's own view", schema.Ref("card"), 1, -1))),
		schema.Object("a drawn card was kept (after every turn draw that was not played)", typ("keep"), evSeat),
		schema.Object("a pass", typ("pass"), evSeat),
		schema.Object("pending draws were accepted", typ("accept"), evSeat),
		schema.Object("a hand was dealt", typ("deal"), schema.P("seat", seat("the dealer")), schema.P("n", count("the hand number"))),
		schema.Object("the starting card was turned up", typ("start"), evSeat, schema.P("card", card("the starting card"))),
		schema.Object("a starting Wild's colour was named", typ("colour"), evSeat, schema.P("colour", colour("the colour named"))),
		schema.Object("a card was played out of turn (jump_in)", typ("jump"), evSeat, schema.P("card", card("")),
			schema.Opt("target", seat("the seat a 7 swapped hands with (seven_zero)")),
			schema.Opt("uno", schema.True("the one-card call was made"))),
		schema.Object("a Wild Draw Four was challenged", typ("challenge"), evSeat,
			schema.P("target", seat("the challenged seat")), schema.P("why", schema.Enum("the verdict", "guilty", "innocent"))),
		schema.Object("the challenged hand, in the challenger's view only", typ("reveal"), schema.P("seat", seat("the challenged seat")),
			schema.Opt("n", count("the number of cards")), schema.Opt("cards", schema.Array("its hand", schema.Ref("card"), 1, -1))),
		schema.Object("a missed call was caught (catch_window)", typ("catch"), evSeat, schema.P("target", seat("the seat caught"))),
		schema.Object("a 7 swapped hands (seven_zero)", typ("swap"), evSeat, schema.P("target", seat("the other seat"))),
		schema.Object("a 0 passed every hand on (seven_zero)", typ("rotate"), evSeat, schema.P("n", schema.IntEnum("the direction the hands moved", 1, -1))),
		schema.Object("the discard pile was shuffled into a new draw pile", typ("reshuffle"), schema.P("seat", schema.Const(-1)),
			schema.Opt("n", count("the number of cards"))),
		schema.Object("a seat went out of the hand", typ("out"), evSeat, schema.P("n", count("its place"))),
		schema.Object("a hand ended", typ("hand_end"), schema.P("seat", seat("the winner")),
			schema.Opt("n", count("the points it scored; absent when 0"))),
	)
	catch := schema.Opt("catch", seat("the seat you may catch for a missed call (catch_window)"))
	decision := schema.Union("what you are asked now; see kind",
		schema.Object("name the colour of a starting Wild", schema.P("kind", schema.Const("colour"))),
		schema.Object("a normal turn: play or draw (or pass)", schema.P("kind", schema.Const("play")), catch),
		schema.Object("you drew a playable card: play it or keep it", schema.P("kind", schema.Const("drawn")),
			schema.P("card", card("the card drawn")), catch),
		schema.Object("draws are pending on you: stack, deflect, challenge or accept", schema.P("kind", schema.Const("pending")),
			schema.P("pending", count("the number of cards you draw if you accept")),
			schema.Opt("challenge", schema.True("you may challenge the Wild Draw Four (with from and prev_colour)")),
			schema.Opt("from", seat("the seat that played the Wild Draw Four")),
			schema.Opt("prev_colour", colour("the active colour before it")), catch),
		schema.Object("jump_in: you hold the card just played; jump in with it or pass", schema.P("kind", schema.Const("jump")),
			schema.P("card", card("the card you may jump in with"))),
	)
	rules := []schema.Prop{}
	for _, o := range g.opts() {
		var s *schema.Node
		switch o.Kind {
		case "bool":
			s = schema.Bool(o.Doc)
		case "int":
			s = schema.Int(o.Doc, o.Min, o.Max)
		default:
			s = schema.Enum(o.Doc, o.Choices...)
		}
		rules = append(rules, schema.P(o.Name, s))
	}
	view := func(seatView bool) []schema.Prop {
		var ps []schema.Prop
		hand := schema.Null("null for the spectator")
		if seatView {
			ps = append(ps, schema.P("you", seat("your seat (a plain integer)")))
			hand = cards("your cards in card order (R0..R9 RS RR RD2, then Y, G, B, then W, WD4)")
		}
		return append(ps,
			schema.P("hand", hand),
			schema.P("top", card("the top card of the discard pile")),
			schema.P("colour", schema.OrNull("the active colour; null until a starting Wild's colour is named", schema.Ref("colour"))),
			schema.P("direction", schema.IntEnum("1 clockwise (seat+1 next), -1 counter-clockwise", 1, -1)),
			schema.P("dealer", seat("the dealer of this hand")),
			schema.P("hand_no", count("hands counted from 1")),
			schema.P("to_move", seat("the seat deciding now")),
			schema.P("counts", perSeat("every seat's number of cards", 0)),
			schema.P("scores", perSeat("every seat's total score (a hand is scored when its first seat goes out)", 0)),
			schema.P("finished", seats("seats out of this hand, in order (play_to_last; at the end of a hand all seats)")),
			schema.P("draw_pile", schema.Int("cards in the draw pile", 0, DeckSize)),
			schema.P("discard", schema.Array("the discard pile, bottom first, since the last reshuffle", schema.Ref("card"), 1, DeckSize)),
			schema.P("events", schema.Array("what happened since your previous decision (including its own results); spectator: since the last action every seat has seen", event, 0, -1)),
			schema.P("decision", schema.OrNull("what you are asked now; null when you are not to move or the game is over", decision)),
			schema.P("hands", schema.Array("finished hands", schema.Object("a finished hand",
				schema.P("hand", count("the hand number")),
				schema.P("dealer", seat("its dealer")),
				schema.P("winner", seat("the seat that went out first")),
				schema.P("points", perSeat("points scored in this hand, per seat", 0)),
				schema.P("finish", seats("the finishing order: the seats that went out, then the others by the points left in their hands")),
			), 0, -1)),
			schema.P("actions", schema.Int("actions every seat has seen so far (hidden decisions are not counted)", 0, math.MaxInt)),
			schema.P("over", schema.Bool("the game is over (the end message's view)")),
			schema.P("rules", schema.Object("every resolved option, typed (hello.options has the same as strings)", rules...)),
		)
	}
	uno := schema.Opt("uno", schema.True("the one-card call: listed on a play that leaves you one card, and the same play is listed without it"))
	target := schema.Opt("target", seat("seven_zero: the seat a 7 swaps hands with (listed once per other seat in the hand)"))
	simple := func(t, desc string) *schema.Node { return schema.Object(desc, typ(t)) }
	action := schema.Union("one action; field order in the canonical JSON is type, card, colour, target, uno",
		schema.Object("play a coloured card", typ("play"), schema.P("card", schema.Pattern("a coloured card", "^"+colouredCard+"$")), target, uno),
		schema.Object("play a wild, naming a colour (listed once per colour)", typ("play"), schema.P("card", schema.Enum("a wild", "W", "WD4")),
			schema.P("colour", colour("the colour named")), uno),
		simple("draw", "draw (your turn)"),
		simple("keep", "keep the card just drawn"),
		simple("pass", "nothing to play and nothing to draw (both piles empty), or decline a jump-in"),
		simple("challenge", "challenge the Wild Draw Four just played on you (wd4_mode=challenge)"),
		simple("accept", "take the pending draws"),
		schema.Object("jump in out of turn with the identical card (jump_in)", typ("jump"),
			schema.P("card", schema.Pattern("a coloured card", "^"+colouredCard+"$")), target, uno),
		simple("catch", "catch the previous player who forgot the call (catch_window)"),
		schema.Object("name the colour of a starting Wild", typ("colour"), schema.P("colour", colour("the colour named"))),
	)
	return schema.Document(g.name, g.name,
		g.summary+". Wire JSON of protocol version 1: hello.options, the views (turn.view, end.view; the spectator view of replays has no you and a null hand) and the actions. See docs/games/uno.md.",
		schema.Def{Name: "options", Schema: schema.OptionsObject("hello.options: every option, resolved, as strings", g.opts())},
		schema.Def{Name: "view", Schema: schema.Object("a seat's view (turn.view, end.view): public piles and counts, your hand and your own drawn cards", view(true)...)},
		schema.Def{Name: "spectator_view", Schema: schema.Object("the public view (seat -1, replays): no you, no hand", view(false)...)},
		schema.Def{Name: "action", Schema: action},
		schema.Def{Name: "card", Schema: schema.Pattern("a card: colour letter R Y G B then the face 0-9, S (Skip), R (Reverse) or D2 (Draw Two); W (Wild), WD4 (Wild Draw Four)",
			"^("+colouredCard+"|"+wildCard+")$")},
		schema.Def{Name: "colour", Schema: schema.Enum("a colour", ColourNames[:]...)},
	)
}
