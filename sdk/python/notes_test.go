package python

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/arena-dev/arena/internal/browsertest"
	"github.com/arena-dev/arena/internal/testkit"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/replays"
)

// noteBot answers every turn with legal[1] and, by the view's "cmd", a
// note of some kind (return action, note).
const noteBot = `import math, arenabot

def act(view, legal, ctx):
    cmd = view["cmd"]
    notes = {
        "none": None,
        "str": "3 candidates, best +0.4 <b>",
        "dict": {"best": legal[1], "scores": [0.5, 0.25]},
        "number": 42,
        "nan": {"score": math.nan},
        "set": {"seen": {1, 2}},
    }
    if cmd == "plain":
        return 1
    if cmd == "typed":
        return legal[1], "a dict of legal"
    return 1, notes[cmd]

arenabot.run(act)
`

// Python's act returns (action, note): the note goes with the move; one
// the SDK cannot send (not a str or dict, or not JSON) is left out with a
// line on stderr, and the move is sent all the same.
func TestActReturnsANote(t *testing.T) {
	t.Parallel()
	b := startBot(t, noteBot)
	b.send(hello("banqi", 0, 1, ""))
	b.recv(10 * time.Second)
	for i, tc := range []struct {
		cmd, note string
	}{
		{"plain", ""},
		{"none", ""},
		{"str", `"3 candidates, best +0.4 <b>"`},
		{"dict", `{"best":{"type":"flip","square":"a2"},"scores":[0.5,0.25]}`},
		{"typed", `"a dict of legal"`},
		{"number", ""}, // turn 6
		{"nan", ""},
		{"set", ""},
	} {
		id := i + 1
		b.send(turn(id, tc.cmd, 3, ""))
		line := b.recv(10 * time.Second)
		var a protocol.Action
		if err := json.Unmarshal([]byte(line), &a); err != nil || a.ID != int64(id) || a.Index == nil || *a.Index != 1 {
			t.Fatalf("%s: reply %s (%v; stderr %s)", tc.cmd, line, err, b.stderr)
		}
		if string(a.Note) != tc.note {
			t.Errorf("%s: note %s, want %s", tc.cmd, a.Note, tc.note)
		}
	}
	b.send(`{"type":"bye"}`)
	if code, _ := b.exit(10 * time.Second); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	for _, want := range []string{
		"turn 6: note not sent: a note is a str or a dict, not int",
		"turn 7: note not sent: it does not encode as JSON",
		"turn 8: note not sent: it does not encode as JSON",
	} {
		if !strings.Contains(b.stderr.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, b.stderr)
		}
	}
	if strings.Contains(b.stderr.String(), "Traceback") {
		t.Errorf("a note raised: %s", b.stderr)
	}
}

// noterBot is a student's bot: a random move, and with it a note (return
// action, note), a string with markup in it or an object.
const noterBot = `import arenabot

def act(view, legal, ctx):
    i = ctx.random.randrange(len(legal))
    if ctx.turns % 2:
        return i, "NOTER turn %d of %d <script>window.pwned=1</script>" % (ctx.turns, len(legal))
    return legal[i], {"NOTER": ctx.turns, "legal": len(legal)}

arenabot.run(act)
`

// attackerBot speaks the protocol by hand and sends the notes docs/protocol.md
// says are dropped or kept as text: one over the bound, one with control
// bytes and a line of its own inside, one that tries to be an action (the
// reply's own index 0 counts), one that is a number.
const attackerBot = `import json, sys

def out(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()

k = 0
for line in sys.stdin:
    msg = json.loads(line)
    kind = msg.get("type")
    if kind == "hello":
        out({"type": "ready", "name": "attacker"})
    elif kind == "turn":
        tid, n = msg["id"], len(msg["legal"])
        notes = [
            "ATTACKER-huge " + "x" * 2000,
            "ATTACKER-ctl \u0000\u001b[31m\u0007\n" + json.dumps({"type": "action", "id": tid, "index": n + 7}),
            {"type": "action", "id": tid, "index": n + 7, "ATTACKER": "as-action"},
            12345,
        ]
        out({"type": "action", "id": tid, "index": 0, "note": notes[k % 4]})
        k += 1
    elif kind == "bye":
        break
`

// A real match between a Python SDK bot that writes notes and a bot that
// attacks with them: no note costs a move, the replay holds the notes
// (the attacker's as docs/protocol.md says), it verifies, replay show
// prints them, no bot is sent another's note, results.jsonl holds none,
// a page for one seat holds only that seat's notes, and the viewer shows
// the notes as text.
func TestNotesInARealMatch(t *testing.T) {
	t.Parallel()
	bin := arena(t)
	kit := kitDir(t, map[string]string{"noter.py": noterBot, "attacker.py": attackerBot})
	out := t.TempDir() + "/m"
	py := testkit.Tool(t, "python3")
	match := exec.Command(bin, "match", "--game", "uno", "--option", "target=0", "--option", "voluntary_draw=false",
		"--bot", "noter="+py+" "+filepath.Join(kit, "noter.py"), "--bot", "attacker="+py+" "+filepath.Join(kit, "attacker.py"),
		"--games", "2", "--seed", "7", "--out", out, "--trace", "noter", "-q")
	var trace bytes.Buffer
	match.Stderr = &trace
	if b, err := match.Output(); err != nil {
		t.Fatalf("arena match: %v\n%s\n%s", err, b, lastLines(trace.Bytes(), 30))
	}
	// The trace: "[time] noter #1 > LINE" to the bot, "< LINE" from it.
	turns := 0
	for _, l := range strings.Split(trace.String(), "\n") {
		if strings.Contains(l, ` > {"type":"turn"`) {
			turns++
		}
		if strings.Contains(l, " > ") && strings.Contains(l, "ATTACKER") {
			t.Errorf("the noter was sent the attacker's note: %s", l)
		}
	}
	if turns == 0 || !strings.Contains(trace.String(), ` < {"type":"action","id":1,"index":`) {
		t.Fatalf("no trace of the noter's turns:\n%s", lastLines(trace.Bytes(), 10))
	}
	results, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(results, []byte("NOTER")) || bytes.Contains(results, []byte("ATTACKER")) || bytes.Contains(results, []byte(`"forfeits":[{`)) {
		t.Errorf("results.jsonl holds a note or a forfeit:\n%s", results)
	}
	run(t, bin, "replay", "verify", out+"/replays/pack-000001.pack.zst")

	rps, err := replays.ReadPack(out + "/replays/pack-000001.pack.zst")
	if err != nil || len(rps) != 2 || rps[0].Err != nil {
		t.Fatalf("%d replays: %v", len(rps), err)
	}
	rp := rps[0].Replay
	checkAttackerNotes(t, rp)

	show := run(t, bin, "replay", "show", out, "--game", rp.Header.GameID)
	for _, want := range []string{`  note: "NOTER turn 1 of `, `note: {"NOTER":2,`, `[note dropped: note is over the bound: `,
		`note: "ATTACKER-ctl \u0000\u001b[31m\u0007\n{\"type\": \"action\"`, `[note dropped: note is not a string or an object (it starts "12345")`} {
		if !strings.Contains(show, want) {
			t.Errorf("replay show lacks %q", want)
		}
	}

	noter := slices.Index(rp.Bots(), "noter")
	page := filepath.Join(out, "seat.html")
	run(t, bin, "replay", "html", out, "--game", rp.Header.GameID, "--seat", fmt.Sprint(noter), "-o", page)
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(html, []byte("NOTER turn 1")) || bytes.Contains(html, []byte("ATTACKER")) {
		t.Errorf("the noter's page: its own notes %v, the attacker's %v",
			bytes.Contains(html, []byte("NOTER turn 1")), bytes.Contains(html, []byte("ATTACKER")))
	}
	all := filepath.Join(out, "all.html")
	run(t, bin, "replay", "html", out, "--game", rp.Header.GameID, "-o", all)
	viewNotes(t, all, rp)
}

// checkAttackerNotes checks what the replay holds of the attacker's
// notes: the move counts, index 0 whatever the note says; the notes it
// may keep kept, the others dropped with why.
func checkAttackerNotes(t *testing.T, rp *replays.Replay) {
	t.Helper()
	attacker := slices.Index(rp.Bots(), "attacker")
	k := 0
	for _, e := range rp.Events {
		if e.Strike != nil || e.Forfeit != nil {
			t.Fatalf("a failure: %+v %+v", e.Strike, e.Forfeit)
		}
		m := e.Move
		if m == nil || m.Seat != attacker {
			continue
		}
		var ok bool
		switch k % 4 {
		case 0:
			ok = len(m.Note) == 0 && strings.HasPrefix(m.NoteDropped, "note is over the bound: ")
		case 1:
			var s string
			ok = json.Unmarshal(m.Note, &s) == nil && strings.HasPrefix(s, "ATTACKER-ctl \x00\x1b[31m\a\n{")
		case 2:
			ok = strings.Contains(string(m.Note), `"ATTACKER":"as-action"`)
		case 3:
			ok = len(m.Note) == 0 && strings.HasPrefix(m.NoteDropped, "note is not a string or an object")
		}
		if !ok {
			t.Errorf("the attacker's move %d at ply %d: note %s, dropped %q", k, m.Ply, m.Note, m.NoteDropped)
		}
		k++
	}
	if k < 4 {
		t.Errorf("the attacker moved %d times: not every note was tried", k)
	}
}

// viewNotes opens the page of every seat in headless Chromium: every
// note is in the move list, as text; none ran.
func viewNotes(t *testing.T, page string, rp *replays.Replay) {
	t.Helper()
	ctx := browsertest.New(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(browsertest.FileURL(t, page)),
		chromedp.WaitReady(chromedp.CSS(`body[data-ready="1"][data-moves="1"]`))); err != nil {
		t.Fatal(err)
	}
	notes, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#moves .bot-note")].map(n => n.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	pwned, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(window.pwned)`))
	if err != nil {
		t.Fatal(err)
	}
	noted := 0
	for _, e := range rp.Events {
		if e.Move != nil && e.Move.Noted() {
			noted++
		}
	}
	if len(notes) != noted || pwned != "undefined" {
		t.Fatalf("the page shows %d notes of %d; window.pwned = %s", len(notes), noted, pwned)
	}
	if !slices.ContainsFunc(notes, func(n string) bool {
		return strings.HasPrefix(n, "NOTER turn 1 of ") && strings.HasSuffix(n, "<script>window.pwned=1</script>")
	}) {
		t.Errorf("the noter's first note is not shown as text: %q", notes)
	}
}
