package match

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/transport"
)

// Pool keeps bot processes alive between games. A bot that plays several
// games at once (a tournament with concurrency) gets one process per
// simultaneous game; a process that failed is killed, never reused.
//
// A process never plays the same deal twice. Duplicate deals replay one
// deal with the seats rotated, and a process that played it in one seat
// could remember what it saw (its hand is now an opponent's) in the next.
// So Get reuses an idle process only if it has not played the deal; if
// none may, a fresh one is started, and the idle ones are kept for later
// deals up to KeepIdle per bot (beyond that the longest idle is closed
// first). With KeepIdle at a rotation block's length, a match's bot gets
// one process per seat of the rotation, each playing one game of every
// block, and is never restarted. (A tournament round in which every
// pairing plays the same deals starts fresh processes for most games.)
//
// A bot with a Sandbox gets its confinement (cgroups, its own directory
// and namespaces) per process here.
//
// A game's stderr log is held in memory while the game runs and written to
// its file when the game ends, so no file holds what a bot wrote during a
// game still in progress (an opponent could read it).
type Pool struct {
	// KeepIdle is how many idle processes per bot the pool keeps when a
	// game needs a fresh one (none of them may play its deal): the length
	// of a rotation block, typically. 0 or 1 keeps one.
	KeepIdle int

	bots      []Bot
	maxLine   int
	stderrCap int64

	mu   sync.Mutex
	idle [][]*transport.Process
	live map[*transport.Process]*member // every process
}

// member is what the pool knows of one live process.
type member struct {
	log *gameLog // the current game's stderr log (nil before the first)
	// deals the process has been handed, to keep it from playing one
	// twice. It grows by one entry per game the process plays and goes
	// when the process does.
	deals map[uint64]struct{}
}

// NewPool makes an empty pool for bots.
func NewPool(bots []Bot, maxLine int, stderrCap int64) *Pool {
	return &Pool{bots: bots, maxLine: maxLine, stderrCap: stderrCap,
		idle: make([][]*transport.Process, len(bots)), live: map[*transport.Process]*member{}}
}

// Get returns a running process of bot b for a game of deal: an idle one
// that has not played deal yet, else a fresh one (see Pool). If the bot
// cannot be started, the Conn is broken (the game records the failure)
// and the process is nil.
func (p *Pool) Get(b int, deal uint64) (transport.Conn, *transport.Process) {
	p.mu.Lock()
	idle := p.idle[b]
	// Most recently returned first; any process that has not played the
	// deal would do.
	for i := len(idle) - 1; i >= 0; i-- {
		proc := idle[i]
		select {
		case <-proc.Exited():
			// It left between games (exited after end): start afresh
			// rather than fail the next game.
			idle = slices.Delete(idle, i, i+1)
			p.dropLocked(proc)
			continue
		default:
		}
		m := p.live[proc]
		if _, played := m.deals[deal]; played {
			continue
		}
		m.deals[deal] = struct{}{}
		p.idle[b] = slices.Delete(idle, i, i+1)
		p.mu.Unlock()
		if box, ok := proc.Confinement().(*sandbox.Box); ok {
			box.NewGame()
		}
		return proc, proc
	}
	// Every idle process (if any) has played this deal: start a fresh one,
	// keeping the idle ones for the next deals unless that would make
	// more than KeepIdle, in which case the longest idle is closed (its
	// log written out, as dropLocked does) before the new one starts, and
	// outside the lock, so that other games need not wait for the kill
	// and reap.
	var stale *transport.Process
	var staleLog *gameLog
	if n := len(idle); n > 0 && n >= max(1, p.KeepIdle) {
		stale, idle = idle[0], idle[1:]
		staleLog = p.live[stale].log
		delete(p.live, stale)
	}
	p.idle[b] = idle
	p.mu.Unlock()
	if stale != nil {
		stale.Close()
		staleLog.close() // what it wrote since its last game ends that game's log
	}
	bot := p.bots[b]
	cfg := transport.ProcessConfig{Argv: bot.Argv, Dir: bot.Dir, MaxLine: p.maxLine, StderrCap: p.stderrCap}
	if len(bot.Env) > 0 {
		cfg.Env = append(os.Environ(), bot.Env...)
	}
	if bot.Sandbox != nil {
		box, err := bot.Sandbox.Prepare(bot.Name, bot.Argv, bot.Dir, bot.Env)
		if err != nil {
			return transport.Broken(fmt.Errorf("bot %s: sandbox: %w", bot.Name, err)), nil
		}
		cfg.Argv, cfg.Env, cfg.Dir, cfg.Confine = box.Argv, box.Env, "", box
	}
	proc, err := transport.Start(cfg)
	if err != nil {
		return transport.Broken(fmt.Errorf("bot %s: %w", bot.Name, err)), nil
	}
	p.mu.Lock()
	p.live[proc] = &member{deals: map[uint64]struct{}{deal: {}}}
	p.mu.Unlock()
	return proc, proc
}

// Put returns a process after a game; failed ones are killed. The game's
// stderr log goes to its file now; what the bot writes until its next game
// is appended there.
func (p *Pool) Put(b int, proc *transport.Process, failed bool) {
	if proc == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m, ok := p.live[proc]
	if !ok {
		return // killed by KillAll meanwhile
	}
	if failed {
		p.dropLocked(proc)
		return
	}
	m.log.flush()
	p.idle[b] = append(p.idle[b], proc)
}

// dropLocked kills proc and writes out its log.
func (p *Pool) dropLocked(proc *transport.Process) {
	proc.Close()
	if m := p.live[proc]; m != nil {
		m.log.close()
	}
	delete(p.live, proc)
}

// AttachLog directs proc's stderr to a new log, kept in memory until the
// game ends (Put) and then written to path. The previous log stays
// attached until now, so what a bot writes after a game's end lands in
// that game's log.
func (p *Pool) AttachLog(proc *transport.Process, path string) error {
	// Fail now, not after the game, if the file cannot be made.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("stderr log: %w", err)
	}
	f.Close()
	log := &gameLog{path: path}
	proc.SetStderr(log) // after this returns nothing writes to the old log
	p.mu.Lock()
	m := p.live[proc]
	var old *gameLog
	if m != nil {
		old, m.log = m.log, log
	}
	p.mu.Unlock()
	old.close()
	if m == nil {
		log.close() // killed by KillAll meanwhile: nothing more will come
	}
	return nil
}

// Shutdown says bye to every idle process, gives them grace to exit, then
// kills whatever is left.
func (p *Pool) Shutdown(grace time.Duration) {
	p.mu.Lock()
	var idle []*transport.Process
	for b := range p.idle {
		idle = append(idle, p.idle[b]...)
		p.idle[b] = nil
	}
	p.mu.Unlock()
	deadline := time.Now().Add(grace)
	for _, proc := range idle {
		_ = proc.Send([]byte(`{"type":"bye"}`), deadline)
	}
	for _, proc := range idle {
		proc.Shutdown(time.Until(deadline))
	}
	p.KillAll()
}

// KillAll kills every process at once (an interrupt, or the end).
func (p *Pool) KillAll() {
	p.mu.Lock()
	procs := make([]*transport.Process, 0, len(p.live))
	for proc := range p.live {
		procs = append(procs, proc)
	}
	p.mu.Unlock()
	for _, proc := range procs {
		proc.Close()
	}
	p.mu.Lock()
	for _, proc := range procs {
		if m := p.live[proc]; m != nil {
			m.log.close()
		}
		delete(p.live, proc)
	}
	for b := range p.idle {
		p.idle[b] = nil
	}
	p.mu.Unlock()
}

// gameLog is one game's stderr log: in memory while the game runs (the
// stderr cap bounds it), then in its file.
type gameLog struct {
	mu   sync.Mutex
	path string
	buf  bytes.Buffer
	f    *os.File
	done bool
	err  error
}

func (l *gameLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.done:
		return len(b), nil
	case l.f != nil:
		return l.f.Write(b)
	}
	return l.buf.Write(b)
}

// flush writes the log to its file and appends there from now on.
func (l *gameLog) flush() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil || l.done {
		return
	}
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		l.err, l.done = err, true
		return
	}
	_, _ = f.Write(l.buf.Bytes())
	l.buf = bytes.Buffer{}
	l.f = f
}

// close flushes the log and closes its file; later writes are dropped.
func (l *gameLog) close() {
	if l == nil {
		return
	}
	l.flush()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
	l.done = true
}
