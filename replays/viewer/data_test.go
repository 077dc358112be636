package viewer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"github.com/arena-dev/arena/replays/viewer"
)

// pageData is the page's data as the script reads it.
type pageData struct {
	For    int   `json:"for"`
	Stored []int `json:"stored"`
	Frames [][]*struct {
		S, A map[string]json.RawMessage
		D    []string
	} `json:"frames"`
	Moves []struct {
		Seat int
		Text string
	} `json:"moves"`
}

// rebuild applies the page's deltas as the script does and returns, per
// position, the public view and each stored seat's view (without
// "events", which a seat's part keeps only where it differs).
func rebuild(t *testing.T, html []byte) (pageData, [][]string) {
	t.Helper()
	var d pageData
	dec := json.NewDecoder(bytes.NewReader(dataOf(t, html)))
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	state := make([]map[string]json.RawMessage, 1+len(d.Stored))
	for i := range state {
		state[i] = map[string]json.RawMessage{}
	}
	var out [][]string
	for _, frame := range d.Frames {
		for i, dl := range frame {
			if dl == nil {
				continue
			}
			next := maps.Clone(state[i])
			maps.Copy(next, dl.S)
			for k, tail := range dl.A {
				var a, b []json.RawMessage
				json.Unmarshal(next[k], &a)
				json.Unmarshal(tail, &b)
				next[k], _ = json.Marshal(append(a, b...))
			}
			for _, k := range dl.D {
				delete(next, k)
			}
			state[i] = next
		}
		views := []string{canonical(t, state[0], nil)}
		for i := range d.Stored {
			views = append(views, canonical(t, state[0], state[1+i]))
		}
		out = append(out, views)
	}
	return d, out
}

// canonical is the view pub overlaid with a seat's part, without
// "events", as sorted compact JSON.
func canonical(t *testing.T, pub, part map[string]json.RawMessage) string {
	v := maps.Clone(pub)
	maps.Copy(v, part)
	var absent []string
	json.Unmarshal(v["$absent"], &absent)
	for _, k := range append(absent, "$absent", "events") {
		delete(v, k)
	}
	var decoded any
	if err := json.Unmarshal([]byte(jsonOf(t, v)), &decoded); err != nil {
		t.Fatal(err)
	}
	return jsonOf(t, decoded)
}

// engineView is an engine view in the same form.
func engineView(t *testing.T, v map[string]any) string {
	m := maps.Clone(v)
	delete(m, "events")
	return jsonOf(t, m)
}

// The deltas rebuild every view of every position exactly, and a page for
// one seat holds that seat's views in order.
func TestDeltasRebuildTheViews(t *testing.T) {
	for _, g := range []game{
		{name: "banqi", seats: 2, seed: 11},
		{name: "uno", seats: 4, seed: 5, options: map[string]string{"target": "0", "jump_in": "true", "uno_call": "catch_window"}},
		{name: "uno", seats: 3, seed: 8, options: map[string]string{"target": "0", "seven_zero": "true", "stack_draws": "true"}},
		{name: "boon", seats: 4, seed: 42},
		{name: "boon", seats: 5, seed: 1},
	} {
		t.Run(fmt.Sprintf("%s-%d-%d", g.name, g.seats, g.seed), func(t *testing.T) {
			r := play(t, g)
			ps := positions(t, r)
			var buf bytes.Buffer
			if err := viewer.WriteHTML(&buf, r, viewer.Options{}); err != nil {
				t.Fatal(err)
			}
			d, got := rebuild(t, buf.Bytes())
			if len(got) != len(ps) || len(d.Moves) != len(ps)-1 {
				t.Fatalf("%d positions and %d moves in the page, want %d and %d", len(got), len(d.Moves), len(ps), len(ps)-1)
			}
			for p := range ps {
				if want := engineView(t, ps[p].pub); got[p][0] != want {
					t.Fatalf("position %d, public view:\n got %s\nwant %s", p, got[p][0], want)
				}
				for s := range g.seats {
					if want := engineView(t, ps[p].seats[s]); got[p][1+s] != want {
						t.Fatalf("position %d, seat %d:\n got %s\nwant %s", p, s, got[p][1+s], want)
					}
				}
			}
			shorter := false
			for s := range g.seats {
				seen := make([]string, len(ps))
				for q := range ps {
					seen[q] = engineView(t, ps[q].seats[s])
				}
				buf.Reset()
				if err := viewer.WriteHTML(&buf, r, viewer.ForSeat(s)); err != nil {
					t.Fatal(err)
				}
				d, got := rebuild(t, buf.Bytes())
				if d.For != s || len(d.Stored) != 1 || d.Stored[0] != s {
					t.Fatalf("page for seat %d stores %v (for %d)", s, d.Stored, d.For)
				}
				// Every position of the page is one of the engine's, in order.
				q := 0
				for p := range got {
					for q < len(ps) && seen[q] != got[p][1] {
						q++
					}
					if q == len(ps) {
						t.Fatalf("page for seat %d: position %d is not one of seat %d's views (in order)", s, p, s)
					}
				}
				// Uno's drawn-card keep is a decision the others are not
				// told of: it is not in their pages.
				for _, m := range d.Moves {
					if g.name == "uno" && m.Seat != s && m.Text == "keep" {
						t.Fatalf("page for seat %d shows seat %d's keep", s, m.Seat)
					}
				}
				shorter = shorter || len(d.Moves) < len(ps)-1
			}
			if g.name == "uno" && !shorter {
				t.Error("no seat's page left out a hidden decision of another seat")
			}
		})
	}
}
