package banqi

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"

	"github.com/arena-dev/arena/internal/testkit"
)

// schemaInts are the int option values the schema tests play besides
// each option's minimum and default: short limits that end games early.
var schemaInts = map[string][]string{"no_progress_plies": {"10", "60"}, "max_plies": {"40", "300"}}

// Random games of every option value (and random combinations) match the
// published schema: hello.options, every legal action, the views sent
// during play, every final view and the spectator's.
func TestSchemaRandomGames(t *testing.T) {
	start := time.Now()
	s := enginetest.CompileSchema(t, Game{})
	plans := enginetest.OptionValues(Game{}, schemaInts)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 30 {
		plans = append(plans, enginetest.RandomOptions(rng, Game{}, schemaInts))
	}
	games := 40
	if testkit.Quick() {
		games = 10
	}
	var n enginetest.SchemaCounts
	for i, given := range plans {
		n.Add(s.CheckGames(t, enginetest.SchemaPlan{Seats: 2, Options: given, Seed: uint64(1000 * i), Games: games, Views: 4}))
	}
	t.Logf("%v plans: %v, %d distinct actions, in %v", len(plans), n, len(s.Actions()), time.Since(start))
}

// The schema is not vacuous: views, actions and options that differ from
// what the engine sends in one detail are refused.
func TestSchemaRejects(t *testing.T) {
	s := enginetest.CompileSchema(t, Game{})
	st := NewState(11, DefaultRules())
	for _, a := range []Action{Flip(21), Flip(17), Flip(22), Capture(17, 21)} {
		if err := st.Play(a); err != nil {
			t.Fatal(err)
		}
	}
	seat, _ := engine.AppendJSON(nil, st.View(0))
	spect, _ := engine.AppendJSON(nil, st.View(engine.Spectator))
	for _, c := range []struct {
		name string
		raw  []byte
	}{{"a seat view", seat}, {"a spectator view", spect}} {
		sch := s.View
		if c.name == "a spectator view" {
			sch = s.Spectator
		}
		if err := enginetest.Validate(sch, c.raw); err != nil {
			t.Fatalf("%s is refused: %v\n%s", c.name, err, c.raw)
		}
	}
	mutate := func(raw []byte, f func(m map[string]any)) []byte { return enginetest.Mutate(t, raw, f) }
	for what, raw := range map[string][]byte{
		"a view with an extra field":          mutate(seat, func(m map[string]any) { m["score"] = 1 }),
		"a view without board":                mutate(seat, func(m map[string]any) { delete(m, "board") }),
		"a view without ranks":                mutate(seat, func(m map[string]any) { delete(m, "ranks") }),
		"a seat view without you":             spect,
		"a piece letter A (not a letter)":     mutate(seat, func(m map[string]any) { m["board"].([]any)[0] = "XAXX" }),
		"a piece letter S (not a letter)":     mutate(seat, func(m map[string]any) { m["board"].([]any)[0] = "XXSX" }),
		"a row of 5 squares":                  mutate(seat, func(m map[string]any) { m["board"].([]any)[0] = "XXXXX" }),
		"7 rows":                              mutate(seat, func(m map[string]any) { m["board"] = m["board"].([]any)[:7] }),
		"a colour green":                      mutate(seat, func(m map[string]any) { m["colours"].([]any)[0] = "green" }),
		"you with a seat 2":                   mutate(seat, func(m map[string]any) { m["you"].(map[string]any)["seat"] = 2 }),
		"captured out of KGMRNCP order":       mutate(seat, func(m map[string]any) { m["captured"].(map[string]any)["red"] = "PK" }),
		"black pieces among the red captured": mutate(seat, func(m map[string]any) { m["captured"].(map[string]any)["red"] = "k" }),
		"six Pawns face down":                 mutate(seat, func(m map[string]any) { m["facedown"].(map[string]any)["red"] = "PPPPPP" }),
		"a chain square e1":                   mutate(seat, func(m map[string]any) { m["chain"] = "e1" }),
		"a last flip without its piece":       mutate(seat, func(m map[string]any) { m["last"] = "b3" }),
		"ranks xiangqi":                       mutate(seat, func(m map[string]any) { m["ranks"] = "xiangqi" }),
		"a ply as a string":                   mutate(seat, func(m map[string]any) { m["ply"] = "4" }),
	} {
		sch := s.View
		enginetest.Reject(t, sch, what, raw)
	}
	enginetest.Reject(t, s.Spectator, "a spectator view with you", seat)
	for what, raw := range map[string]string{
		"an action of unknown type":    `{"type":"jump","from":"b3","to":"b4"}`,
		"a flip of e1":                 `{"type":"flip","square":"e1"}`,
		"a flip of B3 (upper case)":    `{"type":"flip","square":"B3"}`,
		"a move without to":            `{"type":"move","from":"b3"}`,
		"a capture with a square":      `{"type":"capture","from":"b3","to":"b4","square":"b3"}`,
		"a stop with a square":         `{"type":"stop","square":"b3"}`,
		"an action without type":       `{"square":"b3"}`,
		"an action that is not object": `"b3"`,
	} {
		enginetest.Reject(t, s.Action, what, []byte(raw))
	}
	good, _ := json.Marshal(map[string]string(mustSetup(t, nil)))
	if err := enginetest.Validate(s.Options, good); err != nil {
		t.Fatalf("the default options are refused: %v", err)
	}
	for what, opts := range map[string]map[string]string{
		"an unknown option":        {"variant": "x"},
		"ranks xiangqi":            {"ranks": "xiangqi"},
		"chain_capture yes":        {"chain_capture": "yes"},
		"no_progress_plies 0":      {"no_progress_plies": "0"},
		"no_progress_plies 100001": {"no_progress_plies": "100001"},
		"max_plies 02000":          {"max_plies": "02000"},
		"max_plies -1":             {"max_plies": "-1"},
		"a missing option (ranks)": {"ranks": ""},
	} {
		o := mustSetup(t, nil)
		for k, v := range opts {
			if v == "" {
				delete(o, k)
			} else {
				o[k] = v
			}
		}
		raw, _ := json.Marshal(map[string]string(o))
		enginetest.Reject(t, s.Options, what, raw)
	}
}

func mustSetup(t *testing.T, given map[string]string) engine.Options {
	t.Helper()
	o, err := engine.Setup(Game{}, 2, given)
	if err != nil {
		t.Fatal(err)
	}
	return o
}
