package human

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
)

// terminal is what a session prints, as a terminal shows it: a line the
// person types is echoed after the prompt, and the screen is the last
// screenRows rows of it all.
type terminal struct {
	t     *testing.T
	mu    sync.Mutex
	text  strings.Builder
	wrote chan struct{} // a signal after each write
	keys  *io.PipeWriter
}

func (term *terminal) Write(p []byte) (int, error) {
	term.mu.Lock()
	term.text.Write(p)
	term.mu.Unlock()
	select {
	case term.wrote <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (term *terminal) String() string {
	term.mu.Lock()
	defer term.mu.Unlock()
	return term.text.String()
}

// waitPrompt waits until the n-th prompt (from 1) is shown.
func (term *terminal) waitPrompt(n int, prompt string) {
	term.t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for strings.Count(term.String(), prompt) < n {
		select {
		case <-term.wrote:
		case <-timeout.C:
			term.t.Fatalf("no prompt %d within 10s:\n%s", n, term.String())
		}
	}
}

// typeLine types line at the prompt shown, echoing it as a terminal does.
func (term *terminal) typeLine(line string) {
	term.Write([]byte(line + "\n"))
	if _, err := io.WriteString(term.keys, line+"\n"); err != nil {
		term.t.Error(err)
	}
}

// screen is the rows a terminal of screenRows rows shows: the last of
// them is the cursor's.
func (term *terminal) screen() []string {
	var rows []string
	for _, l := range strings.Split(term.String(), "\n") {
		for utf8.RuneCountInString(l) > screenCols {
			rows = append(rows, string([]rune(l)[:screenCols]))
			l = string([]rune(l)[screenCols:])
		}
		rows = append(rows, l)
	}
	return rows[max(len(rows)-screenRows, 0):]
}

// seatAt seats a person at a terminal, in a session the test drives as
// the referee would (Send, Receive).
func seatAt(t *testing.T, results bool) (*Seat, *terminal, transport.Conn) {
	t.Helper()
	keys, typed := io.Pipe()
	term := &terminal{t: t, wrote: make(chan struct{}, 1), keys: typed}
	seat := &Seat{In: keys, Out: term, Results: results}
	ep, err := seat.Launch("you", bot.LaunchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conn := ep.(bot.ConnSession).Conn
	t.Cleanup(func() {
		conn.Close()
		typed.Close()
	})
	return seat, term, conn
}

func send(t *testing.T, conn transport.Conn, line string) {
	t.Helper()
	if err := conn.Send([]byte(line), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
}

// hello begins game id for the person at seat me of players; the
// session answers ready.
func hello(t *testing.T, conn transport.Conn, game, id string, me int, players ...string) {
	t.Helper()
	if err := helloErr(conn, game, id, me, players...); err != nil {
		t.Fatal(err)
	}
}

// helloErr is hello for another goroutine than the test's: it says what
// went wrong instead of failing the test.
func helloErr(conn transport.Conn, game, id string, me int, players ...string) error {
	line := fmt.Sprintf(`{"type":"hello","game":%q,"seat":%d,"seats":%d,"players":["%s"],"game_id":%q}`,
		game, me, len(players), strings.Join(players, `","`), id)
	if err := conn.Send([]byte(line), time.Now().Add(time.Minute)); err != nil {
		return err
	}
	if reply, err := conn.Receive(time.Now().Add(time.Minute)); err != nil || !strings.Contains(string(reply), "ready") {
		return fmt.Errorf("hello answered %s, %v", reply, err)
	}
	return nil
}

// Refused moves never push the board off the screen: however many the
// person types, the board's top rows stay on the 24 rows of the
// terminal, with the last refusal under them.
func TestRefusalsKeepTheBoardOnScreen(t *testing.T) {
	_, term, conn := seatAt(t, false)
	hello(t, conn, "banqi", "g0", 1, "bot0", "you")
	send(t, conn, `{"type":"turn","id":1,"view":`+banqiRed+`,"legal":`+banqiLegal+`}`)
	replied := make(chan string, 1)
	go func() {
		reply, err := conn.Receive(time.Now().Add(time.Minute))
		replied <- fmt.Sprint(string(reply), err)
	}()
	prompt := (&banqiGame{}).prompt()
	refused := []string{"zz", "e9", "b3-b1", "c3", "a3-a4", "hello", "x1", "", "c3-c2", "b4"}
	for i, entry := range refused {
		term.waitPrompt(i+1, prompt)
		term.typeLine(entry)
		term.waitPrompt(i+2, prompt) // the refusal is shown
		screen := strings.Join(term.screen(), "\n")
		if !strings.Contains(screen, "   a  b  c  d") || !strings.Contains(screen, "8  X  X  X  X  8") {
			t.Fatalf("after %d refused entries the board's top is off the screen:\n%s", i+1, screen)
		}
	}
	if screen := strings.Join(term.screen(), "\n"); !strings.Contains(screen, "b4 is empty") {
		t.Fatalf("the last refusal is not on the screen:\n%s", screen)
	}
	term.typeLine("a1")
	if reply := <-replied; !strings.Contains(reply, `"index":0`) {
		t.Fatalf("a1 answered %s", reply)
	}
}

// Leaving says what comes of it: the other player wins, or the others
// play on; once, as a sentence on the screen.
func TestLeavingSaysWhoWins(t *testing.T) {
	for _, tc := range []struct {
		name, game, view, legal string
		players                 []string
		typed, want             string
	}{
		{"two players", "banqi", banqiRed, banqiLegal, []string{"bot0", "you"}, "q", "=== You left the game, a forfeit: bot0 wins."},
		{"three", "uno", unoView, unoLegal, []string{"bot0", "you", "bot2"}, "quit", "=== You left the game, a forfeit; the others play on without you."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, term, conn := seatAt(t, false)
			hello(t, conn, tc.game, "g0", 1, tc.players...)
			send(t, conn, `{"type":"turn","id":1,"view":`+tc.view+`,"legal":`+tc.legal+`}`)
			prompt := newGame(tc.game, names{}).prompt()
			left := make(chan error, 1)
			go func() {
				_, err := conn.Receive(time.Now().Add(time.Minute))
				left <- err
			}()
			term.waitPrompt(1, prompt)
			term.typeLine(tc.typed)
			if err := <-left; !errors.Is(err, transport.ErrLeft) {
				t.Fatalf("%s: %v, want ErrLeft", tc.typed, err)
			}
			text := term.String()
			if !strings.Contains(text, tc.want+"\n") || strings.Count(text, "forfeit") != 1 {
				t.Fatalf("want %q, and one forfeit said, in:\n%s", tc.want, text)
			}
		})
	}
}

// With Results, how a game ended (GameOver) is shown before the next
// game's first screen, however late it is told: the next game waits.
// A result never told holds the next game up for at most half the time
// to its hello's deadline.
func TestResultsComeBeforeTheNextGame(t *testing.T) {
	seat, term, conn := seatAt(t, true)
	hello(t, conn, "banqi", "g0", 0, "you", "bot1")
	send(t, conn, `{"type":"end","game_id":"g0","ranks":[2,1],"scores":[0,1],"reason":"red has no legal move","view":`+banqiView+`}`)
	began := make(chan struct{})
	var helloFailed error
	go func() {
		defer close(began)
		helloFailed = helloErr(conn, "banqi", "g1", 1, "bot1", "you")
	}()
	select {
	case <-began:
		t.Fatalf("game g1 began before g0's result was told:\n%s", term.String())
	case <-time.After(100 * time.Millisecond): // g1 waits for it, however long
	}
	seat.GameOver("g0", []string{"=== Game 1 of 2 over: bot1 won."})
	<-began
	if helloFailed != nil {
		t.Fatal(helloFailed)
	}
	text := term.String()
	if over, next := strings.Index(text, "=== Game 1 of 2 over"), strings.Index(text, "=== banqi, game g1"); over < 0 || next < over {
		t.Fatalf("g0's result is not shown before g1 begins:\n%s", text)
	}

	// No result for g1: g2 begins anyway, once half the time to its
	// hello's deadline has passed (else this would wait for ever).
	if err := conn.Send([]byte(`{"type":"hello","game":"banqi","seat":0,"seats":2,"players":["you","bot1"],"game_id":"g2"}`), time.Now().Add(200*time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(term.String(), "=== banqi, game g2") {
		t.Fatalf("g2 did not begin:\n%s", term.String())
	}
}
