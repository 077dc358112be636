package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/schema"
)

// Schema is a game's schema document (engine.Schemer) compiled for
// validation: the compiler checks the document against the draft 2020-12
// metaschema first.
type Schema struct {
	Game engine.Game
	// The document's definitions, compiled.
	Options, View, Spectator, Action, Root *jsonschema.Schema
	// actions are the action JSON already found valid: games repeat a
	// small set of actions, each is validated once.
	actions map[any]string
}

// CompileSchema compiles g's schema document; the test fails when g has
// none or the document is not a valid schema.
func CompileSchema(t testing.TB, g engine.Game) *Schema {
	t.Helper()
	raw := engine.SchemaOf(g)
	if raw == nil {
		t.Fatalf("%s publishes no schema (engine.Schemer)", g.Info().Name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s schema is not JSON: %v", g.Info().Name, err)
	}
	id := schema.ID(g.Info().Name)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(id, doc); err != nil {
		t.Fatalf("%s schema: %v", g.Info().Name, err)
	}
	compile := func(ptr string) *jsonschema.Schema {
		s, err := c.Compile(id + ptr)
		if err != nil {
			t.Fatalf("%s schema %s: %v", g.Info().Name, ptr, err)
		}
		return s
	}
	return &Schema{
		Game: g, Root: compile(""),
		Options: compile(schema.Options), View: compile(schema.View),
		Spectator: compile(schema.SpectatorView), Action: compile(schema.Action),
		actions: map[any]string{},
	}
}

// Validate checks the JSON raw against sch.
func Validate(sch *jsonschema.Schema, raw []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}

// ViewOf is the schema of seat's view (engine.Spectator: the spectator's).
func (s *Schema) ViewOf(seat int) *jsonschema.Schema {
	if seat == engine.Spectator {
		return s.Spectator
	}
	return s.View
}

// CheckView fails the test unless st's view for seat is valid.
func (s *Schema) CheckView(t testing.TB, st engine.State, seat int, what string) {
	t.Helper()
	raw, err := engine.AppendJSON(nil, st.View(seat))
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(s.ViewOf(seat), raw); err != nil {
		t.Fatalf("%s: %s view of seat %d does not match the schema: %v\n%s", s.Game.Info().Name, what, seat, err, raw)
	}
}

// CheckOptions fails the test unless opts, as hello.options, is valid.
func (s *Schema) CheckOptions(t testing.TB, opts engine.Options) {
	t.Helper()
	raw, err := json.Marshal(map[string]string(opts))
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(s.Options, raw); err != nil {
		t.Fatalf("%s: hello.options does not match the schema: %v\n%s", s.Game.Info().Name, err, raw)
	}
}

// CheckLegal fails the test unless every action of st's legal list is
// valid (each distinct one is validated once per Schema); it returns the
// list.
func (s *Schema) CheckLegal(t testing.TB, st engine.State) []engine.Action {
	t.Helper()
	legal := st.Legal()
	for _, a := range legal {
		// Actions are plain comparable values (as the engines' are): the
		// value is the key, so that a repeated action costs no encoding.
		var key any = a
		if !reflect.TypeOf(a).Comparable() {
			j, _ := engine.AppendJSON(nil, a)
			key = string(j)
		}
		if _, ok := s.actions[key]; ok {
			continue
		}
		raw, err := engine.AppendJSON(nil, a)
		if err != nil {
			t.Fatal(err)
		}
		if err := Validate(s.Action, raw); err != nil {
			t.Fatalf("%s: legal action %s does not match the schema: %v", s.Game.Info().Name, raw, err)
		}
		s.actions[key] = string(raw)
	}
	return legal
}

// SchemaCounts is what CheckGames validated.
type SchemaCounts struct {
	Games, Plies, Views, FinalViews int
}

func (c SchemaCounts) String() string {
	return fmt.Sprintf("%d games, %d plies, %d views during play, %d final views", c.Games, c.Plies, c.Views, c.FinalViews)
}

// Add sums counts.
func (c *SchemaCounts) Add(d SchemaCounts) {
	c.Games += d.Games
	c.Plies += d.Plies
	c.Views += d.Views
	c.FinalViews += d.FinalViews
}

// SchemaPlan is one series of random games for CheckGames.
type SchemaPlan struct {
	Seats int
	// Options are the options given (Setup resolves them).
	Options map[string]string
	// Seed is the first game's seed; the others follow it.
	Seed  uint64
	Games int
	// Views sets how many views of each game are validated during play:
	// the first Views turns, then each turn n with probability Views/n,
	// about Views(1 + ln(plies/Views)) a game, spread over the whole
	// game (views are what costs: the validator takes 0.1 to 1 ms a
	// view). 0: none but the final views.
	Views int
	// Pick chooses the action played from the legal list; nil: uniformly
	// at random.
	Pick func(rng *rand.Rand, legal []engine.Action) int
}

// CheckGames plays the plan's random games of s.Game and validates
// against the schema what a bot and a replay get: the resolved
// hello.options; at every turn the legal list (every action); at the
// sampled turns (SchemaPlan.Views) the mover's view, which is turn.view,
// and the views of the seats Seats draws (another seat, the spectator;
// one time in 16 all); at the end the final view (end.view) of a random
// seat and the spectator's, of every seat in every fourth game.
func (s *Schema) CheckGames(t testing.TB, p SchemaPlan) SchemaCounts {
	t.Helper()
	g := s.Game
	opts, err := engine.Setup(g, p.Seats, p.Options)
	if err != nil {
		t.Fatal(err)
	}
	s.CheckOptions(t, opts)
	pick := p.Pick
	if pick == nil {
		pick = func(rng *rand.Rand, l []engine.Action) int { return rng.IntN(len(l)) }
	}
	var n SchemaCounts
	for i := range p.Games {
		gseed := p.Seed + uint64(i)
		st, err := g.New(p.Seats, gseed, opts)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(gseed, 0x736368))
		what := fmt.Sprintf("seats %d, options %v, seed %d", p.Seats, p.Options, gseed)
		for ply := 0; !st.Over(); ply++ {
			legal := s.CheckLegal(t, st)
			if p.Views > 0 && (ply < p.Views || rng.IntN(ply) < p.Views) {
				mover := st.ToMove()
				s.CheckView(t, st, mover, fmt.Sprintf("%s, ply %d, turn", what, ply))
				from, to := Seats(rng, p.Seats, 16)
				for seat := from; seat <= to; seat++ {
					if seat != mover {
						s.CheckView(t, st, seat, fmt.Sprintf("%s, ply %d", what, ply))
						n.Views++
					}
				}
				n.Views++
			}
			if err := st.Apply(legal[pick(rng, legal)]); err != nil {
				t.Fatal(err)
			}
			n.Plies++
		}
		finals := []int{engine.Spectator, rng.IntN(p.Seats)}
		if i%4 == 0 {
			finals = AllSeats(p.Seats)
		}
		for _, seat := range finals {
			s.CheckView(t, st, seat, what+", final")
			n.FinalViews++
		}
		n.Games++
	}
	return n
}

// OptionValues is one set of given options per value of every option of
// g (each enum choice, true and false, and for an int option its
// minimum, its default and the values ints lists for it), each alone,
// and first the empty set (every default): a plan that covers every
// option value at least once.
func OptionValues(g engine.Game, ints map[string][]string) []map[string]string {
	out := []map[string]string{{}}
	for _, o := range g.Info().Options {
		var vals []string
		switch o.Kind {
		case "bool":
			vals = []string{"true", "false"}
		case "int":
			vals = append([]string{fmt.Sprint(o.Min), o.Default}, ints[o.Name]...)
		default:
			vals = o.Choices
		}
		for _, v := range vals {
			out = append(out, map[string]string{o.Name: v})
		}
	}
	return out
}

// RandomOptions is a random choice of every enum and bool option of g;
// an int option takes one of the values ints lists for it (or stays at
// its default).
func RandomOptions(rng *rand.Rand, g engine.Game, ints map[string][]string) map[string]string {
	out := map[string]string{}
	for _, o := range g.Info().Options {
		switch o.Kind {
		case "bool":
			out[o.Name] = []string{"true", "false"}[rng.IntN(2)]
		case "int":
			if vs := ints[o.Name]; len(vs) > 0 {
				out[o.Name] = vs[rng.IntN(len(vs))]
			}
		default:
			out[o.Name] = o.Choices[rng.IntN(len(o.Choices))]
		}
	}
	return out
}

// Reject fails the test unless sch refuses raw: the negative checks
// that keep a schema from accepting anything.
func Reject(t testing.TB, sch *jsonschema.Schema, what string, raw []byte) {
	t.Helper()
	if err := Validate(sch, raw); err == nil {
		t.Errorf("the schema accepts %s: %s", what, raw)
	}
}

// Mutate decodes the JSON object raw, lets change edit it and encodes it
// again (for Reject).
func Mutate(t testing.TB, raw []byte, change func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	change(m)
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Actions are the distinct action JSON validated so far.
func (s *Schema) Actions() []string {
	out := make([]string, 0, len(s.actions))
	for _, a := range s.actions {
		out = append(out, a)
	}
	return out
}
