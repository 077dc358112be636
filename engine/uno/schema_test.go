package uno

import (
	"maps"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

// schemaInts are the int option values the schema tests play besides
// each option's minimum and default.
var schemaInts = map[string][]string{"target": {"100"}, "max_actions": {"300"}}

// playFirst picks a random action, but one that is not a draw three
// times in four when there is one: uniform players draw half the time
// and grow hands of 40 cards, which makes long games of the same views.
func playFirst(rng *rand.Rand, legal []engine.Action) int {
	if rng.IntN(4) > 0 {
		var buf [512]int
		plays := buf[:0]
		for i, a := range legal {
			if a.(Action).Type != ActDraw {
				plays = append(plays, i)
			}
		}
		if len(plays) > 0 {
			return plays[rng.IntN(len(plays))]
		}
	}
	return rng.IntN(len(legal))
}

// Random games of both names, every seat count, every option value and
// random combinations match the published schema: hello.options, every
// legal action, the views sent during play, every final view and the
// spectator's. Games are single hands (target=0) unless the plan sets
// target or is the plain default (then fewer games).
func TestSchemaRandomGames(t *testing.T) {
	for _, g := range []Game{Uno, Bounce} {
		t.Run(g.name, func(t *testing.T) {
			start := time.Now()
			s := enginetest.CompileSchema(t, g)
			plans := enginetest.OptionValues(g, schemaInts)
			rng := rand.New(rand.NewPCG(3, 4))
			for range testkit.Pick(10, 30) {
				plans = append(plans, enginetest.RandomOptions(rng, g, map[string][]string{"max_actions": {"300", "100000"}}))
			}
			games := testkit.Pick(4, 16)
			var n enginetest.SchemaCounts
			seed := uint64(0)
			run := func(seats, games int, given map[string]string) {
				n.Add(s.CheckGames(t, enginetest.SchemaPlan{Seats: seats, Options: given, Seed: seed, Games: games, Views: 1, Pick: playFirst}))
				seed += 1000
			}
			for i, given := range plans {
				k := games
				if _, ok := given["target"]; !ok && len(given) > 0 {
					given = maps.Clone(given)
					given["target"] = "0"
				}
				if o, _ := engine.Setup(g, 2, given); o["target"] != "0" && o["scoring"] != "single_hand" {
					k = games / 4 // to 100 or 500 points: long games
				}
				run(2+i%(g.maxSeats-1), k, given)
			}
			for seats := 2; seats <= g.maxSeats; seats++ {
				run(seats, games, map[string]string{"target": "0", "seven_zero": "true", "jump_in": "true", "stack_draws": "true"})
			}
			t.Logf("%d plans: %v, %d distinct actions, in %v", len(plans)+g.maxSeats-1, n, len(s.Actions()), time.Since(start))
		})
	}
}

// The schema is not vacuous: views and actions that differ from what the
// engine sends in one detail are refused.
func TestSchemaRejects(t *testing.T) {
	s := enginetest.CompileSchema(t, Uno)
	o, err := engine.Setup(Uno, 3, map[string]string{"target": "0"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Uno.New(3, 42, o)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := st.Apply(st.Legal()[0]); err != nil {
			t.Fatal(err)
		}
	}
	seat, _ := engine.AppendJSON(nil, st.View(st.ToMove()))
	spect, _ := engine.AppendJSON(nil, st.View(engine.Spectator))
	if err := enginetest.Validate(s.View, seat); err != nil {
		t.Fatalf("a seat view is refused: %v\n%s", err, seat)
	}
	if err := enginetest.Validate(s.Spectator, spect); err != nil {
		t.Fatalf("the spectator view is refused: %v\n%s", err, spect)
	}
	mutate := func(raw []byte, f func(m map[string]any)) []byte { return enginetest.Mutate(t, raw, f) }
	for what, raw := range map[string][]byte{
		"a view with an extra field":   mutate(seat, func(m map[string]any) { m["seat"] = 1 }),
		"a view without top":           mutate(seat, func(m map[string]any) { delete(m, "top") }),
		"a seat view without you":      mutate(seat, func(m map[string]any) { delete(m, "you") }),
		"a card X9":                    mutate(seat, func(m map[string]any) { m["hand"].([]any)[0] = "X9" }),
		"a card R10":                   mutate(seat, func(m map[string]any) { m["top"] = "R10" }),
		"a colour purple":              mutate(seat, func(m map[string]any) { m["colour"] = "purple" }),
		"a direction 2":                mutate(seat, func(m map[string]any) { m["direction"] = 2 }),
		"a decision of unknown kind":   mutate(seat, func(m map[string]any) { m["decision"] = map[string]any{"kind": "bid"} }),
		"an event of unknown type":     mutate(seat, func(m map[string]any) { m["events"] = []any{map[string]any{"type": "bid", "seat": 0}} }),
		"a draw event without why":     mutate(seat, func(m map[string]any) { m["events"] = []any{map[string]any{"type": "draw", "seat": 0, "n": 1}} }),
		"a rules object with an extra": mutate(seat, func(m map[string]any) { m["rules"].(map[string]any)["house"] = true }),
		"you 10 (seats are 0-9)":       mutate(seat, func(m map[string]any) { m["you"] = 10 }),
	} {
		enginetest.Reject(t, s.View, what, raw)
	}
	enginetest.Reject(t, s.Spectator, "a spectator view with a hand", mutate(spect, func(m map[string]any) { m["hand"] = []any{"R1"} }))
	enginetest.Reject(t, s.Spectator, "a seat view as a spectator's", seat)
	for what, raw := range map[string]string{
		"an action of unknown type":   `{"type":"bid"}`,
		"a play of X9":                `{"type":"play","card":"X9"}`,
		"a wild without colour":       `{"type":"play","card":"W"}`,
		"a coloured card with colour": `{"type":"play","card":"R7","colour":"red"}`,
		"uno false":                   `{"type":"play","card":"R7","uno":false}`,
		"a jump with a wild":          `{"type":"jump","card":"WD4","colour":"red"}`,
		"a draw with a card":          `{"type":"draw","card":"R7"}`,
	} {
		enginetest.Reject(t, s.Action, what, []byte(raw))
	}
}
