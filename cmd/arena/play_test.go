package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// terminal is arena play running on a pty, read as a person reads it.
type terminal struct {
	t    *testing.T
	tty  *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	text strings.Builder
	seen int           // how far Expect has consumed text
	more chan struct{} // a signal after each read
	done chan struct{} // closed at the end of output
}

func startTerminal(t *testing.T, args ...string) *terminal {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	term := &terminal{t: t, tty: tty, cmd: cmd, more: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(term.done)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			term.mu.Lock()
			term.text.Write(buf[:n])
			term.mu.Unlock()
			select {
			case term.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		tty.Close()
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return term
}

// expect waits until the output after what was consumed matches re, and
// consumes it; the submatches are returned.
func (term *terminal) expect(re *regexp.Regexp) []string {
	term.t.Helper()
	timeout := time.NewTimer(30 * time.Second)
	defer timeout.Stop()
	for {
		term.mu.Lock()
		rest := term.text.String()[term.seen:]
		loc := re.FindStringSubmatchIndex(rest)
		term.mu.Unlock()
		if loc != nil {
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = rest[loc[2*i]:loc[2*i+1]]
				}
			}
			term.mu.Lock()
			term.seen += loc[1]
			term.mu.Unlock()
			return m
		}
		select {
		case <-term.more:
		case <-term.done:
			term.mu.Lock()
			done := term.text.String()[term.seen:]
			term.mu.Unlock()
			if !re.MatchString(done) {
				term.t.Fatalf("output ended without %v; the rest:\n%s", re, done)
			}
		case <-timeout.C:
			term.t.Fatalf("no %v within 30s; the rest:\n%s", re, rest)
		}
	}
}

func (term *terminal) typeLine(s string) {
	term.t.Helper()
	if _, err := io.WriteString(term.tty, s+"\r"); err != nil {
		term.t.Fatal(err)
	}
}

func (term *terminal) wait() int {
	term.t.Helper()
	<-term.done
	err := term.cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	} else if err != nil {
		term.t.Fatal(err)
	}
	return 0
}

var (
	promptRE = regexp.MustCompile(`choose 1-(\d+) \(v: the view as JSON, q: leave the game\): `)
	overRE   = regexp.MustCompile(`=== game over, you ranked (\d) of (\d): ([^\n]*)`)
)

// A person plays a whole Banqi game on a terminal: the board is drawn with
// its coordinates, the choices are numbered, a wrong entry is refused and
// asked again, and the game ends with the person's rank.
func TestPlayBanqiOnATerminal(t *testing.T) {
	term := startTerminal(t, "play", "--game", "banqi", "--option", "max_plies=8", "--seed", "5", "--bot", "g=arena bot greedy")
	term.expect(regexp.MustCompile(`you are seat 0 of 2 \(players by seat: you, g\)`))
	term.expect(regexp.MustCompile(`     a b c d\r?\n  8  X X X X`))
	term.expect(regexp.MustCompile(` 1  flip a8`))
	term.expect(promptRE)
	term.typeLine("0") // not a choice
	term.expect(regexp.MustCompile(`"0" is not a choice`))
	m := term.expect(promptRE)
	for turn := 1; ; turn++ {
		n, _ := strconv.Atoi(m[1])
		term.typeLine(strconv.Itoa(n)) // the last choice
		if turn == 4 {
			break // 8 plies: the person's fourth move ends the game
		}
		term.expect(regexp.MustCompile(`last move [a-d][1-8]`)) // the bot's move, shown
		m = term.expect(promptRE)
	}
	over := term.expect(overRE)
	if !strings.Contains(over[3], "max_plies 8") {
		t.Errorf("the end reads %q", over[0])
	}
	term.expect(regexp.MustCompile(`=== the match is over`))
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// In Uno the person sees their hand, as many cards as the table says they
// hold (what a seat may see is the referee's, tested with the views
// themselves); q leaves the game, a forfeit, and the bots play on.
func TestPlayUnoShowsYourHandAndLeaves(t *testing.T) {
	term := startTerminal(t, "play", "--game", "uno", "--seat", "1", "--seed", "9",
		"--bot", "a=arena bot random", "--bot", "b=arena bot greedy")
	term.expect(regexp.MustCompile(`you are seat 1 of 3 \(players by seat: a, you, b\)`))
	for range 3 {
		counts := term.expect(regexp.MustCompile(`seat 1 \(you\) to move: (\d+) cards`))
		hand := term.expect(regexp.MustCompile(`your hand: ([^\r\n]*)`))
		if n, _ := strconv.Atoi(counts[1]); len(strings.Fields(hand[1])) != n {
			t.Errorf("hand %q for %s cards", hand[1], counts[1])
		}
		term.expect(promptRE)
		term.typeLine("1")
	}
	term.expect(promptRE)
	term.typeLine("q")
	term.expect(regexp.MustCompile(`=== you left the game: that is a forfeit`))
	// The result line of the game, once the bots have played it out.
	term.expect(regexp.MustCompile(`you#3 .*\[you forfeited: crash: [^\]]*the person at the terminal left the game\]`))
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// With --timed the person is on the bots' clock: a choice not made by the
// deadline is a timeout, here a forfeit.
func TestPlayTimedIsOnTheClock(t *testing.T) {
	term := startTerminal(t, "play", "--game", "banqi", "--timed", "--move-time", "200ms", "--seed", "5", "--bot", "g=arena bot greedy")
	term.expect(promptRE) // and nothing is typed
	term.expect(regexp.MustCompile(`=== out of time for turn 1`))
	term.expect(regexp.MustCompile(`you forfeited: timeout: no reply within 200ms`))
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
