package engineserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/jsonw"
	"github.com/arena-dev/arena/protocol"
)

func init() {
	register("hello", opHello)
	register("create", opCreate)
	register("legal", opLegal)
	register("apply", opApply)
	register("view", opView)
	register("clone", opClone)
	register("free", opFree)
	register("step_random", opStepRandom)
}

// state is a game in progress kept under a handle.
type state struct {
	game  engine.Game
	st    engine.State
	seats int
	opts  engine.Options // resolved: an encoding's action space depends on them
}

// encodes reports whether a game has a fixed-size encoding (hello's
// "encoding"); the op file that serves encodings sets it.
var encodes = func(engine.Game) bool { return false }

// decode reads an op's arguments from its request object.
func decode(args []byte, v any) error {
	err := json.Unmarshal(args, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		// The field as the request spells it: te.Field is prefixed with
		// the Go names of embedded argument structs (stateArgs).
		field := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
		return fail(BadRequest, "a field is mistyped: %q is a JSON %s, want %s", field, te.Value, jsonKind(te.Type))
	}
	if err != nil {
		return fail(BadRequest, "a field is mistyped: %v", err)
	}
	return nil
}

// jsonKind names the JSON values that decode into t.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a non-negative integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(jsonKind(t.Elem()), "a "), "an ") + "s"
	}
	return "an object"
}

// gameArgs are the arguments of the ops that set a game up; an op with
// more embeds them.
type gameArgs struct {
	Game    *string           `json:"game"`
	Seats   *int              `json:"seats"`
	Options map[string]string `json:"options"`
}

// setup is the game named and its options resolved for seats, as the
// referee resolves them (engine.Setup).
func setup(a gameArgs) (engine.Game, engine.Options, error) {
	if a.Game == nil || a.Seats == nil {
		return nil, nil, fail(BadRequest, `the request needs "game" and "seats"`)
	}
	g, err := engine.Lookup(*a.Game)
	if err != nil {
		return nil, nil, fail(UnknownGame, "%v", err)
	}
	opts, err := engine.Setup(g, *a.Seats, a.Options)
	if err != nil {
		if info := g.Info(); *a.Seats < info.MinSeats || *a.Seats > info.MaxSeats {
			return nil, nil, fail(BadSeats, "%v", err)
		}
		return nil, nil, fail(BadOptions, "%v", err)
	}
	return g, opts, nil
}

func opHello(s *Server, _ []byte, out []byte) ([]byte, error) {
	if s.hello == nil {
		b, err := helloFields(s.cfg.Version)
		if err != nil {
			return nil, fail(Internal, "%v", err)
		}
		s.hello = b
	}
	return append(out, s.hello...), nil
}

// helloGame is one game in hello's list.
type helloGame struct {
	Name     string            `json:"name"`
	MinSeats int               `json:"min_seats"`
	MaxSeats int               `json:"max_seats"`
	Rules    int               `json:"rules"`
	Options  map[string]string `json:"options"`
	Sampler  bool              `json:"sampler"`
	Encoding bool              `json:"encoding"`
}

// helloFields are hello's result fields: the protocol, the version and
// every registered game with its default options.
func helloFields(version string) ([]byte, error) {
	var games []helloGame
	for _, g := range engine.Games() {
		info := g.Info()
		opts, err := engine.Setup(g, info.MinSeats, nil)
		if err != nil {
			return nil, err
		}
		_, sampler := g.(engine.Sampler)
		games = append(games, helloGame{info.Name, info.MinSeats, info.MaxSeats, info.Rules, opts, sampler, encodes(g)})
	}
	list, err := json.Marshal(games)
	if err != nil {
		return nil, err
	}
	b := appendInt(nil, "protocol", Protocol)
	b = jsonw.String(appendKey(b, "version"), version)
	b = appendKey(b, "games")
	return append(b, list...), nil
}

// Protocol is the version of the engine protocol this server speaks.
const Protocol = 1

func opCreate(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		gameArgs
		Seed uint64 `json:"seed"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	g, opts, err := setup(a.gameArgs)
	if err != nil {
		return nil, err
	}
	st, err := g.New(*a.Seats, a.Seed, opts)
	if err != nil {
		return nil, fail(BadOptions, "%v", err)
	}
	return s.addState(out, &state{game: g, st: st, seats: *a.Seats, opts: opts})
}

// addState keeps st under a new handle and appends its "state", "to_move"
// and "over".
func (s *Server) addState(out []byte, st *state) ([]byte, error) {
	h, err := s.handles.add(st)
	if err != nil {
		return nil, err
	}
	out = appendInt(out, "state", int(h))
	return appendMove(out, st.st), nil
}

// appendMove appends "to_move" and "over".
func appendMove(out []byte, st engine.State) []byte {
	out = appendInt(out, "to_move", st.ToMove())
	return appendBool(out, "over", st.Over())
}

// stateArgs are the arguments of the ops on one state; an op with more
// embeds it.
type stateArgs struct {
	State *int64 `json:"state"`
}

func (a *stateArgs) handle() *int64 { return a.State }

// live is the state under the request's handle, refused once over when
// the op needs a decision to come.
func (s *Server) live(h *int64, needPlay bool) (*state, error) {
	st, err := lookup[*state](&s.handles, h, "state")
	if err == nil && needPlay && st.st.Over() {
		return nil, fail(GameOver, "state %d is over: ask outcome, or create another", *h)
	}
	return st, err
}

// stateOf decodes args into a (a *stateArgs, or a struct embedding one)
// and is the state it names by "state" (see live).
func (s *Server) stateOf(args []byte, a interface{ handle() *int64 }, needPlay bool) (*state, error) {
	if err := decode(args, a); err != nil {
		return nil, err
	}
	return s.live(a.handle(), needPlay)
}

func opLegal(s *Server, args []byte, out []byte) ([]byte, error) {
	st, err := s.stateOf(args, &stateArgs{}, true)
	if err != nil {
		return nil, err
	}
	out = appendKey(out, "legal")
	out = append(out, '[')
	for i, act := range st.st.Legal() {
		if i > 0 {
			out = append(out, ',')
		}
		if out, err = engine.AppendJSON(out, act); err != nil {
			return nil, fail(Internal, "%v", err)
		}
	}
	out = append(out, ']')
	return appendInt(out, "to_move", st.st.ToMove()), nil
}

func opApply(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		stateArgs
		Action json.RawMessage `json:"action"`
		Index  *int            `json:"index"`
	}
	st, err := s.stateOf(args, &a, true)
	if err != nil {
		return nil, err
	}
	legal := st.st.Legal()
	i, err := s.choice(st.game, legal, a.Action, a.Index)
	if err != nil {
		return nil, err
	}
	if err := st.st.Apply(legal[i]); err != nil {
		return nil, fail(Internal, "the engine refused its own legal action %s: %v", legal[i], err)
	}
	return appendMove(out, st.st), nil
}

// choice is the position in legal of the action given, by index or as
// JSON, which the referee judges (judge.Decide): the action's canonical
// JSON equal to a legal action's.
func (s *Server) choice(g engine.Game, legal []engine.Action, action json.RawMessage, index *int) (int, error) {
	if index != nil {
		if *index < 0 || *index >= len(legal) {
			return 0, fail(Illegal, "index %d out of range 0..%d", *index, len(legal)-1)
		}
		return *index, nil
	}
	if len(action) == 0 || string(action) == "null" {
		return 0, fail(BadRequest, `apply needs "action" (one of legal) or "index"`)
	}
	act, err := g.ParseAction(action)
	if err != nil {
		return 0, fail(Illegal, "unreadable action %s: %v", protocol.Excerpt(action, 120), err)
	}
	if s.scratch, err = engine.AppendJSON(s.scratch[:0], act); err != nil {
		return 0, fail(Illegal, "%v", err)
	}
	canon := len(s.scratch)
	for i, l := range legal {
		if s.scratch, err = engine.AppendJSON(s.scratch[:canon], l); err != nil {
			return 0, fail(Internal, "%v", err)
		}
		if bytes.Equal(s.scratch[:canon], s.scratch[canon:]) {
			return i, nil
		}
	}
	return 0, fail(Illegal, "%s is not a legal action now: ask legal", protocol.Excerpt(action, 120))
}

// seatArgs are the arguments of the ops on one seat of a state.
type seatArgs struct {
	stateArgs
	Seat *int `json:"seat"`
}

func opView(s *Server, args []byte, out []byte) ([]byte, error) {
	var a seatArgs
	st, err := s.stateOf(args, &a, false)
	if err != nil {
		return nil, err
	}
	if a.Seat == nil {
		return nil, fail(BadRequest, `view needs "seat" (-1 for the spectator's)`)
	}
	if *a.Seat < engine.Spectator || *a.Seat >= st.seats {
		return nil, fail(BadSeats, "seat %d out of range -1..%d", *a.Seat, st.seats-1)
	}
	out = appendKey(out, "view")
	if out, err = AppendView(out, st.st, *a.Seat); err != nil {
		return nil, fail(Internal, "%v", err)
	}
	return out, nil
}

// AppendView appends seat's view of st as the referee sends it in a turn:
// through the state's own appender (engine.ViewAppender) when it has one,
// engine.AppendJSON of View otherwise (which the engines' tests hold to
// the same bytes).
func AppendView(dst []byte, st engine.State, seat int) ([]byte, error) {
	if va, ok := st.(engine.ViewAppender); ok {
		return va.AppendView(dst, seat), nil
	}
	return engine.AppendJSON(dst, st.View(seat))
}

func opClone(s *Server, args []byte, out []byte) ([]byte, error) {
	st, err := s.stateOf(args, &stateArgs{}, false)
	if err != nil {
		return nil, err
	}
	c, err := clone(st.st)
	if err != nil {
		return nil, err
	}
	h, err := s.handles.add(&state{game: st.game, st: c, seats: st.seats, opts: st.opts})
	if err != nil {
		return nil, err
	}
	return appendInt(out, "state", int(h)), nil
}

func opFree(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		Handles []int64 `json:"handles"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	return appendInt(out, "freed", s.handles.free(a.Handles)), nil
}

func opStepRandom(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		stateArgs
		Seed uint64 `json:"seed"`
	}
	st, err := s.stateOf(args, &a, true)
	if err != nil {
		return nil, err
	}
	legal := st.st.Legal()
	act := legal[rand.New(rand.NewPCG(a.Seed, 0)).IntN(len(legal))]
	if err := st.st.Apply(act); err != nil {
		return nil, fail(Internal, "the engine refused its own legal action %s: %v", act, err)
	}
	out = appendMove(out, st.st)
	out = appendKey(out, "action")
	if out, err = engine.AppendJSON(out, act); err != nil {
		return nil, fail(Internal, "%v", err)
	}
	return out, nil
}
