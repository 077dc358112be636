// Package pool keeps bot sessions (bot.Endpoint) alive between games,
// so that a bot starts once per seat of a rotation rather than once per
// game, while no session ever plays a deal twice, and the sessions kept
// outside games stay within a budget however many bots a run has.
package pool

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arena-dev/arena/arena/bot"
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
// none may, a fresh one is started.
//
// The processes outside games (idle between games, started ahead, or
// being closed to make room) number at most Spare, across all bots: when
// a game gives its processes back and there is no room, the least
// recently used idle process of any bot is closed first (spares last:
// with none but spares, the process given back is closed). So the live
// processes are at most those the running games hold plus Spare, however
// many bots the run has. A bot whose idle processes have all played the
// deal a game needs, again and again beyond a rotation block (a schedule
// in which many games share a deal), has
// its next process started ahead (in the room of its own least recently
// used idle one, if need be), so that its start-up (an interpreter, a
// model to load) delays no game.
//
// A process is retired (closed, and replaced by a fresh one when its bot
// next plays) after MaxDeals games: what the pool remembers of each
// process, the deals it played, stays bounded however long a run is;
// with OneGame, after every game.
//
// The bots may grow while the pool runs (Add: a ladder admits a new
// version of a bot), and a bot may be retired (Retire): its idle
// sessions are closed at once, those in games when they are given back,
// and it is never started again. Its index is never reused, so a game
// that names it stays readable.
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
	// Spare bounds the processes kept outside games, across all bots
	// (see Pool); below 1 it keeps one. Set it before the first game.
	Spare int
	// Rotation is how many games of one deal the same bots play in a
	// row (a rotation block: 2 for game pairs); below 2 it is 2. A bot
	// misses Rotation-1 times in a row within a block (each game of the
	// block needs a process that has not played its deal) and that is no
	// sign of churn; a spare is started ahead from Rotation misses on.
	Rotation int
	// OneGame retires every process after one game (a run that restarts
	// its bots for every game): Put closes it, and each Get that hands a
	// process of a bot to a game starts the bot's next one ahead (within
	// the budget), so that a start-up runs while a game is played rather
	// than between games. A run's end may so find one unused spare per
	// bot, which is closed with the rest. Set it before the first game.
	OneGame bool
	// OnLogLost, if set, is told of each game's stderr log that could not
	// be written in full (a *LogError), once per log, from whichever
	// goroutine found out; it must not call back into the pool. Set it
	// before the first game.
	OnLogLost func(error)

	logs, lost atomic.Int64 // stderr logs attached, and lost

	launch bot.LaunchOptions

	mu sync.Mutex
	// bots are the bots by index (Add appends), retired those Retire
	// took out.
	bots    []bot.Spec
	retired map[int]bool
	live    map[bot.Endpoint]*member // every registered process
	// idle are the processes between games and the spares started
	// ahead, of every bot, least recently used first.
	idle []*member
	// inGame counts the processes handed out for games and not given
	// back yet (those being started for a game included); closing the
	// idle ones being closed to make room.
	inGame, closing int
	stats           Stats // the peaks and starts so far
	// prestarting holds, per bot whose spare is being started, a channel
	// closed when it is there; starting counts those starts, which KillAll
	// waits for; closed stops new ones.
	prestarting map[int]chan struct{}
	// misses counts, per bot, Gets in a row that found only idle
	// processes that had played the deal (missLocked).
	misses map[int]int
	// claimed holds the processes Claim took for games about to start,
	// until their Gets.
	claimed  map[claimKey][]*member
	starting sync.WaitGroup
	// retiring counts the processes of OneGame being closed in the
	// background after their games, which KillAll waits for.
	retiring sync.WaitGroup
	closed   bool
}

// MaxDeals is how many games a process plays before the pool retires it
// (see Pool): the bound on the deals it remembers per process.
const MaxDeals = 1024

// Stats is the pool's accounting of its processes.
type Stats struct {
	// InGame counts the processes games hold now (those being started
	// for a game, and those being closed after one, included), Outside those kept outside games: idle,
	// started ahead, or being closed to make room. Live is their sum.
	InGame, Outside, Live int
	// The highest each has been.
	PeakInGame, PeakOutside, PeakLive int
	// Started counts the processes started, spares included.
	Started int
	// Waited is the time games spent in Get waiting for a process (one
	// started for them, or a spare on its way), summed over the seats.
	Waited time.Duration
}

// member is what the pool knows of one live process.
type member struct {
	bot  int // whose session it is
	proc bot.Endpoint
	log  *gameLog // the current game's stderr log (nil before the first)
	// deals the process has been handed, to keep it from playing one
	// twice: at most MaxDeals, since the process is retired after that.
	deals []uint64
	// tailMark is the process's stderr tail when Get handed it out for
	// its current game ("" for a process's first game), so that a game's
	// failure quotes only what the bot wrote since (Env.Play), not an
	// earlier game's last line. (Stderr is read as it comes: what a bot
	// wrote just before its previous game ended may not have been read by
	// then, and would count as this game's.)
	tailMark string
	inGame   bool // handed out by Get, not given back yet
}

// New makes an empty pool for bots, whose sessions it launches with opt.
func New(bots []bot.Spec, opt bot.LaunchOptions) *Pool {
	return &Pool{bots: slices.Clip(bots), launch: opt, live: map[bot.Endpoint]*member{}, prestarting: map[int]chan struct{}{}, misses: map[int]int{},
		claimed: map[claimKey][]*member{}, retired: map[int]bool{}}
}

// ErrRetired is Get's error for a bot the pool retired (Retire).
var ErrRetired = errors.New("retired")

// Add adds a bot, at any time (between games or during them), and
// returns its index: the next after the bots so far.
func (p *Pool) Add(spec bot.Spec) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bots = append(p.bots, spec)
	return len(p.bots) - 1
}

// Retire retires bot b, at any time: no session of it is started again
// (Get fails with ErrRetired), its idle ones and its spare (one on its
// way included) are closed before Retire returns, and those in games are
// closed when they are given back (Put). Its index stays taken.
func (p *Pool) Retire(b int) {
	p.mu.Lock()
	p.retired[b] = true
	delete(p.misses, b)
	for {
		var gone []*member
		p.idle = slices.DeleteFunc(p.idle, func(m *member) bool {
			if m.bot != b {
				return false
			}
			gone = append(gone, m)
			delete(p.live, m.proc)
			p.closing++
			return true
		})
		ready := p.prestarting[b]
		p.mu.Unlock()
		for _, m := range gone {
			p.closeMember(m)
		}
		if ready == nil {
			return
		}
		<-ready // a spare on its way closes itself (prestart)
		p.mu.Lock()
	}
}

// specLocked is bot b's spec, or why it cannot be started.
func (p *Pool) specLocked(b int) (bot.Spec, error) {
	if b < 0 || b >= len(p.bots) {
		return bot.Spec{}, fmt.Errorf("bot %d of %d: no such bot", b, len(p.bots))
	}
	spec := p.bots[b]
	if p.retired[b] {
		return spec, fmt.Errorf("bot %s: %w", spec.Name, ErrRetired)
	}
	return spec, nil
}

// budgetLocked is the bound on the processes outside games.
func (p *Pool) budgetLocked() int { return max(1, p.Spare) }

// outsideLocked counts the processes outside games.
func (p *Pool) outsideLocked() int { return len(p.idle) + p.closing + len(p.prestarting) }

// noteLocked records the peaks after a change.
func (p *Pool) noteLocked() {
	s := &p.stats
	out := p.outsideLocked()
	s.PeakInGame = max(s.PeakInGame, p.inGame)
	s.PeakOutside = max(s.PeakOutside, out)
	s.PeakLive = max(s.PeakLive, p.inGame+out)
}

// Stats returns the pool's accounting now.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.InGame, s.Outside = p.inGame, p.outsideLocked()
	s.Live = s.InGame + s.Outside
	return s
}

// Get returns a running process of bot b for a game of deal: an idle one
// that has not played deal yet, else a fresh one (see Pool). If the bot
// cannot be started the error says why (the launcher's error, wrapped
// with the bot's name): the game records it as the seat's failure
// (transport.Broken). Every process Get returns goes back with Put.
func (p *Pool) Get(b int, deal uint64) (bot.Endpoint, error) {
	p.mu.Lock()
	passed := false
	var waitFrom time.Time // when Get began to wait for a process
	if ms := p.claimed[claimKey{b, deal}]; len(ms) > 0 {
		m := ms[len(ms)-1]
		if len(ms) == 1 {
			delete(p.claimed, claimKey{b, deal})
		} else {
			p.claimed[claimKey{b, deal}] = ms[:len(ms)-1]
		}
		p.missLocked(b, false)
		p.mu.Unlock()
		if p.OneGame {
			p.prestart(b)
		}
		newGame(m.proc)
		return m.proc, nil
	}
	for {
		m, spare, passedHere := p.takeLocked(b, deal)
		passed = passed || passedHere
		if m != nil {
			churn := p.missLocked(b, spare && passed)
			p.waitedLocked(waitFrom)
			p.mu.Unlock()
			if churn || p.OneGame {
				p.prestart(b)
			}
			newGame(m.proc) // a spare's start-up is not this game's CPU time
			return m.proc, nil
		}
		ready := p.prestarting[b]
		if ready == nil {
			break
		}
		// A spare is on its way: its start is further along than a new
		// one. Once it is there, look again (another game may take it).
		if waitFrom.IsZero() {
			waitFrom = time.Now()
		}
		p.mu.Unlock()
		<-ready
		p.mu.Lock()
	}
	// Every idle process of the bot (if any) has played this deal: start a
	// fresh one. A bot that serves a bounded number of sessions at once
	// (bot.Capacity) gets its least recently used idle one closed first
	// when it has no room for another.
	var stale *member
	if p.fullLocked(b) {
		for i, m := range p.idle {
			if m.bot == b {
				stale = m
				p.idle = slices.Delete(p.idle, i, i+1)
				delete(p.live, m.proc)
				p.closing++
				break
			}
		}
	}
	churn := p.missLocked(b, passed)
	p.inGame++ // reserved now, so that no room is made for it elsewhere
	p.noteLocked()
	p.mu.Unlock()
	if waitFrom.IsZero() {
		waitFrom = time.Now()
	}
	if stale != nil {
		p.closeMember(stale)
	}
	proc, err := p.start(b)
	p.mu.Lock()
	p.waitedLocked(waitFrom)
	if err != nil {
		p.inGame--
		p.mu.Unlock()
		return nil, err
	}
	p.live[proc] = &member{bot: b, proc: proc, deals: []uint64{deal}, inGame: true}
	p.mu.Unlock()
	if churn || p.OneGame {
		p.prestart(b)
	}
	return proc, nil
}

// waitedLocked adds the time since from (zero: Get did not wait) to
// Stats.Waited.
func (p *Pool) waitedLocked(from time.Time) {
	if !from.IsZero() {
		p.stats.Waited += time.Since(from)
	}
}

// Claim hands t's seats their processes ahead of the game's Gets, if
// every seat's bot has an idle process that may play deal: it takes
// them (they count in a game from now on) and reports true, and the
// game's Get of each seat's bot for deal returns its claimed one. Else
// it takes none and reports false. A game claimed for must call Get for
// each of its seats.
func (p *Pool) Claim(seats []int, deal uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, b := range seats {
		if !slices.ContainsFunc(p.idle, func(m *member) bool { return m.bot == b && m.mayPlay(deal) }) {
			return false
		}
	}
	for _, b := range seats {
		// A seat whose process left meanwhile (or a bot in two seats
		// with one idle process) gets a fresh one from Get.
		if m, _, _ := p.takeLocked(b, deal); m != nil {
			k := claimKey{b, deal}
			p.claimed[k] = append(p.claimed[k], m)
		}
	}
	return true
}

// claimKey names the processes claimed for a game's seats: the bot and
// the deal.
type claimKey struct {
	bot  int
	deal uint64
}

// missLocked counts Get's misses of bot b in a row: missed, the bot's
// idle processes had all played the deal (and a fresh one or a spare
// plays it). From Rotation misses in a row on, the bot's deals repeat
// beyond what its idle processes can serve (a schedule whose games share
// deals widely), and it reports that a spare should be started ahead.
// Fewer are no sign of that: the later games of a block miss once each.
func (p *Pool) missLocked(b int, missed bool) (churn bool) {
	if !missed {
		delete(p.misses, b)
		return false
	}
	p.misses[b]++
	return p.misses[b] >= max(2, p.Rotation)
}

// mayPlay says m may play deal: it has not played it (a process that
// had seen a deal's hands would know them the second time).
func (m *member) mayPlay(deal uint64) bool { return !slices.Contains(m.deals, deal) }

// takeLocked hands out an idle process of bot b that has not played deal
// (the most recently used first: any would do), or nil. spare says it is
// a process started ahead, that had played nothing; passed that idle
// processes of the bot were passed over because they had played deal.
func (p *Pool) takeLocked(b int, deal uint64) (m *member, spare, passed bool) {
	for i := len(p.idle) - 1; i >= 0; i-- {
		m := p.idle[i]
		if m.bot != b {
			continue
		}
		select {
		case <-m.proc.Done():
			// It left between games (exited after end): start afresh
			// rather than fail the next game.
			p.idle = slices.Delete(p.idle, i, i+1)
			p.dropLocked(m)
			continue
		default:
		}
		if !m.mayPlay(deal) {
			passed = true
			continue
		}
		spare := len(m.deals) == 0
		if !spare {
			m.tailMark = m.proc.StderrTail()
		}
		m.deals = append(m.deals, deal)
		m.inGame = true
		p.idle = slices.Delete(p.idle, i, i+1)
		p.inGame++
		p.noteLocked()
		return m, spare, passed
	}
	return nil, false, passed
}

// roomLocked makes room for one more process outside games, when the
// budget is full (its callers check): the least recently used idle
// process is taken out to be closed by the caller (closeMember): bot
// own's first, if own >= 0, then any bot's. Spares are not taken: a spare
// is started for a bot whose processes are being replaced, for its next
// game, and would be started again if closed. !ok: no room can be made.
func (p *Pool) roomLocked(own int) (lru *member, ok bool) {
	pick := -1
	for i, m := range p.idle {
		if len(m.deals) == 0 {
			continue // a spare
		}
		if m.bot == own {
			pick = i
			break
		}
		if pick < 0 {
			pick = i
			if own < 0 {
				break
			}
		}
	}
	if pick < 0 {
		return nil, false
	}
	lru = p.idle[pick]
	p.idle = slices.Delete(p.idle, pick, pick+1)
	delete(p.live, lru.proc)
	p.closing++
	return lru, true
}

// start launches a process of bot b.
func (p *Pool) start(b int) (bot.Endpoint, error) {
	p.mu.Lock()
	spec, err := p.specLocked(b)
	p.mu.Unlock()
	if err != nil {
		return nil, err
	}
	proc, err := spec.Launcher.Launch(spec.Name, p.launch)
	if err != nil {
		return nil, fmt.Errorf("bot %s: %w", spec.Name, err)
	}
	p.mu.Lock()
	p.stats.Started++
	p.mu.Unlock()
	return proc, nil
}

// prestart starts a spare process of bot b in the background, unless it
// has one or one is on its way. Its room in the budget is made as for a
// process given back: the least recently used idle one is closed.
func (p *Pool) prestart(b int) {
	p.mu.Lock()
	for {
		if p.closed || p.retired[b] || p.prestarting[b] != nil || p.fullLocked(b) ||
			slices.ContainsFunc(p.idle, func(m *member) bool { return m.bot == b && len(m.deals) == 0 }) {
			p.mu.Unlock()
			return // a spare would take a session the bot's games need
		}
		if p.outsideLocked() < p.budgetLocked() {
			break
		}
		lru, ok := p.roomLocked(b) // its own idle ones have played the deal
		if !ok {
			p.mu.Unlock()
			return
		}
		// Closed before the spare starts, so that the bound holds at
		// every moment.
		p.mu.Unlock()
		p.closeMember(lru)
		p.mu.Lock()
	}
	ready := make(chan struct{})
	p.prestarting[b] = ready
	p.noteLocked()
	p.starting.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.starting.Done()
		proc, err := p.start(b)
		var log *gameLog
		if err == nil {
			// Kept until its first game, whose log it then starts.
			log = &gameLog{}
			proc.SetStderr(log)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		delete(p.prestarting, b)
		close(ready)
		switch {
		case err != nil:
			// The game that needs it will start one and record the failure.
		case p.closed || p.retired[b]:
			proc.Close()
		default:
			m := &member{bot: b, proc: proc, log: log}
			p.live[proc] = m
			p.idle = append(p.idle, m)
		}
	}()
}

// Put gives a process back after its game; a failed one is killed. The
// game's stderr log goes to its file now; what the bot writes until its
// next game is appended there. If the processes outside games would then
// be more than Spare, the least recently used idle one is closed first;
// the process stays counted in its game until there is room (so the
// bound holds at every moment).
func (p *Pool) Put(b int, proc bot.Endpoint, failed bool) {
	if proc == nil {
		return
	}
	p.mu.Lock()
	m, ok := p.live[proc]
	if !ok || !m.inGame {
		p.mu.Unlock()
		return // killed by KillAll meanwhile
	}
	if failed || len(m.deals) >= MaxDeals || p.retired[m.bot] {
		p.retire(m)
		return
	}
	if p.OneGame {
		// Closed in the background, so that the next game need not wait
		// for the exit and the sandbox's clean-up: the game's record needs
		// nothing more of this process (a failed one's does, its last
		// stderr line: it is retired above, at once).
		delete(p.live, m.proc)
		p.retiring.Add(1)
		p.mu.Unlock()
		go func() {
			defer p.retiring.Done()
			p.closeRetired(m)
		}()
		return
	}
	m.log.flush()
	for p.outsideLocked() >= p.budgetLocked() {
		lru, ok := p.roomLocked(-1)
		if !ok {
			// No room can be made (spares, on their way or waiting for
			// their bots' next games, or processes being closed): this
			// one goes instead.
			p.retire(m)
			return
		}
		p.mu.Unlock()
		p.closeMember(lru)
		p.mu.Lock()
		if _, ok := p.live[proc]; !ok {
			p.mu.Unlock()
			return // killed by KillAll meanwhile
		}
	}
	m.inGame = false
	p.inGame--
	p.idle = append(p.idle, m)
	p.noteLocked()
	p.mu.Unlock()
}

// retire closes m, a process in a game, with p.mu held (it returns with
// it released): it stays counted in its game until it is gone.
func (p *Pool) retire(m *member) {
	delete(p.live, m.proc)
	p.mu.Unlock()
	p.closeRetired(m)
}

// closeRetired closes m, retired from its game and out of p.live; it
// counts in its game until it is gone.
func (p *Pool) closeRetired(m *member) {
	m.proc.Close()
	m.log.close()
	p.mu.Lock()
	p.inGame--
	p.mu.Unlock()
}

// closeMember closes an idle process taken out of the pool, counted in
// p.closing until it is gone.
func (p *Pool) closeMember(m *member) {
	m.proc.Close()
	m.log.close() // what it wrote since its last game ends that game's log
	p.mu.Lock()
	p.closing--
	p.mu.Unlock()
}

// StderrMark is proc's stderr tail when Get handed it out ("" for a
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

// dropLocked kills an idle process that is out of p.idle and writes out
// its log.
func (p *Pool) dropLocked(m *member) {
	m.proc.Close()
	m.log.close()
	delete(p.live, m.proc)
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
	idle := p.idle
	p.idle = nil
	for _, m := range idle {
		delete(p.live, m.proc)
		p.closing++
	}
	p.mu.Unlock()
	deadline := time.Now().Add(grace)
	for _, m := range idle {
		_ = m.proc.Send(byeLine, deadline)
	}
	for _, m := range idle {
		m.proc.Shutdown(time.Until(deadline))
		p.closeMember(m)
	}
	p.KillAll()
}

// fullLocked reports whether bot b has as many live sessions as it serves
// at once (bot.Capacity; unbounded when its launcher does not say).
func (p *Pool) fullLocked(b int) bool {
	if b < 0 || b >= len(p.bots) {
		return false // Get's start says why
	}
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

// KillAll kills every process at once (an interrupt, or the end). Games
// still holding one give it back as usual (Put ignores it).
func (p *Pool) KillAll() {
	p.stopStarting()
	p.mu.Lock()
	members := make([]*member, 0, len(p.live))
	for _, m := range p.live {
		members = append(members, m)
	}
	p.mu.Unlock()
	for _, m := range members {
		m.proc.Close()
	}
	p.mu.Lock()
	for _, m := range members {
		if p.live[m.proc] == m {
			m.log.close()
			delete(p.live, m.proc)
			if m.inGame {
				p.inGame--
			}
		}
	}
	p.idle = nil
	clear(p.claimed) // closed above: a Get after this starts a fresh one
	p.mu.Unlock()
	p.retiring.Wait() // so that every log is written when KillAll returns
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
