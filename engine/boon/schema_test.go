package boon

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

// Random games of every seat count, every option value and random
// combinations match the published schema: hello.options, every legal
// action, the views sent during play, final views and the spectator's.
func TestSchemaRandomGames(t *testing.T) {
	start := time.Now()
	s := enginetest.CompileSchema(t, Game{})
	ints := map[string][]string{"rounds": {"3", "20"}}
	plans := enginetest.OptionValues(Game{}, ints)
	rng := rand.New(rand.NewPCG(5, 6))
	for range 30 {
		plans = append(plans, enginetest.RandomOptions(rng, Game{}, ints))
	}
	games := 8
	if testkit.Quick() {
		games = 3
	}
	var n enginetest.SchemaCounts
	for i, given := range plans {
		for seats := MinSeats; seats <= MaxSeats; seats++ {
			n.Add(s.CheckGames(t, enginetest.SchemaPlan{Seats: seats, Options: given, Seed: uint64(1000*i + 100*seats), Games: games, Views: 2}))
		}
	}
	t.Logf("%d plans x 3 seat counts: %v, %d distinct actions, in %v", len(plans), n, len(s.Actions()), time.Since(start))
}

// The schema is not vacuous: views and actions that differ from what the
// engine sends in one detail are refused.
func TestSchemaRejects(t *testing.T) {
	s := enginetest.CompileSchema(t, Game{})
	st := NewState(4, 42, DefaultRules())
	if err := st.Play(Pass()); err != nil {
		t.Fatal(err)
	}
	if err := st.Play(Take()); err != nil {
		t.Fatal(err)
	}
	picker, _ := engine.AppendJSON(nil, st.View(1))
	spect, _ := engine.AppendJSON(nil, st.View(engine.Spectator))
	if err := enginetest.Validate(s.View, picker); err != nil {
		t.Fatalf("the picker's view is refused: %v\n%s", err, picker)
	}
	if err := enginetest.Validate(s.Spectator, spect); err != nil {
		t.Fatalf("the spectator's view is refused: %v\n%s", err, spect)
	}
	mutate := func(raw []byte, f func(m map[string]any)) []byte { return enginetest.Mutate(t, raw, f) }
	for what, raw := range map[string][]byte{
		"a view with an extra field": mutate(picker, func(m map[string]any) { m["you"] = 1 }),
		"a view without hand_sizes":  mutate(picker, func(m map[string]any) { delete(m, "hand_sizes") }),
		"a card G7":                  mutate(picker, func(m map[string]any) { m["hand"].([]any)[0] = "G7" }),
		"a card Au15":                mutate(picker, func(m map[string]any) { m["boon"].([]any)[0] = "Au15" }),
		"a card au3 (lower case)":    mutate(picker, func(m map[string]any) { m["hand"].([]any)[0] = "au3" }),
		"a phase deal":               mutate(picker, func(m map[string]any) { m["phase"] = "deal" }),
		"a boon of 5 cards":          mutate(picker, func(m map[string]any) { m["boon"] = []any{"B1", "B2", "B3", "B4", "B5"} }),
		"an event of unknown type":   mutate(picker, func(m map[string]any) { m["events"] = []any{map[string]any{"type": "steal", "seat": 1}} }),
		"a play event without card":  mutate(picker, func(m map[string]any) { m["events"] = []any{map[string]any{"type": "play", "seat": 1}} }),
		"a bury event naming a card": mutate(picker, func(m map[string]any) { m["events"] = []any{map[string]any{"type": "bury", "seat": 1, "card": "B1"}} }),
	} {
		enginetest.Reject(t, s.View, what, raw)
	}
	for what, raw := range map[string][]byte{
		"a spectator view with a hand":  mutate(spect, func(m map[string]any) { m["hand"] = []any{"B1"} }),
		"a spectator view with a seat":  mutate(spect, func(m map[string]any) { m["seat"] = 0 }),
		"a spectator view with a boon":  mutate(spect, func(m map[string]any) { m["boon"] = []any{"B1", "B2", "B3", "B4"} }),
		"a spectator view with a team":  mutate(spect, func(m map[string]any) { m["team"] = "picker" }),
		"the picker's view as a public": picker,
	} {
		enginetest.Reject(t, s.Spectator, what, raw)
	}
	for what, raw := range map[string]string{
		"an action of unknown type": `{"type":"steal"}`,
		"a play of G9":              `{"type":"play","card":"G9"}`,
		"a bury without card":       `{"type":"bury"}`,
		"a take with a card":        `{"type":"take","card":"B1"}`,
	} {
		enginetest.Reject(t, s.Action, what, []byte(raw))
	}
	for what, raw := range map[string]string{
		"an unknown option":    `{"must_trump":"false","no_pick":"least","least_tie":"void","short_pay":"cap","final_tie":"shared","tiers":"boon","rounds":"200","x":"1"}`,
		"rounds 0":             `{"must_trump":"false","no_pick":"least","least_tie":"void","short_pay":"cap","final_tie":"shared","tiers":"boon","rounds":"0"}`,
		"tiers bridge":         `{"must_trump":"false","no_pick":"least","least_tie":"void","short_pay":"cap","final_tie":"shared","tiers":"bridge","rounds":"200"}`,
		"a missing must_trump": `{"no_pick":"least","least_tie":"void","short_pay":"cap","final_tie":"shared","tiers":"boon","rounds":"200"}`,
	} {
		enginetest.Reject(t, s.Options, what, []byte(raw))
	}
}
