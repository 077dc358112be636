package schedule

import (
	"slices"
	"strings"
)

// Format is one tournament format: the name a tournament file's format
// (and --format) gives, a line for people, and its scheduler. Adding a
// format is one entry in formats: the tournament resolver, its error
// messages and the help of `arena tournament run` all read the list.
type Format struct {
	Name string
	// Help says in a line who plays whom.
	Help string
	// New builds the scheduler; it checks the Config, so that a
	// tournament file is judged before anything is played.
	New func(Config) (Scheduler, error)
}

// formats are the formats in the order help lists them.
var formats = []Format{
	{Name: "round-robin", Help: "every bot meets every other, Rounds times", New: RoundRobin},
	{Name: "gauntlet", Help: "the gauntlet bots meet every other bot, not each other", New: Gauntlet},
	{Name: "swiss", Help: "Rounds rounds, each pairing bots with equal or close scores", New: Swiss},
	{Name: "single-elimination", Help: "a knockout bracket: out at the first lost match", New: SingleElimination},
	{Name: "double-elimination", Help: "a bracket with a losers' bracket: out at the second lost match", New: DoubleElimination},
	{Name: "table-elimination", Help: "tables of Seats bots, the best Advance of each going through", New: TableElimination},
}

// Formats returns every format, in the order help lists them.
func Formats() []Format { return slices.Clone(formats) }

// LookupFormat returns the format named name.
func LookupFormat(name string) (Format, bool) {
	i := slices.IndexFunc(formats, func(f Format) bool { return f.Name == name })
	if i < 0 {
		return Format{}, false
	}
	return formats[i], true
}

// FormatNames returns the formats' names in alphabetical order, as an
// error naming the known ones lists them.
func FormatNames() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.Name
	}
	slices.Sort(out)
	return out
}

// FormatChoice is the formats' names in help order as a choice in
// words: "round-robin, gauntlet, ... or table-elimination".
func FormatChoice() string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
