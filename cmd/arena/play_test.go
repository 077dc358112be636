package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/human"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/output"
	"github.com/arena-dev/arena/protocol"
)

// terminal is arena play running on an 80x24 pty, read as a person
// reads it.
type terminal struct {
	t    *testing.T
	tty  *os.File
	cmd  *exec.Cmd
	mu   sync.Mutex
	text strings.Builder
	seen int           // how far expect has consumed text
	more chan struct{} // a signal after each read
	done chan struct{} // closed at the end of output
}

// The terminal a person plays on.
const (
	termRows = 24
	termCols = 80
)

func startTerminal(t *testing.T, args ...string) *terminal {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: termRows, Cols: termCols})
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

// screen waits for re and returns what was printed from the line after
// the one the cursor was on (what the person typed) to the end of re's
// match, failing unless it fits the terminal: no line wider than it, at
// most as many lines as it has. first starts at the game's banner
// instead (the arena's own lines before it are not the game's).
func (term *terminal) screen(re *regexp.Regexp, first bool) string {
	term.t.Helper()
	term.mu.Lock()
	start := term.seen
	term.mu.Unlock()
	term.expect(re)
	term.mu.Lock()
	chunk := strings.ReplaceAll(term.text.String()[start:term.seen], "\r", "")
	term.mu.Unlock()
	if first {
		banner := strings.Index(chunk, "\n=== ")
		if banner < 0 {
			term.t.Fatalf("no game's banner before %v:\n%s", re, chunk)
		}
		chunk = chunk[banner:]
	}
	lines := strings.Split(chunk, "\n")[1:]
	if len(lines) > termRows {
		term.t.Fatalf("%d lines, more than a %dx%d terminal shows:\n%s", len(lines), termCols, termRows, strings.Join(lines, "\n"))
	}
	for _, l := range lines {
		if utf8.RuneCountInString(l) > termCols {
			term.t.Fatalf("a line of %d columns, wider than the terminal:\n%s\nin:\n%s", utf8.RuneCountInString(l), l, strings.Join(lines, "\n"))
		}
	}
	return strings.Join(lines, "\n")
}

// visible is what the terminal shows now: the last termRows rows of
// all it printed (a line wider than the terminal takes more than one),
// the last of them the cursor's.
func (term *terminal) visible() string {
	term.mu.Lock()
	text := strings.ReplaceAll(term.text.String(), "\r", "")
	term.mu.Unlock()
	var rows []string
	for _, l := range strings.Split(text, "\n") {
		for utf8.RuneCountInString(l) > termCols {
			rows = append(rows, string([]rune(l)[:termCols]))
			l = string([]rune(l)[termCols:])
		}
		rows = append(rows, l)
	}
	return strings.Join(rows[max(len(rows)-termRows, 0):], "\n")
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
	return exitCode(term.t, term.cmd.Wait())
}

// mustContain fails unless screen holds each of want, read as wrapped
// text (a sentence may be broken across lines).
func mustContain(t *testing.T, screen string, want ...string) {
	t.Helper()
	flat := strings.Join(strings.Fields(screen), " ")
	for _, w := range want {
		if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
			t.Fatalf("no %q on the screen:\n%s", w, screen)
		}
	}
}

// leftRecorded checks results.jsonl in out: the game's one forfeit is
// the person's, for leaving, as how says.
func leftRecorded(t *testing.T, out, how string) {
	t.Helper()
	recs := ledgerOf(t, out)
	if len(recs) != 1 || len(recs[0].Forfeits) != 1 {
		t.Fatalf("want one game with one forfeit, got %+v", recs)
	}
	f := recs[0].Forfeits[0]
	if f.Bot != human.Name || f.Reason != protocol.ReasonLeft || !strings.Contains(f.Detail, how) {
		t.Fatalf("forfeit %+v, want %s's, %q, saying %q", f, human.Name, protocol.ReasonLeft, how)
	}
}

// playSecret is a deal secret in a directory of its own, so that a
// test's --seed deals the same cards every run (--deal-secret).
func playSecret(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), deal.FileName)
	if err := os.WriteFile(path, []byte(strings.Repeat("0", 62)+"24\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	banqiPrompt = regexp.MustCompile(`Your move \(b3 flips, b3-b4 moves; \? help, q leave\): `)
	unoPrompt   = regexp.MustCompile(`Your move \(r7, w green, d; \? help, q leave\): `)
	boonPrompt  = regexp.MustCompile(`Your move \(t, p, or a card: b5, au14; \? help, q leave\): `)
	// The end of a game, as arena play tells it: who won, and why (its
	// first line).
	gameOverRE = regexp.MustCompile(`=== Game (?:\d+ of \d+ )?over: [^\r\n]*`)
	// A move or capture listed in a choice, and a square to flip.
	listedMoveRE = regexp.MustCompile(`(?:\d\) |Move: |Capture: )([a-d][1-8])-([a-d][1-8])`)
	listedFlipRE = regexp.MustCompile(`\d\) ([a-d][1-8]) +flip|e\.g\. ([a-d][1-8])\)|Flip: ([a-d][1-8])`)
)

// A person plays a whole Banqi game on an 80x24 terminal: every turn's
// screen fits it, with the board and its coordinates; moves are typed
// as squares (flip b3, b3 b4); a bad one is refused saying why, and
// asked again; ? shows the legend over the board; the end fits too.
func TestPlayBanqiOnATerminal(t *testing.T) {
	term := startTerminal(t, "play", "--game", "banqi", "--option", "max_plies=16", "--seed", "5", "--deal-secret", playSecret(t),
		"--bot", "g=arena bot greedy")
	screen := term.screen(banqiPrompt, true)
	mustContain(t, screen, "You are seat 0 of 2. Players by seat: 0 you, 1 g.",
		"   a  b  c  d", "8  X  X  X  X  8", "1  X  X  X  X  1", "Flip: any of the 32 face-down squares")
	term.typeLine("e5")
	mustContain(t, term.screen(banqiPrompt, false), "e5 is not a square: the board runs from a1 to d8.")
	// Mistakes never push the board off the screen.
	for _, bad := range []struct{ typed, refusal string }{
		{"x1", "x1 is not a square"}, {"zz", `Cannot read "zz"`}, {"", "Type your move"}, {"b3-b4", "b3-b4 is not a move"},
		{"hello there", `Cannot read "hello there"`}, {"c9", "c9 is not a square"}, {"a1-a2", "a1-a2 is not a move"}, {"flip", `Cannot read "flip"`},
	} {
		term.typeLine(bad.typed)
		mustContain(t, term.screen(banqiPrompt, false), bad.refusal)
		if shown := term.visible(); !strings.Contains(shown, "   a  b  c  d\n8  X  X  X  X  8") {
			t.Fatalf("after typing %q the board's top is off the screen:\n%s", bad.typed, shown)
		}
	}
	term.typeLine("?")
	mustContain(t, term.screen(banqiPrompt, false), "Captures: an adjacent enemy", "   a  b  c  d", "8  X  X  X  X  8")
	term.typeLine("flip b3")
	screen = term.screen(banqiPrompt, false)
	mustContain(t, screen, "You flipped b3: a ", "g flipped ")
	term.typeLine("b3")
	mustContain(t, term.screen(banqiPrompt, false), "b3 is face up")
	// max_plies 16: the person's eighth action is their last. They flip
	// until a move is listed, type it as two squares, and see it made.
	const last = 8
	moved, seen := "", false
	for turn := 2; turn <= last; turn++ {
		if m := listedMoveRE.FindStringSubmatch(screen); m != nil && moved == "" {
			term.typeLine(m[1] + " " + m[2])
			moved = m[1] + "-" + m[2]
		} else if m := listedFlipRE.FindStringSubmatch(screen); m != nil {
			term.typeLine("flip " + m[1] + m[2] + m[3])
		} else {
			t.Fatalf("neither a move nor a flip listed:\n%s", screen)
		}
		if turn == last {
			break
		}
		screen = term.screen(banqiPrompt, false)
		if moved != "" && !seen {
			mustContain(t, screen, "Your ", " moved "+moved)
			seen = true
		}
	}
	if moved == "" {
		t.Fatalf("no move was listed in %d turns", last)
	}
	end := term.screen(gameOverRE, false)
	mustContain(t, end, "=== Game over: a draw. Draw: max_plies 16 reached.", "   a  b  c  d")
	if !seen {
		mustContain(t, end, "Your ", " moved "+moved)
	}
	term.expect(regexp.MustCompile(`=== the match is over`))
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// In Uno the person reads the table, their hand and what the others did
// in words, with the codes to type; plays a card by name; a card they do
// not hold, or one that does not match, is refused; ? shows the card
// notation; the end of their input (Ctrl-D) leaves the game, recorded
// as "left", and the bots play on.
func TestPlayUnoOnATerminal(t *testing.T) {
	out := t.TempDir()
	term := startTerminal(t, "play", "--game", "uno", "--seat", "1", "--seed", "9", "--deal-secret", playSecret(t), "--out", out,
		"--bot", "a=arena bot random", "--bot", "b=arena bot greedy")
	screen := term.screen(unoPrompt, true)
	mustContain(t, screen, "Players by seat: 0 a, 1 you, 2 b", "Hand 1 · top card: green 8 · colour: green",
		"In order of play: you 7 cards, b 7, a 7.", "Hand 1: a deals.", "The first card is a green 8.",
		"Your hand (7 cards): red: 8 (r8) · yellow: 5 (y5), reverse (yr)",
		"Your turn: play a green card, an 8 or a wild, or draw (d).", "1) r8  red 8", "4) d   draw a card")
	term.typeLine("y9")
	mustContain(t, term.screen(unoPrompt, false), "You hold no yellow 9. Your turn: play a green card")
	term.typeLine("y5")
	mustContain(t, term.screen(unoPrompt, false), "Yellow 5 cannot be played now.")
	term.typeLine("?")
	mustContain(t, term.screen(unoPrompt, false), "Cards: colour (r y g b) and face", "Your hand (7 cards)", "1) r8  red 8")
	term.typeLine("green 9")
	mustContain(t, term.screen(unoPrompt, false), "You played green 9.", "Your hand (6 cards)")
	if _, err := io.WriteString(term.tty, "\x04"); err != nil { // Ctrl-D: the end of input
		t.Fatal(err)
	}
	// Said once, in sentences that fit: the person left, and the game
	// went on without them.
	end := term.screen(gameOverRE, false)
	mustContain(t, end, "=== Your input ended, so you left the game, a forfeit; the others play on without you.",
		"=== Game over: b 1st, a 2nd, you 3rd.")
	if n := strings.Count(end, "forfeit"); n != 1 {
		t.Fatalf("the forfeit is said %d times:\n%s", n, end)
	}
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	leftRecorded(t, out, "their input ended")
}

// In Boon the person reads the table (victory cards, cards, tricks and
// points by seat) and their hand; takes the Boon and buries a card by
// name; a card when none is asked for is refused; ? shows the cards and
// their points; q leaves, recorded as "left".
func TestPlayBoonOnATerminal(t *testing.T) {
	out := t.TempDir()
	term := startTerminal(t, "play", "--game", "boon", "--seat", "1", "--seed", "9", "--deal-secret", playSecret(t), "--out", out,
		"--bot", "a=arena bot random", "--bot", "b=arena bot greedy", "--bot", "c=arena bot greedy")
	screen := term.screen(boonPrompt, true)
	mustContain(t, screen, "Round 1 · a dealt · who takes the Boon (4 cards)?", "victory cards in hand tricks points",
		"Your hand (7 cards): blue: 4 (b4) · green: 2 (g2), 3 (g3), 6 (g6)",
		"Take the Boon (4 cards, unseen) and play alone against the others (t), or pass (p)?", "1) t  take the Boon")
	term.typeLine("au2")
	mustContain(t, term.screen(boonPrompt, false), "No card is asked for now. Take the Boon")
	term.typeLine("take")
	mustContain(t, term.screen(boonPrompt, false), "you picked and play alone", "You took the Boon.",
		"The Boon you took: blue 3, red 6, gold 7 and gold 9.", "Bury 4 more cards", "Bury any of: b3 b4 g2")
	term.typeLine("?")
	mustContain(t, term.screen(boonPrompt, false), "Cards: b blue, g green, r red 1-6", "victory cards from each other seat", "Round 1 ·", "Your hand (11 cards)")
	term.typeLine("bury blue 4")
	mustContain(t, term.screen(boonPrompt, false), "you buried: blue 4.", "You buried a card.", "Bury 3 more cards")
	term.typeLine("q")
	mustContain(t, term.screen(gameOverRE, false), "=== You left the game, a forfeit; the others play on without you.", "=== Game over: ")
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	leftRecorded(t, out, "typed q")
}

// With --timed the person is on the bots' clock: a choice not made by the
// deadline is a timeout, here a forfeit.
func TestPlayTimedIsOnTheClock(t *testing.T) {
	term := startTerminal(t, "play", "--game", "banqi", "--timed", "--move-time", "200ms", "--seed", "5", "--bot", "g=arena bot greedy")
	term.expect(banqiPrompt) // and nothing is typed
	term.expect(regexp.MustCompile(`=== out of time for turn 1`))
	term.expect(regexp.MustCompile(`You forfeited: timeout: no reply within 200ms`))
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// Piped in (a script, not a terminal), every line is read in order,
// none dropped as typed ahead: a move in notation, a bad one, a number;
// the end of the input leaves the game.
func TestPlayPipedReadsEveryLine(t *testing.T) {
	out := t.TempDir()
	cmd := exec.Command(os.Args[0], "play", "--game", "banqi", "--seed", "5", "--deal-secret", playSecret(t), "--out", out,
		"--bot", "g=arena bot greedy")
	cmd.Stdin = strings.NewReader("b3\nzz\n1\n")
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	text := string(stdout)
	mustContain(t, text, "You flipped b3: a ", `Cannot read "zz".`, "You flipped a8: a ", "=== Your input ended, so you left the game, a forfeit: g wins.", "=== Game over: g won.")
	if strings.Contains(text, "dropped") {
		t.Fatalf("piped lines were dropped:\n%s", text)
	}
	leftRecorded(t, out, "their input ended")
	if _, err := os.Stat(filepath.Join(out, "results.jsonl")); err != nil {
		t.Fatal(err)
	}
}

// With more games, each game's end is told before the next begins, in
// sentences that fit the terminal; leaving a two-player game says who
// wins, once; the match ends with a short summary, every line of it
// within the terminal too.
func TestPlayGamesEndInOrder(t *testing.T) {
	// --out: each game's record is then made durable before it is told,
	// while the next game may begin.
	term := startTerminal(t, "play", "--game", "banqi", "--games", "2", "--seed", "5", "--deal-secret", playSecret(t),
		"--out", t.TempDir(), "--bot", "g=arena bot greedy")
	for game := 1; game <= 2; game++ {
		term.screen(banqiPrompt, game == 1)
		term.typeLine("q")
		end := term.screen(gameOverRE, false)
		mustContain(t, end, "=== You left the game, a forfeit: g wins.", fmt.Sprintf("=== Game %d of 2 over: g won.", game))
		if strings.Contains(end, "=== banqi, game") || strings.Count(end, "forfeit") != 1 {
			t.Fatalf("game %d: its end is not told once, before the next game:\n%s", game, end)
		}
	}
	summary := term.screen(regexp.MustCompile(`Results: [^\r\n]*results\.jsonl`), false)
	mustContain(t, summary, "=== After 2 games:", "you: 0 wins, 0 draws and 2 losses (2 forfeits).", "g: 2 wins, 0 draws and 0 losses.")
	if code := term.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}

// The end of a game of arena play is a few short sentences: who won and
// why; each forfeit but the person's leaving (said as they left), with
// a bot's own name as given.
func TestGameOverText(t *testing.T) {
	for _, tc := range []struct {
		name  string
		r     ledger.Record
		total int
		want  []string
	}{
		{"draw", ledger.Record{Bots: []string{"you", "g"}, Ranks: []int{1, 1}, Reason: "draw: max_plies 16 reached"}, 1,
			[]string{"=== Game over: a draw. Draw: max_plies 16 reached."}},
		{"the person left", ledger.Record{Index: 1, Bots: []string{"g", "you"}, Ranks: []int{1, 2}, Reason: "you (seat 1) forfeited: left",
			Forfeits: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: protocol.ReasonLeft, Detail: "the player left the game (typed q)"}, Bot: "you"}}}, 3,
			[]string{"=== Game 2 of 3 over: g won."}},
		{"a bot crashed", ledger.Record{Bots: []string{"you", "g"}, Ranks: []int{1, 2}, Reason: "g (seat 1) forfeited: crash",
			Forfeits: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: protocol.ReasonCrash, Detail: "exited with status 1"}, Bot: "g", StderrLast: "boom"}}}, 1,
			[]string{"=== Game over: you won.", `g forfeited: crash: exited with status 1; its stderr ends with "boom" (--out DIR keeps each bot's whole stderr).`}},
		{"the person timed out, the others played on", ledger.Record{Bots: []string{"a", "you", "b"}, Ranks: []int{2, 3, 1}, Reason: "seat 2 reached 500 points after 1 hand",
			Forfeits: []ledger.SeatFailure{{Failure: protocol.Failure{Seat: 1, Reason: protocol.ReasonTimeout, Detail: "no reply within 1s"}, Bot: "you"}}}, 1,
			[]string{"=== Game over: b 1st, a 2nd, you 3rd. Seat 2 (b) reached 500 points after 1 hand.", "You forfeited: timeout: no reply within 1s."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := output.GameOverText(tc.r, tc.total, human.Name, false); !slices.Equal(got, tc.want) {
				t.Fatalf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

// One game, one ply: no "1 games", no "1 plies", for arena match and
// arena play alike.
func TestOneIsSingular(t *testing.T) {
	r := ledger.Record{GameID: "g0", Bots: []string{"a", "b"}, Ranks: []int{1, 2}, Plies: 1, Reason: "b resigned"}
	if line := output.GameLine(r, 1, false); !strings.Contains(line, ", 1 ply, ") {
		t.Errorf("progress line %q, want 1 ply", line)
	}
	sum := match.NewSummary([]string{"a", "b"})
	sum.Add(r)
	var b strings.Builder
	output.Summary(&b, sum, time.Second)
	if !strings.Contains(b.String(), "1 game in 1s") {
		t.Errorf("summary %q, want 1 game in", b.String())
	}
	if got := output.PlaySummary(sum)[0]; got != "=== After 1 game:" {
		t.Errorf("play's summary begins %q", got)
	}
}
