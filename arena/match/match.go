// Package match plays a series of games between the same bots: it starts
// each bot process once and keeps it across games (restarting only a bot
// that failed), rotates seats so seat and card luck cancel, and records
// results.jsonl, replays and per-game stderr logs.
package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays"
)

// Bot is a bot program.
type Bot struct {
	Name string
	// Argv is the command, already split; no shell is involved.
	Argv []string
	Dir  string
	Env  []string
}

// Config describes a match.
type Config struct {
	Game    engine.Game
	Options engine.Options // resolved
	// Games to play; consecutive games replay one deal with seats rotated.
	Games      int
	Seed       uint64
	MatchID    string
	Limits     clock.Limits
	Policy     referee.Policy
	MaxStrikes int
	// OutDir receives results.jsonl, replays/ and logs/; "" keeps nothing.
	OutDir    string
	MaxLine   int
	StderrCap int64
	// ByeGrace is how long a bot may take to exit after bye.
	ByeGrace time.Duration
	// Version is the arena version written into replays.
	Version string
	// OnGame is called after each game (progress output).
	OnGame func(GameRecord)
}

// SeatFailure is a forfeit or strike as written to results.jsonl.
type SeatFailure struct {
	Seat   int    `json:"seat"`
	Bot    string `json:"bot"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// GameRecord is one line of results.jsonl.
type GameRecord struct {
	Index    int           `json:"index"`
	GameID   string        `json:"game_id"`
	Seed     uint64        `json:"seed"`
	Bots     []string      `json:"bots"`
	Ranks    []int         `json:"ranks"`
	Scores   []float64     `json:"scores"`
	Reason   string        `json:"reason"`
	Plies    int           `json:"plies"`
	Forfeits []SeatFailure `json:"forfeits"`
	Strikes  []SeatFailure `json:"strikes,omitempty"`
	Replay   string        `json:"replay,omitempty"`
}

// Rotation is how many games make one full seat rotation.
func Rotation(seats int) int { return seats }

// SeatOf returns which bot (index into the bot list) sits in seat for
// game index g: each block of Rotation games deals the same seed and
// shifts every bot one seat along.
func SeatOf(g, seat, seats int) int { return (seat + g) % seats }

// GameSeed is the deal seed of game index g, shared by a rotation block.
// It is derived one-way, so nothing a bot sees leads back to the match seed.
func GameSeed(matchSeed uint64, g, seats int) uint64 {
	return referee.DeriveSeed(matchSeed, "game", uint64(g/Rotation(seats)))
}

// Run plays the match. Bot failures are results, not errors; an error
// means the arena itself could not go on (disk full, broken engine,
// interrupted), and the games already recorded stay on disk.
func Run(ctx context.Context, cfg Config, bots []Bot) (*Summary, error) {
	n := len(bots)
	if cfg.MatchID == "" {
		// Not derived from the seed: the match id is sent to bots.
		cfg.MatchID = fmt.Sprintf("%s-%s", cfg.Game.Info().Name, time.Now().UTC().Format("20060102-150405"))
	}
	if cfg.ByeGrace <= 0 {
		cfg.ByeGrace = time.Second
	}
	m := &runner{cfg: cfg, bots: bots, procs: make([]*transport.Process, n), logs: make([]*os.File, n)}
	defer m.closeAll()
	sum := newSummary(cfg, bots)
	if cfg.OutDir != "" {
		for _, d := range []string{cfg.OutDir, filepath.Join(cfg.OutDir, "replays"), filepath.Join(cfg.OutDir, "logs")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return sum, fmt.Errorf("output directory: %w", err)
			}
		}
		f, err := os.OpenFile(filepath.Join(cfg.OutDir, "results.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return sum, fmt.Errorf("results file: %w", err)
		}
		defer f.Close()
		m.results = f
	}
	// An interrupt kills the bots at once; the game in progress is then
	// discarded below, and every finished game stays recorded.
	stopWatch := context.AfterFunc(ctx, m.killAll)
	defer stopWatch()
	for g := 0; g < cfg.Games; g++ {
		if err := ctx.Err(); err != nil {
			return sum, fmt.Errorf("match interrupted after %d of %d games: %w", g, cfg.Games, err)
		}
		rec, err := m.playGame(ctx, g)
		if errors.Is(err, errInterrupted) {
			return sum, fmt.Errorf("match interrupted during game %d (not recorded; %d games are): %w", g+1, g, ctx.Err())
		}
		if err != nil {
			return sum, fmt.Errorf("game %d: %w", g, err)
		}
		sum.add(rec)
		if cfg.OnGame != nil {
			cfg.OnGame(rec)
		}
	}
	m.sayBye()
	return sum, nil
}

type runner struct {
	// mu guards procs against killAll from the interrupt watcher.
	mu    sync.Mutex
	cfg   Config
	bots  []Bot
	procs []*transport.Process
	// logs is each bot's current stderr log. It stays attached after a
	// game so what a bot writes on "end" lands in that game's log, and is
	// replaced when the bot's next game starts.
	logs    []*os.File
	results *os.File
}

// attachLog points bot b's stderr at a new log for gameID.
func (m *runner) attachLog(b int, gameID string) error {
	p := m.procs[b]
	if p == nil || m.cfg.OutDir == "" {
		return nil
	}
	dir := filepath.Join(m.cfg.OutDir, "logs", m.bots[b].Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("log directory: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, gameID+".stderr.log"))
	if err != nil {
		return fmt.Errorf("stderr log: %w", err)
	}
	p.SetStderr(f) // after this returns, nothing writes to the old log
	m.closeLog(b)
	m.logs[b] = f
	return nil
}

func (m *runner) closeLog(b int) {
	if m.logs[b] != nil {
		m.logs[b].Close()
		m.logs[b] = nil
	}
}

// stop ends bot b's process (already failed or done) and closes its log.
func (m *runner) stop(b int) {
	m.mu.Lock()
	p := m.procs[b]
	m.procs[b] = nil
	m.mu.Unlock()
	if p != nil {
		p.Close()
	}
	m.closeLog(b)
}

// conn returns a running process for bot b, starting one if needed.
func (m *runner) conn(b int) transport.Conn {
	if m.procs[b] == nil {
		p, err := transport.Start(transport.ProcessConfig{
			Argv: m.bots[b].Argv, Dir: m.bots[b].Dir, Env: m.bots[b].Env,
			MaxLine: m.cfg.MaxLine, StderrCap: m.cfg.StderrCap,
		})
		if err != nil {
			return transport.Broken(fmt.Errorf("bot %s: %w", m.bots[b].Name, err))
		}
		m.mu.Lock()
		m.procs[b] = p
		m.mu.Unlock()
	}
	return m.procs[b]
}

// errInterrupted: the game was cut short by an interrupt and is not kept.
var errInterrupted = errors.New("interrupted")

func (m *runner) playGame(ctx context.Context, g int) (GameRecord, error) {
	n := len(m.bots)
	gameID := fmt.Sprintf("%s-g%04d", m.cfg.MatchID, g)
	seed := GameSeed(m.cfg.Seed, g, n)
	seatBot := make([]int, n)
	players := make([]referee.Player, n)
	seats := make([]replays.SeatInfo, n)
	for s := range n {
		b := SeatOf(g, s, n)
		seatBot[s] = b
		players[s] = referee.Player{Name: m.bots[b].Name, Conn: m.conn(b)}
		seats[s] = replays.SeatInfo{Seat: s, Bot: m.bots[b].Name}
		if err := m.attachLog(b, gameID); err != nil {
			return GameRecord{}, err
		}
	}
	rec := replays.NewRecorder(replays.Header{
		Arena: m.cfg.Version, Game: m.cfg.Game.Info().Name, Options: m.cfg.Options, Seed: seed,
		Match: m.cfg.MatchID, GameID: gameID, Seats: seats, Clock: m.cfg.Limits.Protocol(), Started: time.Now().UTC(),
	})
	// A bot's seed follows the bot, not the seat: in a swapped pair each bot
	// keeps its own random stream, so the pair differs only by seat.
	botSeeds := make([]uint64, n)
	for s, b := range seatBot {
		botSeeds[s] = referee.BotSeed(seed, b)
	}
	res, err := referee.Play(referee.Config{
		Game: m.cfg.Game, Options: m.cfg.Options, Seed: seed, Match: m.cfg.MatchID, GameID: gameID, BotSeeds: botSeeds,
		Limits: m.cfg.Limits, Policy: m.cfg.Policy, MaxStrikes: m.cfg.MaxStrikes, Recorder: rec,
	}, players)
	if ctx.Err() != nil {
		return GameRecord{}, errInterrupted // the bots were killed under it
	}
	if err != nil {
		return GameRecord{}, err
	}
	for s, failed := range res.Failed {
		if failed {
			m.stop(seatBot[s])
		}
	}
	out := GameRecord{
		Index: g, GameID: gameID, Seed: seed, Ranks: res.Outcome.Ranks, Scores: res.Outcome.Scores,
		Reason: res.Outcome.Reason, Plies: res.Plies, Forfeits: []SeatFailure{},
	}
	for s := range n {
		out.Bots = append(out.Bots, m.bots[seatBot[s]].Name)
	}
	for _, f := range res.Forfeits {
		out.Forfeits = append(out.Forfeits, SeatFailure{Seat: f.Seat, Bot: out.Bots[f.Seat], Reason: string(f.Reason), Detail: f.Detail})
	}
	for _, f := range res.Strikes {
		out.Strikes = append(out.Strikes, SeatFailure{Seat: f.Seat, Bot: out.Bots[f.Seat], Reason: string(f.Reason), Detail: f.Detail})
	}
	result := replays.ResultOf(res.Outcome)
	rec.Finish(result)
	if m.cfg.OutDir != "" {
		rel := filepath.Join("replays", gameID+".jsonl.zst")
		if err := rec.WriteFile(filepath.Join(m.cfg.OutDir, rel)); err != nil {
			return out, fmt.Errorf("writing replay: %w", err)
		}
		out.Replay = rel
		line, _ := json.Marshal(out)
		if _, err := m.results.Write(append(line, '\n')); err != nil {
			return out, fmt.Errorf("writing results.jsonl: %w", err)
		}
		if err := m.results.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
			return out, fmt.Errorf("syncing results.jsonl: %w", err)
		}
	}
	return out, nil
}

// sayBye tells every live bot it is done and gives it ByeGrace to exit.
func (m *runner) sayBye() {
	deadline := time.Now().Add(m.cfg.ByeGrace)
	for _, p := range m.procs {
		if p != nil {
			_ = p.Send([]byte(`{"type":"bye"}`), deadline)
		}
	}
	for i, p := range m.procs {
		if p != nil {
			p.Shutdown(time.Until(deadline))
			m.stop(i)
		}
	}
}

// killAll kills every bot process now (interrupt); the referee then sees
// them as gone and the game ends quickly.
func (m *runner) killAll() {
	m.mu.Lock()
	procs := append([]*transport.Process(nil), m.procs...)
	m.mu.Unlock()
	for _, p := range procs {
		if p != nil {
			p.Close()
		}
	}
}

func (m *runner) closeAll() {
	for i := range m.procs {
		m.stop(i)
	}
}
