package python

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/engine/banqi"
	"github.com/arena-dev/arena/engine/boon"
	"github.com/arena-dev/arena/engine/uno"
	"github.com/arena-dev/arena/internal/testkit"
)

// protoBot does what each turn's view.cmd says, and logs what the tests
// look for on stderr: "start ...", "rand ...", "clock ...", "end ...".
const protoBot = `import os
import sys
import arenabot

class Bot:
    def __init__(self):
        self.games = 0

    def start(self, ctx):
        self.games += 1
        if ctx.options.get("refuse") == "yes":
            raise arenabot.Refuse("refused by the bot")
        if ctx.options.get("start") == "raise":
            raise KeyError("start broke")
        ctx.state["turns"] = 0
        ctx.log("start game=%s seat=%d seats=%d players=%s options=%s id=%s match=%s seed=%d games=%d name=%s" % (
            ctx.game, ctx.seat, ctx.seats, ",".join(ctx.players), sorted(ctx.options.items()),
            ctx.game_id, ctx.match, ctx.seed, self.games, ctx.name))
        ctx.log("rand %r" % ctx.random.random())

    def act(self, view, legal, ctx):
        ctx.state["turns"] = ctx.state.get("turns", 0) + 1
        cmd = view.get("cmd", "")
        if cmd == "raise":
            return 1 // 0
        if cmd == "bad_index":
            return 99
        if cmd == "not_legal":
            return {"type": "nope"}
        if cmd == "none":
            return None
        if cmd == "bool":
            return True
        if cmd == "print":
            print("hello from print")
            os.system("echo hello from a sub''process")  # writes to fd 1 itself
        if cmd == "clock":
            ctx.log("clock left=%.6f move_ms=%s bank_ms=%s margin_ms=%s span=%.6f elapsed=%.6f" % (
                ctx.time_left(), ctx.move_ms, ctx.bank_ms, ctx.margin_ms,
                ctx.deadline - ctx.received, ctx.elapsed()))
        if cmd == "action":
            return dict(legal[1])
        if cmd == "state":
            ctx.log("state turns=%d turn=%s" % (ctx.state["turns"], ctx.turn))
        return len(legal) - 1

    def end(self, result, ctx):
        ctx.log("end id=%s rank=%s score=%s won=%s reason=%s view=%s" % (
            result.game_id, result.rank, result.score, result.won, result.reason,
            sorted(result.view.items()) if result.view else None))

games = tuple(sys.argv[1].split(",")) if len(sys.argv) > 1 else None
arenabot.run(Bot, name="proto-bot", version=2, games=games)
`

func hello(game string, seat int, seed int64, extra string) string {
	return fmt.Sprintf(`{"type":"hello","protocol":1,"game":%q,"options":{"max_plies":"2000","x":"y"%s},"seat":%d,"seats":2,"players":["me","them"],"match":"m1","game_id":"m1-g%04d","seed":%d,"clock":{"startup_ms":10000,"move_ms":1000,"margin_ms":50}}`,
		game, extra, seat, seed%10000, seed)
}

func turn(id int, cmd string, n int, clock string) string {
	var legal []string
	for i := range n {
		legal = append(legal, fmt.Sprintf(`{"type":"flip","square":"a%d"}`, i+1))
	}
	if clock == "" {
		clock = `{"move_ms":1000}`
	}
	return fmt.Sprintf(`{"type":"turn","id":%d,"view":{"cmd":%q},"legal":[%s],"clock":%s}`, id, cmd, strings.Join(legal, ","), clock)
}

func wantAction(t *testing.T, b *bot, id, index int) {
	t.Helper()
	line := b.recv(10 * time.Second)
	want := fmt.Sprintf(`{"type":"action","id":%d,"index":%d}`, id, index)
	if line != want {
		t.Fatalf("got %s, want %s (stderr: %s)", line, want, b.stderr)
	}
}

// TestHandshakeGamesAndBye: ready with name and version, ids echoed,
// unknown fields, message types, blank and odd lines ignored, several
// games in one process with the per-game state reset and ctx.random
// seeded from hello.seed, end reaching the hook, and a prompt exit 0 on
// bye while stdin stays open.
func TestHandshakeGamesAndBye(t *testing.T) {
	t.Parallel()
	b := startBot(t, protoBot)
	b.send(strings.Replace(hello("banqi", 0, 4242, ""), `"type":"hello"`, `"type":"hello","future":{"a":[1,2]},"note":"héllo ☃"`, 1))
	if got := b.recv(10 * time.Second); got != `{"type":"ready","name":"proto-bot","version":"2"}` {
		t.Fatalf("ready: got %s", got)
	}
	b.send(
		`{"type":"ping","id":99,"legal":[]}`, // an unknown type: no answer
		"",                                   // a blank line
		`{"type":"turn","id":7,"extra":true,"view":{"cmd":"state","new":{"z":1}},"legal":[{"type":"flip","square":"a1"},{"type":"flip","square":"a2","weird":"\u2603"}],"clock":{"move_ms":1000,"later":5}}`+"\r",
	)
	wantAction(t, b, 7, 1)
	b.send(turn(8, "state", 3, ""))
	wantAction(t, b, 8, 2)
	b.send(turn(9, "action", 3, ""))
	wantAction(t, b, 9, 1)
	b.send(`{"type":"end","game_id":"m1-g4242","ranks":[1,2],"scores":[1,0],"reason":"all 16 black pieces captured","view":{"cmd":"final"},"extra":1}`)
	b.send(`{"type":"bogus"}`, hello("banqi", 1, 777, ""))
	if got := b.recv(10 * time.Second); !strings.Contains(got, `"ready"`) {
		t.Fatalf("second ready: got %s", got)
	}
	b.send(turn(1, "state", 2, ""))
	wantAction(t, b, 1, 1)
	b.send(`{"type":"end","game_id":"m1-g0777","ranks":[1,1],"scores":[0.5,0.5],"reason":"draw: third repetition","view":{}}`)
	b.send(hello("banqi", 0, 4242, ""))
	b.recv(10 * time.Second)
	b.send(`{"type":"bye","extra":1}`)
	start := time.Now()
	code, rest := b.exit(3 * time.Second)
	if code != 0 || len(rest) > 0 {
		t.Fatalf("after bye: status %d, lines %q", code, rest)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("exited %v after bye", d)
	}
	log := b.stderr.String()
	for _, want := range []string{
		"start game=banqi seat=0 seats=2 players=me,them options=[('max_plies', '2000'), ('x', 'y')] id=m1-g4242 match=m1 seed=4242 games=1 name=me",
		"state turns=1 turn=7", "state turns=2 turn=8",
		"end id=m1-g4242 rank=1 score=1 won=True reason=all 16 black pieces captured view=[('cmd', 'final')]",
		"start game=banqi seat=1 seats=2 players=me,them", "games=2 name=them",
		"state turns=1 turn=1",
		"end id=m1-g0777 rank=1 score=0.5 won=True reason=draw: third repetition",
		"games=3",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
	rands := regexp.MustCompile(`rand (\S+)`).FindAllStringSubmatch(log, -1)
	if len(rands) != 3 || rands[0][1] != rands[2][1] || rands[0][1] == rands[1][1] {
		t.Errorf("ctx.random per game: %q, want the same value for the same seed and seat, another for another", rands)
	}
	if strings.Contains(log, "Traceback") || strings.Contains(log, "arenabot:") {
		t.Errorf("unexpected SDK messages:\n%s", log)
	}
}

// TestEndOfInput: end of input means bye.
func TestEndOfInput(t *testing.T) {
	t.Parallel()
	b := startBot(t, protoBot)
	b.send(hello("uno", 0, 1, ""))
	b.recv(10 * time.Second)
	b.stdin.Close()
	if code, rest := b.exit(3 * time.Second); code != 0 || len(rest) > 0 {
		t.Fatalf("after end of input: status %d, lines %q", code, rest)
	}
}

// TestUnknownProtocolVersion: a hello of another major version is
// answered with an error message, and the process exits non-zero.
func TestUnknownProtocolVersion(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"2", "0", `"1"`} {
		b := startBot(t, protoBot)
		b.send(strings.Replace(hello("banqi", 0, 1, ""), `"protocol":1`, `"protocol":`+v, 1))
		line := b.recv(10 * time.Second)
		var m struct{ Type, Message string }
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.Type != "error" ||
			m.Message != fmt.Sprintf("unsupported protocol version %s (this bot speaks 1)", v) {
			t.Errorf("protocol %s: got %s", v, line)
		}
		if code, rest := b.exit(3 * time.Second); code != 1 || len(rest) > 0 {
			t.Errorf("protocol %s: status %d, lines %q", v, code, rest)
		}
	}
}

// TestRefusals: Refuse in start, and a game not in run(games=...), answer
// hello with an error and exit 1.
func TestRefusals(t *testing.T) {
	t.Parallel()
	b := startBot(t, protoBot)
	b.send(hello("banqi", 0, 1, `,"refuse":"yes"`))
	if line := b.recv(10 * time.Second); line != `{"type":"error","message":"refused by the bot"}` {
		t.Errorf("Refuse: got %s", line)
	}
	if code, _ := b.exit(3 * time.Second); code != 1 {
		t.Errorf("Refuse: status %d", code)
	}
	b = startBot(t, protoBot, "uno,bounce")
	b.send(hello("banqi", 0, 1, ""))
	if line := b.recv(10 * time.Second); line != `{"type":"error","message":"this bot only plays uno, bounce, not \"banqi\""}` {
		t.Errorf("games: got %s", line)
	}
	if code, _ := b.exit(3 * time.Second); code != 1 {
		t.Errorf("games: status %d", code)
	}
}

// TestFallbacks: an exception in act, an index out of range, an action
// not in legal, None and a bool each give a clear stderr message (turn id,
// and the traceback for an exception) and a legal move; the game goes on.
// An exception in start is reported and the game is played.
func TestFallbacks(t *testing.T) {
	t.Parallel()
	b := startBot(t, protoBot)
	b.send(hello("banqi", 0, 5, `,"start":"raise"`))
	b.recv(10 * time.Second)
	cases := []struct{ cmd, says string }{
		{"raise", "act raised an exception; playing legal["},
		{"bad_index", "act returned index 99, out of range 0..4; playing legal["},
		{"not_legal", `act returned {"type": "nope"}, which is not one of the 5 legal actions; playing legal[`},
		{"none", "act returned None (return an index into legal, or one of legal); playing legal["},
		{"bool", "act returned True, a bool"},
	}
	for i, c := range cases {
		id := 3 + i
		b.send(turn(id, c.cmd, 5, ""))
		line := b.recv(10 * time.Second)
		var m struct {
			Type  string
			ID    int
			Index *int
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.Type != "action" || m.ID != id || m.Index == nil || *m.Index < 0 || *m.Index >= 5 {
			t.Fatalf("%s: answer %s is not a legal action for turn %d", c.cmd, line, id)
		}
		// The game goes on: the next turn is answered by the bot itself.
		b.send(turn(100+i, "", 4, ""))
		wantAction(t, b, 100+i, 3)
	}
	b.send(`{"type":"end","game_id":"m1-g0005","ranks":[2,1],"scores":[0,1],"reason":"r","view":{}}`, `{"type":"bye"}`)
	if code, _ := b.exit(3 * time.Second); code != 0 {
		t.Errorf("status %d", code)
	}
	log := b.stderr.String()
	for i, c := range cases {
		want := fmt.Sprintf("arenabot: game m1-g0005 turn %d: %s", 3+i, c.says)
		if !strings.Contains(log, want) {
			t.Errorf("%s: stderr lacks %q:\n%s", c.cmd, want, log)
		}
	}
	for _, want := range []string{
		"start(ctx) raised an exception; playing the game anyway\nTraceback (most recent call last):",
		"KeyError: 'start broke'",
		"turn 3: act raised an exception; playing legal[",
		"Traceback (most recent call last):", "return 1 // 0", "ZeroDivisionError: integer division or modulo by zero",
		"arenabot: game m1-g0005: 5 of 10 turns were fallback moves",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("stderr lacks %q:\n%s", want, log)
		}
	}
}

// TestClockAndPrint: ctx.time_left() is the turn's move_ms less the time
// since the turn was read, bank_ms is passed on, and print() in the bot
// goes to stderr, never to the referee.
func TestClockAndPrint(t *testing.T) {
	t.Parallel()
	b := startBot(t, protoBot)
	b.send(hello("banqi", 0, 1, ""))
	b.recv(10 * time.Second)
	b.send(turn(1, "clock", 2, `{"move_ms":2000}`))
	wantAction(t, b, 1, 1)
	b.send(turn(2, "clock", 2, `{"move_ms":300,"bank_ms":300}`))
	wantAction(t, b, 2, 1)
	b.send(turn(3, "print", 2, ""))
	wantAction(t, b, 3, 1)
	b.send(`{"type":"bye"}`)
	if code, rest := b.exit(3 * time.Second); code != 0 || len(rest) > 0 {
		t.Fatalf("status %d, lines %q", code, rest)
	}
	log := b.stderr.String()
	re := regexp.MustCompile(`clock left=(\S+) move_ms=(\S+) bank_ms=(\S+) margin_ms=(\S+) span=(\S+) elapsed=(\S+)`)
	m := re.FindAllStringSubmatch(log, -1)
	if len(m) != 2 {
		t.Fatalf("clock lines: %q\n%s", m, log)
	}
	for i, want := range []struct {
		ms   float64
		bank string
	}{{2, "None"}, {0.3, "300"}} {
		left, _ := strconv.ParseFloat(m[i][1], 64)
		span, _ := strconv.ParseFloat(m[i][5], 64)
		elapsed, _ := strconv.ParseFloat(m[i][6], 64)
		if left <= 0 || left > want.ms || left < want.ms-0.25 || span != want.ms || elapsed < 0 || elapsed > 0.25 ||
			m[i][2] != strconv.Itoa(int(want.ms*1000)) || m[i][3] != want.bank || m[i][4] != "50" {
			t.Errorf("turn %d: %s: want time_left in (%.2f, %.2f], deadline %.1f s after receipt", i+1, m[i][0], want.ms-0.25, want.ms, want.ms)
		}
	}
	for _, w := range []string{"hello from print", "hello from a subprocess"} {
		if !strings.Contains(log, w) {
			t.Errorf("%q (print() and a subprocess's stdout) not on stderr:\n%s", w, log)
		}
	}
}

// TestBotShapes: a plain function, an instance, and a module as the bot.
func TestBotShapes(t *testing.T) {
	t.Parallel()
	for name, script := range map[string]string{
		"function": "import arenabot\narenabot.run(lambda view, legal, ctx: len(legal) - 1)\n",
		"instance": "import arenabot\nclass B:\n    name = 'inst'\n    def act(self, view, legal, ctx):\n        return legal[-1]\narenabot.run(B())\n",
		"module":   "import sys, arenabot\ndef act(view, legal, ctx):\n    return len(legal) - 1\ndef end(result, ctx):\n    ctx.log('module end', result.rank)\narenabot.run(sys.modules[__name__])\n",
	} {
		b := startBot(t, script)
		b.send(hello("banqi", 0, 1, ""))
		if got := b.recv(10 * time.Second); !strings.HasPrefix(got, `{"type":"ready","name":`) {
			t.Errorf("%s: ready: %s", name, got)
		}
		b.send(turn(1, "", 3, ""))
		wantAction(t, b, 1, 2)
		b.send(`{"type":"end","game_id":"g","ranks":[2,1],"scores":[0,1],"reason":"r","view":{}}`, `{"type":"bye"}`)
		if code, _ := b.exit(3 * time.Second); code != 0 {
			t.Errorf("%s: status %d (stderr %s)", name, code, b.stderr)
		}
		if name == "module" && !strings.Contains(b.stderr.String(), "module end 2") {
			t.Errorf("module end hook not called: %s", b.stderr)
		}
	}
}

// TestTables checks the helpers' fixed tables against the engines: the
// Banqi capture ranks of both hierarchies, every Uno card and every Boon
// card.
func TestTables(t *testing.T) {
	t.Parallel()
	py := testkit.Tool(t, "python3")
	dir := kitDir(t, nil)
	cmd := exec.Command(py, "-c", `
import json, arenabot
from arenabot import banqi, uno, boon
out = {"can_take": {}, "uno": {}, "boon": {}}
for ranks in ("taiwan", "hk"):
    out["can_take"][ranks] = [[banqi.can_take(a, b, ranks) for b in banqi.LETTERS] for a in banqi.LETTERS]
    assert [[banqi.can_take(banqi.KINDS[a], banqi.KINDS[b].lower(), ranks) for b in banqi.LETTERS] for a in banqi.LETTERS] == out["can_take"][ranks]
codes = [c + f for c in "RYGB" for f in list("0123456789") + ["S", "R", "D2"]] + ["W", "WD4"]
for code in codes:
    c = uno.Card(code)
    out["uno"][code] = [c.colour or "", c.kind, -1 if c.number is None else c.number, c.points, c.is_wild]
for s, top in (("B", 6), ("G", 6), ("R", 6), ("Au", 14)):
    for r in range(1, top + 1):
        c = boon.Card(s + str(r))
        out["boon"][c.code] = [c.suit_name, c.rank, c.points, c.is_gold, c.order]
print(json.dumps(out))
`)
	cmd.Dir = dir
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	var out struct {
		CanTake map[string][][]bool `json:"can_take"`
		Uno     map[string][]any
		Boon    map[string][]any
	}
	if err := json.Unmarshal(got, &out); err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]banqi.Ranks{"taiwan": banqi.Taiwan, "hk": banqi.HK} {
		for a := range 7 {
			for b := range 7 {
				if want := banqi.CanTake(r, banqi.Type(a), banqi.Type(b)); out.CanTake[name][a][b] != want {
					t.Errorf("%s: can_take(%s, %s) = %v, engine %v", name, banqiNames[banqi.Type(a)], banqiNames[banqi.Type(b)], !want, want)
				}
			}
		}
	}
	for c := uno.Card(0); c < uno.NumKinds; c++ {
		want := norm(t, unoCard(c)[1:])
		if g := norm(t, out.Uno[c.String()]); fmt.Sprint(g) != fmt.Sprint(want) {
			t.Errorf("uno %s: %v, engine %v", c, g, want)
		}
	}
	if len(out.Uno) != uno.NumKinds {
		t.Errorf("%d uno cards, want %d", len(out.Uno), uno.NumKinds)
	}
	for c := boon.Card(0); c < boon.NumCards; c++ {
		want := norm(t, []any{c.Suit().Name(), c.Rank(), c.Points(), c.Suit() == boon.Gold, int(c)})
		if g := norm(t, out.Boon[c.String()]); fmt.Sprint(g) != fmt.Sprint(want) {
			t.Errorf("boon %s: %v, engine %v", c, g, want)
		}
	}
	if len(out.Boon) != boon.NumCards {
		t.Errorf("%d boon cards, want %d", len(out.Boon), boon.NumCards)
	}
}
