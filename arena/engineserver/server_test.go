package engineserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/engineserver"
	_ "github.com/arena-dev/arena/engine/all"
)

// reply is a decoded response object.
type reply map[string]json.RawMessage

// code is the reply's error code, "" for a success.
func (r reply) code() string {
	var e struct{ Code string }
	if raw, ok := r["error"]; ok {
		json.Unmarshal(raw, &e)
		return e.Code
	}
	return ""
}

// int is the integer field name of r.
func (r reply) int(t *testing.T, name string) int {
	t.Helper()
	var v int
	if err := json.Unmarshal(r[name], &v); err != nil {
		t.Fatalf("field %s of %v: %v", name, r, err)
	}
	return v
}

// ask sends one request line and decodes its response object.
func ask(t *testing.T, s *engineserver.Server, line string) reply {
	t.Helper()
	out := s.Handle(nil, []byte(line))
	var r reply
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("%s -> %s: %v", line, out, err)
	}
	return r
}

// must is ask of a request that must succeed.
func must(t *testing.T, s *engineserver.Server, format string, args ...any) reply {
	t.Helper()
	line := fmt.Sprintf(format, args...)
	r := ask(t, s, line)
	if c := r.code(); c != "" {
		t.Fatalf("%s: %s", line, r["error"])
	}
	return r
}

func TestStateOps(t *testing.T) {
	t.Parallel()
	s := engineserver.New(engineserver.Config{Version: "test"})
	hello := must(t, s, `{"id":"h","op":"hello"}`)
	if string(hello["id"]) != `"h"` || hello.int(t, "protocol") != engineserver.Protocol || !bytes.Contains(hello["games"], []byte(`"name":"uno"`)) {
		t.Fatalf("hello: %v", hello)
	}
	st := must(t, s, `{"id":1,"op":"create","game":"uno","seats":3,"seed":5,"options":{"target":"0"}}`).int(t, "state")
	legal := must(t, s, `{"op":"legal","state":%d}`, st)
	var actions []json.RawMessage
	json.Unmarshal(legal["legal"], &actions)
	if len(actions) == 0 {
		t.Fatalf("legal: %v", legal)
	}
	c := must(t, s, `{"op":"clone","state":%d}`, st).int(t, "state")
	// The same action by JSON and by index: the clone and the state stay alike.
	must(t, s, `{"op":"apply","state":%d,"action":%s}`, st, actions[len(actions)-1])
	must(t, s, `{"op":"apply","state":%d,"index":%d}`, c, len(actions)-1)
	view := func(h, seat int) string {
		return string(must(t, s, `{"op":"view","state":%d,"seat":%d}`, h, seat)["view"])
	}
	for seat := -1; seat < 3; seat++ {
		if a, b := view(st, seat), view(c, seat); a != b {
			t.Fatalf("seat %d: the clone's view %s, the state's %s", seat, b, a)
		}
	}
	before := view(st, 0)
	p := must(t, s, `{"op":"playout","state":%d,"n":5,"seed":1}`, st)
	if p.int(t, "n") != 5 || view(st, 0) != before {
		t.Fatalf("playout %v changed the state", p)
	}
	if o := must(t, s, `{"op":"outcome","state":%d}`, st); string(o["over"]) != "false" || len(o) != 2 {
		t.Fatalf("outcome of a game on: %v", o)
	}
	for i := 0; ; i++ {
		r := must(t, s, `{"op":"step_random","state":%d,"seed":%d}`, st, i)
		if len(r["action"]) == 0 {
			t.Fatalf("step_random: %v", r)
		}
		if string(r["over"]) == "true" {
			break
		}
	}
	o := must(t, s, `{"op":"outcome","state":%d}`, st)
	var out struct {
		Ranks   []int
		Returns []float64
	}
	json.Unmarshal(mustJSON(t, o), &out)
	if want := engineserver.Returns(out.Ranks); fmt.Sprint(want) != fmt.Sprint(out.Returns) || len(out.Ranks) != 3 {
		t.Fatalf("outcome %v", o)
	}
	if r := ask(t, s, fmt.Sprintf(`{"op":"legal","state":%d}`, st)); r.code() != "game_over" {
		t.Fatalf("legal of a finished game: %v", r)
	}
	if f := must(t, s, `{"op":"free","handles":[%d,%d,999]}`, st, c); f.int(t, "freed") != 2 {
		t.Fatalf("free: %v", f)
	}
	if r := ask(t, s, fmt.Sprintf(`{"op":"view","state":%d,"seat":0}`, c)); r.code() != "no_handle" {
		t.Fatalf("a freed handle: %v", r)
	}
}

func mustJSON(t *testing.T, r reply) []byte {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReturns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		ranks []int
		want  string
	}{
		{[]int{1, 2}, "[1 -1]"},
		{[]int{1, 1}, "[0 0]"},
		{[]int{2, 1, 3}, "[0 1 -1]"},
		{[]int{1, 1, 3, 4}, "[0.6666666666666666 0.6666666666666666 -0.3333333333333333 -1]"},
	} {
		if got := fmt.Sprint(engineserver.Returns(tc.ranks)); got != tc.want {
			t.Errorf("Returns(%v) = %s, want %s", tc.ranks, got, tc.want)
		}
	}
}

func TestErrorsAnswered(t *testing.T) {
	t.Parallel()
	s := engineserver.New(engineserver.Config{MaxStates: 2})
	must(t, s, `{"op":"create","game":"banqi","seats":2}`) // handle 1
	for _, tc := range []struct{ line, code string }{
		{`not json`, "bad_request"},
		{`[1,`, "bad_request"},
		{`{"id":3}`, "bad_request"},
		{`{"id":3,"op":"fly"}`, "bad_request"},
		{`{"op":"create","game":"chess","seats":2}`, "unknown_game"},
		{`{"op":"create","game":"banqi","seats":3}`, "bad_seats"},
		{`{"op":"create","game":"banqi","seats":2,"options":{"ranks":"fr"}}`, "bad_options"},
		{`{"op":"create","game":"banqi","seats":"two"}`, "bad_request"},
		{`{"op":"legal","state":77}`, "no_handle"},
		{`{"op":"legal"}`, "bad_request"},
		{`{"op":"apply","state":1,"index":9999}`, "illegal"},
		{`{"op":"apply","state":1,"action":{"type":"move","from":"a1","to":"h4"}}`, "illegal"},
		{`{"op":"apply","state":1}`, "bad_request"},
		{`{"op":"view","state":1,"seat":2}`, "bad_seats"},
		{`{"op":"observer","game":"chess","seat":0,"seats":2}`, "unknown_game"},
		{`{"op":"observer","game":"uno","seat":0,"seats":2}`, ""}, // handle 2: the limit reached
		{`{"op":"clone","state":1}`, "limit"},
		{`{"op":"sample","observer":2,"seed":1}`, "no_decision"},
		{`{"op":"observe","observer":2,"view":{"you":"me"}}`, "bad_request"},
		{`{"op":"sample","observer":1}`, "no_handle"},
		{`{"op":"playout","state":1,"n":0}`, "bad_request"},
		{`{"op":"playout","state":1,"n":1,"policy":"smart"}`, "bad_request"},
	} {
		if r := ask(t, s, tc.line); r.code() != tc.code {
			t.Errorf("%s: %v, want code %q", tc.line, r, tc.code)
		}
	}
	must(t, s, `{"op":"hello"}`)
}

// A playout's policy plays every seat: the bundled greedy bot's choices
// are not random ones (the playouts of a seed differ), and a seed plays
// the same playouts again.
func TestPlayoutPolicy(t *testing.T) {
	t.Parallel()
	s := engineserver.New(engineserver.Config{})
	st := must(t, s, `{"op":"create","game":"uno","seats":4,"seed":9,"options":{"target":"0"}}`).int(t, "state")
	run := func(policy string) string {
		r := must(t, s, `{"op":"playout","state":%d,"n":20,"seed":4,"policy":%q}`, st, policy)
		return string(r["returns"]) + " " + string(r["plies"])
	}
	greedy, random, rollout := run("greedy"), run("random"), run("rollout")
	if greedy == random || rollout == random {
		t.Fatalf("greedy playouts %s or rollout ones %s are the random ones %s", greedy, rollout, random)
	}
	if again := run("greedy"); again != greedy {
		t.Fatalf("the same seed played %s, then %s", greedy, again)
	}
	if def := string(must(t, s, `{"op":"playout","state":%d,"n":20,"seed":4}`, st)["plies"]); !strings.HasSuffix(random, " "+def) {
		t.Fatalf("a playout without a policy (plies %s) is not the random one (%s)", def, random)
	}
}

func TestBatch(t *testing.T) {
	t.Parallel()
	s := engineserver.New(engineserver.Config{})
	out := s.Handle(nil, []byte(`[{"id":"a","op":"create","game":"uno","seats":2,"seed":3},{"id":"b","op":"legal","state":1},`+
		`{"id":"c","op":"legal","state":5},{"id":"d","op":"apply","state":1,"index":0},{"op":"nope"},{"id":"f","op":"view","state":1,"seat":0}]`))
	var rs []reply
	if err := json.Unmarshal(out, &rs); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	want := []struct{ id, code string }{{`"a"`, ""}, {`"b"`, ""}, {`"c"`, "no_handle"}, {`"d"`, ""}, {"null", "bad_request"}, {`"f"`, ""}}
	if len(rs) != len(want) {
		t.Fatalf("%d responses to 6 requests: %s", len(rs), out)
	}
	for i, w := range want {
		if string(rs[i]["id"]) != w.id || rs[i].code() != w.code {
			t.Errorf("element %d: %v, want id %s code %q", i, rs[i], w.id, w.code)
		}
	}
	if string(s.Handle(nil, []byte(`[]`))) != `[]` {
		t.Error("an empty batch is not answered with []")
	}
}

// TestServe: a stream of lines, some bad (not JSON, too long, unknown op,
// a bad handle), is answered line for line, and the end of the input ends
// Serve without error.
func TestServe(t *testing.T) {
	t.Parallel()
	huge := `{"op":"hello","pad":"` + strings.Repeat("x", engineserver.MaxLine) + `"}`
	in := strings.Join([]string{`{"id":1,"op":"hello"}`, `{{{`, huge, `{"id":2,"op":"nope"}`, `{"id":3,"op":"legal","state":4}`,
		`{"id":4,"op":"create","game":"banqi","seats":2}`}, "\n")
	var out bytes.Buffer
	if err := engineserver.New(engineserver.Config{}).Serve(strings.NewReader(in), &out); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{"", "bad_request", "bad_request", "bad_request", "no_handle", ""}
	if len(lines) != len(want) {
		t.Fatalf("%d lines for %d requests: %.500s", len(lines), len(want), out.String())
	}
	for i, l := range lines {
		var r reply
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.code() != want[i] {
			t.Errorf("line %d: %.200s, want code %q", i, l, want[i])
		}
	}
}

// TestServePipe: requests and responses interleave over a pipe, one
// response flushed per line, as a client waits for each.
func TestServePipe(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- engineserver.New(engineserver.Config{}).Serve(inR, outW); outW.Close() }()
	dec := json.NewDecoder(outR)
	for i := range 3 {
		fmt.Fprintf(inW, `{"id":%d,"op":"create","game":"boon","seats":3,"seed":%d}`+"\n", i, i)
		var r reply
		if err := dec.Decode(&r); err != nil || r.int(t, "id") != i || r.int(t, "state") != i+1 {
			t.Fatalf("response %d: %v %v", i, r, err)
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
