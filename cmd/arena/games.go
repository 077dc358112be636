package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/engine"
)

func gamesCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "games",
		Usage: "list the games, their seat ranges and options with defaults",
		Description: `The options are given as --option k=v (match, sprt, check) or under a
tournament file's options:

   arena games
   arena match --game banqi --option ranks=hk --bot a='arena bot greedy' --bot b='arena bot random'

--json prints every game (or GAME) as JSON, with its schema; --schema
prints GAME's JSON Schema document, for bot and SDK authors:

   arena games --json
   arena games banqi --schema`,
		ArgsUsage: "[GAME]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "json", Usage: "print the games as one JSON object: name, summary, seats, options (defaults, values, meaning), rules revision and schema"},
			&cli.BoolFlag{Name: "schema", Usage: "print GAME's JSON Schema (draft 2020-12) of hello.options, the views and the actions"},
		},
		Action: func(c *cli.Context) error {
			out := c.App.Writer
			games := engine.Games()
			switch {
			case c.NArg() > 1:
				return usagef("games takes at most one GAME, got %d: %s", c.NArg(), strings.Join(c.Args().Slice(), " "))
			case c.NArg() == 1:
				g, err := engine.Lookup(c.Args().First())
				if err != nil {
					return usageError{err}
				}
				games = []engine.Game{g}
			case c.Bool("schema"):
				return usagef("--schema needs a GAME: arena games GAME --schema")
			}
			if c.Bool("schema") && c.Bool("json") {
				return usagef("give --schema or --json, not both")
			}
			if c.Bool("schema") {
				return printSchema(out, games[0])
			}
			if c.Bool("json") {
				return printGamesJSON(out, games)
			}
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
		},
	})
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

// printGamesJSON prints {"games":[...]} (engine.Describe), indented.
func printGamesJSON(out io.Writer, games []engine.Game) error {
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

// printSchema prints g's schema document, indented.
func printSchema(out io.Writer, g engine.Game) error {
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
