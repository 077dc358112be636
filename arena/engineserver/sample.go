package engineserver

import (
	"encoding/json"
	"math/rand/v2"

	"github.com/arena-dev/arena/engine"
)

func init() {
	register("observer", opObserver)
	register("observe", opObserve)
	register("sample", opSample)
}

// observer is one seat's memory of a game (engine.Observer) kept under a
// handle, with what sample needs to make its states.
type observer struct {
	game  engine.Game
	seats int
	opts  engine.Options
	obs   engine.Observer
}

func opObserver(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		gameArgs
		Seat *int `json:"seat"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	g, opts, err := setup(a.gameArgs)
	if err != nil {
		return nil, err
	}
	if a.Seat == nil || *a.Seat < 0 || *a.Seat >= *a.Seats {
		return nil, fail(BadSeats, `observer needs "seat", 0..%d`, *a.Seats-1)
	}
	sm, ok := g.(engine.Sampler)
	if !ok {
		return nil, fail(NoSampler, "%s has no sampler: there is nothing hidden to sample, clone the state instead", g.Info().Name)
	}
	o, err := sm.Observer(*a.Seat, *a.Seats, opts)
	if err != nil {
		return nil, fail(BadOptions, "%v", err)
	}
	h, err := s.handles.add(&observer{game: g, seats: *a.Seats, opts: opts, obs: o})
	if err != nil {
		return nil, err
	}
	return appendInt(out, "observer", int(h)), nil
}

func opObserve(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		Observer *int64          `json:"observer"`
		View     json.RawMessage `json:"view"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	o, err := lookup[*observer](&s.handles, a.Observer, "observer")
	if err != nil {
		return nil, err
	}
	if len(a.View) == 0 {
		return nil, fail(BadRequest, `observe needs "view", the view JSON as the referee sent it`)
	}
	if err := o.obs.Observe(a.View); err != nil {
		return nil, fail(BadRequest, "%v", err)
	}
	return out, nil
}

func opSample(s *Server, args []byte, out []byte) ([]byte, error) {
	var a struct {
		Observer *int64 `json:"observer"`
		Seed     uint64 `json:"seed"`
	}
	if err := decode(args, &a); err != nil {
		return nil, err
	}
	o, err := lookup[*observer](&s.handles, a.Observer, "observer")
	if err != nil {
		return nil, err
	}
	st, err := o.obs.Sample(rand.New(rand.NewPCG(a.Seed, 0)))
	if err != nil {
		return nil, sampleError(err)
	}
	return s.addState(out, &state{game: o.game, st: st, seats: o.seats, opts: o.opts})
}
