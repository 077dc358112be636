package engineserver_test

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/arena-dev/arena/arena/engineserver"
)

// step is an environment's response, decoded.
type step struct {
	Env        int         `json:"env"`
	ObsSize    int         `json:"obs_size"`
	NumActions int         `json:"num_actions"`
	Seat       []int       `json:"seat"`
	Obs        any         `json:"obs"`
	Legal      [][]int     `json:"legal"`
	Done       []int       `json:"done"`
	Returns    [][]float64 `json:"returns"`
	Ranks      [][]int     `json:"ranks"`
}

func envAsk(t testing.TB, s *engineserver.Server, line string) (step, string) {
	t.Helper()
	out := s.Handle(nil, []byte(line))
	var r struct {
		step
		Error *struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s -> %s: %v", line, out, err)
	}
	if r.Error != nil {
		return r.step, r.Error.Code
	}
	return r.step, ""
}

func envMust(t testing.TB, s *engineserver.Server, line string) step {
	t.Helper()
	st, code := envAsk(t, s, line)
	if code != "" {
		t.Fatalf("%s: %s", line, code)
	}
	return st
}

// obs is every game's observation, from either wire form.
func (st step) obs(t testing.TB) [][]float32 {
	t.Helper()
	var flat []float32
	switch o := st.Obs.(type) {
	case string:
		raw, err := base64.StdEncoding.DecodeString(o)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+4 <= len(raw); i += 4 {
			flat = append(flat, math.Float32frombits(binary.LittleEndian.Uint32(raw[i:])))
		}
	case []any:
		for _, g := range o {
			for _, x := range g.([]any) {
				flat = append(flat, float32(x.(float64)))
			}
		}
	}
	n := len(st.Seat)
	if len(flat)%n != 0 {
		t.Fatalf("%d numbers for %d games", len(flat), n)
	}
	out := make([][]float32, n)
	for i := range out {
		out[i] = flat[i*len(flat)/n : (i+1)*len(flat)/n]
	}
	return out
}

func actionsJSON(ids []int) string {
	b, _ := json.Marshal(ids)
	return string(b)
}

func TestEncodingOps(t *testing.T) {
	t.Parallel()
	s := engineserver.New(engineserver.Config{Version: "test"})
	enc := must(t, s, `{"op":"encoding","game":"uno","seats":4,"options":{"target":"0"}}`)
	var names []string
	json.Unmarshal(enc["action_names"], &names)
	if enc.int(t, "obs_size") != 242 || enc.int(t, "num_actions") != 130 || len(names) != 130 || names[120] != "draw" {
		t.Fatalf("encoding: %v", enc)
	}
	h := must(t, s, `{"op":"create","game":"uno","seats":4,"seed":3,"options":{"target":"0"}}`)
	state, seat := h.int(t, "state"), h.int(t, "to_move")
	var legal []json.RawMessage
	json.Unmarshal(must(t, s, `{"op":"legal","state":%d}`, state)["legal"], &legal)
	for q := range 4 {
		r := must(t, s, `{"op":"encode","state":%d,"seat":%d}`, state, q)
		var obs []float32
		var mask []int
		json.Unmarshal(r["obs"], &obs)
		json.Unmarshal(r["mask"], &mask)
		held := 0
		for _, x := range obs[:54] {
			held += int(x)
		}
		set := 0
		for _, m := range mask {
			set += m
		}
		want := 0
		if q == seat {
			want = len(legal)
		}
		if len(obs) != 242 || len(mask) != 130 || held != 7 || set != want {
			t.Errorf("seat %d: %d obs slots holding %d cards, mask of %d with %d set (want %d)", q, len(obs), held, len(mask), set, want)
		}
	}
	for line, code := range map[string]string{
		`{"op":"encode","state":1,"seat":-1}`:                                    "bad_seats",
		`{"op":"encode","state":99,"seat":0}`:                                    "no_handle",
		`{"op":"encoding","game":"chess","seats":2}`:                             "unknown_game",
		`{"op":"encoding","game":"banqi","seats":3}`:                             "bad_seats",
		`{"op":"encoding","game":"uno","seats":4,"options":{"jump_in":"maybe"}}`: "bad_options",
	} {
		if c := ask(t, s, line).code(); c != code {
			t.Errorf("%s: code %q, want %q", line, c, code)
		}
	}
}

// An environment of Uno games with the agent at seat 0 and bundled
// opponents at the others: every response asks seat 0, with a legal
// list; games end and are reported with their ranks and returns, then
// dealt again; the same seed and actions give the same responses, in
// either observation format.
func TestEnvOpponents(t *testing.T) {
	t.Parallel()
	s := engineserver.New(engineserver.Config{})
	create := `{"op":"env_create","game":"uno","seats":4,"options":{"target":"0"},"n":6,"seed":9,"opponents":{"1":"random","2":"greedy","3":"random"}`
	a := envMust(t, s, create+`}`)
	b := envMust(t, s, create+`,"obs":"json"}`)
	ha, hb := a.Env, b.Env
	if a.ObsSize != 242 || a.NumActions != 130 {
		t.Fatalf("create: %+v", a)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	ended, won := 0, 0
	firsts := make([]int, 4)
	for range 400 {
		if !slices.Equal(a.Seat, []int{0, 0, 0, 0, 0, 0}) {
			t.Fatalf("seats to move %v: only seat 0 is an agent's", a.Seat)
		}
		if oa, ob := a.obs(t), b.obs(t); !slices.EqualFunc(oa, ob, slices.Equal) || len(oa[0]) != 242 {
			t.Fatalf("the two formats differ")
		}
		ids := make([]int, len(a.Legal))
		for i, l := range a.Legal {
			ids[i] = l[rng.IntN(len(l))]
		}
		line := `{"op":"env_step","env":%d,"actions":` + actionsJSON(ids) + `}`
		a = envMust(t, s, sprintf(line, ha))
		b = envMust(t, s, sprintf(line, hb))
		for i, d := range a.Done {
			if d == 0 {
				if a.Ranks[i] != nil || a.Returns[i] != nil {
					t.Fatalf("game %d not done has results %v %v", i, a.Ranks[i], a.Returns[i])
				}
				continue
			}
			ended++
			if a.Ranks[i][0] == 1 {
				won++
			}
			for q, r := range a.Ranks[i] {
				if r == 1 {
					firsts[q]++
				}
			}
			if len(a.Returns[i]) != 4 || a.Returns[i][0] < -1 || a.Returns[i][0] > 1 {
				t.Fatalf("game %d: returns %v", i, a.Returns[i])
			}
		}
	}
	if ended == 0 {
		t.Fatal("no game ended in 400 steps")
	}
	t.Logf("%d games ended, %d won by the random agent; firsts by seat %v", ended, won, firsts)
}

// Every seat an agent's: the seat to move is reported, and a refused
// step (an illegal id, a wrong count) changes nothing.
func TestEnvAllAgents(t *testing.T) {
	t.Parallel()
	s := engineserver.New(engineserver.Config{})
	for _, game := range []struct {
		name  string
		seats int
	}{{"uno", 3}, {"boon", 4}, {"banqi", 2}, {"bounce", 5}} {
		a := envMust(t, s, sprintf(`{"op":"env_create","game":"%s","seats":%d,"n":3,"seed":4}`, game.name, game.seats))
		h := a.Env
		rng := rand.New(rand.NewPCG(3, 4))
		seen := map[int]bool{}
		for range 60 {
			ids := make([]int, len(a.Legal))
			for i, l := range a.Legal {
				ids[i] = l[rng.IntN(len(l))]
				seen[a.Seat[i]] = true
			}
			bad := slices.Clone(ids)
			bad[1] = -1
			for _, refused := range []string{actionsJSON(bad), actionsJSON(ids[:2])} {
				if _, code := envAsk(t, s, sprintf(`{"op":"env_step","env":%d,"actions":%s}`, h, refused)); code == "" {
					t.Fatalf("%s: step %s accepted", game.name, refused)
				}
			}
			a = envMust(t, s, sprintf(`{"op":"env_step","env":%d,"actions":%s}`, h, actionsJSON(ids)))
		}
		if len(seen) < 2 {
			t.Errorf("%s: only seats %v asked", game.name, seen)
		}
	}
	for line, code := range map[string]string{
		`{"op":"env_create","game":"uno","seats":2,"opponents":{"0":"random","1":"random"}}`: "bad_request",
		`{"op":"env_create","game":"uno","seats":2,"opponents":{"2":"random"}}`:              "bad_seats",
		`{"op":"env_create","game":"uno","seats":2,"opponents":{"1":"ismcts"}}`:              "bad_request",
		`{"op":"env_create","game":"uno","seats":2,"n":0}`:                                   "bad_request",
		`{"op":"env_create","game":"uno","seats":2,"obs":"png"}`:                             "bad_request",
		`{"op":"env_step","env":999,"actions":[]}`:                                           "no_handle",
	} {
		if _, c := envAsk(t, s, line); c != code {
			t.Errorf("%s: code %q, want %q", line, c, code)
		}
	}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
