package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/judge"
	"github.com/arena-dev/arena/arena/referee"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// stage locates a session's first failure, for the unknown-fields probe.
type stage int

const (
	stageNone  stage = iota
	stageHello       // the first hello
	stageTurn        // the first turn (and the unknown message type before it)
	stageLater
)

// session is one bot session played through the games by the referee.
// The main session sends unknown fields everywhere and ends with bye; a
// probe session sends none and stops after the first answered turn.
type session struct {
	ctx    context.Context // ends the game being played (RunContext)
	cfg    *Config
	rec    *recorder
	extras bool // unknown fields and an unknown message type
	probe  bool // stop after the first answered turn, no bye
	rng    *rand.Rand
	ep     bot.Endpoint
	proc   bot.Process // ep, when it is a process here; else nil
	c      *conn

	progress     func(Progress) // nil in a probe
	lastProgress time.Time
	game, seat   int    // being played, for progress
	turns        int    // sent to the bot
	stopped      string // where a protocol error stopped the session

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
	wellFormed  int // of which well-formed action messages (whatever their id)
	answered    int // of which well-formed answers with the right id
	legalOK     int // of which legal choices
	byIndex     int
	byAction    int
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

// protocolError fails check with the line's problem, the hint of what to
// send instead and the transcript, and stops the session: a bot that gets
// the protocol wrong once mostly gets it wrong on every turn, and the
// checker cannot tell the answer from noise before the deadline.
func (s *session) protocolError(check, hint, format string, args ...any) {
	s.fail(check, format, args...)
	s.rec.explain(check, hint, append([]string(nil), s.c.trail...))
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

// turnSent counts a turn about to go out, and reports it once
// ProgressEvery has passed.
func (s *session) turnSent(id int64) {
	s.turns++
	if every := s.cfg.ProgressEvery; every > 0 && time.Since(s.lastProgress) >= every {
		s.report(Progress{Stage: StageGame, Game: s.game + 1, Seat: s.seat, Turn: int(id)})
	}
}

// run plays the session. The error is the arena's own (engine) failure.
func (s *session) run() error {
	s.phase = stageHello
	ep, proc, err := startBot(s.cfg)
	if err != nil {
		s.loc = "start"
		s.rec.fail(CheckStart, "%v", err)
		if hint := transport.HintOf(err); hint != "" { // what serves a remote bot
			s.rec.explain(CheckStart, hint, nil)
		}
		s.aborted = true
		s.finish()
		return nil
	}
	s.ep, s.proc = ep, proc
	s.c = &conn{
		p: ep, extras: s.extras, notice: s.extras, probe: s.probe, turnSent: s.turnSent,
		helloGrace: max(time.Second, s.cfg.Startup/2), turnGrace: max(time.Second, s.cfg.Move),
	}
	defer func() {
		ep.Close()
		s.stderrTail = ep.StderrTail()
	}()
	if proc != nil {
		s.rec.pass(CheckStart, "started %s (pid %d)", shellJoin(s.cfg.Command), proc.Pid())
	} else {
		s.rec.pass(CheckStart, "opened a session of %s, which runs elsewhere: its lines are judged here, its process is not", shellJoin(s.cfg.Command))
	}
	for g := range s.cfg.Games {
		ok, err := s.play(g)
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

func gameID(g int) string { return fmt.Sprintf("check-g%04d", g) }

// refereeConfig is game g as the referee plays it: the seed of its deal,
// the limits, and a policy under which an illegal choice is a strike (the
// referee plays a random legal action for the bot) and any other failure
// forfeits, which ends the game and the session.
func refereeConfig(cfg *Config, g int) referee.Config {
	return referee.Config{
		Game: cfg.Game, Options: cfg.Options, Seed: seed.Derive(cfg.Seed, "check", uint64(g)),
		Match: "check", GameID: gameID(g), Limits: clock.Limits{Startup: cfg.Startup, Move: cfg.Move, Margin: cfg.Margin},
		Policy: referee.StrikeIllegal, MaxStrikes: math.MaxInt,
	}
}

// names are game g's players: the bot in seat g mod Seats, the checker
// in the others.
func names(cfg *Config, g int) []string {
	names := make([]string, cfg.Seats)
	for i := range names {
		names[i] = fmt.Sprintf("random-%d", i)
	}
	names[g%cfg.Seats] = "bot"
	return names
}

func (s *session) players(g int) []referee.Player {
	players := make([]referee.Player, s.cfg.Seats)
	for i, name := range names(s.cfg, g) {
		players[i] = referee.Player{Name: name, Conn: &checkerSeat{rng: s.rng, bot: s.c}}
	}
	players[g%s.cfg.Seats].Conn = s.c
	return players
}

// play has the referee play game g, then judges it; false ends the session.
func (s *session) play(g int) (bool, error) {
	s.game, s.seat = g, g%s.cfg.Seats
	s.report(Progress{Stage: StageGame, Game: g + 1, Seat: s.seat})
	s.c.newGame()
	// The referee closes the players' conns when ctx ends; the bot's
	// (conn) only marks itself out: its endpoint is closed here.
	stop := context.AfterFunc(s.ctx, func() { s.ep.Close() })
	defer stop()
	res, err := referee.Play(s.ctx, refereeConfig(s.cfg, g), s.players(g))
	if err != nil {
		return false, err
	}
	return s.observe(g, res), nil
}

// observe goes through the messages of game g with what the referee made of
// the bot's answers (res) and what the conn saw on the wire, turning them
// into the checks' observations; false ends the session.
func (s *session) observe(g int, res *referee.Result) bool {
	var forfeit *referee.Failure
	strikes := map[int64]*referee.Failure{}
	for i, f := range res.Forfeits {
		if f.Seat == s.seat {
			forfeit = &res.Forfeits[i]
		}
	}
	for i, f := range res.Strikes {
		if f.Seat == s.seat {
			strikes[f.Turn] = &res.Strikes[i]
		}
	}
	for _, ex := range s.c.log {
		f := strikes[ex.id]
		if forfeit != nil && forfeit.Turn == ex.id && ex.kind != protocol.TypeEnd {
			f, forfeit = forfeit, nil
		}
		switch ex.kind {
		case protocol.TypeHello:
			if !s.hello(g, ex, f) {
				return false
			}
		case kindNotice:
			s.loc = "game 1, after ready"
			s.gone(CheckNoCrash, "sending a message of an unknown type", ex.sendErr)
			return false
		case protocol.TypeTurn:
			if !s.turn(g, ex, f) {
				return false
			}
			if s.probe {
				return true
			}
			s.phase = stageLater
		case protocol.TypeEnd:
			s.gamesPlayed++
			if ex.sendErr != nil {
				s.loc = fmt.Sprintf("game %d end", g+1)
				s.gone(CheckKeepAlive, "sending end", ex.sendErr)
				return false
			}
		}
	}
	if forfeit != nil { // about a turn the bot was never sent
		s.loc = fmt.Sprintf("game %d turn %d", g+1, forfeit.Turn)
		s.fail(CheckNoCrash, "the checker could not encode the turn: %v", forfeit.Err)
		return false
	}
	return true
}

// hello judges the answer to game g's hello; f is the referee's failure,
// nil if it took the answer as ready.
func (s *session) hello(g int, ex *exchange, f *referee.Failure) bool {
	s.loc = fmt.Sprintf("game %d hello", g+1)
	switch {
	case ex.sendErr != nil:
		s.goneAtHello(g, ex.sendErr)
		return false
	case f == nil:
		s.unasked(ex, ex.aside, "before ready")
		var r protocol.Ready
		_ = json.Unmarshal(ex.reply, &r)
		if s.name == "" && s.version == "" {
			s.name, s.version = r.Name, r.Version
		}
		s.readyOK = true
		s.readies++
		s.readyTimes = append(s.readyTimes, ex.think)
		if ex.late {
			s.fail(CheckStartupTime, "ready after %s, limit %v + %v margin", fmtDur(ex.think), s.cfg.Startup, s.cfg.Margin)
		}
		if g > 0 {
			s.keptAlive++
		}
		if g == 0 {
			s.phase = stageTurn
		}
		return true
	case ex.reply != nil || len(ex.aside) > 0:
		// A wrong answer; or only actions, which the referee skips at
		// hello but are all the bot said: the first is the answer.
		problem, line, rest := judge.WrongType, ex.reply, ex.aside
		if line != nil {
			problem = f.Problem
		} else {
			line, rest = rest[0], rest[1:]
		}
		s.unasked(ex, rest, "before the answer to hello")
		detail, hint := readyProblem(problem, line)
		if ex.err != nil && !errors.Is(ex.err, transport.ErrTimeout) && problem != judge.ErrorSent {
			detail += "; then " + s.goneDetail(ex.err)
		}
		s.protocolError(CheckReady, hint, "%s", detail)
	case errors.Is(ex.err, transport.ErrTimeout):
		s.silent = true
		s.fail(CheckReady, "no answer within %v + %v margin (nothing after waiting %s); answer hello with {\"type\":\"ready\"} and flush stdout%s",
			s.cfg.Startup, s.cfg.Margin, fmtDur(ex.waited), s.stderrHint())
	default:
		s.goneAtHello(g, ex.err)
	}
	return false
}

// turn judges the answer to a turn of game g; f is the referee's failure,
// nil if it took the answer. An illegal choice (a strike: the referee
// played for the bot) lets the game go on; false ends the session: a
// protocol error, no answer at all, a lost bot.
func (s *session) turn(g int, ex *exchange, f *referee.Failure) bool {
	s.loc = fmt.Sprintf("game %d turn %d", g+1, ex.id)
	switch {
	case ex.sendErr != nil:
		s.gone(CheckNoCrash, "sending the turn", ex.sendErr)
		return false
	case ex.reply == nil && errors.Is(ex.err, transport.ErrTimeout):
		s.fail(CheckThinkTime, "no answer within %v + %v margin, nor in %s after it: giving up (a half-written line or unflushed output?)",
			s.cfg.Move, s.cfg.Margin, fmtDur(ex.waited-s.cfg.Move-s.cfg.Margin))
		return false
	case ex.reply == nil && errors.Is(ex.err, protocol.ErrLineTooLong):
		s.replies++
		s.protocolError(CheckReplyFormat, s.tooLongHint(), "%v", ex.err)
		return false
	case ex.reply == nil:
		s.gone(CheckNoCrash, "while it was to act", ex.err)
		return false
	}
	// The referee took the line as the answer to this turn, even if it
	// then found no legal choice in it.
	taken := f == nil || f.Reason == protocol.ReasonIllegalAction || f.Problem == judge.NoChoice
	if taken {
		s.unasked(ex, ex.aside, "before the answer")
	} else {
		s.unasked(ex, ex.aside, "with the answer")
	}
	s.replies++
	if taken {
		s.think = append(s.think, ex.think)
	}
	if ex.late {
		s.fail(CheckThinkTime, "answered after %s, limit %v + %v margin", fmtDur(ex.think), s.cfg.Move, s.cfg.Margin)
	}
	var msg protocol.Action
	_ = json.Unmarshal(ex.reply, &msg)
	hasChoice := msg.Index != nil || (len(msg.Action) > 0 && string(msg.Action) != "null")
	if f == nil || f.Reason == protocol.ReasonIllegalAction {
		s.wellFormedAnswer(msg)
		s.answered++
		if f == nil {
			s.legalOK++
		} else {
			s.fail(CheckLegal, "%s", illegal(*f, msg, legalOf(ex.turn)))
		}
		return true
	}
	if f.Problem == judge.WrongID && hasChoice {
		s.wellFormedAnswer(msg)
	}
	check, hint, detail := s.answerProblem(*f, legalOf(ex.turn))
	s.protocolError(check, hint, "%s", detail)
	if ex.err != nil && f.Problem != judge.ErrorSent {
		if errors.Is(ex.err, protocol.ErrLineTooLong) {
			s.protocolError(CheckReplyFormat, s.tooLongHint(), "%v", ex.err)
		} else {
			s.gone(CheckNoCrash, "after its answer", ex.err)
		}
	}
	return false
}

// legalOf is the legal actions of a turn as the referee sent them.
func legalOf(turn []byte) []json.RawMessage {
	var t protocol.Turn
	_ = json.Unmarshal(turn, &t)
	return t.Legal
}

func (s *session) goneAtHello(g int, err error) {
	if g > 0 && errors.Is(err, transport.ErrClosed) {
		s.fail(CheckKeepAlive, "the process was gone at the next hello (%s): keep running after end until bye%s", closedDetail(err), s.stderrHint())
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
	return "lost the bot: " + closedDetail(err) + s.stderrHint()
}

// closedDetail is what the transport saw of a lost bot, without the
// "connection closed" that every such error starts with.
func closedDetail(err error) string {
	var closed *transport.ClosedError
	if errors.As(err, &closed) {
		return closed.Detail
	}
	return err.Error()
}

func (s *session) stderrHint() string {
	tail := strings.TrimSpace(s.ep.StderrTail())
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

// readyProblem says what is wrong with an answer to hello, line, which
// the referee refused for problem, and what to send instead.
func readyProblem(problem judge.Problem, line []byte) (detail, hint string) {
	switch problem {
	case judge.NotUTF8:
		return "answer to hello is not valid UTF-8: " + clip(line), "write UTF-8 only; " + readyHint
	case judge.ErrorSent:
		return "the bot refused the game: " + protocol.ErrorText(line, clipLen),
			"refuse only a protocol version or a game you cannot play; " + readyHint
	case judge.NotJSON:
		// What the decoder of a ready says of it, which the referee only
		// looked into for its type.
		var r protocol.Ready
		return fmt.Sprintf("answer to hello is not a JSON object (%v): %s", json.Unmarshal(line, &r), clip(line)), readyHint
	}
	t, _ := protocol.PeekType(line)
	return fmt.Sprintf("expected a ready message, got type %q: %s", t, clip(line)), readyHint
}

// unasked reports lines set aside in an exchange: nobody asked for them.
func (s *session) unasked(ex *exchange, lines [][]byte, where string) {
	for _, l := range lines {
		if extraAnswer(ex.kind, ex.id, l) {
			var a protocol.Action
			_ = json.Unmarshal(l, &a)
			s.fail(CheckHygiene, "an extra action (for turn id %d) %s: answer each turn exactly once", a.ID, where)
			continue
		}
		s.fail(CheckHygiene, "an unasked line %s: %s (stdout is for protocol lines only; log to stderr)", where, clip(l))
	}
}

// answerProblem says which check an answer the referee refused fails,
// what the bot should have sent instead (legalJSON: the turn's legal
// actions), and what is wrong.
func (s *session) answerProblem(f referee.Failure, legalJSON []json.RawMessage) (check, hint, detail string) {
	id, line := f.Turn, f.Line
	example := func(index int) string { return fmt.Sprintf(`{"type":"action","id":%d,"index":%d}`, id, index) }
	switch f.Problem {
	case judge.NotUTF8:
		return CheckReplyFormat, "write UTF-8 only, one JSON object per line: " + example(0),
			"the answer is not valid UTF-8: " + clip(line)
	case judge.NotJSON:
		var te *json.UnmarshalTypeError
		if errors.As(f.Err, &te) && te.Field != "" {
			return CheckReplyFormat, `"id" and "index" are integers (5, not "5" or 5.0), "type" a string, "action" an object: ` + example(0),
				fmt.Sprintf("a field of the answer has the wrong type (%v): %s", f.Err, clip(line))
		}
		return CheckReplyFormat, "answer every turn with one JSON object on one line, such as " + example(0) + ", and write anything else to stderr",
			fmt.Sprintf("the answer is not a JSON object (%v): %s", f.Err, clip(line))
	}
	var msg protocol.Action
	_ = json.Unmarshal(line, &msg)
	send := example(0)
	if msg.Index != nil && *msg.Index >= 0 && *msg.Index < len(legalJSON) {
		send = example(*msg.Index)
	}
	switch f.Problem {
	case judge.ErrorSent:
		return CheckReplyFormat, "send an error only to give up, then exit; answer a turn with " + send,
			"the bot sent an error: " + protocol.ErrorText(line, clipLen)
	case judge.WrongType:
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
	case judge.NoChoice:
		return CheckReplyFormat, fmt.Sprintf(`add "index", the position of your choice in "legal" from 0: %s`, example(0)),
			`the action message has neither "action" nor "index"`
	}
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(line, &fields)
	if _, hasID := fields["id"]; !hasID {
		return CheckIDs, "echo the turn's id in every answer: " + send,
			fmt.Sprintf(`the answer has no "id" (expected %d): %s`, id, clip(line))
	}
	return CheckIDs, `copy "id" from the turn you answer (never compute it) and answer each turn once: ` + send,
		fmt.Sprintf("answer id %d, expected %d: %s", msg.ID, id, clip(line))
}

// illegal says why the choice in msg, which the referee struck, is not
// one of legalJSON.
func illegal(f referee.Failure, msg protocol.Action, legalJSON []json.RawMessage) string {
	switch f.Problem {
	case judge.IndexOutOfRange:
		return f.Detail // "index 9999 out of range 0..31"
	case judge.UnreadableAction:
		return fmt.Sprintf("unreadable action %s: %v", clip(msg.Action), f.Err)
	}
	return fmt.Sprintf("%s is not one of the %d legal actions", clip(msg.Action), len(legalJSON))
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

// bye ends the session: the bot must exit by itself, with status 0, and
// leave nothing running in its process group; a bot that runs elsewhere
// must end its session (byeElsewhere).
func (s *session) bye() {
	s.loc = "bye"
	sent := time.Now()
	bye := []byte(`{"type":"bye"}`)
	if s.extras {
		bye = addField(bye, xFuture)
	}
	if err := s.c.send(bye, sent.Add(time.Second)); err != nil {
		s.loc = fmt.Sprintf("game %d end", s.cfg.Games)
		if errors.Is(err, transport.ErrClosed) {
			s.fail(CheckKeepAlive, "the process was gone after the last end, before bye (%s): keep running until bye%s", closedDetail(err), s.stderrHint())
		} else {
			s.gone(CheckBye, "sending bye", err)
		}
		s.aborted = true
		return
	}
	s.completed = true
	s.report(Progress{Stage: StageBye})
	if s.proc == nil {
		s.byeElsewhere(sent)
		return
	}
	s.byeProcess(sent)
}

// byeProcess judges the exit after bye, sent at sent, of a bot that is a
// process here.
func (s *session) byeProcess(sent time.Time) {
	grace := s.cfg.ByeGrace
	exited := func() bool {
		select {
		case <-s.ep.Done():
			return true
		default:
			return false
		}
	}
	// A match closes a bot's stdin just after bye; a bot should exit on
	// reading bye, but one that exits only at the end of its input (a
	// Node bot whose stdin stream keeps it alive) plays all the same. So
	// stdin stays open for a while first, then is closed, and a bot that
	// exits only then is warned, not failed.
	openUntil := sent.Add(min(grace/4, byeOpenWait))
	// On a loaded machine a bot that exits on reading bye can take long
	// to do it (an interpreter's teardown waiting for a CPU): the time it
	// waited moves the close of its stdin on, by the fair clock's rule
	// (clock.Forgiven), up to the grace, so that it is not taken for a
	// bot that waits for the end of its input.
	// The grace moves on alike, up to the wall cap a move of that
	// allowance would have (clock.Limits.WallCap): a bot's exit that
	// waits for a CPU is not a bot that does not exit.
	meter, metered := s.ep.(transport.Meter)
	var fairFrom transport.Usage
	if metered {
		fairFrom, metered = meter.Usage()
	}
	forgiven := time.Duration(0)
	lastEnd := sent.Add(clock.Limits{}.WallCap(grace))
	end := func() time.Time {
		if metered {
			if u, ok := meter.Usage(); ok {
				d := u.Since(fairFrom)
				forgiven = max(forgiven, clock.Forgiven(time.Since(sent), d.Ran, d.Waited, d.Throttled, d.Rate))
			}
		}
		if t := sent.Add(grace + forgiven); t.Before(lastEnd) {
			return t
		}
		return lastEnd
	}
	// closeAt is when the input is closed, by the end until.
	closeAt := func(until time.Time) time.Time {
		if t := openUntil.Add(forgiven); t.Before(until) {
			return t
		}
		return until
	}
	inputClosed := false
	// Read what the bot writes until it exits (or closes stdout, or the
	// grace is over), in short slices: a child that keeps stdout open must
	// not hide the exit.
	for !exited() {
		until := end()
		if !time.Now().Before(until) {
			break
		}
		if !inputClosed && !time.Now().Before(closeAt(until)) {
			s.proc.CloseInput()
			inputClosed = true
		}
		line, err := s.c.receive(byeSlice(until))
		if err == nil {
			s.fail(CheckHygiene, "an unasked line after the last end or after bye: %s", clip(line))
			continue
		}
		if !errors.Is(err, transport.ErrTimeout) {
			break
		}
	}
	// The loop also ends when the bot closes its stdout, which an exiting
	// bot does just before the exit is seen: its input is closed only at
	// closeAt, as in the loop, so a bot that exits on bye is never
	// judged to have waited for the end of its input (on a loaded machine
	// the exit can be seen well after the stdout closed).
	//
	// waitExit waits for the exit until deadline, which it reads again at
	// every slice: it moves with the time forgiven.
	waitExit := func(deadline func() time.Time) bool {
		for {
			until := deadline()
			if !time.Now().Before(until) {
				return false
			}
			t := time.NewTimer(time.Until(byeSlice(until)))
			select {
			case <-s.ep.Done():
				t.Stop()
				return true
			case <-t.C:
			}
		}
	}
	// First while the input is to stay open, then to the end.
	if !exited() && (inputClosed || !waitExit(func() time.Time { return closeAt(end()) })) {
		if !inputClosed {
			s.proc.CloseInput()
			inputClosed = true
		}
		waitExit(end)
	}
	took := time.Since(sent)
	if !exited() {
		s.fail(CheckBye, "still running %v after bye (its process group was killed): exit as soon as you read bye", fmtDur(took))
		s.rec.skip(CheckProcessGroup, "not judged: the bot did not exit by itself")
		return
	}
	// Lines written just before the exit.
	for {
		line, err := s.c.receive(time.Now().Add(10 * time.Millisecond))
		if err != nil {
			break
		}
		s.fail(CheckHygiene, "an unasked line after the last end or after bye: %s", clip(line))
	}
	if status := s.proc.ExitStatus(); !status.Success() {
		s.fail(CheckBye, "%s after bye; exit with status 0%s", status, s.stderrHint())
	} else if inputClosed {
		s.rec.warn(CheckBye, "exited with status 0 %s after bye, after its stdin was closed: a match closes it too, so this plays, but exit as soon as you read bye (a Node bot: call process.exit(0))", fmtDur(took))
	} else {
		s.rec.pass(CheckBye, "exited with status 0 within %s of bye", fmtDur(took))
	}
	s.processGroup()
}

func (s *session) processGroup() {
	pgid := s.proc.Pid()
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

// byeElsewhere judges the end after bye, sent at sent, of a bot that
// runs elsewhere: what it writes is still read, and a session still open
// at the end of the grace is warned. How its process exited, whether it
// would have exited only at the end of its input (its stdin is not ours
// to close, so the two cannot be told apart: a warning, not a failure)
// and what it left running are seen only where it runs: not judged.
func (s *session) byeElsewhere(sent time.Time) {
	until := sent.Add(s.cfg.ByeGrace)
	for {
		line, err := s.c.receive(until)
		if err == nil {
			s.fail(CheckHygiene, "an unasked line after the last end or after bye: %s", clip(line))
			continue
		}
		took := fmtDur(time.Since(sent))
		if errors.Is(err, transport.ErrTimeout) {
			s.rec.warn(CheckBye, "its session was still open %s after bye (now closed): exit as soon as you read bye; "+
				"whether it exits at the end of its input, as a match lets it, is seen only where it runs", took)
		} else {
			s.rec.skip(CheckBye, "not judged: %s, so its exit is not seen here; its session ended %s after bye (it reports: %s)%s",
				elsewhere(s.cfg), took, closedDetail(err), judgeThere)
		}
		s.rec.skip(CheckProcessGroup, "not judged: %s, so what it leaves running is not seen here%s", elsewhere(s.cfg), judgeThere)
		return
	}
}

// remote says whether the bot's session ran elsewhere: it started, and
// is not a process here.
func (s *session) remote() bool { return s.ep != nil && s.proc == nil }

// elsewhere says that the bot is not a process here, for the checks it
// leaves unjudged; judgeThere says how to judge them.
func elsewhere(cfg *Config) string { return shellJoin(cfg.Command) + " runs elsewhere" }

const judgeThere = "; run arena check with its command where it runs to judge it"

// byeSlice is the end of the next slice of the wait after bye, at the
// latest until: short, so that the wait's end, which moves with the time
// forgiven, is read again often.
func byeSlice(until time.Time) time.Time {
	if slice := time.Now().Add(10 * time.Millisecond); slice.Before(until) {
		return slice
	}
	return until
}

// readyNames is how the bot named itself in its ready, for the ready
// check's line: " (name "x", version "1.2")", what of the two it gave, or
// nothing.
func readyNames(name, version string) string {
	var given []string
	if name != "" {
		given = append(given, fmt.Sprintf("name %q", name))
	}
	if version != "" {
		given = append(given, fmt.Sprintf("version %q", version))
	}
	if len(given) == 0 {
		return ""
	}
	return " (" + strings.Join(given, ", ") + ")"
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
		r.pass(CheckReady, "%s answered with ready%s%s", hellos(s.readies), readyNames(s.name, s.version), early)
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
// Of a bot that runs elsewhere (remote), only the message and the end of
// its session are seen, not how its process exited.
func protocolVersion(cfg *Config, rec *recorder, remote bool) {
	const name = CheckProtocolVersion
	p, proc, err := startBot(cfg)
	if err != nil {
		what := "process could not be started"
		if remote {
			what = "session could not be opened"
		}
		rec.skip(name, "not judged: a second %s: %v", what, err)
		return
	}
	defer p.Close()
	// ended says how the bot ended, once it has.
	ended := func() string {
		if proc == nil {
			return "its session ended"
		}
		return "the process " + proc.ExitStatus().String()
	}
	v := protocol.Version + 1
	// Game 1's hello, but for the version.
	h := refereeConfig(cfg, 0).Hello(0, names(cfg, 0))
	h.Protocol = v
	line, _ := json.Marshal(h)
	start := time.Now()
	waitExit := func() bool {
		t := time.NewTimer(cfg.ByeGrace)
		defer t.Stop()
		select {
		case <-p.Done():
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
		if proc == nil {
			rec.skip(name, "not judged: %s, so its exit is not seen here; a hello with protocol %d ended its session without a word: "+
				"answer {\"type\":\"error\",\"message\":...} and exit", elsewhere(cfg), v)
			return
		}
		if st := proc.ExitStatus(); st.Success() {
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
			rec.pass(name, "a hello with protocol %d is refused: %q, and %s", v, protocol.ErrorText(reply, clipLen), ended())
		} else {
			running := "the process was still running"
			if proc == nil {
				running = "its session was still open"
			}
			rec.warn(name, "a hello with protocol %d is refused (%q), but %s %v later: exit after the error", v, protocol.ErrorText(reply, clipLen), running, cfg.ByeGrace)
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

func isErrorMsg(line []byte) bool {
	t, err := protocol.PeekType(line)
	return err == nil && t == protocol.TypeError
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

// startBot starts a session of the bot, and says whether it is a
// process here (proc nil: it runs elsewhere). A local bot's descendants
// are left alive when it exits, for the process-group check.
func startBot(cfg *Config) (ep bot.Endpoint, proc bot.Process, err error) {
	ep, err = cfg.Bot.Launch("check", bot.LaunchOptions{MaxLine: cfg.MaxLine, LeaveDescendants: true})
	if err != nil {
		return nil, nil, err
	}
	proc, _ = ep.(bot.Process)
	return ep, proc, nil
}
