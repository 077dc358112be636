package boon

import (
	"math"
	"sync"

	"github.com/arena-dev/arena/engine/schema"
)

// Schema implements engine.Schemer: the JSON Schema of Boon's options,
// views and actions (docs/games/boon.md).
func (Game) Schema() []byte { return schemaDoc() }

var schemaDoc = sync.OnceValue(func() []byte { return schema.Marshal(buildSchema()) })

// cardPattern is every card name: B1-B6, G1-G6, R1-R6, Au1-Au14.
const cardPattern = "^([BGR][1-6]|Au([1-9]|1[0-4]))$"

func buildSchema() *schema.Node {
	n := MaxSeats
	seat := func(desc string) *schema.Node { return schema.Int(desc, 0, n-1) }
	seatOrNone := func(desc string) *schema.Node { return schema.Int(desc, -1, n-1) }
	perSeat := func(desc string, min int) *schema.Node {
		return schema.Array(desc, schema.Int("", min, math.MaxInt), MinSeats, n)
	}
	vc := func(desc string) *schema.Node {
		return schema.Array(desc+" (below 0 only with short_pay=negative)", schema.Int("", math.MinInt, math.MaxInt), MinSeats, n)
	}
	cards := func(desc string) *schema.Node { return schema.Array(desc, schema.Ref("card"), 0, -1) }
	typ := func(t string) schema.Prop { return schema.P("type", schema.Const(t)) }
	trick := schema.Object("a trick: cards in play order from the leader (card i was played by seat (leader+i) mod seats)",
		schema.P("leader", seat("the seat that leads")),
		schema.P("led", schema.Enum("suit code of the first card, \"\" if none yet", "", "B", "G", "R", "Au")),
		schema.P("cards", schema.Array("the cards played, in order", schema.Ref("card"), 0, n)),
		schema.P("winner", seatOrNone("the seat winning so far (the seat that took a completed trick), -1 if empty")),
		schema.P("points", schema.Int("the card points in the trick", 0, 120)),
	)
	evSeat := func(desc string) schema.Prop { return schema.P("seat", seatOrNone(desc)) }
	event := schema.Union("one public event (told apart by type)",
		schema.Object("a card was played", typ("play"), evSeat("the player"), schema.P("card", schema.Ref("card"))),
		schema.Object("a trick was taken", typ("trick"), evSeat("the trick's winner")),
		schema.Object("the Boon was passed", typ("pass"), evSeat("the seat that passed")),
		schema.Object("the Boon was taken", typ("take"), evSeat("the picker")),
		schema.Object("a card was buried (never named)", typ("bury"), evSeat("the picker")),
		schema.Object("a round was dealt", typ("deal"), evSeat("the new dealer")),
		schema.Object("everyone passed: Least mode", typ("least"), evSeat("the leader")),
		schema.Object("everyone passed: redeal (no_pick=redeal)", typ("redeal"), evSeat("-1")),
		schema.Object("a round was scored (see last_round)", typ("round_end"), evSeat("-1")),
		schema.Object("the game ended", typ("game_end"), evSeat("-1")),
	)
	lastRound := schema.Object("the result of the last scored or redealt round",
		schema.P("round", schema.Int("the round's number", 1, math.MaxInt)),
		schema.P("dealer", seat("its dealer")),
		schema.P("mode", schema.Enum("how it was played", "picker", "least", "redeal")),
		schema.P("picker", seatOrNone("the picker, -1 if none")),
		schema.P("picker_points", schema.Int("the picker's total (tricks + burial); -1 outside picker rounds", -1, 120)),
		schema.P("buried_points", schema.Int("its burial's points; -1 outside picker rounds", -1, 120)),
		schema.P("per_defender", schema.Int("picker rounds: victory cards per defender, > 0 the picker received, < 0 it paid (before any cap)", math.MinInt, math.MaxInt)),
		schema.P("trick_points", perSeat("points each seat took in tricks", 0)),
		schema.P("tricks_won", perSeat("tricks each seat took", 0)),
		schema.P("winners", schema.Array("picker rounds: the side that was paid; Least: the seat(s) with the fewest points among trick takers (more than one: a tie)", seat(""), 0, n)),
		schema.P("vc_change", vc("victory cards moved per seat")),
		schema.P("vc", vc("victory cards after the payout")),
		schema.P("summary", schema.String("the round in words")),
	)
	view := func(seatView bool) []schema.Prop {
		you := schema.P("seat", seat("your seat (Boon's view has no you)"))
		decision := schema.Enum("what you are asked: take_or_pass, bury, play; wait when another seat decides; none once over", "take_or_pass", "bury", "play", "wait", "none")
		team := schema.Enum("your side: undecided (pick phase), picker, defender, self (Least mode); none after a redeal ended the game", "undecided", "picker", "defender", "self", "none")
		hand := cards("your cards in sort order (Blue, Green, Red, Gold, rank ascending)")
		if !seatView {
			you = schema.P("seat", schema.Const(-1).Describe("-1: the spectator"))
			decision = schema.Enum("wait, none once over", "wait", "none")
			team = schema.Const("none")
			hand = schema.Array("no cards for the spectator", schema.Ref("card"), 0, 0)
		}
		ps := []schema.Prop{
			you,
			schema.P("seats", schema.Int("number of seats", MinSeats, MaxSeats)),
			schema.P("round", schema.Int("number of the current deal, from 1 (redeals count)", 1, math.MaxInt)),
			schema.P("dealer", seat("the dealer of this round")),
			schema.P("vc", vc("victory cards per seat")),
			schema.P("phase", schema.Enum("the phase of the round", phaseNames[:]...)),
			schema.P("to_move", seatOrNone("the seat deciding now; -1 once over")),
			schema.P("decision", decision),
			schema.P("mode", schema.Enum("pick (nobody has taken yet), picker, least; redeal only if the game ended on a redeal", modeNames[:]...)),
			schema.P("picker", seatOrNone("the picker's seat, -1 if none")),
			schema.P("team", team),
			schema.P("passed", schema.Array("seats that passed this round, in order", seat(""), 0, n)),
			schema.P("hand", hand),
			schema.P("hand_sizes", perSeat("cards in each seat's hand", 0)),
			schema.P("boon_size", schema.IntEnum("cards in the Boon", 2, 3, 4)),
		}
		if seatView {
			ps = append(ps,
				schema.Opt("boon", schema.Array("the Boon's cards: only in the picker's own view, from the take on", schema.Ref("card"), 2, 4)),
				schema.Opt("buried", schema.Array("the cards you buried: only in the picker's own view, once one is buried", schema.Ref("card"), 1, 4)))
		}
		return append(ps,
			schema.P("bury_left", schema.Int("cards the picker still has to bury", 0, 4)),
			schema.P("tricks_per_round", schema.IntEnum("tricks in a round", 6, 7, 9)),
			schema.P("trick_no", schema.Int("number of the current trick, from 1", 1, 9)),
			schema.P("trick", schema.RefDesc("trick", "the current trick")),
			schema.P("tricks", schema.Array("this round's completed tricks", schema.Ref("trick"), 0, 9)),
			schema.P("trick_points", perSeat("points each seat took in tricks this round (never includes buried cards)", 0)),
			schema.P("tricks_won", perSeat("tricks each seat took this round", 0)),
			schema.P("events", schema.Array("public events since your last decision, starting with that decision (spectator: the events of the last action)", event, 0, -1)),
			schema.P("last_round", schema.OrNull("the result of the last scored or redealt round, or null", lastRound)),
		)
	}
	card := func(desc string) *schema.Node { return schema.RefDesc("card", desc) }
	action := schema.Union("one action (told apart by type); legal order: take then pass; every card of the picker's hand (Boon included) in sort order; every playable card in sort order",
		schema.Object("play a card to the trick (decision play)", typ("play"), schema.P("card", card(""))),
		schema.Object("bury one card (decision bury: the picker, boon_size times)", typ("bury"), schema.P("card", card(""))),
		schema.Object("take the Boon, sight unseen (decision take_or_pass)", typ("take")),
		schema.Object("pass the Boon to the next seat (decision take_or_pass)", typ("pass")),
	)
	return schema.Document("boon", "Boon",
		"Boon (Sheepshead-like trick taking, 3-5 seats) wire JSON, protocol version 1: hello.options, the views (turn.view, end.view; the spectator view of replays has seat -1, no hand, no boon, no buried) and the actions. Cards: B1-B6 (Blue), G1-G6 (Green), R1-R6 (Red), Au1-Au14 (Gold, the trumps). See docs/games/boon.md.",
		schema.Def{Name: "options", Schema: schema.OptionsObject("hello.options: every Boon option, resolved, as strings", Options)},
		schema.Def{Name: "view", Schema: schema.Object("a seat's view (turn.view, end.view): public information, your hand and, for the picker, the Boon and the burial", view(true)...)},
		schema.Def{Name: "spectator_view", Schema: schema.Object("the public view (seat -1, replays)", view(false)...)},
		schema.Def{Name: "action", Schema: action},
		schema.Def{Name: "card", Schema: schema.Pattern("a card: suit code B, G, R or Au (Gold) and rank (1-6, Gold 1-14)", cardPattern)},
		schema.Def{Name: "trick", Schema: trick},
	)
}
