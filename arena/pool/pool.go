// Package pool keeps bot sessions (bot.Endpoint) alive between games,
// so that a bot starts once per seat of a rotation rather than once per
// game, while no session ever plays a deal twice.
package pool

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// Pool keeps bot sessions alive between games (a session is a process,
// for a Command bot: "process" below means a session). A bot that plays several
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
// block, and is never restarted. A tournament round in which every
// pairing plays the same deals needs a fresh process for most games: once
// a bot's processes are replaced like that, the pool keeps one spare
// process of it started ahead, so the next game need not wait for the
// bot's start-up (an interpreter, a model to load).
//
// A session that accounts per game (bot.GameStarter, a sandboxed
// process) is told of each new game it is handed.
//
// A game's stderr log is held in memory while the game runs and written to
// its file when the game ends, so no file holds what a bot wrote during a
// game still in progress (an opponent could read it). A log that cannot
// be written in full (a full disk) costs no game: it is reported to
// OnLogLost and counted (LogCounts).
type Pool struct {
	// KeepIdle is how many idle processes per bot the pool keeps when a
	// game needs a fresh one (none of them may play its deal): the length
	// of a rotation block, typically. 0 or 1 keeps one.
	KeepIdle int
	// OnLogLost, if set, is told of each game's stderr log that could not
	// be written in full (a *LogError), once per log, from whichever
	// goroutine found out; it must not call back into the pool. Set it
	// before the first game.
	OnLogLost func(error)

	logs, lost atomic.Int64 // stderr logs attached, and lost

	bots   []bot.Spec
	launch bot.LaunchOptions

	mu    sync.Mutex
	idle  [][]bot.Endpoint
	live  map[bot.Endpoint]*member // every process
	spare []bot.Endpoint           // per bot: started ahead, played nothing (or nil)
	// prestarting holds, per bot whose spare is being started, a channel
	// closed when it is there; starting counts those starts, which KillAll
	// waits for; closed stops new ones.
	prestarting []chan struct{}
	starting    sync.WaitGroup
	closed      bool
}

// member is what the pool knows of one live process.
type member struct {
	bot int      // whose session it is
	log *gameLog // the current game's stderr log (nil before the first)
	// deals the process has been handed, to keep it from playing one
	// twice. It grows by one entry per game the process plays and goes
	// when the process does.
	deals map[uint64]struct{}
	// tailMark is the process's stderr tail when Get handed it out for
	// its current game ("" for a process's first game), so that a game's
	// failure quotes only what the bot wrote since (Env.Play), not an
	// earlier game's last line. (Stderr is read as it comes: what a bot
	// wrote just before its previous game ended may not have been read by
	// then, and would count as this game's.)
	tailMark string
}

// New makes an empty pool for bots, whose sessions it launches with opt.
func New(bots []bot.Spec, opt bot.LaunchOptions) *Pool {
	return &Pool{bots: bots, launch: opt,
		idle: make([][]bot.Endpoint, len(bots)), live: map[bot.Endpoint]*member{},
		spare: make([]bot.Endpoint, len(bots)), prestarting: make([]chan struct{}, len(bots))}
}

// Get returns a running process of bot b for a game of deal: an idle one
// that has not played deal yet, else a fresh one (see Pool). If the bot
// cannot be started, the Conn is broken (the game records the failure)
// and the process is nil.
func (p *Pool) Get(b int, deal uint64) (transport.Conn, bot.Endpoint) {
	p.mu.Lock()
	idle := p.idle[b]
	// Most recently returned first; any process that has not played the
	// deal would do.
	for i := len(idle) - 1; i >= 0; i-- {
		proc := idle[i]
		select {
		case <-proc.Done():
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
		m.tailMark = proc.StderrTail()
		p.idle[b] = slices.Delete(idle, i, i+1)
		p.mu.Unlock()
		newGame(proc)
		return proc, proc
	}
	// Every idle process (if any) has played this deal: start a fresh one,
	// keeping the idle ones for the next deals unless that would make
	// more than KeepIdle, in which case the longest idle is closed (its
	// log written out, as dropLocked does) before the new one starts, and
	// outside the lock, so that other games need not wait for the kill
	// and reap.
	var stale bot.Endpoint
	var staleLog *gameLog
	// A bot that serves a bounded number of sessions at once
	// (bot.Capacity) gets the longest idle one closed when it has no room
	// for another.
	if n := len(idle); n > 0 && (n >= max(1, p.KeepIdle) || p.fullLocked(b)) {
		stale, idle = idle[0], idle[1:]
		staleLog = p.live[stale].log
		delete(p.live, stale)
	}
	p.idle[b] = idle
	if ready := p.prestarting[b]; ready != nil {
		// A spare is on its way: its start is further along than a new one.
		p.mu.Unlock()
		<-ready
		p.mu.Lock()
	}
	spare := p.spare[b]
	p.spare[b] = nil
	if spare != nil {
		select {
		case <-spare.Done(): // it did not live to its first game
			p.dropLocked(spare)
			spare = nil
		default:
			p.live[spare].deals[deal] = struct{}{}
		}
	}
	p.mu.Unlock()
	if stale != nil {
		stale.Close()
		staleLog.close() // what it wrote since its last game ends that game's log
		// Processes are being replaced: have the next one ready.
		defer p.prestart(b)
	}
	if spare != nil {
		newGame(spare) // its start-up is not this game's CPU time
		return spare, spare
	}
	proc, err := p.start(b, deal, nil)
	if err != nil {
		return transport.Broken(err), nil
	}
	return proc, proc
}

// start starts a process of bot b and registers it, as having played
// deal unless it is a spare (log, which keeps what it writes before its
// first game, is then set).
func (p *Pool) start(b int, deal uint64, log *gameLog) (bot.Endpoint, error) {
	spec := p.bots[b]
	proc, err := spec.Launcher.Launch(spec.Name, p.launch)
	if err != nil {
		return nil, fmt.Errorf("bot %s: %w", spec.Name, err)
	}
	m := &member{bot: b, deals: map[uint64]struct{}{}, log: log}
	if log != nil {
		proc.SetStderr(log)
	} else {
		m.deals[deal] = struct{}{}
	}
	p.mu.Lock()
	p.live[proc] = m
	p.mu.Unlock()
	return proc, nil
}

// prestart starts a spare process of bot b in the background, unless it
// has one or one is on its way.
func (p *Pool) prestart(b int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.spare[b] != nil || p.prestarting[b] != nil || p.fullLocked(b) {
		return // a spare would take a session the bot's games need
	}
	ready := make(chan struct{})
	p.prestarting[b] = ready
	p.starting.Add(1)
	go func() {
		defer p.starting.Done()
		proc, err := p.start(b, 0, &gameLog{})
		p.mu.Lock()
		defer p.mu.Unlock()
		p.prestarting[b] = nil
		close(ready)
		switch {
		case err != nil:
			// The game that needs it will start one and record the failure.
		case p.closed:
			p.dropLocked(proc)
		default:
			p.spare[b] = proc
		}
	}()
}

// Put returns a process after a game; failed ones are killed. The game's
// stderr log goes to its file now; what the bot writes until its next game
// is appended there.
func (p *Pool) Put(b int, proc bot.Endpoint, failed bool) {
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

// stderrMark is proc's stderr tail when Get handed it out ("" for a
// process's first game, or no process).
func (p *Pool) StderrMark(proc bot.Endpoint) string {
	if proc == nil {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := p.live[proc]; m != nil {
		return m.tailMark
	}
	return ""
}

// dropLocked kills proc and writes out its log.
func (p *Pool) dropLocked(proc bot.Endpoint) {
	proc.Close()
	if m := p.live[proc]; m != nil {
		m.log.close()
	}
	delete(p.live, proc)
}

// LogFile is where a game's stderr log goes: Open creates (or empties)
// it, each time it is called; Name names it in messages. Sinks make them
// (run.Sink.Log); File is one on the local disk.
type LogFile struct {
	Name string
	Open func() (io.WriteCloser, error)
}

// File is the LogFile at path, its directory made as needed.
func File(path string) LogFile {
	return LogFile{Name: path, Open: func() (io.WriteCloser, error) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	}}
}

// LogError is a game's stderr log that could not be written in full:
// what the bot wrote from the failure on is lost.
type LogError struct {
	Path string
	Err  error
}

func (e *LogError) Error() string {
	return fmt.Sprintf("stderr log %s is incomplete, the rest of what the bot wrote is lost: %v", e.Path, e.Err)
}
func (e *LogError) Unwrap() error { return e.Err }

// LogCounts returns how many stderr logs were attached and how many of
// them were lost (in part or whole).
func (p *Pool) LogCounts() (logs, lost int) { return int(p.logs.Load()), int(p.lost.Load()) }

func (p *Pool) logLost(err error) {
	p.lost.Add(1)
	if p.OnLogLost != nil {
		p.OnLogLost(err)
	}
}

// AttachLog directs proc's stderr to a new log, kept in memory until the
// game ends (Put) and then written to file. The previous log stays
// attached until now, so what a bot writes after a game's end lands in
// that game's log. The file is made with the bot's first byte of
// stderr; one that cannot be made is reported then (OnLogLost), and the
// game goes on without it.
func (p *Pool) AttachLog(proc bot.Endpoint, file LogFile) {
	p.logs.Add(1)
	// The file is made with the first byte the bot writes to stderr: a
	// game it wrote nothing in has no log (creating empty files cost more
	// than the rest of a short game's output).
	log := &gameLog{path: file.Name, open: file.Open, report: p.logLost}
	proc.SetStderr(log) // after this returns nothing writes to the old log
	p.mu.Lock()
	m := p.live[proc]
	var old *gameLog
	if m != nil {
		old, m.log = m.log, log
	}
	p.mu.Unlock()
	if old != nil && old.path == "" {
		log.prepend(old) // a spare's start-up output: its first game's
	}
	old.close()
	if m == nil {
		log.close() // killed by KillAll meanwhile: nothing more will come
	}
}

// Shutdown says bye to every idle process, gives them grace to exit, then
// kills whatever is left.
func (p *Pool) Shutdown(grace time.Duration) {
	p.stopStarting()
	p.mu.Lock()
	var idle []bot.Endpoint
	for b := range p.idle {
		idle = append(idle, p.idle[b]...)
		if p.spare[b] != nil {
			idle = append(idle, p.spare[b])
		}
		p.idle[b], p.spare[b] = nil, nil
	}
	p.mu.Unlock()
	deadline := time.Now().Add(grace)
	for _, proc := range idle {
		_ = proc.Send(byeLine, deadline)
	}
	for _, proc := range idle {
		proc.Shutdown(time.Until(deadline))
	}
	p.KillAll()
}

// fullLocked reports whether bot b has as many live sessions as it serves
// at once (bot.Capacity; unbounded when its launcher does not say).
func (p *Pool) fullLocked(b int) bool {
	c, ok := p.bots[b].Launcher.(bot.Capacity)
	if !ok || c.Capacity() <= 0 {
		return false
	}
	n := 0
	for _, m := range p.live {
		if m.bot == b {
			n++
		}
	}
	return n >= c.Capacity()
}

// byeLine is the protocol's bye message.
var byeLine = protocol.Line(protocol.Bye{Type: protocol.TypeBye})

// newGame tells a session that accounts per game that it has a new one.
func newGame(e bot.Endpoint) {
	if g, ok := e.(bot.GameStarter); ok {
		g.NewGame()
	}
}

// stopStarting lets no spare start any more and waits for those on their
// way (which then close themselves).
func (p *Pool) stopStarting() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.starting.Wait()
}

// KillAll kills every process at once (an interrupt, or the end).
func (p *Pool) KillAll() {
	p.stopStarting()
	p.mu.Lock()
	procs := make([]bot.Endpoint, 0, len(p.live))
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
		p.idle[b], p.spare[b] = nil, nil
	}
	p.mu.Unlock()
}

// gameLog is one game's stderr log: in memory while the game runs (the
// stderr cap bounds it), then in its file. The first write that fails
// (a full disk) ends it: it is reported once (report) and what follows is
// dropped, so the bot's stderr is still drained.
type gameLog struct {
	mu     sync.Mutex
	path   string                         // names the log in errors; "" for a spare's start-up
	open   func() (io.WriteCloser, error) // the log's file, created afresh
	buf    bytes.Buffer
	f      io.WriteCloser
	done   bool
	failed bool
	report func(error) // nil: failures go unreported (no game log attached)
}

func (l *gameLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.done:
		return len(b), nil
	case l.f != nil:
		if _, err := l.f.Write(b); err != nil {
			l.failLocked(err)
		}
		return len(b), nil // the sink must keep draining the bot's stderr
	}
	return l.buf.Write(b)
}

func (l *gameLog) failLocked(err error) {
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
	l.buf, l.done = bytes.Buffer{}, true
	if l.failed {
		return
	}
	l.failed = true
	if l.report != nil {
		l.report(&LogError{Path: l.path, Err: err})
	}
}

// prepend puts what old held (closed to writes by now) before what l has.
func (l *gameLog) prepend(old *gameLog) {
	old.mu.Lock()
	before := slices.Clone(old.buf.Bytes())
	old.buf.Reset()
	old.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(before) > 0 && l.f == nil && !l.done {
		after := slices.Clone(l.buf.Bytes())
		l.buf.Reset()
		l.buf.Write(before)
		l.buf.Write(after)
	}
}

// flush writes the log to its file and appends there from now on. A log
// without a path (a spare's start-up, when its game kept no log) is dropped.
func (l *gameLog) flush() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil || l.done {
		return
	}
	if l.path == "" { // no game log attached (nothing is kept): drop it
		l.buf, l.done = bytes.Buffer{}, true
		return
	}
	if l.buf.Len() == 0 {
		return // nothing written yet: no file until something is
	}
	f, err := l.open()
	if err != nil {
		l.failLocked(err)
		return
	}
	l.f = f
	if _, err := f.Write(l.buf.Bytes()); err != nil {
		l.failLocked(err)
		return
	}
	l.buf = bytes.Buffer{}
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
		// Some file systems report a full disk only here.
		if err := l.f.Close(); err != nil {
			l.f = nil
			l.failLocked(err)
		}
		l.f = nil
	}
	l.done = true
}
