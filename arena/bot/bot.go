// Package bot is the seam between the arena and a bot, wherever it runs.
// A bot is a Spec: a name, a Target (what the user wrote, parsed by the
// scheme it names) and, once a run binds it, a Launcher. Launching yields
// an Endpoint, one session of the bot from hello to bye: a
// transport.Conn the referee talks through, plus what the pool needs to
// keep it between games (its end, its diagnostics, a graceful shutdown).
//
// Schemes register themselves as database/sql drivers do (Register):
// arena/bot/stdio, the default, runs a local program over stdio;
// arena/remote ("nats:BOTID") reaches a bot served elsewhere;
// arena/bot/membot ("mem:random") plays in memory. Parse is the one
// parser of a bot's command, and Bind gives each bot its launcher from
// what the run holds (a sandbox, a NATS connection). Nothing above this
// package, the pool, the runner, the referee or the engines, knows which
// scheme a bot has; this package imports none of them.
package bot

import (
	"io"
	"time"

	"github.com/arena-dev/arena/arena/transport"
)

// Endpoint is one running session of a bot.
type Endpoint interface {
	transport.Conn
	// Done is closed when the session has ended: the process exited, or
	// the remote bot left.
	Done() <-chan struct{}
	// SetStderr directs the session's diagnostics (a process's stderr)
	// to w from now on; nothing written before is written again.
	SetStderr(w io.Writer)
	// StderrTail is the end of what the session wrote to its diagnostics
	// so far, for failure messages.
	StderrTail() string
	// Shutdown waits up to grace for the session to end by itself (after
	// bye), then ends it.
	Shutdown(grace time.Duration) error
}

// GameStarter is implemented by Endpoints that account per game: the
// pool tells one each time it hands it to a new game (a sandbox restarts
// the game's CPU-time count).
type GameStarter interface {
	NewGame()
}

// RoundTripper is implemented by Endpoints of bots that run elsewhere:
// RoundTrip measures the time a message takes there and back now.
type RoundTripper interface {
	RoundTrip() (time.Duration, error)
}

// Process is implemented by Endpoints that are a process on this
// machine (a stdio bot's): what arena check judges beyond the lines (how
// the bot exits after bye, what it leaves running). A session without
// it runs elsewhere, or in memory: only its lines can be judged.
type Process interface {
	// Pid is the process's id, also its process group's.
	Pid() int
	// ExitStatus is how the process ended, once it has (Done).
	ExitStatus() transport.ExitStatus
	// CloseInput closes the process's stdin: it reads end of file.
	CloseInput()
}

// Launcher starts sessions of one bot.
type Launcher interface {
	// Launch starts a new session, which has played nothing yet. name is
	// the bot's, for messages and the bot's environment.
	Launch(name string, opt LaunchOptions) (Endpoint, error)
}

// Builder is implemented by Launchers (and Targets) whose bot a
// distributed run can name: Build identifies what it launches (a hash of
// a program and its files, a remote bot's id), so that a worker plays
// exactly the bot the coordinator means, or refuses.
type Builder interface {
	Build() (string, error)
}

// Capacity is implemented by Launchers of bots that serve a bounded
// number of sessions at once (a remote bot declares how many): Capacity
// is that number, 0 while unknown. The pool then keeps no spare session
// the bot's games would need, and closes an idle one to make room.
type Capacity interface {
	Capacity() int
}

// LaunchOptions are a run's bounds on every session it launches.
type LaunchOptions struct {
	// MaxLine bounds one line from the bot (0: protocol.DefaultMaxLine).
	MaxLine int
	// StderrCap bounds what is kept of the bot's diagnostics per game
	// (0: transport.DefaultStderrCap).
	StderrCap int64
	// LeaveDescendants leaves what a local bot started running when the
	// bot exits by itself (transport.ProcessConfig.LeaveDescendants), for
	// arena check to find; closing the session still ends them. A
	// Launcher of bots that run elsewhere ignores it.
	LeaveDescendants bool
}

// ConnSession is an Endpoint made of a Conn and the channel closed when
// the session ends, for sessions with no diagnostics of their own to
// keep: in-memory bots, remote ones (their stderr stays on their machine).
type ConnSession struct {
	transport.Conn
	Ended <-chan struct{}
}

// Done is Ended.
func (s ConnSession) Done() <-chan struct{} { return s.Ended }

// SetStderr does nothing: the session writes no diagnostics here.
func (ConnSession) SetStderr(io.Writer) {}

// StderrTail is always empty.
func (ConnSession) StderrTail() string { return "" }

// Shutdown waits up to grace for the session to end, then closes it.
func (s ConnSession) Shutdown(grace time.Duration) error {
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-s.Ended:
	case <-t.C:
	}
	return s.Close()
}
