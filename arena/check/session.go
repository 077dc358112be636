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

	phase          stage
	firstFail      stage // the phase of the first failure (timing excluded)
	firstFailCheck string
	loc            string // where we are, for failure details
	silent         bool   // the bot never answered the hello

	readyOK     bool
	readies     int
	readyTimes  []time.Duration
	think       []time.Duration
	replies     int // turns answered with some line
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
	if !s.hello(g, seat, gameSeed) {
		return false, nil
	}
	if g == 0 {
		s.phase = stageTurn
		if s.extras {
			s.loc = "game 1, after ready"
			if err := s.p.Send([]byte(unknownType), time.Now().Add(time.Second)); err != nil {
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
	if err := s.p.Send(s.extra(line), time.Now().Add(time.Second)); err != nil {
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
	if err := s.p.Send(s.extra(line), start.Add(s.cfg.Startup+s.cfg.Margin)); err != nil {
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
	ans := s.collect(start, s.cfg.Startup, max(time.Second, s.cfg.Startup/2), isReady)
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
	if len(ans.lines) > 0 {
		judged, rest := pick(ans.lines, isStale)
		s.unasked(rest, "before the answer to hello", isStale)
		detail := readyProblem(judged)
		if ans.err != nil && !isErrorMsg(judged) {
			detail += "; then " + s.goneDetail(ans.err)
		}
		s.fail(CheckReady, "%s", detail)
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

func readyProblem(line []byte) string {
	if !utf8.Valid(line) {
		return "answer to hello is not valid UTF-8: " + clip(line)
	}
	var r protocol.Ready
	if err := json.Unmarshal(line, &r); err != nil {
		return fmt.Sprintf("answer to hello is not a JSON object (%v): %s", err, clip(line))
	}
	switch r.Type {
	case protocol.TypeError:
		return "the bot refused the game: " + protocol.ErrorText(line, clipLen)
	case protocol.TypeReady:
		return "ready is fine" // not reached: collect accepted it
	}
	return fmt.Sprintf("expected a ready message, got type %q: %s", r.Type, clip(line))
}

func isErrorMsg(line []byte) bool {
	t, err := protocol.PeekType(line)
	return err == nil && t == protocol.TypeError
}

// answer is what collect read in reply to one message.
type answer struct {
	accepted []byte        // the expected answer, if it came
	lines    [][]byte      // every other line read, in order
	think    time.Duration // time to the accepted line, else to the first line
	late     bool          // nothing arrived within the limit
	err      error         // what ended the reading without an accepted line
}

// collect reads the answer to a message written at start. It reads until
// an acceptable line arrives (earlier lines are unasked output), or until
// the deadline (limit + margin) passes: then the first line read is the
// answer. If nothing arrived by the deadline, it waits up to extra more
// for a late answer, which is then taken at once whatever it is.
func (s *session) collect(start time.Time, limit, extra time.Duration, accept func([]byte) bool) answer {
	allowed := limit + s.cfg.Margin
	deadline := start.Add(allowed)
	giveUp := deadline.Add(extra)
	var a answer
	for {
		dl := deadline
		if a.late {
			dl = giveUp
		}
		line, err := s.p.Receive(dl)
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
// valid, else a random legal one so the game goes on. false ends the
// session.
func (s *session) turn(st engine.State, g, seat int, id int64, legal []engine.Action) (engine.Action, bool) {
	s.loc = fmt.Sprintf("game %d turn %d", g+1, id)
	line, legalJSON, err := s.encodeTurn(st, seat, id, legal)
	if err != nil {
		// The engine cannot encode its own view: the arena's fault, but
		// reported here rather than aborting the whole check.
		s.fail(CheckNoCrash, "the checker could not encode the turn: %v", err)
		return nil, false
	}
	start := time.Now()
	if err := s.p.Send(line, start.Add(s.cfg.Move+s.cfg.Margin)); err != nil {
		s.gone(CheckNoCrash, "sending the turn", err)
		return nil, false
	}
	isAnswer := func(l []byte) bool {
		var a protocol.Action
		return utf8.Valid(l) && json.Unmarshal(l, &a) == nil && a.Type == protocol.TypeAction && a.ID == id
	}
	isStale := func(l []byte) bool { // a second answer to an earlier turn
		var a protocol.Action
		return json.Unmarshal(l, &a) == nil && a.Type == protocol.TypeAction && a.ID < id
	}
	ans := s.collect(start, s.cfg.Move, max(time.Second, s.cfg.Move), isAnswer)
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
		return random(), true
	case len(ans.lines) > 0:
		judged, rest := pick(ans.lines, isStale)
		s.unasked(rest, "with the answer", isStale)
		s.replies++
		if ans.late {
			s.lateAnswers++
			s.fail(CheckThinkTime, "answered after %s, %s", fmtDur(ans.think), limit)
		}
		a, ok := s.judge(judged, id, legal, legalJSON)
		if ans.err != nil {
			if !isErrorMsg(judged) {
				if errors.Is(ans.err, protocol.ErrLineTooLong) {
					s.fail(CheckReplyFormat, "%v", ans.err)
				} else {
					s.gone(CheckNoCrash, "after its answer", ans.err)
				}
			}
			return nil, false
		}
		if !ok {
			a = random()
		}
		return a, true
	case errors.Is(ans.err, transport.ErrTimeout):
		s.fail(CheckThinkTime, "no answer within %v + %v margin, nor in %s after it: giving up (a half-written line or unflushed output?)",
			s.cfg.Move, s.cfg.Margin, fmtDur(time.Since(start)-s.cfg.Move-s.cfg.Margin))
	case errors.Is(ans.err, protocol.ErrLineTooLong):
		s.replies++
		s.fail(CheckReplyFormat, "%v", ans.err)
	default:
		s.gone(CheckNoCrash, "while it was to act", ans.err)
	}
	return nil, false
}

// judge checks a line that is not a well-formed answer with the right id.
func (s *session) judge(line []byte, id int64, legal []engine.Action, legalJSON []json.RawMessage) (engine.Action, bool) {
	if !utf8.Valid(line) {
		s.fail(CheckReplyFormat, "the answer is not valid UTF-8: %s", clip(line))
		return nil, false
	}
	var msg protocol.Action
	if err := json.Unmarshal(line, &msg); err != nil {
		s.fail(CheckReplyFormat, "the answer is not a JSON object (%v): %s", err, clip(line))
		return nil, false
	}
	switch {
	case msg.Type == protocol.TypeError:
		s.fail(CheckReplyFormat, "the bot sent an error: %s", protocol.ErrorText(line, clipLen))
		return nil, false
	case msg.Type != protocol.TypeAction:
		s.fail(CheckReplyFormat, "expected an action message, got type %q: %s", msg.Type, clip(line))
		return nil, false
	case msg.ID != id:
		s.fail(CheckIDs, "answer id %d, expected %d: echo the turn's id", msg.ID, id)
		return nil, false
	}
	return s.choice(msg, legal, legalJSON)
}

// choice checks the chosen action of a well-formed answer, as the referee
// does: index first, else the action object compared in canonical form.
func (s *session) choice(msg protocol.Action, legal []engine.Action, legalJSON []json.RawMessage) (engine.Action, bool) {
	if msg.Index == nil && (len(msg.Action) == 0 || string(msg.Action) == "null") {
		s.fail(CheckReplyFormat, `the action message has neither "action" nor "index"`)
		return nil, false
	}
	s.answered++
	if msg.Index != nil {
		s.byIndex++
		i := *msg.Index
		if i < 0 || i >= len(legal) {
			s.fail(CheckLegal, "index %d out of range 0..%d", i, len(legal)-1)
			return nil, false
		}
		s.legalOK++
		return legal[i], true
	}
	s.byAction++
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
	if err := s.p.Send(s.extra([]byte(`{"type":"bye"}`)), sent.Add(time.Second)); err != nil {
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
		line, err := s.p.Receive(slice)
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
		line, err := s.p.Receive(time.Now().Add(10 * time.Millisecond))
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
	if s.replies > 0 {
		r.pass(CheckReplyFormat, "%d of %d answers well-formed (%d by index, %d by action object)%s", s.answered, s.replies, s.byIndex, s.byAction, early)
	}
	if s.answered > 0 {
		r.pass(CheckIDs, "%d answers echoed their turn's id%s", s.answered, early)
		r.pass(CheckLegal, "%d choices legal%s", s.legalOK, early)
	}
	if tm := timing(s.think); tm != nil {
		r.pass(CheckThinkTime, "%d answers: min %.2fms, median %.2fms, max %.2fms; limit %v + %v margin%s",
			tm.Count, tm.Min, tm.Median, tm.Max, s.cfg.Move, s.cfg.Margin, early)
	}
	for _, c := range []string{CheckReplyFormat, CheckIDs, CheckLegal, CheckThinkTime} {
		r.skip(c, "not judged: no turn was answered")
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
