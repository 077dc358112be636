// Package referee plays one game between bots: it sends each seat its own
// view, enforces the clocks, classifies every way a bot can fail, and
// produces the outcome. It knows nothing about processes or files: bots
// are transport.Conn values and the replay is written through Recorder.
package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/judge"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// Policy says what happens when a bot fails a move.
type Policy string

// Policies.
const (
	// Forfeit: the bot loses the game at its first failure (default).
	Forfeit Policy = "forfeit"
	// Random: the referee plays a random legal move and counts a strike;
	// the bot forfeits after MaxStrikes. Startup failures and crashes
	// always forfeit. Meant for teaching.
	Random Policy = "random"
	// StrikeIllegal: an illegal action is a strike as under Random, every
	// other failure forfeits. arena check plays with it: a wrong choice
	// still lets it judge the rest of the game, a reply it cannot read
	// ends the game, as it ends the check.
	StrikeIllegal Policy = "strike_illegal"
)

// DefaultMaxStrikes is how many strikes a bot may take under the Random
// policy before it forfeits, when Config.MaxStrikes is not set.
const DefaultMaxStrikes = 3

// Failure is one failure of a seat as the referee diagnoses it: what is
// recorded of it (protocol.Failure, the one shape replays and results
// hold), and what explains it but is not recorded.
type Failure struct {
	protocol.Failure
	// Turn is the id of the turn the failure is about (0 at startup).
	// Problem and Line are what was wrong (judge.Problem) and the line it
	// was wrong in, when a line was; Err is the cause as a value (a
	// transport error, protocol.ErrLineTooLong, a JSON or a game's parse
	// error). They are for the caller that explains failures; Detail
	// already words them.
	Turn    int64
	Problem judge.Problem
	Line    []byte
	Err     error
	fatal   bool // the connection cannot carry on (oversize line)
}

// Recorded is what of f goes into results and replays.
func (f Failure) Recorded() protocol.Failure { return f.Failure }

func (f Failure) Error() string {
	return fmt.Sprintf("seat %d: %s: %s", f.Seat, f.Reason, f.Detail)
}

// Player is one seat's bot.
type Player struct {
	Name string
	Conn transport.Conn
	// Absent, if set, says why the seat's bot takes no part in the game
	// (suspended after failing to start, withdrawn by the organiser): it
	// forfeits at startup with this as the detail and is sent nothing;
	// its Conn is not used (nil).
	Absent string
}

// Walkover reports whether a game between players is decided before it
// starts: fewer than two seats have a bot that takes part (Absent), so
// no bot is sent anything and the one present, if any, wins by forfeit.
// Its Conn is not used either (nil): a caller need not start it.
func Walkover(players []Player) bool {
	present := 0
	for _, p := range players {
		if p.Absent == "" {
			present++
		}
	}
	return present < 2
}

// Started are the seats of players whose bot Play talks to, and so whose
// Conn a caller must start: those taking part, none in a walkover.
func Started(players []Player) []bool {
	out := make([]bool, len(players))
	if Walkover(players) {
		return out
	}
	for s, p := range players {
		out[s] = p.Absent == ""
	}
	return out
}

// Recorder receives the game's events as they happen (a replay writer).
type Recorder interface {
	// think is the time charged to the bot, waited the rest of the
	// move's wall time (time it waited for a CPU).
	Move(ply, seat int, action json.RawMessage, think, waited time.Duration, byReferee bool)
	Strike(f protocol.Failure)
	Forfeit(f protocol.Failure)
}

// NoteRecorder is a Recorder that keeps what bots say with their moves
// (an action's note, docs/protocol.md): for a bot's move that came with a
// note, kept or dropped, the referee calls MoveNote instead of Move. A
// Recorder without it records the move alone. Optional, so that a
// recorder that has no use for notes (a benchmark's) needs nothing more.
type NoteRecorder interface {
	MoveNote(ply, seat int, action json.RawMessage, think, waited time.Duration, note protocol.Note)
}

// Config is one game's setup.
type Config struct {
	Game    engine.Game
	Options engine.Options // resolved (engine.Setup)
	Seed    uint64
	Match   string
	GameID  string
	// BotSeeds are sent in hello per seat; derived from Seed if nil.
	BotSeeds   []uint64
	Limits     clock.Limits
	Policy     Policy
	MaxStrikes int
	Recorder   Recorder // may be nil
}

// Result is a finished game.
type Result struct {
	Outcome  engine.Outcome
	Plies    int
	Forfeits []Failure
	Strikes  []Failure
	// Failed marks seats whose bot failed in a way that leaves it unusable
	// (forfeited, crashed): its connection is closed and must be replaced.
	Failed []bool
	// Think is each seat's think times, in move order.
	Think [][]time.Duration
}

// Play runs one game to the end. It returns an error only when the arena
// itself fails (a broken engine, a transport fault: transport.ErrFault)
// or ctx ends first; every bot failure is part of Result. When ctx ends during the game every player's Conn is
// closed at once (which ends a bot process), and the error is ctx's:
// the game is not decided.
func Play(ctx context.Context, cfg Config, players []Player) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() {
		for _, p := range players {
			if p.Conn != nil {
				p.Conn.Close()
			}
		}
	})
	res, err := play(cfg, players)
	if !stop() || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return res, err
}

func play(cfg Config, players []Player) (*Result, error) {
	n := len(players)
	st, err := cfg.Game.New(n, cfg.Seed, cfg.Options)
	if err != nil {
		return nil, fmt.Errorf("new %s game: %w", cfg.Game.Info().Name, err)
	}
	g := &game{
		cfg: cfg, players: players, state: st, n: n,
		forfeited: make([]bool, n), strikes: make([]int, n),
		clocks: make([]clock.Clock, n), turns: make([]int64, n), staleBelow: make([]int64, n),
		rng:         rand.New(rand.NewPCG(cfg.Seed, 0x5eed_aeb1)),
		res:         &Result{Failed: make([]bool, n), Think: make([][]time.Duration, n)},
		turnBuffers: turnPool.Get().(*turnBuffers),
	}
	defer g.release()
	if g.cfg.Limits.Startup <= 0 {
		g.cfg.Limits.Startup = clock.Defaults.Startup // hello shows the limit in force
	}
	for i := range n {
		g.clocks[i] = clock.New(g.cfg.Limits)
	}
	if g.cfg.MaxStrikes <= 0 {
		g.cfg.MaxStrikes = DefaultMaxStrikes
	}
	g.startup()
	if g.fault != nil {
		return nil, g.fault
	}
	if err := g.loop(); err != nil {
		return nil, err
	}
	g.finish()
	return g.res, nil
}

type game struct {
	cfg       Config
	walkover  bool  // Walkover: no bot is sent anything
	fault     error // the transport failed (transport.ErrFault): the game is the arena's to replay
	players   []Player
	state     engine.State
	n         int
	ply       int
	forfeited []bool
	strikes   []int
	clocks    []clock.Clock
	// turns counts each seat's turns, and a turn's id is its seat's own
	// turn number (1, 2, 3, ...). One counter shared by every seat would
	// tell a seat how many turns the others were given in between, and in
	// a game of hidden information whether a seat is asked at all may
	// depend on its cards (an Uno jump-in poll).
	turns []int64
	// staleBelow: replies with an id below this are late answers to turns
	// the referee already gave up on (random policy) and are skipped.
	staleBelow []int64
	rng        *rand.Rand
	res        *Result
	// Reused per move, and from game to game (turnBuffers): the turn
	// line, and each legal action's place in it.
	*turnBuffers
	viewer appendedView // the view of the turn line, if the state appends it
}

// turnBuffers are a game's turn line and its legal actions' places in it.
// They are kept from one game to the next (turnPool): grown afresh for
// every game, they were a fifth of what a match of two-ply games
// allocated, and so of its collections. Nothing holds them once a turn is
// judged (the transports copy or write a line before Send returns).
type turnBuffers struct {
	buf       []byte
	offsets   []int
	legalJSON []json.RawMessage
}

var turnPool = sync.Pool{New: func() any { return new(turnBuffers) }}

// maxPooledTurn bounds the turn line kept for the next game: a game with
// huge views does not pin its buffer for the rest of the run.
const maxPooledTurn = 256 << 10

// release gives the game's turn buffers back for the next game.
func (g *game) release() {
	if tb := g.turnBuffers; tb != nil && cap(tb.buf) <= maxPooledTurn {
		clear(tb.legalJSON[:cap(tb.legalJSON)]) // no slice of the old line outlives it
		tb.legalJSON = tb.legalJSON[:0]
		turnPool.Put(tb)
	}
	g.turnBuffers = nil
}

func (g *game) active() int {
	c := 0
	for _, f := range g.forfeited {
		if !f {
			c++
		}
	}
	return c
}

// startup sends every hello first, so bots start in parallel, then
// collects the readies against one shared deadline.
func (g *game) startup() {
	names := make([]string, g.n)
	for i, p := range g.players {
		names[i] = p.Name
	}
	for seat, p := range g.players {
		if p.Absent != "" {
			g.fail(seat, Failure{Failure: protocol.Failure{Reason: protocol.ReasonStartup, Detail: p.Absent}}, true)
		}
	}
	if g.walkover = Walkover(g.players); g.walkover {
		return
	}
	deadline := time.Now().Add(g.cfg.Limits.Startup + g.cfg.Limits.Margin)
	sent := make([]bool, g.n)
	for seat, p := range g.players {
		if p.Absent != "" {
			continue
		}
		if err := p.Conn.Send(judge.AppendHello(nil, g.cfg.Hello(seat, names)), deadline); err != nil {
			g.fail(seat, Failure{Failure: protocol.Failure{Reason: classifyIO(err, protocol.ReasonStartup), Detail: "sending hello: " + err.Error()}, Err: err}, true)
			continue
		}
		sent[seat] = true
	}
	for seat, p := range g.players {
		if !sent[seat] {
			continue
		}
		var err error
		var (
			line []byte
			typ  string
		)
		for {
			line, err = p.Conn.Receive(deadline)
			if err != nil {
				break
			}
			typ, err = protocol.PeekType(line)
			// A late answer to a turn of the previous game (random policy
			// leaves slow bots running) is not this game's business.
			if err != nil || typ != protocol.TypeAction {
				break
			}
		}
		if line == nil && err != nil {
			g.fail(seat, Failure{Failure: protocol.Failure{Reason: classifyIO(err, protocol.ReasonStartup), Detail: "waiting for ready: " + err.Error()}, Err: err}, true)
			continue
		}
		f := Failure{Failure: protocol.Failure{Reason: protocol.ReasonBadMessage}, Line: line, Err: err}
		switch {
		case err == nil && !utf8.Valid(line):
			f.Problem, f.Err = judge.NotUTF8, errors.New("not valid UTF-8")
			f.Detail = fmt.Sprintf("instead of ready: %v: %s", f.Err, judge.Clip(line))
		case err != nil:
			f.Problem, f.Detail = judge.NotJSON, fmt.Sprintf("instead of ready: %v: %s", err, judge.Clip(line))
			if !errors.Is(err, protocol.ErrNotObject) {
				f.Problem = judge.WrongType // an object without a "type"
			}
		case typ == protocol.TypeError:
			f.Problem, f.Detail = judge.ErrorSent, "bot refused the game: "+protocol.ErrorText(line, judge.ClipLen)
		case typ != protocol.TypeReady:
			f.Problem, f.Detail = judge.WrongType, fmt.Sprintf("expected ready, got %q", typ)
		default:
			continue
		}
		g.fail(seat, f, true)
	}
}

// Hello is the hello the referee sends seat, players naming every seat.
// arena check also sends it with another protocol version, to see it
// refused.
func (cfg Config) Hello(seat int, players []string) protocol.Hello {
	return protocol.Hello{
		Type: protocol.TypeHello, Protocol: protocol.Version, Game: cfg.Game.Info().Name,
		Options: cfg.Options, Seat: seat, Seats: len(players), Players: players,
		Match: cfg.Match, GameID: cfg.GameID, Seed: cfg.botSeed(seat), Clock: cfg.Limits.Protocol(),
	}
}

func (cfg Config) botSeed(seat int) uint64 {
	if seat < len(cfg.BotSeeds) {
		return cfg.BotSeeds[seat]
	}
	return seed.Bot(cfg.Seed, seat)
}

func (g *game) loop() error {
	for !g.state.Over() && g.active() >= 2 {
		seat := g.state.ToMove()
		if seat < 0 || seat >= g.n {
			return fmt.Errorf("engine %s: seat to move %d out of range", g.cfg.Game.Info().Name, seat)
		}
		legal := g.state.Legal()
		if len(legal) == 0 {
			return fmt.Errorf("engine %s: no legal action for seat %d at ply %d in a game that is not over", g.cfg.Game.Info().Name, seat, g.ply)
		}
		if g.forfeited[seat] {
			if err := g.refereeMove(seat, legal, moveTime{}); err != nil {
				return err
			}
			continue
		}
		c, think, fail := g.ask(seat, legal)
		if fail != nil && errors.Is(fail.Err, transport.ErrFault) {
			g.fail(seat, *fail, true)
			return g.fault
		}
		if fail != nil {
			// Crashes and a player who left cannot be struck, and after an
			// oversize line the stream is out of step for good: those
			// always forfeit.
			struck := g.cfg.Policy == Random || g.cfg.Policy == StrikeIllegal && fail.Reason == protocol.ReasonIllegalAction
			forfeit := !struck || fail.Reason == protocol.ReasonCrash || fail.Reason == protocol.ReasonLeft || fail.Reason == protocol.ReasonStartup || fail.fatal
			g.fail(seat, *fail, forfeit)
			if !g.forfeited[seat] || g.active() >= 2 {
				if err := g.refereeMove(seat, legal, think); err != nil {
					return err
				}
			}
			continue
		}
		if err := g.state.Apply(c.action); err != nil {
			// ask() already applied legality through the engine; an error
			// here means the engine disagrees with itself.
			return fmt.Errorf("engine %s: apply %s: %w", g.cfg.Game.Info().Name, c.action, err)
		}
		g.record(seat, c.raw, c.note, think, false)
	}
	return nil
}

// choice is a bot's valid reply to a turn: the legal action it chose, its
// JSON as the turn listed it, and the note that came with it (zero: none).
type choice struct {
	action engine.Action
	raw    json.RawMessage
	note   protocol.Note
}

// record records a move; a note goes to the replay only, never to a bot.
func (g *game) record(seat int, raw json.RawMessage, note protocol.Note, t moveTime, byReferee bool) {
	if nr, ok := g.cfg.Recorder.(NoteRecorder); ok && !note.IsZero() {
		nr.MoveNote(g.ply, seat, raw, t.think, t.waited, note)
	} else if g.cfg.Recorder != nil {
		g.cfg.Recorder.Move(g.ply, seat, raw, t.think, t.waited, byReferee)
	}
	if !byReferee {
		g.res.Think[seat] = append(g.res.Think[seat], t.think)
	}
	g.ply++
}

// refereeMove plays a random legal action for seat; t is the time the
// bot used before the referee stepped in (0 for a seat already out).
func (g *game) refereeMove(seat int, legal []engine.Action, t moveTime) error {
	a := legal[g.rng.IntN(len(legal))]
	raw, err := engine.AppendJSON(nil, a)
	if err != nil {
		return fmt.Errorf("engine %s: marshal action: %w", g.cfg.Game.Info().Name, err)
	}
	if err := g.state.Apply(a); err != nil {
		return fmt.Errorf("engine %s: apply its own legal action %s: %w", g.cfg.Game.Info().Name, a, err)
	}
	g.record(seat, raw, protocol.Note{}, t, true)
	return nil
}

// fail records a failure of seat at this ply; forfeit decides between a
// strike and a forfeit.
func (g *game) fail(seat int, f Failure, forfeit bool) {
	if errors.Is(f.Err, transport.ErrFault) {
		// Not the bot's failure: the game ends as the arena's (Play).
		if g.fault == nil {
			g.fault = fmt.Errorf("seat %d: %w", seat, f.Err)
		}
		return
	}
	f.Seat, f.Ply = seat, g.ply
	detail := f.Detail
	if !forfeit {
		g.strikes[seat]++
		g.res.Strikes = append(g.res.Strikes, f)
		if g.cfg.Recorder != nil {
			g.cfg.Recorder.Strike(f.Recorded())
		}
		if g.strikes[seat] < g.cfg.MaxStrikes {
			return
		}
		f.Detail = fmt.Sprintf("%d strikes, last: %s", g.strikes[seat], detail)
	}
	if g.forfeited[seat] {
		return
	}
	g.forfeited[seat] = true
	g.res.Failed[seat] = true
	g.res.Forfeits = append(g.res.Forfeits, f)
	if g.cfg.Recorder != nil {
		g.cfg.Recorder.Forfeit(f.Recorded())
	}
	if c := g.players[seat].Conn; c != nil {
		c.Close()
	}
}

// ask sends seat its turn and reads a valid, legal reply. On success it
// returns the choice: the parsed action, its JSON and the reply's note.
func (g *game) ask(seat int, legal []engine.Action) (choice, moveTime, *Failure) {
	g.turns[seat]++
	id := g.turns[seat]
	clk := g.clocks[seat]
	move, bank := clk.Allowance()
	line, legalJSON, err := g.encodeTurn(id, seat, legal, move, bank)
	if err != nil {
		return choice{}, moveTime{}, &Failure{Failure: protocol.Failure{Reason: protocol.ReasonCrash, Detail: "engine could not encode the turn: " + err.Error()}, Turn: id, Err: err}
	}

	conn := g.players[seat].Conn
	start, err := sendTurn(conn, line, clk)
	if err != nil {
		// Part of the line may have gone out: the stream is out of step.
		return choice{}, moveTime{}, &Failure{Failure: protocol.Failure{Reason: classifyIO(err, protocol.ReasonTimeout), Detail: "sending turn: " + err.Error()}, Turn: id, Err: err, fatal: true}
	}
	due := clk.Deadline(start) // by the wall clock
	deadline := due
	wallCap := start.Add(g.cfg.Limits.WallCap(move))
	// The bot's CPU use is first read MeterAfter into the move, if the
	// reply is not in by then: most replies are, and are charged in full.
	// (A Conn that cannot be metered is read with the move's deadline
	// only.)
	var cpu meter
	_, toMeter := conn.(transport.Meter) // the first reading is still to take
	meterAt := start.Add(MeterAfter)
	for {
		early := toMeter && meterAt.Before(deadline) // wait for meterAt, not the deadline
		wait := deadline
		if early {
			wait = meterAt
		}
		reply, err := conn.Receive(wait)
		wall := time.Since(start)
		if early && wall-MeterAfter > lagAfter {
			refereeLag.note(start.Add(wall)) // this wait came back late, reply or not
		}
		if early && errors.Is(err, transport.ErrTimeout) {
			cpu, toMeter = startMeter(conn, start, wall), false
			continue
		}
		if errors.Is(err, transport.ErrTimeout) {
			// Out of time by the wall clock. A bot that waited for a CPU
			// meanwhile gets that time added, up to the wall cap; then
			// one last look, for a reply that is in already (the
			// referee itself may have run late).
			if later := cpu.extend(due, deadline, wallCap, wall); later.After(deadline) {
				deadline = later
				continue
			}
			if r, lastErr := conn.Receive(time.Now()); lastErr == nil {
				reply, err = r, nil
			}
		}
		t := moveTime{think: wall}
		if err == nil || errors.Is(err, transport.ErrTimeout) {
			t = cpu.charge(wall)
		}
		if err != nil {
			if errors.Is(err, transport.ErrTimeout) {
				clk.Charge(t.think)
				g.staleBelow[seat] = id + 1
				return choice{}, t, &Failure{Failure: protocol.Failure{Reason: protocol.ReasonTimeout, Detail: fmt.Sprintf("no reply within %v (+%v margin)%s", move, g.cfg.Limits.Margin, cpu.explain(t.stolen))}, Turn: id, Err: err}
			}
			return choice{}, t, &Failure{Failure: protocol.Failure{Reason: classifyIO(err, protocol.ReasonCrash), Detail: err.Error()}, Turn: id, Err: err, fatal: errors.Is(err, protocol.ErrLineTooLong)}
		}
		msg, fault := judge.Decode(reply)
		if fault != nil {
			return choice{}, t, turnFailure(fault, id)
		}
		if msg.Type == protocol.TypeAction && msg.ID < g.staleBelow[seat] && msg.ID != id {
			continue // a late answer to a turn already played for it
		}
		// The transport's deadline is the judge: the runtime poller orders
		// "the reply arrived" against "the deadline fired", so a line it
		// delivered came in time. Measured time beyond the allowance is then
		// the referee itself being scheduled late on a loaded machine, and
		// is not held against the bot.
		t.limit(move + g.cfg.Limits.Margin)
		clk.Charge(t.think)
		i, fault := judge.Decide(g.cfg.Game, msg, reply, id, legalJSON)
		if fault != nil {
			return choice{}, t, turnFailure(fault, id)
		}
		// The note is judged once the move is: a note is never a failure,
		// and one that breaks its rules is dropped, the move kept.
		return choice{legal[i], legalJSON[i], protocol.NoteOf(msg.Note)}, t, nil
	}
}

// sendTurn writes the turn line to conn and returns when the move's clock
// starts. The bot's time runs from the turn going out to the reply's
// newline, less what the machine made it wait for a CPU (clock.Forgiven).
// A bot that does not read its input within its time fails Send; a pipe
// with room takes the turn at once, however late the referee runs, and the
// clock then starts when it did (SendTimer): a referee starved of a CPU
// among the bots once took 717 ms to write a turn. While the referee runs
// late (refereeLag), the bot's CPU use is read first, unless its Conn kept
// a recent reading, as the baseline of a first reading that may come late
// (startMeter).
func sendTurn(conn transport.Conn, line []byte, clk clock.Clock) (time.Time, error) {
	start := time.Now()
	if refereeLag.on(start) {
		baseline(conn, start)
	}
	err := conn.Send(line, clk.Deadline(start))
	if errors.Is(err, transport.ErrDeadlinePast) {
		// The referee was held back for the whole allowance between
		// taking the time and the write (it happened once in a 10k-game
		// soak): the bot has not had the turn, so its clock starts again.
		start = time.Now()
		err = conn.Send(line, clk.Deadline(start))
	}
	if err != nil {
		return start, err
	}
	if st, ok := conn.(transport.SendTimer); ok {
		if at, ok := st.SentAt(); ok && at.After(start) {
			start = at // the bot has had the turn since then, no sooner
		}
	}
	return start, nil
}

// JudgeReply judges a bot's reply to turn id as the referee does (judge.Reply),
// legalJSON being the turn's legal actions as it sent them: the position in
// legalJSON of the action chosen, or the failure.
func JudgeReply(game engine.Game, reply []byte, id int64, legalJSON []json.RawMessage) (int, *Failure) {
	i, fault := judge.Reply(game, reply, id, legalJSON)
	return i, turnFailure(fault, id)
}

// turnFailure is the failure of the reply to turn id that fault judged;
// nil for none.
func turnFailure(fault *judge.Fault, id int64) *Failure {
	if fault == nil {
		return nil
	}
	return &Failure{Failure: protocol.Failure{Reason: fault.Reason, Detail: fault.Detail}, Turn: id, Problem: fault.Problem, Line: fault.Line, Err: fault.Err}
}

// encodeTurn builds the turn line in a buffer reused across moves; the
// returned legal slices point into it and are valid until the next turn.
func (g *game) encodeTurn(id int64, seat int, legal []engine.Action, move, bank time.Duration) ([]byte, []json.RawMessage, error) {
	var view any
	if va, ok := g.state.(engine.ViewAppender); ok {
		g.viewer = appendedView{va, seat}
		view = &g.viewer // a pointer into g: no allocation to make it an any
	} else {
		view = g.state.View(seat)
	}
	b, offsets, err := judge.AppendTurn(g.buf[:0], g.offsets[:0], id, view, legal, move, bank)
	if err != nil {
		return nil, nil, err
	}
	g.buf, g.offsets = b, offsets
	g.legalJSON = judge.LegalJSON(g.legalJSON[:0], b, offsets)
	return b, g.legalJSON, nil
}

// appendedView is a seat's view that its state appends itself
// (engine.ViewAppender), as engine.AppendJSON's appender.
type appendedView struct {
	state engine.ViewAppender
	seat  int
}

func (v appendedView) AppendJSON(dst []byte) []byte { return v.state.AppendView(dst, v.seat) }

// finish computes the outcome and tells every seat still in how it ended.
func (g *game) finish() {
	var out engine.Outcome
	if g.state.Over() {
		out = g.state.Outcome().WithForfeits(g.forfeited)
	} else {
		out = engine.ForfeitOutcome(g.forfeited, forfeitReason(g.res.Forfeits, g.players))
	}
	g.res.Outcome = out
	g.res.Plies = g.ply
	var forfeits []string
	for _, f := range g.res.Forfeits {
		forfeits = append(forfeits, fmt.Sprintf("seat %d: %s", f.Seat, f.Reason))
	}
	deadline := time.Now().Add(time.Second)
	for seat, p := range g.players {
		if g.forfeited[seat] || g.walkover {
			continue // a walkover's bot was sent no hello
		}
		view, _ := engine.AppendJSON(nil, g.state.View(seat)) // the bytes the turns sent
		line := judge.AppendEnd(nil, protocol.End{
			Type: protocol.TypeEnd, GameID: g.cfg.GameID, Ranks: out.Ranks, Scores: out.Scores,
			Reason: out.Reason, Forfeit: forfeits, View: view,
		})
		if err := p.Conn.Send(line, deadline); err != nil {
			// The game is decided; a bot that died at the end is restarted
			// before its next game but keeps its result.
			g.res.Failed[seat] = true
			p.Conn.Close()
		}
	}
}

func forfeitReason(fs []Failure, players []Player) string {
	if len(fs) == 0 {
		return "game stopped"
	}
	f := fs[len(fs)-1]
	return fmt.Sprintf("%s (seat %d) forfeited: %s", players[f.Seat].Name, f.Seat, f.Reason)
}

// classifyIO maps a transport error to a failure reason; timeouts become
// def's timeout class (a startup failure during startup).
func classifyIO(err error, def protocol.Reason) protocol.Reason {
	switch {
	case errors.Is(err, protocol.ErrLineTooLong):
		return protocol.ReasonBadMessage
	case errors.Is(err, transport.ErrTimeout):
		if def == protocol.ReasonStartup {
			return protocol.ReasonStartup
		}
		return protocol.ReasonTimeout
	case errors.Is(err, transport.ErrLeft):
		return protocol.ReasonLeft
	case errors.Is(err, transport.ErrClosed):
		return protocol.ReasonCrash
	}
	return def
}
