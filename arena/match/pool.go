package match

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/transport"
)

// Pool keeps bot processes alive between games. A bot that plays several
// games at once (a tournament with concurrency) gets one process per
// simultaneous game; a process that failed is killed, never reused.
type Pool struct {
	bots      []Bot
	maxLine   int
	stderrCap int64

	mu   sync.Mutex
	idle [][]*transport.Process
	live map[*transport.Process]*os.File // every process, with its current stderr log
}

// NewPool makes an empty pool for bots.
func NewPool(bots []Bot, maxLine int, stderrCap int64) *Pool {
	return &Pool{bots: bots, maxLine: maxLine, stderrCap: stderrCap,
		idle: make([][]*transport.Process, len(bots)), live: map[*transport.Process]*os.File{}}
}

// Get returns a running process of bot b, reusing an idle one. If the bot
// cannot be started, the Conn is broken (the game records the failure)
// and the process is nil.
func (p *Pool) Get(b int) (transport.Conn, *transport.Process) {
	p.mu.Lock()
	for len(p.idle[b]) > 0 {
		last := len(p.idle[b]) - 1
		proc := p.idle[b][last]
		p.idle[b] = p.idle[b][:last]
		select {
		case <-proc.Exited():
			// It left between games (exited after end): start afresh
			// rather than fail the next game.
			p.dropLocked(proc)
			continue
		default:
		}
		p.mu.Unlock()
		return proc, proc
	}
	p.mu.Unlock()
	bot := p.bots[b]
	proc, err := transport.Start(transport.ProcessConfig{Argv: bot.Argv, Dir: bot.Dir, Env: bot.Env, MaxLine: p.maxLine, StderrCap: p.stderrCap})
	if err != nil {
		return transport.Broken(fmt.Errorf("bot %s: %w", bot.Name, err)), nil
	}
	p.mu.Lock()
	p.live[proc] = nil
	p.mu.Unlock()
	return proc, proc
}

// Put returns a process after a game; failed ones are killed.
func (p *Pool) Put(b int, proc *transport.Process, failed bool) {
	if proc == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.live[proc]; !ok {
		return // killed by KillAll meanwhile
	}
	if failed {
		p.dropLocked(proc)
		return
	}
	p.idle[b] = append(p.idle[b], proc)
}

// dropLocked kills proc and closes its log.
func (p *Pool) dropLocked(proc *transport.Process) {
	proc.Close()
	if f := p.live[proc]; f != nil {
		f.Close()
	}
	delete(p.live, proc)
}

// AttachLog points proc's stderr at a new file. The previous log stays
// attached until now, so what a bot writes after a game's end lands in
// that game's log.
func (p *Pool) AttachLog(proc *transport.Process, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("stderr log: %w", err)
	}
	proc.SetStderr(f) // after this returns nothing writes to the old log
	p.mu.Lock()
	old := p.live[proc]
	p.live[proc] = f
	p.mu.Unlock()
	if old != nil {
		old.Close()
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
		if f := p.live[proc]; f != nil {
			f.Close()
		}
		delete(p.live, proc)
	}
	for b := range p.idle {
		p.idle[b] = nil
	}
	p.mu.Unlock()
}
