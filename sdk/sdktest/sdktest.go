// Package sdktest plays whole games of a registered engine between Go
// bots in process, without processes or a referee, for unit tests: every
// bot gets the protocol lines the referee would send it (hello, turns with
// the view and legal actions as the engine writes them, end, bye) through
// its own sdk.Session, and its answers are applied to the game.
//
//	func TestMyBotBeatsRandom(t *testing.T) {
//		results := sdktest.Play(t, sdktest.Config{Game: "uno", Games: 20}, myBot(), sdktest.Random())
//		if s := sdktest.MeanScore(results, 0); s < 0.5 {
//			t.Errorf("mean score %.2f against random", s)
//		}
//	}
package sdktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/judge"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/engine"
	_ "github.com/arena-dev/arena/engine/all" // every game, by name
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// Config is a series of games.
type Config struct {
	// Game is the registered game's name ("banqi", "uno", "bounce", "boon").
	Game string
	// Seats is the number of seats; 0: as many as bots, at least the
	// game's minimum. Seats without a bot get Random.
	Seats int
	// Options are rule options (the game's defaults for the rest).
	Options map[string]string
	// Games is the number of games; 0: one rotation (Seats games).
	Games int
	// Seed picks the deals: like a match, each rotation of Seats games
	// replays one deal with the bots' seats rotated, the next rotation
	// gets the next deal.
	Seed uint64
	// MoveTime is the move_ms of every turn (1s if 0). It is not enforced.
	MoveTime time.Duration
	// MaxPlies stops a game that has not ended after this many actions
	// (an error; 0: 100000).
	MaxPlies int
	// AllowFallback: Play does not fail the test when a bot's code failed
	// on a turn (the SDK then plays a random legal action).
	AllowFallback bool
	// Log receives the bots' log (their stderr); nil: discarded by Run,
	// the test's log for Play.
	Log io.Writer
}

// Result is one game's result.
type Result struct {
	// Game counts the games from 0.
	Game int
	// Players is the bot (its index in the bots given) in every seat.
	Players []int
	// Outcome is the game's outcome, by seat.
	Outcome engine.Outcome
	// Plies is the number of actions played.
	Plies int
	// Fallbacks counts, per bot, the turns where its code failed and the
	// SDK played a random legal action instead.
	Fallbacks []int
}

// seatOf is bot's seat in r, -1 if it did not play.
func (r Result) seatOf(bot int) int {
	for s, b := range r.Players {
		if b == bot {
			return s
		}
	}
	return -1
}

// Rank is bot's rank in the game (1 is best; 0 if it did not play).
func (r Result) Rank(bot int) int {
	if s := r.seatOf(bot); s >= 0 {
		return r.Outcome.Ranks[s]
	}
	return 0
}

// Score is bot's score in the game, in the game's units (Banqi: 1 for a
// win, 0.5 for a draw).
func (r Result) Score(bot int) float64 {
	if s := r.seatOf(bot); s >= 0 {
		return r.Outcome.Scores[s]
	}
	return 0
}

// MeanScore is bot's mean score over results.
func MeanScore(results []Result, bot int) float64 {
	if len(results) == 0 {
		return 0
	}
	sum := 0.0
	for _, r := range results {
		sum += r.Score(bot)
	}
	return sum / float64(len(results))
}

// Wins counts the games bot ranked first in alone.
func Wins(results []Result, bot int) int {
	n := 0
	for _, r := range results {
		if r.Rank(bot) != 1 {
			continue
		}
		alone := true
		for s, rank := range r.Outcome.Ranks {
			alone = alone && (rank != 1 || r.Players[s] == bot)
		}
		if alone {
			n++
		}
	}
	return n
}

// Random is a bot that plays a uniformly random legal action, seeded from
// hello (as `arena bot random`).
func Random() sdk.Bot {
	return sdk.NewPlayer(func(_ *json.RawMessage, legal []json.RawMessage, c *sdk.Context) (int, error) {
		return c.Rand.IntN(len(legal)), nil
	})
}

// Play is Run for a test: an error fails the test at once, and so does a
// fallback move unless cfg.AllowFallback; the bots' log goes to the
// test's log.
func Play(t testing.TB, cfg Config, bots ...sdk.Bot) []Result {
	t.Helper()
	if cfg.Log == nil {
		cfg.Log = testLog{t}
	}
	results, err := Run(cfg, bots...)
	if err != nil {
		t.Fatalf("sdktest: %v", err)
	}
	if !cfg.AllowFallback {
		for _, r := range results {
			for b, n := range r.Fallbacks {
				if n > 0 {
					t.Fatalf("sdktest: game %d: bot %d failed on %d turns (see the log; Config.AllowFallback allows it)", r.Game, b, n)
				}
			}
		}
	}
	return results
}

// Run plays cfg.Games games between bots, bot i in seat i of the first
// game, and returns their results. Each bot is one session (one process,
// for the bot) for all the games: give every seat a value of its own.
// An error is a bot that refused a game or answered wrongly (an index out
// of range, an action that is not legal, a line that is not an action),
// or a game that does not end.
func Run(cfg Config, bots ...sdk.Bot) ([]Result, error) {
	g, err := engine.Lookup(cfg.Game)
	if err != nil {
		return nil, err
	}
	info := g.Info()
	seats := cfg.Seats
	if seats == 0 {
		seats = max(len(bots), info.MinSeats)
	}
	if len(bots) > seats {
		return nil, fmt.Errorf("%d bots for %d seats", len(bots), seats)
	}
	opts, err := engine.Setup(g, seats, cfg.Options)
	if err != nil {
		return nil, err
	}
	for len(bots) < seats {
		bots = append(bots, Random())
	}
	games := cfg.Games
	if games == 0 {
		games = seats
	}
	move := cfg.MoveTime
	if move <= 0 {
		move = clock.Defaults.Move
	}
	maxPlies := cfg.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 100000
	}
	log := cfg.Log
	if log == nil {
		log = io.Discard
	}
	names := make([]string, len(bots))
	players := make([]*player, len(bots))
	for i, b := range bots {
		names[i] = "bot" + strconv.Itoa(i)
		p := &player{name: names[i]}
		p.session = sdk.NewSession(b, sdk.Options{Name: names[i], Log: log, Fallback: func(int64, error) { p.fallbacks++ }})
		players[i] = p
	}
	limits := clock.Defaults
	limits.Move = move
	m := &match{game: g, opts: opts, seats: seats, clock: limits, maxPlies: maxPlies, names: names, players: players}
	var results []Result
	for k := range games {
		r, err := m.play(k, cfg.Seed+uint64(k/seats))
		if err != nil {
			return results, fmt.Errorf("game %d: %w", k, err)
		}
		results = append(results, r)
	}
	for _, p := range players {
		p.send(protocol.Line(protocol.Bye{Type: protocol.TypeBye}))
	}
	return results, nil
}

type player struct {
	name      string
	session   *sdk.Session
	fallbacks int
}

// send hands p one line and returns its answer, if any.
func (p *player) send(line []byte) ([]byte, error) {
	reply, _, err := p.session.Handle(line, time.Now())
	reply = bytes.TrimSuffix(reply, []byte("\n"))
	if err != nil {
		return reply, fmt.Errorf("%s: %w", p.name, err)
	}
	return reply, nil
}

type match struct {
	game     engine.Game
	opts     engine.Options
	seats    int
	clock    clock.Limits // what hello says; Move is each turn's
	maxPlies int
	names    []string
	players  []*player
}

func (m *match) play(k int, deal uint64) (Result, error) {
	r := Result{Game: k, Players: make([]int, m.seats), Fallbacks: make([]int, len(m.players))}
	for seat := range m.seats {
		r.Players[seat] = (seat + k) % m.seats
	}
	before := make([]int, len(m.players))
	for i, p := range m.players {
		before[i] = p.fallbacks
	}
	state, err := m.game.New(m.seats, deal, m.opts)
	if err != nil {
		return r, err
	}
	gameID := fmt.Sprintf("sdktest-g%04d", k)
	seatNames := make([]string, m.seats)
	for seat, b := range r.Players {
		seatNames[seat] = m.names[b]
	}
	for seat, b := range r.Players {
		reply, err := m.players[b].send(protocol.Line(protocol.Hello{
			Type: protocol.TypeHello, Protocol: protocol.Version, Game: m.game.Info().Name, Options: m.opts,
			Seat: seat, Seats: m.seats, Players: seatNames, Match: "sdktest", GameID: gameID,
			// As a run seeds them: by bot, so a bot keeps its seed when
			// the seats rotate over one deal.
			Seed:  seed.Bot(deal, b),
			Clock: m.clock.Protocol(),
		}))
		if err != nil {
			return r, err
		}
		if typ, _ := protocol.PeekType(reply); typ != protocol.TypeReady {
			return r, fmt.Errorf("%s answered hello with %s", m.names[b], reply)
		}
	}
	ids := make([]int64, m.seats)
	var line []byte
	var offsets []int
	var legalJSON []json.RawMessage
	for !state.Over() {
		if r.Plies >= m.maxPlies {
			return r, fmt.Errorf("not over after %d plies", r.Plies)
		}
		seat := state.ToMove()
		legal := state.Legal()
		ids[seat]++
		// The turn as the referee sends it, and its reply judged as the
		// referee judges it.
		line, offsets, err = judge.AppendTurn(line[:0], offsets[:0], ids[seat], state.View(seat), legal, m.clock.Move, 0)
		if err != nil {
			return r, err
		}
		legalJSON = judge.LegalJSON(legalJSON[:0], line, offsets)
		b := r.Players[seat]
		reply, err := m.players[b].send(line)
		if err != nil {
			return r, err
		}
		i, fail := judge.Reply(m.game, reply, ids[seat], legalJSON)
		if fail != nil {
			return r, fmt.Errorf("%s (seat %d), turn %d: %w", m.names[b], seat, ids[seat], fail)
		}
		if err := state.Apply(legal[i]); err != nil {
			return r, err
		}
		r.Plies++
	}
	r.Outcome = state.Outcome()
	for seat, b := range r.Players {
		view, err := engine.AppendJSON(nil, state.View(seat))
		if err != nil {
			return r, err
		}
		if _, err := m.players[b].send(protocol.Line(protocol.End{
			Type: protocol.TypeEnd, GameID: gameID, Ranks: r.Outcome.Ranks, Scores: r.Outcome.Scores,
			Reason: r.Outcome.Reason, View: view,
		})); err != nil {
			return r, err
		}
	}
	for i, p := range m.players {
		r.Fallbacks[i] = p.fallbacks - before[i]
	}
	return r, nil
}

// testLog writes the bots' log lines to the test's log.
type testLog struct{ t testing.TB }

func (w testLog) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
