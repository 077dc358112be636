package engineserver

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/jsonw"
)

// The training ops: a game's fixed-size encoding (engine.Encoder), a
// state's observation, and vector environments that step many games per
// request with bundled Go opponents at the seats no agent plays. An
// environment is the throughput path of learning from Python: one line
// carries every game's observation as one base64 blob of float32s.
func init() {
	encodes = func(g engine.Game) bool { _, ok := g.(engine.Encoder); return ok }
	register("encoding", opEncoding)
	register("encode", opEncode)
	register("env_create", opEnvCreate)
	register("env_step", opEnvStep)
}

// MaxEnvGames bounds the games of one environment: its response line
// (about 1.3 KB a game for 4-seat Uno) must stay well under MaxLine.
const MaxEnvGames = 4096

// Observation formats of an environment's responses.
const (
	ObsF32  = "f32"  // one base64 string: every game's observation, float32 little-endian, game after game
	ObsJSON = "json" // an array per game of numbers
)

// maxEncodings bounds the encodings cache: a client trying option after
// option must not grow it without end (past the bound it starts again).
const maxEncodings = 64

// encodings caches encodings by game, seats and resolved options: they
// are immutable once built, and shared by every Server of the process.
var encodings = struct {
	sync.Mutex
	m map[string]engine.Encoding
}{m: map[string]engine.Encoding{}}

// encodingOf is g's encoding for seats and resolved opts.
func encodingOf(g engine.Game, seats int, opts engine.Options) (engine.Encoding, error) {
	enc, ok := g.(engine.Encoder)
	if !ok {
		return nil, fail(BadRequest, "game %s has no fixed-size encoding", g.Info().Name)
	}
	var key strings.Builder
	key.WriteString(g.Info().Name + "/" + strconv.Itoa(seats))
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		key.WriteString("/" + k + "=" + opts[k])
	}
	encodings.Lock()
	defer encodings.Unlock()
	if e, ok := encodings.m[key.String()]; ok {
		return e, nil
	}
	e, err := enc.Encoding(seats, opts)
	if err != nil {
		return nil, fail(BadOptions, "%v", err)
	}
	if len(encodings.m) >= maxEncodings {
		clear(encodings.m)
	}
	encodings.m[key.String()] = e
	return e, nil
}

func opEncoding(_ *Server, args []byte, out []byte) ([]byte, error) {
	var a gameArgs
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	g, opts, err := setup(a)
	if err != nil {
		return nil, err
	}
	enc, err := encodingOf(g, *a.Seats, opts)
	if err != nil {
		return nil, err
	}
	out = appendInt(out, "obs_size", enc.ObsSize())
	out = appendInt(out, "num_actions", enc.NumActions())
	names := make([]string, enc.NumActions())
	for id := range names {
		names[id] = enc.ActionName(id)
	}
	b, err := json.Marshal(names)
	if err != nil {
		return nil, fail(Internal, "%v", err)
	}
	return append(appendKey(out, "action_names"), b...), nil
}

func opEncode(s *Server, args []byte, out []byte) ([]byte, error) {
	var a seatArgs
	st, err := s.stateOf(args, &a, false)
	if err != nil {
		return nil, err
	}
	if a.Seat == nil || *a.Seat < 0 || *a.Seat >= st.seats {
		return nil, fail(BadSeats, `encode needs "seat", 0..%d (the spectator has no encoding)`, st.seats-1)
	}
	enc, err := encodingOf(st.game, st.seats, st.opts)
	if err != nil {
		return nil, err
	}
	obs := make([]float32, enc.ObsSize())
	if err := engine.EncodeState(enc, st.st, *a.Seat, obs); err != nil {
		return nil, fail(Internal, "%v", err)
	}
	mask := make([]byte, enc.NumActions())
	if !st.st.Over() && st.st.ToMove() == *a.Seat {
		if err := engine.Mask(enc, st.st, mask); err != nil {
			return nil, fail(Internal, "%v", err)
		}
	}
	out = appendKey(out, "obs")
	out = appendObs(out, obs)
	out = appendKey(out, "mask")
	out = append(out, '[')
	for i, m := range mask {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, '0'+m)
	}
	return append(out, ']'), nil
}

// appendObs appends obs as a JSON array, each number the shortest that
// reads back as the same float32.
func appendObs(dst []byte, obs []float32) []byte {
	dst = append(dst, '[')
	for i, x := range obs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendFloat(dst, float64(x), 'g', -1, 32)
	}
	return append(dst, ']')
}

// appendF32 appends obs as base64 of its float32s, little-endian: the
// compact form a client decodes in one call (Python's array('f')).
func appendF32(dst []byte, obs []float32, scratch []byte) ([]byte, []byte) {
	scratch = slices.Grow(scratch[:0], 4*len(obs))[:4*len(obs)]
	for i, x := range obs {
		binary.LittleEndian.PutUint32(scratch[4*i:], math.Float32bits(x))
	}
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, scratch)
	return append(dst, '"'), scratch
}

// env is a vector environment: n games of one game, seats, options and
// encoding, the agents at the seats opp leaves nil.
type env struct {
	game  engine.Game
	opts  engine.Options
	seats int
	enc   engine.Encoding
	opp   []policy
	games []envGame
	f32   bool
	obs   []float32 // every game's observation, reused
	raw   []byte    // scratch, reused
	mask  []byte    // scratch, reused
}

// envGame is one game of an environment, with what its last response
// told the agent to move.
type envGame struct {
	st    engine.State
	rng   *rand.Rand // the game's seeds and its opponents' choices
	legal []int      // ids the agent to move may take
	ranks []int      // the game that ended in the last step, else nil
	// skipped counts games that ended before any agent acted in them
	// (possible only in principle): they are not reported.
	skipped int
}

func opEnvCreate(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		gameArgs
		N         *int              `json:"n"`
		Seed      uint64            `json:"seed"`
		Opponents map[string]string `json:"opponents"`
		Obs       *string           `json:"obs"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	g, opts, err := setup(a.gameArgs)
	if err != nil {
		return nil, err
	}
	e := &env{game: g, opts: opts, seats: *a.Seats, opp: make([]policy, *a.Seats), f32: true}
	if e.enc, err = encodingOf(g, e.seats, opts); err != nil {
		return nil, err
	}
	if err := e.seatOpponents(a.Opponents); err != nil {
		return nil, err
	}
	if a.Obs != nil && *a.Obs != ObsF32 && *a.Obs != ObsJSON {
		return nil, fail(BadRequest, "obs %q: want %q (base64 of float32s) or %q (arrays of numbers)", *a.Obs, ObsF32, ObsJSON)
	}
	e.f32 = a.Obs == nil || *a.Obs == ObsF32
	n := 1
	if a.N != nil {
		n = *a.N
	}
	if n < 1 || n > MaxEnvGames {
		return nil, fail(BadRequest, "n %d: an environment runs 1..%d games", n, MaxEnvGames)
	}
	seeds := rand.New(rand.NewPCG(a.Seed, 0x656e76))
	e.games = make([]envGame, n)
	for i := range e.games {
		e.games[i].rng = rand.New(rand.NewPCG(seeds.Uint64(), seeds.Uint64()))
		if err := e.reset(&e.games[i]); err != nil {
			return nil, err
		}
	}
	h, err := s.handles.add(e)
	if err != nil {
		return nil, err
	}
	out = appendInt(out, "env", int(h))
	out = appendInt(out, "obs_size", e.enc.ObsSize())
	out = appendInt(out, "num_actions", e.enc.NumActions())
	return e.appendStep(out)
}

// seatOpponents seats the bundled players named by seat; the seats left
// are the agents'.
func (e *env) seatOpponents(named map[string]string) error {
	for k, name := range named {
		seat, err := strconv.Atoi(k)
		if err != nil || seat < 0 || seat >= e.seats {
			return fail(BadSeats, "opponents: %q is not a seat 0..%d", k, e.seats-1)
		}
		if name == "rollout" { // it may read hidden cards: a playout's player only
			return fail(BadRequest, "opponents: seat %d: %q is a playout policy; an opponent is random or greedy", seat, name)
		}
		p, err := policyNamed(name, e.game.Info().Name)
		if err != nil {
			return fail(BadRequest, "opponents: seat %d: %v", seat, err)
		}
		e.opp[seat] = p
	}
	if !slices.ContainsFunc(e.opp, func(p policy) bool { return p == nil }) {
		return fail(BadRequest, "opponents: every seat is an opponent; leave at least one seat to the agents")
	}
	return nil
}

// reset deals g a new game from its seed stream and plays the opponents
// up to the first agent decision.
func (e *env) reset(g *envGame) error {
	st, err := e.game.New(e.seats, g.rng.Uint64(), e.opts)
	if err != nil {
		return fail(Internal, "%v", err)
	}
	g.st = st
	return e.advance(g, false)
}

// advance plays the opponents until an agent is to move. A game that ends
// is recorded (if an agent acted in it) and replaced by a new one.
func (e *env) advance(g *envGame, acted bool) error {
	for {
		if g.st.Over() {
			if acted {
				g.ranks = g.st.Outcome().Ranks
			} else {
				g.skipped++
			}
			st, err := e.game.New(e.seats, g.rng.Uint64(), e.opts)
			if err != nil {
				return fail(Internal, "%v", err)
			}
			g.st, acted = st, false
			continue
		}
		p := e.opp[g.st.ToMove()]
		if p == nil {
			return nil
		}
		a, err := p(g.st, g.rng)
		if err != nil {
			return fail(Internal, "an opponent failed: %v", err)
		}
		if err := g.st.Apply(a); err != nil {
			return fail(Internal, "the engine refused its own legal action %s: %v", a, err)
		}
	}
}

func opEnvStep(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		Env     *int64 `json:"env"`
		Actions []int  `json:"actions"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	e, err := lookup[*env](&s.handles, a.Env, "env")
	if err != nil {
		return nil, err
	}
	if len(a.Actions) != len(e.games) {
		return nil, fail(BadRequest, "actions: %d ids for %d games: give one per game, in order", len(a.Actions), len(e.games))
	}
	// Every action is checked before any is applied: a refused step
	// leaves every game as it was.
	for i, id := range a.Actions {
		if !slices.Contains(e.games[i].legal, id) {
			return nil, fail(Illegal, "game %d: action %d is not legal now (legal: %v)", i, id, e.games[i].legal)
		}
	}
	for i, id := range a.Actions {
		g := &e.games[i]
		g.ranks = nil
		if err := g.st.Apply(e.enc.Action(id)); err != nil {
			return nil, fail(Internal, "game %d: the engine refused action %d (%s): %v", i, id, e.enc.ActionName(id), err)
		}
		if err := e.advance(g, true); err != nil {
			return nil, err
		}
	}
	return e.appendStep(out)
}

// appendStep encodes every game for its agent to move and appends the
// per-game columns: "seat", "obs", "legal", "done", "returns", "ranks".
func (e *env) appendStep(out []byte) ([]byte, error) {
	size := e.enc.ObsSize()
	e.obs = slices.Grow(e.obs[:0], size*len(e.games))[:size*len(e.games)]
	e.mask = slices.Grow(e.mask[:0], e.enc.NumActions())[:e.enc.NumActions()]
	out = appendKey(out, "seat")
	out = append(out, '[')
	for i := range e.games {
		g := &e.games[i]
		if i > 0 {
			out = append(out, ',')
		}
		seat := g.st.ToMove()
		out = strconv.AppendInt(out, int64(seat), 10)
		if err := engine.EncodeState(e.enc, g.st, seat, e.obs[i*size:(i+1)*size]); err != nil {
			return nil, fail(Internal, "game %d: %v", i, err)
		}
		if err := engine.Mask(e.enc, g.st, e.mask); err != nil {
			return nil, fail(Internal, "game %d: %v", i, err)
		}
		g.legal = g.legal[:0]
		for id, m := range e.mask {
			if m != 0 {
				g.legal = append(g.legal, id)
			}
		}
	}
	out = append(out, ']')
	out = appendKey(out, "obs")
	if e.f32 {
		out, e.raw = appendF32(out, e.obs, e.raw)
	} else {
		out = append(out, '[')
		for i := range e.games {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendObs(out, e.obs[i*size:(i+1)*size])
		}
		out = append(out, ']')
	}
	return e.appendResults(out), nil
}

// appendResults appends "legal", and "done", "returns" and "ranks" of
// the games that ended in this step (returns and ranks null for the
// others).
func (e *env) appendResults(out []byte) []byte {
	column := func(name string, each func(out []byte, g *envGame) []byte) {
		out = appendKey(out, name)
		out = append(out, '[')
		for i := range e.games {
			if i > 0 {
				out = append(out, ',')
			}
			out = each(out, &e.games[i])
		}
		out = append(out, ']')
	}
	column("legal", func(out []byte, g *envGame) []byte { return jsonw.Ints(out, g.legal) })
	column("done", func(out []byte, g *envGame) []byte {
		if g.ranks != nil {
			return append(out, '1')
		}
		return append(out, '0')
	})
	column("returns", func(out []byte, g *envGame) []byte {
		if g.ranks == nil {
			return append(out, "null"...)
		}
		return jsonw.Floats(out, Returns(g.ranks))
	})
	column("ranks", func(out []byte, g *envGame) []byte {
		if g.ranks == nil {
			return append(out, "null"...)
		}
		return jsonw.Ints(out, g.ranks)
	})
	return out
}
