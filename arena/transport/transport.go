// Package transport is how the referee talks to a bot: a duplex channel of
// protocol lines. The stdio implementation runs the bot as a child process;
// Pipe connects to a bot inside the process (tests, in-process bots); a
// NATS implementation will satisfy the same Conn interface. The package
// conntest checks that an implementation keeps the contract written on
// Conn.
package transport

import (
	"errors"
	"fmt"
	"time"
)

// Conn is one bot as the referee sees it.
//
// What every implementation guarantees, beyond each method's own comment
// (arena/transport/conntest checks each point):
//
//   - A line is the bytes before a newline; a \r just before the newline
//     is dropped, any other byte is passed on as it is. Receive delivers a
//     line only once its newline has arrived: a partial line is kept
//     across timeouts and completed by the bytes that follow.
//   - Deadlines are absolute times. ErrTimeout is never reported before
//     the deadline. A deadline already past never waits: Receive still
//     returns a line that has arrived in full, else ErrTimeout; Send
//     returns ErrTimeout and sends nothing.
//   - Send may return before the bot has read the line: the transport
//     holds a bounded amount for it (a pipe's 64 KiB, for stdio and Pipe).
//     Once that is full, a bot that does not read makes Send fail with
//     ErrTimeout at its deadline. After a failed Send part of the line may
//     have gone out, so the stream is out of step.
//   - A line from the bot longer than the transport's limit (the newline
//     not counted; a \r before it is) fails Receive with an error wrapping
//     protocol.ErrLineTooLong, as soon as more than the limit has arrived
//     without a newline. The stream is then out of step for good: no later
//     line is delivered.
//   - When the bot closes its output, the lines it finished before are
//     delivered, then Receive fails with ErrClosed, for good; a partial
//     last line is dropped. When the bot has ended, Send fails with
//     ErrClosed, and so does Receive once it has returned what was already
//     in the transport (stdio reads that for a short grace only).
//   - Close may be called while Send or Receive is blocked in another
//     goroutine: that call returns ErrClosed promptly. After Close, Send
//     and Receive fail with ErrClosed, even with lines waiting. Otherwise
//     a Conn is used by one goroutine at a time.
type Conn interface {
	// Send writes one protocol line; the newline is added. It fails if the
	// bot is gone or does not take the line before deadline. The line is
	// not used after Send returns.
	Send(line []byte, deadline time.Time) error
	// Receive returns the next line from the bot, waiting until deadline.
	// The slice is owned by the caller: a later Receive does not touch it.
	Receive(deadline time.Time) ([]byte, error)
	// Close ends the bot at once; it is safe to call more than once.
	Close() error
}

// Usage is how a bot's processes have used the CPU since they started.
type Usage struct {
	// Ran is the CPU time they used.
	Ran time.Duration
	// Waited is time at least one of them was ready to run but waited for
	// a CPU (a run queue). On a loaded machine the referee does not charge
	// it (arena/clock.Forgiven).
	Waited time.Duration
	// Throttled is time the bot's own CPU rate limit held it back (summed
	// over the CPUs, as the kernel counts it). The kernel counts it in
	// Waited too; it is charged.
	Throttled time.Duration
	// Rate is that limit, in CPUs (0: none). A bot that got its whole rate
	// was not kept from running by the machine, whatever the kernel
	// counted as throttled (arena/clock.Forgiven).
	Rate float64
	// Stalled is time at least one of them could not run for memory or
	// I/O: the kernel reclaiming memory or paging the bot's program back
	// in from a busy disk (the longer of the two stalls, which overlap).
	// Not charged either, as Waited, unless the bot was at its own memory
	// limit (AtMemoryLimit).
	Stalled time.Duration
	// AtMemoryLimit is whether their memory use is at their own memory
	// limit, where the kernel reclaims their memory because of what they
	// use, not because the machine is short: a stall in a move that began
	// or ended there is the bot's own doing, and charged.
	AtMemoryLimit bool
}

// Since is the use between an earlier reading and u: the counters' growth,
// with u's Rate and AtMemoryLimit.
func (u Usage) Since(earlier Usage) Usage {
	return Usage{Ran: u.Ran - earlier.Ran, Waited: u.Waited - earlier.Waited, Throttled: u.Throttled - earlier.Throttled,
		Stalled: u.Stalled - earlier.Stalled, Rate: u.Rate, AtMemoryLimit: u.AtMemoryLimit}
}

// SendTimer is implemented by a Conn that can say when the line of its
// last Send went out: at is the moment it was all written, when it was
// written at once, without waiting for the bot to read (ok false
// otherwise, or after a failed Send). The bot has had the line from then
// on, however late the caller ran before the write; the referee starts a
// move's clock there.
type SendTimer interface {
	SentAt() (at time.Time, ok bool)
}

// Meter is implemented by a Conn whose bot's CPU use the machine reports
// (a sandboxed stdio bot with a cgroup v2, on Linux). The readings are
// cumulative: the referee takes one when a move is still unanswered
// referee.MeterAfter in, and one when the reply is in.
type Meter interface {
	// Usage is the bot's CPU use so far; ok is false when it cannot be
	// read (the bot has ended, or the machine does not tell).
	Usage() (u Usage, ok bool)
}

// Remembered is implemented by a Meter that keeps its last reading (a
// Process takes one as its bot starts, and keeps each Usage takes). The
// referee backdates a move's first reading to it when it took that reading
// late, having been held back itself (referee.MeterAfter): the bot's wait
// since then is what the cgroup saw of the move it could not watch.
type Remembered interface {
	// LastUsage is the last reading and when it was taken (ok false: none).
	LastUsage() (u Usage, at time.Time, ok bool)
}

// Errors a Conn reports; the referee maps them to failure reasons. An
// oversize line is a third kind, protocol.ErrLineTooLong.
var (
	// ErrTimeout: nothing arrived (or could be written) before the deadline.
	ErrTimeout = errors.New("timed out")
	// ErrDeadlinePast is the ErrTimeout of a Send called with its deadline
	// already past: nothing was written, so the line may be sent again.
	// The caller ran late, not the bot (a loaded machine can hold a
	// goroutine back for longer than a move's allowance between its taking
	// the time and its Send).
	ErrDeadlinePast = fmt.Errorf("%w: the deadline had passed before the line was written", ErrTimeout)
	// ErrClosed: the bot is gone (exited, closed its output, or was killed).
	ErrClosed = errors.New("connection closed")
	// ErrFault: the transport itself failed, not the bot (the arena's own
	// connection to a remote bot was lost): the game cannot be decided
	// fairly, and is not charged to the bot.
	ErrFault = errors.New("the arena's connection failed, not the bot")
	// ErrLeft: the player left the game of their own accord (a person at
	// arena play typed q or ended their input). The seat is gone, as with
	// ErrClosed, but nothing crashed: the referee records it as such.
	ErrLeft = errors.New("the player left the game")
)
