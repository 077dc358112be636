package referee_test

import (
	"context"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
)

// lateWriter is a bot whose turns the referee writes late, as a referee
// starved of a CPU does: each Send of a turn returns only after lag, the
// line going out at its end (SentAt). The bot answers think after it has
// the turn; Receive honours its deadline.
type lateWriter struct {
	scriptConn
	lag, think time.Duration
	sentAt     time.Time
	replyAt    time.Time
}

func (c *lateWriter) Send(line []byte, deadline time.Time) error {
	if err := c.scriptConn.Send(line, deadline); err != nil {
		return err
	}
	if typ, _ := protocol.PeekType(line); typ == protocol.TypeTurn {
		time.Sleep(c.lag) // the write itself is late: the scenario, not a wait for a race
	}
	c.sentAt = time.Now()
	c.replyAt = c.sentAt.Add(c.think)
	return nil
}

func (c *lateWriter) SentAt() (time.Time, bool) { return c.sentAt, true }

func (c *lateWriter) Receive(deadline time.Time) ([]byte, error) {
	if deadline.Before(c.replyAt) {
		time.Sleep(time.Until(deadline))
		return nil, transport.ErrTimeout
	}
	time.Sleep(time.Until(c.replyAt))
	return c.scriptConn.Receive(deadline)
}

// A turn the referee writes late is not the bot's time: its clock starts
// when the turn went out (transport.SendTimer), so a bot that answers in
// 20 ms of a 100 ms move is on time, however late the referee wrote.
func TestClockStartsWhenTheTurnIsWritten(t *testing.T) {
	g, opts := testkit.Setup(t, "banqi", 2, map[string]string{"max_plies": "4"})
	var players []referee.Player
	for i := range 2 {
		players = append(players, referee.Player{Name: string(rune('a' + i)), Conn: &lateWriter{lag: 300 * time.Millisecond, think: 20 * time.Millisecond}})
	}
	res, err := referee.Play(context.Background(), referee.Config{Game: g, Options: opts, Seed: 1, Match: "m", GameID: "m-g0000",
		Limits: clock.Limits{Startup: time.Second, Move: 100 * time.Millisecond, Margin: 20 * time.Millisecond}}, players)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Forfeits) > 0 || res.Plies != 4 {
		t.Fatalf("forfeits %+v after %d plies: the late write was charged", res.Forfeits, res.Plies)
	}
	for seat, think := range res.Think {
		for _, d := range think {
			if d > 100*time.Millisecond {
				t.Errorf("seat %d charged %v for a 20 ms answer", seat, d)
			}
		}
	}
}

// lateBeforeSend is a bot whose Sends of a turn, every other one, find
// their deadline already past, as when a loaded machine holds the referee
// back for the whole allowance between its taking the time and writing:
// the Conn then writes nothing (transport.ErrDeadlinePast).
type lateBeforeSend struct {
	transport.Conn
	turns int
}

func (c *lateBeforeSend) Send(line []byte, deadline time.Time) error {
	if typ, _ := protocol.PeekType(line); typ == protocol.TypeTurn {
		if c.turns++; c.turns%2 == 1 {
			return transport.ErrDeadlinePast
		}
	}
	return c.Conn.Send(line, deadline)
}

// A turn whose Send found the deadline past had not gone out, and the
// referee's lateness is not the bot's: the referee starts the bot's clock
// again and sends it, so the game is played without a timeout.
func TestDeadlinePastBeforeSendIsNotATimeout(t *testing.T) {
	limits := clock.Limits{Startup: 10 * time.Second, Move: time.Second, Margin: 50 * time.Millisecond}
	late := &lateBeforeSend{Conn: startMemBot(t, randomMove)}
	res, _ := playConns(t, "uno", map[string]string{"target": "0", "voluntary_draw": "false"}, 3, limits,
		[]transport.Conn{late, startMemBot(t, randomMove)})
	if len(res.Forfeits) > 0 || len(res.Strikes) > 0 {
		t.Fatalf("forfeits %+v, strikes %+v; want none", res.Forfeits, res.Strikes)
	}
	if late.turns < 2 {
		t.Fatalf("the late seat had %d turns sent", late.turns)
	}
}
