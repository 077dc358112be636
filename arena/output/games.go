package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"

	"github.com/arena-dev/arena/engine"
)

// Games prints each game as arena games lists it: its seats and summary,
// a table of its options (the default each is played with, the values it
// takes, what it means), and what each preset's values set.
func Games(out io.Writer, games []engine.Game) error {
	for _, g := range games {
		info := g.Info()
		seats := fmt.Sprint(info.MinSeats)
		if info.MaxSeats != info.MinSeats {
			seats = fmt.Sprintf("%d-%d", info.MinSeats, info.MaxSeats)
		}
		// The defaults shown are the options a game given none is
		// played with (what a bot receives in hello.options): a
		// preset's defaults, such as bounce's rules=bounce, set
		// other options' values.
		played, err := engine.Setup(g, info.MinSeats, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s (%s seats): %s\n", info.Name, seats, info.Summary)
		t := tablewriter.NewTable(out, tablewriter.WithMaxWidth(110))
		t.Header("option", "default", "values", "meaning")
		for _, o := range info.Options {
			t.Append(o.Name, played[o.Name], optionValues(o), o.Doc)
		}
		if err := t.Render(); err != nil {
			return err
		}
		if err := presetLines(out, g, info); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	return nil
}

// presetLines prints, for each value of a preset option, the values it
// gives the options it sets ("rules=bounce sets start_card=number_only
// ..."), in the table's order.
func presetLines(out io.Writer, g engine.Game, info engine.Info) error {
	for _, p := range info.Options {
		for _, choice := range p.Choices {
			sets := p.Sets[choice]
			if sets == nil {
				continue
			}
			resolved, err := engine.Setup(g, info.MinSeats, map[string]string{p.Name: choice})
			if err != nil {
				return err
			}
			var vals []string
			for _, o := range info.Options {
				if _, ok := sets[o.Name]; ok {
					vals = append(vals, o.Name+"="+resolved[o.Name])
				}
			}
			fmt.Fprintf(out, "%s=%s sets %s\n", p.Name, choice, strings.Join(vals, " "))
		}
	}
	return nil
}

func optionValues(o engine.OptionSpec) string {
	switch o.Kind {
	case "bool":
		return "true|false"
	case "int":
		return fmt.Sprintf("%d..%d", o.Min, o.Max)
	}
	return strings.Join(o.Choices, "|")
}

// GamesJSON prints {"games":[...]} (engine.Describe), indented.
func GamesJSON(out io.Writer, games []engine.Game) error {
	var all struct {
		Games []engine.Description `json:"games"`
	}
	for _, g := range games {
		d, err := engine.Describe(g)
		if err != nil {
			return err
		}
		all.Games = append(all.Games, d)
	}
	e := json.NewEncoder(out)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	return e.Encode(all)
}

// Schema prints g's schema document, indented.
func Schema(out io.Writer, g engine.Game) error {
	raw := engine.SchemaOf(g)
	if raw == nil {
		return fmt.Errorf("game %s publishes no schema", g.Info().Name)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err := out.Write(b.Bytes())
	return err
}
