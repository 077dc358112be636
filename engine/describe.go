package engine

import "encoding/json"

// Description is a game as `arena games --json` prints it: what the
// registry knows of it, with its schema document.
type Description struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
	Seats   struct {
		Min int `json:"min"`
		Max int `json:"max"`
	} `json:"seats"`
	// Rules is the rules revision (Info.Rules).
	Rules   int                 `json:"rules"`
	Options []OptionDescription `json:"options"`
	// Schema is the game's schema document (Schemer), null without one.
	Schema json.RawMessage `json:"schema"`
}

// OptionDescription is one option of a Description.
type OptionDescription struct {
	Name string `json:"name"`
	// Kind is enum, bool or int.
	Kind string `json:"kind"`
	// Default is the value a game given no options is played with (what
	// hello.options then carries).
	Default string `json:"default"`
	// Values are the allowed values of an enum or bool option; an int
	// option has Min and Max instead.
	Values  []string `json:"values,omitempty"`
	Min     *int     `json:"min,omitempty"`
	Max     *int     `json:"max,omitempty"`
	Meaning string   `json:"meaning"`
	// Sets is, for a preset option, what each of its values sets the
	// other options to (resolved).
	Sets map[string]map[string]string `json:"sets,omitempty"`
}

// Describe is g's Description.
func Describe(g Game) (Description, error) {
	info := g.Info()
	d := Description{Name: info.Name, Summary: info.Summary, Rules: info.Rules, Options: []OptionDescription{}}
	d.Seats.Min, d.Seats.Max = info.MinSeats, info.MaxSeats
	if s := SchemaOf(g); s != nil {
		d.Schema = s
	} else {
		d.Schema = json.RawMessage("null")
	}
	played, err := Setup(g, info.MinSeats, nil)
	if err != nil {
		return d, err
	}
	for _, o := range info.Options {
		od := OptionDescription{Name: o.Name, Kind: o.Kind, Default: played[o.Name], Meaning: o.Doc}
		switch o.Kind {
		case "bool":
			od.Values = []string{"true", "false"}
		case "int":
			lo, hi := o.Min, o.Max
			od.Min, od.Max = &lo, &hi
		default:
			od.Values = o.Choices
		}
		for _, choice := range o.Choices {
			sets := o.Sets[choice]
			if sets == nil {
				continue
			}
			resolved, err := Setup(g, info.MinSeats, map[string]string{o.Name: choice})
			if err != nil {
				return d, err
			}
			if od.Sets == nil {
				od.Sets = map[string]map[string]string{}
			}
			od.Sets[choice] = map[string]string{}
			for k := range sets {
				od.Sets[choice][k] = resolved[k]
			}
		}
		d.Options = append(d.Options, od)
	}
	return d, nil
}
