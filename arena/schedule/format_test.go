package schedule_test

import (
	"slices"
	"testing"

	"github.com/arena-dev/arena/arena/schedule"
)

func TestFormats(t *testing.T) {
	// The help of --format lists them in this order, the error for an
	// unknown one alphabetically.
	if got, want := schedule.FormatChoice(), "round-robin, gauntlet, swiss, single-elimination, double-elimination or table-elimination"; got != want {
		t.Errorf("FormatChoice() = %q, want %q", got, want)
	}
	if got := schedule.FormatNames(); !slices.IsSorted(got) || len(got) != len(schedule.Formats()) {
		t.Errorf("FormatNames() = %q: want every format, sorted", got)
	}
	c := schedule.Config{Bots: 4, Seats: 2, Rounds: 1, GamesPerEncounter: 2, Gauntlet: []int{0}}
	for _, f := range schedule.Formats() {
		t.Run(f.Name, func(t *testing.T) {
			if f.Help == "" {
				t.Error("no help line")
			}
			got, ok := schedule.LookupFormat(f.Name)
			if !ok || got.Name != f.Name {
				t.Fatalf("LookupFormat(%q) = %q, %v", f.Name, got.Name, ok)
			}
			s, err := got.New(c)
			if err != nil {
				t.Fatal(err)
			}
			// Every game can be played to the end; what the format shows
			// beside the standings follows from its interfaces.
			for {
				g, st := s.Next()
				if st != schedule.Ready {
					break
				}
				s.Result(g, []int{1, 2})
			}
			d := schedule.DetailsOf(s)
			_, isStager := s.(schedule.Stager)
			stage, _ := schedule.StageOf(s, 0)
			switch f.Name {
			case "round-robin", "gauntlet":
				if d.Swiss != nil || d.Chart() != nil || isStager {
					t.Errorf("details %+v, stager %v: want none", d, isStager)
				}
			case "swiss":
				if len(d.Swiss) != c.Bots || d.Chart() != nil || isStager {
					t.Errorf("details %+v, stager %v: want the Swiss table alone", d, isStager)
				}
			default:
				if !d.Decided() || d.Chart() == nil || d.RankedBy() == "" || len(d.Tiers(c.Bots)) != c.Bots || !isStager || stage != "" {
					t.Errorf("details %+v, stager %v, stage %q: want a decided chart and no stage in play", d, isStager, stage)
				}
			}
		})
	}
	if _, ok := schedule.LookupFormat("ladder"); ok {
		t.Error(`LookupFormat("ladder") found a format`)
	}
}
