package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/pool"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// Config is what Measure measures: a bot (two copies of it play each
// game), a game, and the move clock a run would give it.
type Config struct {
	Bot     bot.Spec // bound: its Launcher set
	Game    engine.Game
	Options engine.Options // resolved (engine.Setup)
	// Move is the move clock the concurrency sweep judges fairness by.
	Move time.Duration
	// Games is how many games each step of the sweep plays (0: 40).
	Games int
	// MaxConcurrency bounds the sweep (0: four games per core).
	MaxConcurrency int
	// RoundTrips is how many the pipe measure makes (0: 2000).
	RoundTrips int
	// Engine, when set, is the command line of a rules engine server
	// (`arena engine`) whose round trips are measured beside the pipe's.
	Engine []string
}

// Step is one concurrency of the sweep.
type Step struct {
	Concurrency int
	Games       int
	// Timeouts counts the moves that ran out of time; P99 is the 99th
	// percentile of the bots' think times, as the referee measured them.
	Timeouts int
	P99      time.Duration
	// Fair: no timeout, and P99 within half the move clock.
	Fair bool
}

// Report is what Measure found.
type Report struct {
	// PipeRoundTrip is one turn to the bot and its reply, over its
	// stdio, with no referee: the limit for a move here.
	PipeRoundTrip time.Duration
	// PerMove is the referee's cost per move, games at concurrency 1.
	PerMove time.Duration
	// Engine is the rules engine server's cost over its pipe, when
	// Config.Engine names one.
	Engine *EngineFigures
	Steps  []Step
	// FairConcurrency is the highest concurrency of the sweep that was
	// fair (0: none was).
	FairConcurrency int
	// Machine is what the machine did meanwhile, and how it is set.
	Machine Machine
}

// Measure measures, on this machine: the pipe round trip to the bot, the
// referee's cost per move against it, and the highest concurrency at
// which cfg.Move stays fair (no spurious timeouts, think times well
// within the clock). progress (nil: none) is told of each step.
func Measure(ctx context.Context, cfg Config, progress func(string)) (*Report, error) {
	if progress == nil {
		progress = func(string) {}
	}
	if cfg.Games <= 0 {
		cfg.Games = 40
	}
	if cfg.MaxConcurrency <= 0 {
		cfg.MaxConcurrency = 4 * runtime.NumCPU()
	}
	if cfg.RoundTrips <= 0 {
		cfg.RoundTrips = 2000
	}
	rep := &Report{}
	steal := startStealMeter()
	rt, err := pipeRoundTrip(cfg)
	if err != nil {
		return nil, err
	}
	rep.PipeRoundTrip = rt
	progress(fmt.Sprintf("pipe round trip %v", rt.Round(100*time.Nanosecond)))
	if len(cfg.Engine) > 0 {
		f, err := measureEngine(cfg, cfg.Engine)
		if err != nil {
			return nil, err
		}
		rep.Engine = &f
		progress(fmt.Sprintf("engine: %v a line, %v an operation in batches", f.PerLine.Round(100*time.Nanosecond), f.PerBatchedOp.Round(100*time.Nanosecond)))
	}
	// Each game on a deal of its own, so that the bot processes serve
	// game after game: the referee's cost, not process starts.
	perMove, _, err := sweepStep(ctx, cfg, 1, clock.Limits{Startup: 10 * time.Second, Move: time.Minute}, false)
	if err != nil {
		return nil, err
	}
	rep.PerMove = perMove
	progress(fmt.Sprintf("referee per move %v", perMove.Round(100*time.Nanosecond)))
	for c := 1; c <= cfg.MaxConcurrency; c *= 2 {
		_, step, err := sweepStep(ctx, cfg, c, clock.Limits{Startup: 10 * time.Second, Move: cfg.Move}, true)
		if err != nil {
			return nil, err
		}
		rep.Steps = append(rep.Steps, step)
		if step.Fair {
			rep.FairConcurrency = c
		}
		progress(fmt.Sprintf("concurrency %d: %d timeouts, p99 think %v", c, step.Timeouts, step.P99.Round(time.Microsecond)))
	}
	rep.Machine = steal.machine()
	return rep, nil
}

// pipeRoundTrip times turns to one process of the bot and its replies.
func pipeRoundTrip(cfg Config) (time.Duration, error) {
	e, err := cfg.Bot.Launcher.Launch(cfg.Bot.Name, bot.LaunchOptions{})
	if err != nil {
		return 0, err
	}
	defer e.Close()
	seats := 2 // as the games of the sweep
	deadline := func() time.Time { return time.Now().Add(10 * time.Second) }
	hello := protocol.Hello{Type: protocol.TypeHello, Protocol: protocol.Version, Game: cfg.Game.Info().Name, Seats: seats,
		Options: cfg.Options, Clock: protocol.Clock{StartupMs: 10000, MoveMs: 10000}}
	for s := range seats {
		hello.Players = append(hello.Players, fmt.Sprintf("p%d", s))
	}
	if err := e.Send(protocol.Line(hello), deadline()); err != nil {
		return 0, fmt.Errorf("bot %s: hello: %w", cfg.Bot.Name, err)
	}
	if _, err := e.Receive(deadline()); err != nil {
		return 0, fmt.Errorf("bot %s: ready: %w", cfg.Bot.Name, err)
	}
	st, err := cfg.Game.New(seats, 1, cfg.Options)
	if err != nil {
		return 0, err
	}
	view, err := engine.AppendJSON(nil, st.View(st.ToMove()))
	if err != nil {
		return 0, err
	}
	var legal []json.RawMessage
	for _, a := range st.Legal() {
		b, err := engine.AppendJSON(nil, a)
		if err != nil {
			return 0, err
		}
		legal = append(legal, b)
	}
	turns := make([][]byte, cfg.RoundTrips) // encoded before the clock starts
	for i := range turns {
		turns[i] = protocol.Line(protocol.Turn{Type: protocol.TypeTurn, ID: int64(i + 1), View: view, Legal: legal, Clock: protocol.TurnClock{MoveMs: 10000}})
	}
	start := time.Now()
	for _, turn := range turns {
		if err := e.Send(turn, deadline()); err != nil {
			return 0, fmt.Errorf("bot %s: turn: %w", cfg.Bot.Name, err)
		}
		if _, err := e.Receive(deadline()); err != nil {
			return 0, fmt.Errorf("bot %s: reply: %w", cfg.Bot.Name, err)
		}
	}
	return time.Since(start) / time.Duration(cfg.RoundTrips), nil
}

// sweepStep plays the step's games between two copies of the bot at
// concurrency c, in pairs on one deal as tournaments play them (a new
// process for each game) or each on a deal of its own: the time per
// move, and what the clocks saw.
func sweepStep(ctx context.Context, cfg Config, c int, limits clock.Limits, paired bool) (time.Duration, Step, error) {
	n := max(cfg.Games, 2*c)
	b2 := cfg.Bot
	b2.Name += "2"
	rc := run.Config{Settings: run.Settings{Limits: limits, Policy: referee.Forfeit}.WithDefaults(), Game: cfg.Game, Options: cfg.Options,
		MatchID: "bench", Concurrency: c, Rotation: 2, Bots: []bot.Spec{cfg.Bot, b2}}
	sink := &thinkTimes{}
	start := time.Now()
	res, err := run.Run(ctx, rc, &pairs{n: n, paired: paired}, nil, sink)
	took := time.Since(start)
	if err != nil {
		return 0, Step{}, err
	}
	step := Step{Concurrency: c, Games: res.Done, Timeouts: sink.timeouts}
	slices.Sort(sink.think)
	if len(sink.think) > 0 {
		step.P99 = sink.think[int(math.Ceil(0.99*float64(len(sink.think))))-1]
	}
	step.Fair = step.Timeouts == 0 && step.P99 <= limits.Move/2
	perMove := time.Duration(0)
	if sink.moves > 0 {
		perMove = took / time.Duration(sink.moves)
	}
	return perMove, step, nil
}

// pairs is n games between bots 0 and 1, seats alternating: in pairs on
// one deal, or each on a deal of its own.
type pairs struct {
	n, next int
	paired  bool
}

func (p *pairs) Next() (run.Table, schedule.Status) {
	if p.next >= p.n {
		return run.Table{}, schedule.Done
	}
	i := p.next
	p.next++
	deal := uint64(1 + i)
	if p.paired {
		deal = uint64(1 + i/2)
	}
	return run.Table{Game: schedule.Game{ID: fmt.Sprint(i), Seats: []int{i % 2, 1 - i%2}}, Index: i,
		GameID: fmt.Sprintf("bench-g%04d", i), Seed: deal}, schedule.Ready
}

func (p *pairs) Result(run.Table, ledger.Record) error { return nil }

// thinkTimes is a Sink that keeps what the clocks saw: every move's think
// time (from the replays) and the timeouts (from the records).
type thinkTimes struct {
	mu       sync.Mutex
	think    []time.Duration
	moves    int
	timeouts int
}

func (s *thinkTimes) Log(string, string) pool.LogFile { return pool.LogFile{} }

func (s *thinkTimes) Replay(_ run.Table, r run.Replay) (string, *replays.Span, error) {
	data, err := r.Compressed()
	if err != nil {
		return "", nil, err
	}
	rp, err := replays.Read(bytes.NewReader(data))
	if err != nil {
		return "", nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range rp.Events {
		if e.Move != nil && e.Move.By != replays.ByReferee {
			s.think = append(s.think, e.Move.Think())
			s.moves++
		}
	}
	return "", nil, nil
}

func (s *thinkTimes) Record(_ run.Table, rec ledger.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, failures := range [][]ledger.SeatFailure{rec.Forfeits, rec.Strikes} {
		for _, f := range failures {
			if f.Reason == protocol.ReasonTimeout {
				s.timeouts++
			}
		}
	}
	return nil
}
