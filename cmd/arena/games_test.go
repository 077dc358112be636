package main

import (
	"encoding/json"
	"fmt"
	"reflect"
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

// `arena games --json` prints every game with its seats, options (the
// defaults played, values, meaning, what a preset sets), rules revision
// and schema document; GAME narrows it to one game.
func TestGamesJSON(t *testing.T) {
	t.Parallel()
	out, stderr, code := arena(t, "games", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Games []struct {
			Name    string `json:"name"`
			Summary string `json:"summary"`
			Seats   struct{ Min, Max int }
			Rules   int `json:"rules"`
			Options []struct {
				Name, Kind, Default, Meaning string
				Values                       []string
				Min, Max                     *int
				Sets                         map[string]map[string]string
			}
			Schema json.RawMessage `json:"schema"`
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	games := engine.Games()
	if len(got.Games) != len(games) {
		t.Fatalf("%d games, want %d", len(got.Games), len(games))
	}
	for i, g := range games {
		info, gg := g.Info(), got.Games[i]
		if gg.Name != info.Name || gg.Summary != info.Summary || gg.Seats.Min != info.MinSeats || gg.Seats.Max != info.MaxSeats || gg.Rules != info.Rules {
			t.Errorf("%s: listed as %+v", info.Name, gg)
		}
		if !sameJSONDoc(t, gg.Schema, engine.SchemaOf(g)) {
			t.Errorf("%s: the listed schema is not the engine's", info.Name)
		}
		played, err := engine.Setup(g, info.MinSeats, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(gg.Options) != len(info.Options) {
			t.Fatalf("%s: %d options, want %d", info.Name, len(gg.Options), len(info.Options))
		}
		for j, o := range info.Options {
			lo := gg.Options[j]
			if lo.Name != o.Name || lo.Kind != o.Kind || lo.Default != played[o.Name] || lo.Meaning != o.Doc {
				t.Errorf("%s: option %s listed as %+v", info.Name, o.Name, lo)
			}
			switch o.Kind {
			case "int":
				if lo.Min == nil || lo.Max == nil || *lo.Min != o.Min || *lo.Max != o.Max {
					t.Errorf("%s: option %s bounds %v..%v", info.Name, o.Name, lo.Min, lo.Max)
				}
			case "bool":
				if strings.Join(lo.Values, "|") != "true|false" {
					t.Errorf("%s: option %s values %v", info.Name, o.Name, lo.Values)
				}
			default:
				if strings.Join(lo.Values, "|") != strings.Join(o.Choices, "|") {
					t.Errorf("%s: option %s values %v", info.Name, o.Name, lo.Values)
				}
			}
			for choice, sets := range o.Sets {
				resolved, _ := engine.Setup(g, info.MinSeats, map[string]string{o.Name: choice})
				for k := range sets {
					if lo.Sets[choice][k] != resolved[k] {
						t.Errorf("%s: %s=%s sets %s=%q, listed %q", info.Name, o.Name, choice, k, resolved[k], lo.Sets[choice][k])
					}
				}
			}
		}
	}
	one, _, code := arena(t, "games", "bounce", "--json")
	if code != 0 || !strings.Contains(one, `"name": "bounce"`) || strings.Contains(one, `"name": "banqi"`) {
		t.Errorf("games bounce --json: exit %d\n%.300s", code, one)
	}
}

// `arena games GAME --schema` prints the engine's schema document,
// pretty-printed.
func TestGamesSchema(t *testing.T) {
	t.Parallel()
	for _, g := range engine.Games() {
		name := g.Info().Name
		out, stderr, code := arena(t, "games", name, "--schema")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		if !strings.HasPrefix(out, "{\n  \"$schema\": ") || !strings.HasSuffix(out, "}\n") {
			t.Errorf("%s: not pretty JSON:\n%.200s", name, out)
		}
		if !sameJSONDoc(t, []byte(out), engine.SchemaOf(g)) {
			t.Errorf("%s: printed schema is not the engine's", name)
		}
	}
	runUsageCases(t, []usageCase{
		{"unknown game", []string{"games", "chess", "--schema"}, `unknown game "chess"`},
		{"unknown game json", []string{"games", "chess", "--json"}, `unknown game "chess"`},
		{"schema without game", []string{"games", "--schema"}, "--schema needs a GAME"},
		{"two games", []string{"games", "banqi", "uno", "--schema"}, "at most one GAME"},
		{"schema and json", []string{"games", "banqi", "--schema", "--json"}, "not both"},
	}, nil)
}

func sameJSONDoc(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return reflect.DeepEqual(x, y)
}
