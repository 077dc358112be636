package main

import (
	"fmt"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/engine"
)

func gamesCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:  "games",
		Usage: "list the games, their seat ranges and options with defaults",
		Action: func(c *cli.Context) error {
			out := c.App.Writer
			for _, g := range engine.Games() {
				info := g.Info()
				seats := fmt.Sprint(info.MinSeats)
				if info.MaxSeats != info.MinSeats {
					seats = fmt.Sprintf("%d-%d", info.MinSeats, info.MaxSeats)
				}
				fmt.Fprintf(out, "%s (%s seats): %s\n", info.Name, seats, info.Summary)
				t := tablewriter.NewTable(out, tablewriter.WithMaxWidth(110))
				t.Header("option", "default", "values", "meaning")
				for _, o := range info.Options {
					t.Append(o.Name, o.Default, optionValues(o), o.Doc)
				}
				if err := t.Render(); err != nil {
					return err
				}
				fmt.Fprintln(out)
			}
			return nil
		},
	})
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
