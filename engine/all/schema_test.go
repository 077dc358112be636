package all

import (
	"encoding/json"
	"maps"
	"strconv"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/enginetest"
	"github.com/arena-dev/arena/engine/schema"
)

// Every registered game publishes a schema document (engine.Schemer),
// valid against the draft 2020-12 metaschema, with the $id, the dialect
// and the definitions the engine contract names.
func TestEveryGameHasASchema(t *testing.T) {
	for _, g := range engine.Games() {
		name := g.Info().Name
		raw := engine.SchemaOf(g)
		if raw == nil {
			t.Errorf("%s publishes no schema: it must implement engine.Schemer", name)
			continue
		}
		var doc struct {
			Schema string                     `json:"$schema"`
			ID     string                     `json:"$id"`
			Defs   map[string]json.RawMessage `json:"$defs"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.Schema != schema.Draft || doc.ID != schema.ID(name) {
			t.Errorf("%s: $schema %q, $id %q", name, doc.Schema, doc.ID)
		}
		for _, def := range []string{"options", "view", "spectator_view", "action"} {
			if doc.Defs[def] == nil {
				t.Errorf("%s: no $defs/%s", name, def)
			}
		}
		enginetest.CompileSchema(t, g) // the metaschema check
	}
}

// hello.options against the schema, for every game: the options of every
// seat count and every single option value are accepted; a value the
// engine refuses, an unknown option or a missing one is not.
func TestSchemaOptions(t *testing.T) {
	for _, g := range engine.Games() {
		info := g.Info()
		s := enginetest.CompileSchema(t, g)
		for seats := info.MinSeats; seats <= info.MaxSeats; seats++ {
			o, err := engine.Setup(g, seats, nil)
			if err != nil {
				t.Fatal(err)
			}
			s.CheckOptions(t, o)
		}
		base, _ := engine.Setup(g, info.MinSeats, nil)
		try := func(name, v string) (engineOK bool, schemaErr error) {
			o := maps.Clone(base)
			o[name] = v
			_, err := engine.Setup(g, info.MinSeats, map[string]string{name: v})
			raw, _ := json.Marshal(map[string]string(o))
			return err == nil, enginetest.Validate(s.Options, raw)
		}
		for _, o := range info.Options {
			vals := []string{"", "x", "True", " " + o.Default}
			switch o.Kind {
			case "bool":
				vals = append(vals, "true", "false", "1", "0")
			case "int":
				for _, n := range []int{o.Min - 1, o.Min, o.Min + 1, o.Max - 1, o.Max, o.Max + 1, o.Max * 10, -o.Max} {
					vals = append(vals, strconv.Itoa(n))
				}
				vals = append(vals, "0"+strconv.Itoa(o.Max), "+1", "1.0")
			default:
				vals = append(vals, o.Choices...)
			}
			for _, v := range vals {
				ok, err := try(o.Name, v)
				// The engine accepts a few spellings it canonicalises
				// (bool "1", int "+1"): hello.options carries the
				// canonical form only, so the schema may refuse them.
				canonical := v == "true" || v == "false" || o.Kind != "bool"
				if o.Kind == "int" {
					n, err := strconv.Atoi(v)
					canonical = err == nil && strconv.Itoa(n) == v
				}
				switch {
				case ok && canonical && err != nil:
					t.Errorf("%s: %s=%q is played but the schema refuses it: %v", info.Name, o.Name, v, err)
				case !ok && err == nil:
					t.Errorf("%s: %s=%q is refused by the engine but the schema accepts it", info.Name, o.Name, v)
				}
			}
		}
		raw, _ := json.Marshal(map[string]string(base))
		enginetest.Reject(t, s.Options, info.Name+" options with an extra option", enginetest.Mutate(t, raw, func(m map[string]any) { m["extra"] = "1" }))
		for _, o := range info.Options {
			enginetest.Reject(t, s.Options, info.Name+" options without "+o.Name, enginetest.Mutate(t, raw, func(m map[string]any) { delete(m, o.Name) }))
		}
	}
}
