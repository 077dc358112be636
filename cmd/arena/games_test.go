package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/arena-dev/arena/engine"
)

// gamesListing splits `arena games` output into each game's heading and
// its option rows (option name -> the default column).
func gamesListing(t *testing.T, out string) (map[string]string, map[string]map[string]string) {
	t.Helper()
	heading := regexp.MustCompile(`^(\S+) \(([0-9-]+) seats\): `)
	seats, rows := map[string]string{}, map[string]map[string]string{}
	game := ""
	for _, line := range strings.Split(out, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			game = m[1]
			seats[game], rows[game] = m[2], map[string]string{}
			continue
		}
		cells := strings.Split(line, "│")
		if game == "" || len(cells) < 4 {
			continue
		}
		name, def := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		if name != "" && name != "OPTION" {
			rows[game][name] = def
		}
	}
	return seats, rows
}

// `arena games` lists, for every game, the seat range and the value each
// option has when it is not given: for bounce the values its rules=bounce
// preset sets, not Uno's. A preset option also lists what each of its
// values sets.
func TestGamesShowsWhatIsPlayed(t *testing.T) {
	t.Parallel()
	out, _, code := arena(t, "games")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	seats, rows := gamesListing(t, out)
	for _, g := range engine.Games() {
		info := g.Info()
		want := fmt.Sprintf("%d-%d", info.MinSeats, info.MaxSeats)
		if info.MinSeats == info.MaxSeats {
			want = fmt.Sprint(info.MinSeats)
		}
		if seats[info.Name] != want {
			t.Errorf("%s: seats %q, want %q", info.Name, seats[info.Name], want)
		}
		played, err := engine.Setup(g, info.MinSeats, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rows[info.Name]) != len(info.Options) {
			t.Errorf("%s: %d option rows, want %d", info.Name, len(rows[info.Name]), len(info.Options))
		}
		for name, v := range played {
			if rows[info.Name][name] != v {
				t.Errorf("%s: option %s listed with default %q, played as %q", info.Name, name, rows[info.Name][name], v)
			}
		}
		for _, o := range info.Options {
			for _, choice := range o.Choices {
				sets := o.Sets[choice]
				if sets == nil {
					continue
				}
				resolved, err := engine.Setup(g, info.MinSeats, map[string]string{o.Name: choice})
				if err != nil {
					t.Fatal(err)
				}
				for k := range sets {
					if want := k + "=" + resolved[k]; !strings.Contains(presetLine(out, info.Name, o.Name+"="+choice), want) {
						t.Errorf("%s: the %s=%s line lacks %s", info.Name, o.Name, choice, want)
					}
				}
			}
		}
	}
}

// presetLine is the listing's line for a preset value (`rules=bounce sets
// ...`) within game's section.
func presetLine(out, game, preset string) string {
	in := false
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, game+" (") {
			in = true
			continue
		}
		if in && strings.Contains(line, " seats): ") {
			break
		}
		if in && strings.Contains(line, preset+" sets ") {
			return line
		}
	}
	return ""
}
