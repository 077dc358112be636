package human

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/internal/testkit"
)

// A person at a seat, in process: what they type is a reader (piped, so
// read in order and not echoed), what they read a writer. For each game
// the turn is drawn as the person sees it, what they type is refused
// with its message until a line reads as a legal action, and that
// action's index is the reply.
func TestEachGameAtTheSeat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		at    position
		typed []string
		want  int // the legal action chosen
		// lines are whole lines of the output, in this order (a refusal
		// follows its prompt on the line: piped input is not echoed).
		lines []string
	}{
		{"banqi as red: a move refused, then made", banqiAsRed, []string{"b3-b1", "b3 b4"}, 2, []string{
			"   a  b  c  d",
			"8  X  X  X  X  8    you: red (seat 1)",
			"4  X [-] X  X  4    bot0 lost: Minister",
			"3  X [M] G  X  3    face down: 14 red, 15 black",
			"1  X  X  X  X  1    N Knight  C Cannon  P Pawn",
			"bot0's red Minister moved b4-b3.",
			"Your move (you are red): flip a piece, or move or capture with one of yours.",
			"  1) a1     flip",
			"  3) b3-b4  move",
			(&banqiGame{}).prompt() + "b3-b1 is not a move: your Minister on b3 can play b3-b4.",
		}},
		{"banqi as black: a flip in words", banqiAsBlack, []string{"flip a8"}, 1, []string{
			"8  X  X  X  X  8    you: black (seat 0)",
			"5  X  X  X  X  5    you lost: Minister",
			"bot1's red Minister moved b4-b3 and took your black Minister.",
		}},
		{"banqi by number", banqiAsRed, []string{"4", "1"}, 0, []string{
			"  2) a8     flip",
			(&banqiGame{}).prompt() + "4 is not a choice: a number picks from 1 to 3.",
		}},
		{"uno: a wild needs its colour", unoOnRed2, []string{"wd4", "wd4 green"}, 3, []string{
			"Hand 1 · top card: red 2 · colour: red · draw pile 86 · clockwise",
			"In order of play: you 6 cards, bot2 6, bot0 6.",
			"Your hand (7 cards): red: 8 (r8) · yellow: 1 (y1), reverse (yr) · green: 7 (g7)",
			"  blue: 3 (b3), 8 (b8) · wild: draw four (wd4)",
			"  1) r8          red 8                    4) wd4 green   wild draw four, green",
			"  3) wd4 yellow  wild draw four, yellow   6) d           draw a card",
			(&unoGame{}).prompt() + "Name the colour: wd4 red, wd4 yellow, wd4 green or wd4 blue.",
		}},
		{"uno: an empty line, then a card", unoOnRed2, []string{"", "r8"}, 0, []string{
			(&unoGame{}).prompt() + "Type your move (? for help, q to leave).",
		}},
		{"uno: colour and face", unoOnBlue5, []string{"blue skip"}, 1, []string{
			"Hand 1 · top card: blue 5 · colour: blue · draw pile 80 · clockwise",
		}},
		{"uno: a challenge", unoToChallenge, []string{"draw", "challenge"}, 0, []string{
			"  1) c  challenge the Wild Draw Four",
			"  2) a  accept: draw 4 cards",
		}},
		{"boon: a card not held, help, then a card in words", boonTrick2, []string{"b5", "?", "gold 1"}, 5, []string{
			"Round 1 · bot3 dealt · you picked and play alone against the others",
			"        victory cards in hand tricks points",
			"  you               5       6      0      0  picker",
			"  bot3              5       5      1      0",
			"Trick 2, now: bot3 led blue 2, bot0 red 3; bot3 is winning, 0 points so far.",
			"Your hand (6 cards): green: 4 (g4), 5 (g5), 6 (g6) · red: 2 (r2), 4 (r4)",
			"  1) g4   green 4 (4 points)    4) r2   red 2 (0 points)",
			"  3) g6   green 6 (11 points)   6) au1  gold 1 (0 points)",
			(&boonGame{}).prompt() + "You hold no blue 5. Play a card to trick 2: follow blue if you can.",
			"Also: a number picks that choice, ? this help, v the view as JSON, q leave.",
		}},
		{"boon: bury", boonBurying, []string{"bury au13"}, 10, nil},
		{"boon: pass", boonPicking, []string{"pass"}, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := &testkit.SyncBuffer{}
			seat := &Seat{In: strings.NewReader(strings.Join(tc.typed, "\n") + "\n"), Out: out}
			ep, err := seat.Launch("you", bot.LaunchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			conn := ep.(bot.ConnSession).Conn
			defer conn.Close()
			players := []string{"bot0", "bot1", "bot2", "bot3"}[:seatsOf(tc.at.game)]
			players[tc.at.me] = "you"
			hello(t, conn, tc.at.game, "g0", tc.at.me, players...)
			send(t, conn, `{"type":"turn","id":7,"view":`+tc.at.view+`,"legal":`+tc.at.legal+`}`)
			reply, err := conn.Receive(time.Now().Add(10 * time.Second))
			if want := fmt.Sprintf(`{"type":"action","id":7,"index":%d}`, tc.want); err != nil || strings.TrimSuffix(string(reply), "\n") != want {
				t.Fatalf("typed %q: reply %s, %v; want %s\n%s", tc.typed, reply, err, want, out)
			}
			lines := strings.Split(out.String(), "\n")
			at := 0
			for _, want := range tc.lines {
				i := at
				for i < len(lines) && lines[i] != want {
					i++
				}
				if i == len(lines) {
					t.Fatalf("no line %q (after line %d) in:\n%s", want, at, out)
				}
				at = i + 1
			}
		})
	}
}
