// Package check runs a bot through a protocol compliance session, like
// fastchess's --compliance. Its games are played by the real referee, so
// a bot is judged exactly as in a match; the bot's connection is wrapped
// (conn) to record the lines exchanged and to add what a match only
// tolerates or punishes: unknown fields and message types, noise and late
// answers noted rather than forfeited, and, around the games, staying
// alive across them, a clean exit on bye with no process left behind, and
// the refusal of an unknown protocol version. The bot is any bot.Launcher:
// of a session that is a process here (bot.Process) the exit and the
// process group are judged too; of one that runs elsewhere (a remote
// bot) only what it says, and the report says what was not judged.
// Every check ends as pass, fail, warn or skip with a reason;
// docs/check.md lists them.
package check

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/protocol"
)

// Status is the verdict of one check.
type Status string

// Verdicts. Only Fail makes the session fail; Warn is advice (a failure
// under Config.Strict); Skip means the check could not be judged, mostly
// because an earlier failure ended the session.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	Warn Status = "warn"
	Skip Status = "skip"
)

// Check names, in report order.
const (
	CheckStart           = "start"
	CheckReady           = "ready"
	CheckStartupTime     = "startup-time"
	CheckUnknownFields   = "unknown-fields"
	CheckReplyFormat     = "reply-format"
	CheckIDs             = "ids"
	CheckLegal           = "legal"
	CheckThinkTime       = "think-time"
	CheckHygiene         = "stdout-hygiene"
	CheckNoCrash         = "no-crash"
	CheckKeepAlive       = "keep-alive"
	CheckBye             = "bye"
	CheckProcessGroup    = "process-group"
	CheckProtocolVersion = "protocol-version"
)

// Checks lists every check with what it verifies, in report order.
var Checks = []struct{ Name, Means string }{
	{CheckStart, "the command can be started"},
	{CheckReady, "every hello is answered with one valid ready line (UTF-8 JSON object of type ready)"},
	{CheckStartupTime, "every ready arrives within the start-up limit plus margin"},
	{CheckUnknownFields, "unknown fields in hello, turn, view, clock, end and bye, and an unknown message type, are ignored"},
	{CheckReplyFormat, "every answer to a turn is one UTF-8 JSON object of type action with an index or an action"},
	{CheckIDs, "every action echoes the id of the turn it answers"},
	{CheckLegal, "every index is in range and every action object is one of the legal ones"},
	{CheckThinkTime, "every action arrives within the move limit plus margin"},
	{CheckHygiene, "nothing but answers on stdout: no banner, debug print, blank line, second answer or answer to end/bye"},
	{CheckNoCrash, "the process keeps running and reading during the games"},
	{CheckKeepAlive, "the process survives end and answers the next game's hello"},
	{CheckBye, "on bye the process exits by itself with status 0 within the grace"},
	{CheckProcessGroup, "once the bot has exited, nothing it started is left in its process group"},
	{CheckProtocolVersion, "a hello with an unknown protocol version is refused (error message, or a non-zero exit)"},
}

// Config is one compliance session.
type Config struct {
	Game    engine.Game
	Options engine.Options // resolved for Seats (engine.Setup)
	Seats   int
	// Bot starts the sessions of the bot checked, as a match does (a
	// local program confined as in a match, so that what passes here
	// passes there; a bot served elsewhere). A session that is a process
	// here (bot.Process) is judged as a process too: how it exits after
	// bye and what it leaves in its process group. Of any other only the
	// lines are judged, and the report says which checks could not be.
	Bot bot.Launcher
	// Command names the bot in the report: a local program's words
	// (already split), or the command as written ("nats:alice").
	Command []string
	// Games played in the same process (at least 1; 2 or more checks
	// keep-alive). The bot takes seat g mod Seats in game g; the checker
	// plays the other seats with random legal actions.
	Games int
	Seed  uint64
	// Startup, Move and Margin as in a match (clock.Limits); Move must be
	// positive.
	Startup, Move, Margin time.Duration
	// ByeGrace is how long the bot may take to exit after bye (1 s if 0),
	// plus, under the fair clock, the time it waited for a CPU meanwhile
	// (up to clock.Limits.WallCap of it). Its stdin is closed a quarter
	// of it (at most byeOpenWait) after the bye: a bot that exits only
	// then is warned.
	ByeGrace time.Duration
	// MaxLine limits one line from the bot (protocol.DefaultMaxLine if 0).
	MaxLine int
	// Strict turns warnings into failures.
	Strict bool
	// Progress, if set, is told where the session is: at the start of
	// every game and of every later stage, and, during a game, as a turn
	// is sent once ProgressEvery has passed since the last report (never
	// if ProgressEvery is 0). It is called from the session's goroutine.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// byeOpenWait bounds how long a bot's stdin stays open after bye: a bot
// that has not exited by then reads end of file (Config.ByeGrace).
const byeOpenWait = 250 * time.Millisecond

// Stage is what a session is doing, for Config.Progress.
type Stage string

// Stages in the order a session goes through them.
const (
	StageGame    Stage = "game"             // playing game Progress.Game
	StageProbe   Stage = "unknown-fields"   // replaying the start without unknown fields
	StageBye     Stage = "bye"              // bye sent, waiting for the exit
	StageVersion Stage = "protocol-version" // a second process offered protocol 2
)

// Progress is one report of where a session is.
type Progress struct {
	Stage Stage
	// Game is 1-based, of Games; Seat is the bot's in that game.
	Game, Games, Seat int
	// Turn is the id of the turn being sent in this game (0 as the game
	// starts), Turns the turns sent in the whole session, that one
	// included.
	Turn, Turns int
}

// String is the progress line: "game 2/4 (seat 1): turn 37 (150 turns in all)".
func (p Progress) String() string {
	switch p.Stage {
	case StageGame:
		if p.Turn == 0 {
			return fmt.Sprintf("game %d/%d (seat %d): starting", p.Game, p.Games, p.Seat)
		}
		return fmt.Sprintf("game %d/%d (seat %d): turn %d (%d turns in all)", p.Game, p.Games, p.Seat, p.Turn, p.Turns)
	case StageProbe:
		return "unknown-fields: replaying the start in a fresh process without unknown fields"
	case StageBye:
		return fmt.Sprintf("bye: sent after %d games and %d turns, waiting for the exit", p.Games, p.Turns)
	case StageVersion:
		return fmt.Sprintf("protocol-version: offering a fresh process protocol %d", protocol.Version+1)
	}
	return string(p.Stage)
}

// Result is one check's verdict.
type Result struct {
	Name   string `json:"name"`
	Status Status `json:"status"`
	// Detail says what was seen: the evidence for a pass, the first
	// failure's reason, or why the check was skipped.
	Detail string `json:"detail"`
	// Failures counts failed observations (a fail may repeat every turn).
	Failures int `json:"failures,omitempty"`
	// Hint says what the bot should have sent instead, and Transcript
	// shows the last lines exchanged up to the bad one ("R> " from the
	// checker, "B> " from the bot, long lines clipped): both are set for
	// a protocol error, which stops the session.
	Hint       string   `json:"hint,omitempty"`
	Transcript []string `json:"transcript,omitempty"`
}

// Timing summarises durations in milliseconds.
type Timing struct {
	Count  int     `json:"count"`
	Min    float64 `json:"min_ms"`
	Median float64 `json:"median_ms"`
	Max    float64 `json:"max_ms"`
}

// BotInfo is what the bot said about itself in ready.
type BotInfo struct {
	Name    string `json:"name,omitempty"`
	Version string `json:"version,omitempty"`
}

// Report is the outcome of a session.
type Report struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Seats   int               `json:"seats"`
	Command []string          `json:"command"`
	// Remote is true when the bot's sessions are not processes here (a
	// bot served elsewhere): the checks of its process were skipped.
	Remote    bool     `json:"remote,omitempty"`
	Games     int      `json:"games"`
	Seed      uint64   `json:"seed"`
	StartupMs int64    `json:"startup_ms"`
	MoveMs    int64    `json:"move_ms"`
	MarginMs  int64    `json:"margin_ms"`
	Bot       *BotInfo `json:"bot,omitempty"`
	// GamesPlayed counts games played to their end in the session, Turns
	// the turns sent to the bot.
	GamesPlayed int `json:"games_played"`
	Turns       int `json:"turns"`
	// Stopped says where a protocol error stopped the session
	// ("game 1 turn 1"), empty if none did.
	Stopped string `json:"stopped,omitempty"`
	// Startup is hello-to-ready per game (the first includes process start).
	Startup *Timing `json:"startup,omitempty"`
	// Think is turn-to-action over every answered turn.
	Think  *Timing  `json:"think,omitempty"`
	Checks []Result `json:"checks"`
	// StderrTail is the end of what the bot wrote to stderr, shown when a
	// check failed.
	StderrTail string `json:"stderr_tail,omitempty"`
	Passed     int    `json:"passed"`
	Failed     int    `json:"failed"`
	Warnings   int    `json:"warnings"`
	Skipped    int    `json:"skipped"`
	// OK is true when no check failed.
	OK bool `json:"ok"`
}

// Run plays the compliance session. Bot failures are in the report; the
// error is for the arena's own failures (an engine that breaks its
// contract).
func Run(cfg Config) (*Report, error) { return RunContext(context.Background(), cfg) }

// RunContext is Run that ctx can interrupt (a ladder that stops while
// it validates a submission): the game being played ends at once, its
// bot closed, and the session returns ctx's error and no report.
func RunContext(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Games < 1 {
		cfg.Games = 1
	}
	if cfg.ByeGrace <= 0 {
		cfg.ByeGrace = time.Second
	}
	if cfg.Seats <= 0 {
		cfg.Seats = cfg.Game.Info().MinSeats
	}
	rec := newRecorder()
	sess := &session{ctx: ctx, cfg: &cfg, rec: rec, extras: true, rng: rand.New(rand.NewPCG(cfg.Seed, 0xc4ec)), progress: cfg.Progress}
	if err := sess.run(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Unknown fields: a bot that chokes on them fails at the first hello or
	// the first turn. If it did, replay that much without them: only a
	// bot that then does fine is blamed.
	readyOK := sess.readyOK
	switch {
	case sess.firstFail == stageHello || sess.firstFail == stageTurn:
		sess.report(Progress{Stage: StageProbe})
		probe := &session{ctx: ctx, cfg: &cfg, rec: newRecorder(), probe: true, rng: rand.New(rand.NewPCG(cfg.Seed, 0xc4ec))}
		if err := probe.run(); err != nil {
			return nil, err
		}
		readyOK = readyOK || probe.readyOK
		what := "the first hello"
		if sess.firstFail == stageTurn {
			what = "its first turn"
		}
		blame := probe.readyOK && probe.firstFail != stageHello // the hello went fine without them
		if sess.firstFail == stageTurn {
			blame = probe.replies > 0 && probe.firstFail == stageNone // so did the first turn
		}
		if blame {
			rec.fail(CheckUnknownFields, "%s failed with unknown fields (see %s) and passed without them; ignore fields and message types you do not know", what, sess.firstFailCheck)
		} else {
			rec.skip(CheckUnknownFields, "not judged: the bot fails %s the same way without unknown fields", what)
		}
	case sess.replies > 0 && sess.completed:
		rec.pass(CheckUnknownFields, "hello, turn, view, clock, end and bye carried an unknown field and an unknown message type was sent: all ignored")
	case sess.replies > 0:
		rec.skip(CheckUnknownFields, "not fully judged: the session ended early (messages with unknown fields were answered until then)")
	default:
		rec.skip(CheckUnknownFields, "not judged: the bot answered no turn")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if readyOK {
		sess.report(Progress{Stage: StageVersion})
		protocolVersion(&cfg, rec, sess.remote())
	} else {
		rec.skip(CheckProtocolVersion, "not judged: the bot never answered a hello with ready")
	}

	rep := &Report{
		Game: cfg.Game.Info().Name, Options: cfg.Options, Seats: cfg.Seats, Command: cfg.Command, Remote: sess.remote(),
		Games: cfg.Games, Seed: cfg.Seed, StartupMs: cfg.Startup.Milliseconds(), MoveMs: cfg.Move.Milliseconds(),
		MarginMs: cfg.Margin.Milliseconds(), GamesPlayed: sess.gamesPlayed, Turns: sess.turns, Stopped: sess.stopped,
		Startup: timing(sess.readyTimes), Think: timing(sess.think),
	}
	if sess.name != "" || sess.version != "" {
		rep.Bot = &BotInfo{Name: sess.name, Version: sess.version}
	}
	for _, c := range Checks {
		r := rec.result(c.Name, cfg.Strict)
		rep.Checks = append(rep.Checks, r)
		switch r.Status {
		case Pass:
			rep.Passed++
		case Fail:
			rep.Failed++
		case Warn:
			rep.Warnings++
		case Skip:
			rep.Skipped++
		}
	}
	rep.OK = rep.Failed == 0
	if !rep.OK {
		rep.StderrTail = sess.stderrTail
	}
	return rep, nil
}

// recorder collects observations per check. The first failure's reason is
// kept, later ones only counted.
type recorder struct {
	m map[string]*tally
}

type tally struct {
	fails  int
	first  string
	hint   string
	trail  []string
	pass   string
	skip   string
	warn   string
	judged bool
}

func newRecorder() *recorder {
	r := &recorder{m: map[string]*tally{}}
	for _, c := range Checks {
		r.m[c.Name] = &tally{}
	}
	return r
}

func (r *recorder) fail(name, format string, args ...any) {
	t := r.m[name]
	if t.fails == 0 {
		t.first = fmt.Sprintf(format, args...)
	}
	t.fails++
	t.judged = true
}

// explain adds what to send instead, and the transcript, to a check's
// first failure.
func (r *recorder) explain(name, hint string, transcript []string) {
	t := r.m[name]
	if t.fails == 1 && t.hint == "" && t.trail == nil {
		t.hint, t.trail = hint, transcript
	}
}

func (r *recorder) pass(name, format string, args ...any) {
	t := r.m[name]
	t.pass = fmt.Sprintf(format, args...)
	t.judged = true
}

func (r *recorder) warn(name, format string, args ...any) {
	t := r.m[name]
	t.warn = fmt.Sprintf(format, args...)
	t.judged = true
}

// skip records why a check could not be judged, unless it already has a
// verdict.
func (r *recorder) skip(name, format string, args ...any) {
	t := r.m[name]
	if !t.judged && t.skip == "" {
		t.skip = fmt.Sprintf(format, args...)
	}
}

func (r *recorder) result(name string, strict bool) Result {
	t := r.m[name]
	switch {
	case t.fails > 0:
		d := t.first
		if t.fails > 1 {
			d += fmt.Sprintf(" (and %d more)", t.fails-1)
		}
		return Result{Name: name, Status: Fail, Detail: d, Failures: t.fails, Hint: t.hint, Transcript: t.trail}
	case t.warn != "" && strict:
		return Result{Name: name, Status: Fail, Detail: t.warn + " (--strict)", Failures: 1}
	case t.warn != "":
		return Result{Name: name, Status: Warn, Detail: t.warn}
	case t.skip != "":
		return Result{Name: name, Status: Skip, Detail: t.skip}
	case t.pass != "":
		return Result{Name: name, Status: Pass, Detail: t.pass}
	}
	return Result{Name: name, Status: Skip, Detail: "not reached"}
}

func timing(ds []time.Duration) *Timing {
	if len(ds) == 0 {
		return nil
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return &Timing{Count: len(s), Min: ms(s[0]), Median: ms(s[len(s)/2]), Max: ms(s[len(s)-1])}
}

// fmtDur shows a duration in milliseconds, with decimals when short.
func fmtDur(d time.Duration) string {
	ms := float64(d.Microseconds()) / 1000
	switch {
	case ms < 10:
		return fmt.Sprintf("%.2fms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0fms", ms)
	}
	return fmt.Sprintf("%.2fs", ms/1000)
}
