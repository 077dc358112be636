package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/report"
	"github.com/arena-dev/arena/internal/usage"
	"github.com/arena-dev/arena/replays/viewer"
)

// reportDescription is the help of both spellings of the command.
const reportDescription = `Writes one self-contained HTML file (no server, no network: open it in any
browser) from a results directory: a tournament's, or the --out directory of
arena match or arena sprt. Standings with rating error bars, the head-to-head
matrix as a heat map (any number of bots), the ratings over the games, the
bracket of an elimination, forfeits and strikes by reason per bot with links
to their games, an SPRT's LLR against its bounds, and every game linked.
DIR is read as arena tournament standings reads it; only FILE and the games'
viewer pages (viewer/ beside FILE) are written, atomically, so it may be run
again at any time during a run.

   arena report out/cup                  # out/cup/report.html
   arena tournament report out/cup -o cup.html
   arena report out/sprt-run`

func reportFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "the report file", DefaultText: "DIR/" + report.DefaultName},
	}
}

// reportCommand is arena report, for a results directory of any kind.
func reportCommand() *cli.Command {
	return withUsage(&cli.Command{
		Name:        "report",
		Usage:       "write an HTML report of a tournament, match or sprt results directory",
		ArgsUsage:   "DIR",
		Description: reportDescription,
		Flags:       reportFlags(),
		Action:      writeReport,
	})
}

func writeReport(c *cli.Context) error {
	if c.NArg() != 1 {
		return usage.Errorf("report needs one results DIR, got %d arguments", c.NArg())
	}
	dir, out := c.Args().First(), c.String("out")
	if out != "" {
		if st, err := os.Stat(filepath.Dir(out)); err != nil || !st.IsDir() {
			return usage.Errorf("--out %s: no directory %s", out, filepath.Dir(out))
		}
	}
	r, err := report.Write(dir, out, report.Options{WriteViewer: viewer.WriteSource})
	if err != nil { // not a results directory: exit 2 (usageErrs)
		return err
	}
	// A game's viewer page not written is a warning, not an error.
	for _, w := range r.Warnings {
		fmt.Fprintf(c.App.ErrWriter, "arena: warning: %s\n", w)
	}
	fmt.Fprintf(c.App.Writer, "%s: %s report of %d games\n", report.Path(dir, out), r.Kind, len(r.Records))
	return nil
}
