package check

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// xFuture is the unknown field added to every message of the main
// session: a bot must ignore fields it does not know.
const xFuture = `"x_future":{"note":"unknown fields must be ignored","list":[1,2.5,"x",null,true],"nested":{"a":{}}}`

// unknownType is a message of a type no bot knows, sent once after the
// first ready: bots must ignore it, and not answer it.
const unknownType = `{"type":"x_future_notice",` + xFuture + `}`

// stage locates a session's first failure, for the unknown-fields probe.
type stage int

const (
	stageNone  stage = iota
	stageHello       // the first hello
	stageTurn        // the first turn (and the unknown message type before it)
	stageLater
)

// session is one bot process played through the games. The main session
// sends unknown fields everywhere and ends with bye; a probe session sends
// none and stops after the first answered turn.
type session struct {
	cfg    *Config
	rec    *recorder
	extras bool // unknown fields and an unknown message type
	probe  bool // stop after the first answered turn, no bye
	rng    *rand.Rand
	p      *transport.Process

	progress     func(Progress) // nil in a probe
	lastProgress time.Time
	trail        []string // the last lines exchanged, for a protocol error's transcript
	stopped      string   // where a protocol error stopped the session

	phase          stage
	firstFail      stage // the phase of the first failure (timing excluded)
	firstFailCheck string
	loc            string // where we are, for failure details
	silent         bool   // the bot never answered the hello

	readyOK     bool
	readies     int
	readyTimes  []time.Duration
	think       []time.Duration
	turns       int // turns sent
	replies     int // turns answered with some line
	wellFormed  int // of which well-formed action messages (whatever their id)
	answered    int // of which well-formed answers with the right id
	legalOK     int // of which legal choices
	byIndex     int
	byAction    int
	lateReady   int
	lateAnswers int
	keptAlive   int // hellos after the first answered by the same process
	gamesPlayed int
	aborted     bool
	completed   bool // every game played and bye sent
	name        string
	version     string
	stderrTail  string
}

func (s *session) fail(check, format string, args ...any) {
	s.rec.fail(check, "%s: %s", s.loc, fmt.Sprintf(format, args...))
	// Timing failures, and silence, are not what unknown fields cause.
	if s.firstFail == stageNone && check != CheckThinkTime && check != CheckStartupTime && !s.silent {
		s.firstFail, s.firstFailCheck = s.phase, check
	}
}

// trailLen is how many lines a protocol error's transcript shows, and
// trailClip how much of each.
const (
	trailLen  = 6
	trailClip = 160
)

// send writes a line to the bot, keeping it for the transcript.
func (s *session) send(line []byte, deadline time.Time) error {
	s.keep("R> ", line)
	return s.p.Send(line, deadline)
}

// receive reads a line from the bot, keeping it for the transcript.
func (s *session) receive(deadline time.Time) ([]byte, error) {
	line, err := s.p.Receive(deadline)
	if err == nil {
		s.keep("B> ", line)
	}
	return line, err
}

func (s *session) keep(dir string, line []byte) {
	if len(s.trail) == trailLen {
		s.trail = append(s.trail[:0], s.trail[1:]...)
	}
	s.trail = append(s.trail, dir+transcriptLine(line, trailClip))
}

// transcriptLine shows a line as it was sent when it is printable UTF-8,
// else quoted; past max bytes it is cut (at a character boundary) and its
// length given.
func transcriptLine(b []byte, max int) string {
	printable := utf8.Valid(b) && !bytes.ContainsFunc(b, func(r rune) bool { return r < ' ' || r == 0x7f })
	if !printable {
		return protocol.Excerpt(b, max)
	}
	if len(b) <= max {
		return string(b)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", b[:cut], len(b))
}

// protocolError fails check with the line's problem, the hint of what to
// send instead and the transcript, and stops the session: a bot that gets
// the protocol wrong once mostly gets it wrong on every turn, and the
// checker cannot tell the answer from noise before the deadline.
func (s *session) protocolError(check, hint, format string, args ...any) {
	s.fail(check, format, args...)
	s.rec.explain(check, hint, append([]string(nil), s.trail...))
	if s.stopped == "" {
		s.stopped = s.loc
	}
}

// report tells Config.Progress where the session is.
func (s *session) report(p Progress) {
	if s.progress == nil {
		return
	}
	p.Games, p.Turns = s.cfg.Games, s.turns
	s.lastProgress = time.Now()
	s.progress(p)
}

// run plays the session. The error is the arena's own (engine) failure.
func (s *session) run() error {
	s.phase = stageHello
	p, err := startBot(s.cfg)
	if err != nil {
		s.loc = "start"
		s.rec.fail(CheckStart, "%v", err)
		s.aborted = true
		s.finish()
		return nil
	}
	s.p = p
	defer func() {
		p.Close()
		s.stderrTail = p.StderrTail()
	}()
	s.rec.pass(CheckStart, "started %s (pid %d)", shellJoin(s.cfg.Argv), p.Pid())
	for g := range s.cfg.Games {
		ok, err := s.playGame(g)
		if err != nil {
			return err
		}
		if !ok {
			s.aborted = true
			break
		}
		if s.probe {
			return nil
		}
	}
	if !s.aborted {
		s.bye()
	}
	s.finish()
	return nil
}

func (s *session) playGame(g int) (bool, error) {
	cfg := s.cfg
	name := cfg.Game.Info().Name
	seat := g % cfg.Seats
	gameSeed := referee.DeriveSeed(cfg.Seed, "check", uint64(g))
	st, err := cfg.Game.New(cfg.Seats, gameSeed, cfg.Options)
	if err != nil {
		return false, fmt.Errorf("new %s game: %w", name, err)
	}
	s.report(Progress{Stage: StageGame, Game: g + 1, Seat: seat})
	if !s.hello(g, seat, gameSeed) {
		return false, nil
	}
	if g == 0 {
		s.phase = stageTurn
		if s.extras {
			s.loc = "game 1, after ready"
			if err := s.send([]byte(unknownType), time.Now().Add(time.Second)); err != nil {
				s.gone(CheckNoCrash, "sending a message of an unknown type", err)
				return false, nil
			}
		}
	}
	var id int64
	for !st.Over() {
		to := st.ToMove()
		if to < 0 || to >= cfg.Seats {
			return false, fmt.Errorf("engine %s: seat to move %d out of range", name, to)
		}
		legal := st.Legal()
		if len(legal) == 0 {
			return false, fmt.Errorf("engine %s: no legal action in a game that is not over", name)
		}
		var a engine.Action
		if to == seat {
			id++ // the bot's own turns only, as the referee numbers them
			var ok bool
			if a, ok = s.turn(st, g, seat, id, legal); !ok {
				return false, nil
			}
			if s.probe {
				return true, nil
			}
			s.phase = stageLater
		} else {
			a = legal[s.rng.IntN(len(legal))]
		}
		if err := st.Apply(a); err != nil {
			return false, fmt.Errorf("engine %s: apply %s: %w", name, a, err)
		}
	}
	s.gamesPlayed++
	out := st.Outcome()
	view, err := engine.AppendJSON(nil, st.View(seat))
	if err != nil {
		return false, fmt.Errorf("engine %s: view: %w", name, err)
	}
	line, _ := json.Marshal(protocol.End{
		Type: protocol.TypeEnd, GameID: gameID(g), Ranks: out.Ranks, Scores: out.Scores, Reason: out.Reason, View: view,
	})
	s.loc = fmt.Sprintf("game %d end", g+1)
	if err := s.send(s.extra(line), time.Now().Add(time.Second)); err != nil {
		s.gone(CheckKeepAlive, "sending end", err)
		return false, nil
	}
	return true, nil
}

func gameID(g int) string { return fmt.Sprintf("check-g%04d", g) }

// extra adds the unknown field to a JSON object in the main session.
func (s *session) extra(obj []byte) []byte {
	if !s.extras {
		return obj
	}
	return addField(obj, xFuture)
}

func addField(obj []byte, field string) []byte {
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return obj
	}
	out := make([]byte, 0, len(obj)+len(field)+1)
	out = append(out, obj[:len(obj)-1]...)
	if len(bytes.TrimSpace(obj[1:len(obj)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, field...)
	return append(out, '}')
}

func helloFor(cfg *Config, g, seat int, gameSeed uint64, version int) protocol.Hello {
	players := make([]string, cfg.Seats)
	for i := range players {
		players[i] = fmt.Sprintf("random-%d", i)
	}
	players[seat] = "bot"
	return protocol.Hello{
		Type: protocol.TypeHello, Protocol: version, Game: cfg.Game.Info().Name, Options: cfg.Options,
		Seat: seat, Seats: cfg.Seats, Players: players, Match: "check", GameID: gameID(g),
		Seed: referee.BotSeed(gameSeed, seat),
		Clock: protocol.Clock{
			StartupMs: cfg.Startup.Milliseconds(), MoveMs: cfg.Move.Milliseconds(), MarginMs: cfg.Margin.Milliseconds(),
		},
	}
}

// hello starts game g and reads the ready.
func (s *session) hello(g, seat int, gameSeed uint64) bool {
	s.loc = fmt.Sprintf("game %d hello", g+1)
	line, _ := json.Marshal(helloFor(s.cfg, g, seat, gameSeed, protocol.Version))
	start := time.Now()
	if err := s.send(s.extra(line), start.Add(s.cfg.Startup+s.cfg.Margin)); err != nil {
		s.goneAtHello(g, err)
		return false
	}
	isReady := func(l []byte) bool {
		var r protocol.Ready
		return utf8.Valid(l) && json.Unmarshal(l, &r) == nil && r.Type == protocol.TypeReady
	}
	isStale := func(l []byte) bool { // a late action of the previous game
		t, err := protocol.PeekType(l)
		return err == nil && t == protocol.TypeAction
	}
	ans := s.collect(start, s.cfg.Startup, max(time.Second, s.cfg.Startup/2), isReady, isStale)
	limit := fmt.Sprintf("limit %v + %v margin", s.cfg.Startup, s.cfg.Margin)
	if ans.accepted != nil {
		s.unasked(ans.lines, "before ready", isStale)
		var r protocol.Ready
		_ = json.Unmarshal(ans.accepted, &r)
		if s.name == "" && s.version == "" {
			s.name, s.version = r.Name, r.Version
		}
		s.readyOK = true
		s.readies++
		s.readyTimes = append(s.readyTimes, ans.think)
		if ans.late {
			s.lateReady++
			s.fail(CheckStartupTime, "ready after %s, %s", fmtDur(ans.think), limit)
		}
		if g > 0 {
			s.keptAlive++
		}
		return true
	}
	if ans.wrong != nil || len(ans.lines) > 0 {
		judged, rest := ans.judged(isStale)
		s.unasked(rest, "before the answer to hello", isStale)
		detail, hint := readyProblem(judged)
		if ans.err != nil && !isErrorMsg(judged) {
			detail += "; then " + s.goneDetail(ans.err)
		}
		s.protocolError(CheckReady, hint, "%s", detail)
		return false
	}
	switch {
	case errors.Is(ans.err, transport.ErrTimeout):
		s.silent = true
		s.fail(CheckReady, "no answer within %v + %v margin (nothing after waiting %s); answer hello with {\"type\":\"ready\"} and flush stdout%s",
			s.cfg.Startup, s.cfg.Margin, fmtDur(time.Since(start)), s.stderrHint())
	default:
		s.goneAtHello(g, ans.err)
	}
	return false
}

func (s *session) goneAtHello(g int, err error) {
	if g > 0 && errors.Is(err, transport.ErrClosed) {
		s.fail(CheckKeepAlive, "the process was gone at the next hello (%s): keep running after end until bye%s", transportDetail(err), s.stderrHint())
		return
	}
	s.fail(CheckReady, "no ready: %s", s.goneDetail(err))
}

// gone reports a process that could not be written to.
func (s *session) gone(check, doing string, err error) {
	s.fail(check, "%s: %s", doing, s.goneDetail(err))
}

func (s *session) goneDetail(err error) string {
	switch {
	case errors.Is(err, transport.ErrTimeout):
		return "the bot did not read its input"
	case errors.Is(err, protocol.ErrLineTooLong):
		return err.Error()
	}
	return "lost the bot: " + transportDetail(err) + s.stderrHint()
}

// transportDetail drops the transport's "connection closed: " prefix.
func transportDetail(err error) string {
	return strings.TrimPrefix(err.Error(), transport.ErrClosed.Error()+": ")
}

func (s *session) stderrHint() string {
	tail := strings.TrimSpace(s.p.StderrTail())
	if tail == "" {
		return ""
	}
	if i := strings.LastIndexByte(tail, '\n'); i >= 0 {
		tail = tail[i+1:]
	}
	if len(tail) > 200 {
		tail = "..." + tail[len(tail)-200:]
	}
	return "; its stderr ends with " + strconv.Quote(tail)
}

// readyHint is the answer to hello.
const readyHint = `answer hello with one line {"type":"ready"} ("name" and "version" optional), log to stderr`

// readyProblem says what is wrong with an answer to hello, and what to
// send instead.
func readyProblem(line []byte) (detail, hint string) {
	if !utf8.Valid(line) {
		return "answer to hello is not valid UTF-8: " + clip(line), "write UTF-8 only; " + readyHint
	}
	var r protocol.Ready
	if err := json.Unmarshal(line, &r); err != nil {
		return fmt.Sprintf("answer to hello is not a JSON object (%v): %s", err, clip(line)), readyHint
	}
	switch r.Type {
	case protocol.TypeError:
		return "the bot refused the game: " + protocol.ErrorText(line, clipLen),
			"refuse only a protocol version or a game you cannot play; " + readyHint
	case protocol.TypeReady:
		return "ready is fine", "" // not reached: collect accepted it
	}
	return fmt.Sprintf("expected a ready message, got type %q: %s", r.Type, clip(line)), readyHint
}

func isErrorMsg(line []byte) bool {
	t, err := protocol.PeekType(line)
	return err == nil && t == protocol.TypeError
}

// answer is what collect read in reply to one message.
type answer struct {
	accepted []byte        // the expected answer, if it came
	wrong    []byte        // else the protocol message that answered wrongly, if one came
	lines    [][]byte      // every other line read, in order
	think    time.Duration // time to the accepted or wrong line, else to the first line
	late     bool          // nothing arrived within the limit
	err      error         // what ended the reading without an accepted line
}

// judged returns the line to judge as a wrong answer, and the others:
// the wrong protocol message if one came, else the first line that is not
// a stale leftover.
func (a answer) judged(stale func([]byte) bool) ([]byte, [][]byte) {
	if a.wrong != nil {
		return a.wrong, a.lines
	}
	return pick(a.lines, stale)
}

// collect reads the answer to a message written at start. It reads until
// an acceptable line arrives (earlier lines are unasked output), or a
// wrong one, or until the deadline (limit + margin) passes: then the
// first line read is the answer. A wrong line is a protocol message
// (a JSON object with a "type") that is neither acceptable nor stale: the
// bot's answer, not noise before it, so it is judged at once instead of
// at the deadline. If nothing arrived by the deadline, collect waits up to
// extra more for a late answer, which is then taken at once whatever it is.
func (s *session) collect(start time.Time, limit, extra time.Duration, accept, stale func([]byte) bool) answer {
	allowed := limit + s.cfg.Margin
	deadline := start.Add(allowed)
	giveUp := deadline.Add(extra)
	var a answer
	for {
		dl := deadline
		if a.late {
			dl = giveUp
		}
		line, err := s.receive(dl)
		elapsed := time.Since(start)
		if err != nil {
			if errors.Is(err, transport.ErrTimeout) && !a.late && len(a.lines) == 0 {
				a.late = true
				continue
			}
			if !errors.Is(err, transport.ErrTimeout) || len(a.lines) == 0 {
				a.err = err
			}
			return a
		}
		if !a.late {
			// The transport's deadline judges lateness: a line it delivered
			// came in time, whatever the checker's own scheduling delay.
			elapsed = min(elapsed, allowed)
		}
		if accept(line) {
			a.accepted, a.think = line, elapsed
			return a
		}
		if _, err := protocol.PeekType(line); err == nil && !stale(line) {
			a.wrong, a.think = line, elapsed
			return a
		}
		if len(a.lines) == 0 {
			a.think = elapsed
		}
		a.lines = append(a.lines, line)
		if a.late {
			return a
		}
	}
}

// pick chooses the line judged as the answer: the first that is not a
// stale leftover, and returns the others.
func pick(lines [][]byte, stale func([]byte) bool) ([]byte, [][]byte) {
	for i, l := range lines {
		if !stale(l) {
			rest := append(append([][]byte(nil), lines[:i]...), lines[i+1:]...)
			return l, rest
		}
	}
	return lines[0], lines[1:]
}

// unasked reports lines nobody asked for.
func (s *session) unasked(lines [][]byte, where string, stale func([]byte) bool) {
	for _, l := range lines {
		if stale(l) {
			var a protocol.Action
			_ = json.Unmarshal(l, &a)
			s.fail(CheckHygiene, "an extra action (for turn id %d) %s: answer each turn exactly once", a.ID, where)
			continue
		}
		s.fail(CheckHygiene, "an unasked line %s: %s (stdout is for protocol lines only; log to stderr)", where, clip(l))
	}
}

// turn asks the bot to act and returns the action to play: its own if
// valid, else (an illegal choice) a random legal one so the game goes on.
// false ends the session: a protocol error, no answer at all, a lost bot.
func (s *session) turn(st engine.State, g, seat int, id int64, legal []engine.Action) (engine.Action, bool) {
	s.loc = fmt.Sprintf("game %d turn %d", g+1, id)
	line, legalJSON, err := s.encodeTurn(st, seat, id, legal)
	if err != nil {
		// The engine cannot encode its own view: the arena's fault, but
		// reported here rather than aborting the whole check.
		s.fail(CheckNoCrash, "the checker could not encode the turn: %v", err)
		return nil, false
	}
	s.turns++
	if every := s.cfg.ProgressEvery; every > 0 && time.Since(s.lastProgress) >= every {
		s.report(Progress{Stage: StageGame, Game: g + 1, Seat: seat, Turn: int(id)})
	}
	start := time.Now()
	if err := s.send(line, start.Add(s.cfg.Move+s.cfg.Margin)); err != nil {
		s.gone(CheckNoCrash, "sending the turn", err)
		return nil, false
	}
	isAnswer := func(l []byte) bool {
		var a protocol.Action
		return utf8.Valid(l) && json.Unmarshal(l, &a) == nil && a.Type == protocol.TypeAction && a.ID == id
	}
	isStale := func(l []byte) bool { // a second answer to an earlier turn
		var a protocol.Action
		return json.Unmarshal(l, &a) == nil && a.Type == protocol.TypeAction && a.ID >= 1 && a.ID < id
	}
	ans := s.collect(start, s.cfg.Move, max(time.Second, s.cfg.Move), isAnswer, isStale)
	limit := fmt.Sprintf("limit %v + %v margin", s.cfg.Move, s.cfg.Margin)
	random := func() engine.Action { return legal[s.rng.IntN(len(legal))] }
	switch {
	case ans.accepted != nil:
		s.unasked(ans.lines, "before the answer", isStale)
		s.replies++
		s.think = append(s.think, ans.think)
		if ans.late {
			s.lateAnswers++
			s.fail(CheckThinkTime, "answered after %s, %s", fmtDur(ans.think), limit)
		}
		var msg protocol.Action
		_ = json.Unmarshal(ans.accepted, &msg)
		if a, ok := s.choice(msg, legal, legalJSON); ok {
			return a, true
		}
		if s.stopped != "" {
			return nil, false
		}
		return random(), true
	case ans.wrong != nil || len(ans.lines) > 0:
		// Not the answer: a protocol error.
		judged, rest := ans.judged(isStale)
		s.unasked(rest, "with the answer", isStale)
		s.replies++
		if ans.late {
			s.lateAnswers++
			s.fail(CheckThinkTime, "answered after %s, %s", fmtDur(ans.think), limit)
		}
		s.judge(judged, id, len(legal), legalJSON)
		if ans.err != nil && !isErrorMsg(judged) {
			if errors.Is(ans.err, protocol.ErrLineTooLong) {
				s.protocolError(CheckReplyFormat, s.tooLongHint(), "%v", ans.err)
			} else {
				s.gone(CheckNoCrash, "after its answer", ans.err)
			}
		}
		return nil, false
	case errors.Is(ans.err, transport.ErrTimeout):
		s.fail(CheckThinkTime, "no answer within %v + %v margin, nor in %s after it: giving up (a half-written line or unflushed output?)",
			s.cfg.Move, s.cfg.Margin, fmtDur(time.Since(start)-s.cfg.Move-s.cfg.Margin))
	case errors.Is(ans.err, protocol.ErrLineTooLong):
		s.replies++
		s.protocolError(CheckReplyFormat, s.tooLongHint(), "%v", ans.err)
	default:
		s.gone(CheckNoCrash, "while it was to act", ans.err)
	}
	return nil, false
}

// judge reports a line that is not a well-formed answer with the right
// id: a protocol error, which stops the session.
func (s *session) judge(line []byte, id int64, nLegal int, legalJSON []json.RawMessage) {
	check, hint, detail := s.answerProblem(line, id, nLegal, legalJSON)
	s.protocolError(check, hint, "%s", detail)
}

// answerProblem says which check a wrong answer to turn id fails, what
// the bot should have sent instead, and what is wrong, in the order the
// referee judges a reply.
func (s *session) answerProblem(line []byte, id int64, nLegal int, legalJSON []json.RawMessage) (check, hint, detail string) {
	example := func(index int) string { return fmt.Sprintf(`{"type":"action","id":%d,"index":%d}`, id, index) }
	if !utf8.Valid(line) {
		return CheckReplyFormat, "write UTF-8 only, one JSON object per line: " + example(0),
			"the answer is not valid UTF-8: " + clip(line)
	}
	var msg protocol.Action
	if err := json.Unmarshal(line, &msg); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return CheckReplyFormat, `"id" and "index" are integers (5, not "5" or 5.0), "type" a string, "action" an object: ` + example(0),
				fmt.Sprintf("a field of the answer has the wrong type (%v): %s", err, clip(line))
		}
		return CheckReplyFormat, "answer every turn with one JSON object on one line, such as " + example(0) + ", and write anything else to stderr",
			fmt.Sprintf("the answer is not a JSON object (%v): %s", err, clip(line))
	}
	send := example(0)
	if msg.Index != nil && *msg.Index >= 0 && *msg.Index < nLegal {
		send = example(*msg.Index)
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(line, &fields)
	_, hasID := fields["id"]
	switch {
	case msg.Type == protocol.TypeError:
		return CheckReplyFormat, "send an error only to give up, then exit; answer a turn with " + send,
			"the bot sent an error: " + protocol.ErrorText(line, clipLen)
	case msg.Type != protocol.TypeAction:
		if canon, i, ok := s.bareAction(line, legalJSON); ok {
			hint := fmt.Sprintf(`wrap the choice in an action message with the turn's id: {"type":"action","id":%d,"action":%s}`, id, canon)
			if i >= 0 {
				hint += fmt.Sprintf(`, or, simpler, give its position in "legal": %s`, example(i))
			}
			return CheckReplyFormat, hint, fmt.Sprintf("a bare %s action instead of an action message: %s", s.cfg.Game.Info().Name, clip(line))
		}
		got := fmt.Sprintf("type %q", msg.Type)
		if msg.Type == "" {
			got = `no "type"`
		}
		return CheckReplyFormat, `answer a turn with a message of type "action": ` + send,
			fmt.Sprintf("expected an action message, got %s: %s", got, clip(line))
	}
	if msg.Index != nil || (len(msg.Action) > 0 && string(msg.Action) != "null") {
		s.wellFormedAnswer(msg)
	}
	if !hasID {
		return CheckIDs, "echo the turn's id in every answer: " + send,
			fmt.Sprintf(`the answer has no "id" (expected %d): %s`, id, clip(line))
	}
	return CheckIDs, `copy "id" from the turn you answer (never compute it) and answer each turn once: ` + send,
		fmt.Sprintf("answer id %d, expected %d: %s", msg.ID, id, clip(line))
}

// bareAction recognises a line that is one of the game's action objects
// rather than an action message: it returns the action's canonical JSON
// and its position in legal (-1 if it is not legal).
func (s *session) bareAction(line []byte, legalJSON []json.RawMessage) (string, int, bool) {
	a, err := s.cfg.Game.ParseAction(line)
	if err != nil {
		return "", -1, false
	}
	canon, err := engine.AppendJSON(nil, a)
	if err != nil {
		return "", -1, false
	}
	for i, l := range legalJSON {
		if bytes.Equal(canon, l) {
			return string(canon), i, true
		}
	}
	return string(canon), -1, true
}

func (s *session) wellFormedAnswer(msg protocol.Action) {
	s.wellFormed++
	if msg.Index != nil {
		s.byIndex++
	} else {
		s.byAction++
	}
}

func (s *session) tooLongHint() string {
	n := s.cfg.MaxLine
	if n <= 0 {
		n = protocol.DefaultMaxLine
	}
	return fmt.Sprintf(`send only the answer, one line of at most %d bytes; an "index" is shorter than an action object`, n)
}

// choice checks the chosen action of a well-formed answer, as the referee
// does: index first, else the action object compared in canonical form.
func (s *session) choice(msg protocol.Action, legal []engine.Action, legalJSON []json.RawMessage) (engine.Action, bool) {
	if msg.Index == nil && (len(msg.Action) == 0 || string(msg.Action) == "null") {
		s.protocolError(CheckReplyFormat, fmt.Sprintf(`add "index", the position of your choice in "legal" from 0: {"type":"action","id":%d,"index":0}`, msg.ID),
			`the action message has neither "action" nor "index"`)
		return nil, false
	}
	s.wellFormedAnswer(msg)
	s.answered++
	if msg.Index != nil {
		i := *msg.Index
		if i < 0 || i >= len(legal) {
			s.fail(CheckLegal, "index %d out of range 0..%d", i, len(legal)-1)
			return nil, false
		}
		s.legalOK++
		return legal[i], true
	}
	a, err := s.cfg.Game.ParseAction(msg.Action)
	if err != nil {
		s.fail(CheckLegal, "unreadable action %s: %v", clip(msg.Action), err)
		return nil, false
	}
	canon, err := engine.AppendJSON(nil, a)
	if err != nil {
		s.fail(CheckLegal, "action %s: %v", clip(msg.Action), err)
		return nil, false
	}
	for i := range legal {
		if bytes.Equal(canon, legalJSON[i]) {
			s.legalOK++
			return legal[i], true
		}
	}
	s.fail(CheckLegal, "%s is not one of the %d legal actions", clip(msg.Action), len(legal))
	return nil, false
}

func (s *session) encodeTurn(st engine.State, seat int, id int64, legal []engine.Action) ([]byte, []json.RawMessage, error) {
	view, err := engine.AppendJSON(nil, st.View(seat))
	if err != nil {
		return nil, nil, err
	}
	b := []byte(`{"type":"turn","id":`)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"view":`...)
	b = append(b, s.extra(view)...)
	b = append(b, `,"legal":[`...)
	legalJSON := make([]json.RawMessage, len(legal))
	for i, a := range legal {
		if i > 0 {
			b = append(b, ',')
		}
		j, err := engine.AppendJSON(nil, a)
		if err != nil {
			return nil, nil, err
		}
		legalJSON[i] = j
		b = append(b, j...)
	}
	b = append(b, `],"clock":`...)
	b = append(b, s.extra([]byte(`{"move_ms":`+strconv.FormatInt(s.cfg.Move.Milliseconds(), 10)+`}`))...)
	b = append(b, '}')
	return s.extra(b), legalJSON, nil
}

// bye ends the session: the bot must exit by itself, with status 0, and
// leave nothing running in its process group.
func (s *session) bye() {
	s.loc = "bye"
	sent := time.Now()
	if err := s.send(s.extra([]byte(`{"type":"bye"}`)), sent.Add(time.Second)); err != nil {
		s.loc = fmt.Sprintf("game %d end", s.cfg.Games)
		if errors.Is(err, transport.ErrClosed) {
			s.fail(CheckKeepAlive, "the process was gone after the last end, before bye (%s): keep running until bye%s", transportDetail(err), s.stderrHint())
		} else {
			s.gone(CheckBye, "sending bye", err)
		}
		s.aborted = true
		return
	}
	s.completed = true
	s.report(Progress{Stage: StageBye})
	grace := s.cfg.ByeGrace
	end := sent.Add(grace)
	exited := func() bool {
		select {
		case <-s.p.Exited():
			return true
		default:
			return false
		}
	}
	// Read what the bot writes until it exits (or closes stdout, or the
	// grace is over), in short slices: a child that keeps stdout open must
	// not hide the exit.
	for !exited() && time.Now().Before(end) {
		slice := time.Now().Add(10 * time.Millisecond)
		if end.Before(slice) {
			slice = end
		}
		line, err := s.receive(slice)
		if err == nil {
			s.fail(CheckHygiene, "an unasked line after the last end or after bye: %s", clip(line))
			continue
		}
		if !errors.Is(err, transport.ErrTimeout) {
			break
		}
	}
	if !exited() {
		t := time.NewTimer(time.Until(end))
		select {
		case <-s.p.Exited():
		case <-t.C:
		}
		t.Stop()
	}
	took := time.Since(sent)
	if !exited() {
		s.fail(CheckBye, "still running %v after bye (its process group was killed): exit as soon as you read bye", grace)
		s.rec.skip(CheckProcessGroup, "not judged: the bot did not exit by itself")
		return
	}
	// Lines written just before the exit.
	for {
		line, err := s.receive(time.Now().Add(10 * time.Millisecond))
		if err != nil {
			break
		}
		s.fail(CheckHygiene, "an unasked line after the last end or after bye: %s", clip(line))
	}
	status := exitStatus(s.p)
	if !exitedOK(status) {
		s.fail(CheckBye, "%s after bye; exit with status 0%s", status, s.stderrHint())
	} else {
		s.rec.pass(CheckBye, "exited with status 0 within %s of bye", fmtDur(took))
	}
	s.processGroup()
}

func (s *session) processGroup() {
	pgid := s.p.Pid()
	deadline := time.Now().Add(300 * time.Millisecond)
	var left []string
	for {
		left = groupMembers(pgid)
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(left) > 0 {
		s.fail(CheckProcessGroup, "%d process(es) still running in the bot's process group after it exited: %s (now killed); stop what you start before exiting",
			len(left), strings.Join(left, ", "))
		return
	}
	s.rec.pass(CheckProcessGroup, "nothing left in process group %d after the bot exited", pgid)
}

// finish turns the counts into verdicts for the checks that did not fail.
func (s *session) finish() {
	r := s.rec
	early := ""
	if !s.completed {
		early = " before the session ended"
	}
	hellos := func(n int) string {
		if n == 1 {
			return "1 hello"
		}
		return fmt.Sprintf("%d hellos", n)
	}
	if s.readies > 0 {
		who := ""
		if s.name != "" || s.version != "" {
			who = fmt.Sprintf(" (name %q, version %q)", s.name, s.version)
		}
		r.pass(CheckReady, "%s answered with ready%s%s", hellos(s.readies), who, early)
		tm := timing(s.readyTimes)
		r.pass(CheckStartupTime, "first ready after %s (process start included), slowest %s; limit %v + %v margin",
			fmtDur(s.readyTimes[0]), fmtDur(time.Duration(tm.Max*float64(time.Millisecond))), s.cfg.Startup, s.cfg.Margin)
	}
	for _, c := range []string{CheckReady, CheckStartupTime} {
		r.skip(c, "not judged: no hello was answered")
	}
	if s.wellFormed > 0 {
		r.pass(CheckReplyFormat, "%d of %d answers well-formed (%d by index, %d by action object)%s", s.wellFormed, s.replies, s.byIndex, s.byAction, early)
	}
	if s.answered > 0 {
		r.pass(CheckIDs, "%d answers echoed their turn's id%s", s.answered, early)
		r.pass(CheckLegal, "%d choices legal%s", s.legalOK, early)
	}
	if tm := timing(s.think); tm != nil {
		r.pass(CheckThinkTime, "%d answers: min %.2fms, median %.2fms, max %.2fms; limit %v + %v margin%s",
			tm.Count, tm.Min, tm.Median, tm.Max, s.cfg.Move, s.cfg.Margin, early)
	}
	unjudged := "not judged: no turn was answered"
	switch {
	case s.stopped != "":
		unjudged = fmt.Sprintf("not judged: the session stopped at the protocol error at %s, before any answer was accepted", s.stopped)
	case s.replies > 0:
		unjudged = "not judged: no answer was well-formed"
	}
	for _, c := range []string{CheckReplyFormat, CheckIDs, CheckLegal, CheckThinkTime} {
		r.skip(c, "%s", unjudged)
	}
	if s.cfg.Games < 2 {
		r.skip(CheckKeepAlive, "not judged with --games 1")
	}
	if s.completed {
		r.pass(CheckHygiene, "no line but the answers on stdout, through bye")
		r.pass(CheckNoCrash, "the process kept running and reading through %d games", s.gamesPlayed)
		if s.cfg.Games >= 2 {
			r.pass(CheckKeepAlive, "survived end and answered %s in the same process", hellos(s.keptAlive))
		}
	}
	why := "not judged: the session ended early (see the failure above)"
	if s.stopped != "" {
		why = fmt.Sprintf("not judged: the session stopped at the protocol error at %s (see above)", s.stopped)
	}
	for _, c := range []string{CheckHygiene, CheckNoCrash, CheckKeepAlive, CheckBye, CheckProcessGroup} {
		r.skip(c, "%s", why)
	}
}

// protocolVersion offers a fresh process a hello of the next major
// version: it must refuse it (an error message, then exit), not play.
func protocolVersion(cfg *Config, rec *recorder) {
	const name = CheckProtocolVersion
	p, err := startBot(cfg)
	if err != nil {
		rec.skip(name, "not judged: a second process could not be started: %v", err)
		return
	}
	defer p.Close()
	v := protocol.Version + 1
	h := helloFor(cfg, 0, 0, referee.DeriveSeed(cfg.Seed, "check", 0), v)
	line, _ := json.Marshal(h)
	start := time.Now()
	waitExit := func() bool {
		t := time.NewTimer(cfg.ByeGrace)
		defer t.Stop()
		select {
		case <-p.Exited():
			return true
		case <-t.C:
			return false
		}
	}
	judgeExit := func() {
		if !waitExit() {
			rec.warn(name, "a hello with protocol %d: the process closed its stdout but did not exit", v)
			return
		}
		if st := exitStatus(p); exitedOK(st) {
			rec.warn(name, "a hello with protocol %d: the process %s without a word; answer {\"type\":\"error\",\"message\":...} first", v, st)
		} else {
			rec.pass(name, "a hello with protocol %d: the process %s (an error message would say why)", v, st)
		}
	}
	if err := p.Send(line, start.Add(cfg.Startup+cfg.Margin)); err != nil {
		if errors.Is(err, transport.ErrClosed) {
			judgeExit()
		} else {
			rec.warn(name, "a hello with protocol %d: the bot did not read it", v)
		}
		return
	}
	// Lines that are not protocol messages (a banner) are the business of
	// stdout-hygiene, not of this check: read past them.
	var reply, other []byte
	for reply == nil {
		line, err := p.Receive(start.Add(cfg.Startup + cfg.Margin))
		if err != nil {
			switch {
			case other != nil:
				rec.warn(name, "a hello with protocol %d was answered with %s instead of an error message", v, clip(other))
			case errors.Is(err, transport.ErrTimeout):
				rec.warn(name, "no answer to a hello with protocol %d within %v + %v margin; answer {\"type\":\"error\",\"message\":...} and exit", v, cfg.Startup, cfg.Margin)
			default:
				judgeExit()
			}
			return
		}
		if _, err := protocol.PeekType(line); err == nil {
			reply = line
		} else if other == nil {
			other = line
		}
	}
	switch {
	case isErrorMsg(reply):
		if waitExit() {
			rec.pass(name, "a hello with protocol %d is refused: %q, and the process %s", v, protocol.ErrorText(reply, clipLen), exitStatus(p))
		} else {
			rec.warn(name, "a hello with protocol %d is refused (%q), but the process was still running %v later: exit after the error", v, protocol.ErrorText(reply, clipLen), cfg.ByeGrace)
		}
	default:
		t, _ := protocol.PeekType(reply)
		if t == protocol.TypeReady {
			rec.warn(name, "a hello with protocol %d was answered with ready: refuse a version you do not know with {\"type\":\"error\",\"message\":...} and exit", v)
		} else {
			rec.warn(name, "a hello with protocol %d was answered with %s instead of an error message", v, clip(reply))
		}
	}
}

// shellJoin shows a command as it could be typed.
func shellJoin(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]{}~#!") {
			out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(out, " ")
}

// clip shows a bot's bytes in a message.
func clip(b []byte) string { return protocol.Excerpt(b, clipLen) }

// clipLen is how much of a bot's line a message shows.
const clipLen = 100

// startBot starts a process of the bot, in its sandbox if it has one.
// Descendants are left alive when it exits, for the process-group check.
func startBot(cfg *Config) (*transport.Process, error) {
	pc := transport.ProcessConfig{Argv: cfg.Argv, Dir: cfg.Dir, Env: cfg.Env, MaxLine: cfg.MaxLine, LeaveDescendants: true}
	if cfg.Sandbox != nil {
		return cfg.Sandbox.Start("check", pc)
	}
	return transport.Start(pc)
}
