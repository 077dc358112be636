package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nuid"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
	"github.com/arena-dev/arena/protocol"
)

// OpenSubject is where the referee asks for a new session of bot id.
func OpenSubject(id string) string { return "arena.bot." + id + ".open" }

// openRequest asks for a session; openReply answers it.
type openRequest struct {
	Session string `json:"session,omitempty"`
	MaxLine int    `json:"max_line,omitempty"`
	// Claim: a new server of the bot claims it (Server.Serve), not the
	// referee asking for a session.
	Claim string `json:"claim,omitempty"`
	// Probe: a Presence asks whether the bot is served (Serving).
	Probe bool `json:"probe,omitempty"`
	// WaitMs is how long the referee waits for the answer: a server that
	// serves all the sessions it declared holds the request up to that
	// long for one of them to end, rather than answering busy at once
	// (0: it answers at once). The referee closes a bot's session and
	// asks for its next one in the same breath (a new deal wants a new
	// process), and the one closing frees its place a few milliseconds
	// later: answered busy, the referee would wait out its retry.
	WaitMs int64 `json:"wait_ms,omitempty"`
}

type openReply struct {
	Error string `json:"error,omitempty"`
	// Busy: the bot serves as many sessions as it declared; ask again.
	Busy bool `json:"busy,omitempty"`
	// Sessions is how many sessions the bot serves at once.
	Sessions int `json:"sessions,omitempty"`
	// Serving and Claim answer a claim: the server serves the bot
	// already; the nonce it claimed the bot with.
	Serving bool   `json:"serving,omitempty"`
	Claim   string `json:"claim,omitempty"`
}

// Launcher starts sessions of a remote bot: it asks whoever serves the
// bot (Serve: arena connect, an SDK) for a new session, waiting up to
// Wait for one to answer (a bot may connect after the run started) and,
// while the bot serves all the sessions it declared, for one to end.
type Launcher struct {
	NC   *nats.Conn
	ID   string
	Wait time.Duration
	// Grace is how long a session's bot may be unreachable before the
	// session ends as a crash (0: DefaultGrace).
	Grace time.Duration
	// Presence, if set, follows whether the bot is served (Served), and
	// is told when a request for a session finds nobody serving it.
	Presence *Presence

	capacity atomic.Int64 // the sessions the bot declared, from its answers
}

// Capacity is how many sessions the bot serves at once, as it last said
// (0 before it answered).
func (l *Launcher) Capacity() int { return int(l.capacity.Load()) }

// Served reports whether a server serves the bot now, as its Presence
// last heard; without a Presence, true (a run that does not follow its
// remote bots starts their games and waits for them).
func (l *Launcher) Served() bool { return l.Presence == nil || l.Presence.Served(l.ID) }

// ErrNotServed is a remote bot nobody served within the wait. It is a
// timeout (transport.ErrTimeout): a game records it as a startup failure,
// as it does a bot that never answers hello.
var ErrNotServed = fmt.Errorf("no one serves this bot (%w)", transport.ErrTimeout)

// notServedHint is the hint of ErrNotServed (transport.HintOf): what
// serves a remote bot, where the hint for a bot on stdio would say to
// flush its ready line.
func notServedHint(id string) string {
	return fmt.Sprintf("no arena connect --bot %s is serving it: on the bot's machine run arena connect --nats URL --bot %s -- CMD "+
		"(the URL of the server this arena printed) before its games start", id, id)
}

// retry is how often Launch asks again while nobody serves the bot, and
// openWait how long one request waits for an answer (a server that got
// it answers at once).
const (
	retry    = 50 * time.Millisecond
	openWait = time.Second
)

// Launch opens a session and returns its Endpoint.
func (l *Launcher) Launch(_ string, opt bot.LaunchOptions) (bot.Endpoint, error) {
	s := Session{Bot: l.ID, ID: nuid.Next()}
	c, err := NewConn(l.NC, s, opt.MaxLine)
	if err != nil {
		return nil, err
	}
	c.Grace = l.Grace
	deadline := time.Now().Add(l.Wait)
	for {
		if err := c.faultErr(); err != nil {
			c.Close() // a request now would wait out the whole wait
			return nil, err
		}
		wait := min(max(time.Until(deadline), retry), openWait)
		// Half the wait for a place to free, half for the bot's start.
		req, _ := json.Marshal(openRequest{Session: s.ID, MaxLine: c.maxLine, WaitMs: (wait / 2).Milliseconds()})
		m, err := l.NC.Request(OpenSubject(l.ID), req, wait)
		if errors.Is(err, nats.ErrNoResponders) && l.Presence != nil {
			l.Presence.gone(l.ID)
		}
		switch {
		case (errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout)) && time.Now().Add(retry).Before(deadline):
			time.Sleep(retry)
			continue
		case errors.Is(err, nats.ErrNoResponders), errors.Is(err, nats.ErrTimeout):
			c.Close()
			return nil, transport.WithHint(fmt.Errorf("nats:%s: %w within %v", l.ID, ErrNotServed, l.Wait), notServedHint(l.ID))
		case err != nil:
			c.Close()
			return nil, fmt.Errorf("asking nats:%s for a session: %w", l.ID, err)
		}
		var r openReply
		err = json.Unmarshal(m.Data, &r)
		if err == nil && r.Sessions > 0 {
			l.capacity.Store(int64(r.Sessions))
		}
		if err == nil && r.Busy && time.Now().Add(retry).Before(deadline) {
			time.Sleep(retry) // a session of the bot may end meanwhile
			continue
		}
		if err != nil || r.Error != "" {
			c.Close()
			if err != nil {
				return nil, fmt.Errorf("nats:%s answered %q", l.ID, m.Data)
			}
			return nil, fmt.Errorf("nats:%s: %s", l.ID, r.Error)
		}
		return &endpoint{ConnSession: bot.ConnSession{Conn: c, Ended: c.Done()}, c: c}, nil
	}
}

// Build names the bot as a distributed run's jobs do ("nats:ID"): a
// remote bot is whatever serves its id.
func (l *Launcher) Build() (string, error) { return Target{ID: l.ID}.Build() }

// endpoint is a session as the pool holds it (a remote bot's
// diagnostics stay on its own machine).
type endpoint struct {
	bot.ConnSession
	c *Conn
}

// RoundTrip times a probe of the session: the network both ways and the
// serving side's answer.
func (e *endpoint) RoundTrip() (time.Duration, error) {
	start := time.Now()
	_, err := e.c.nc.Request(e.c.s.PingSubject(), nil, probeWait)
	return time.Since(start), err
}

// Server serves one bot over NATS: for each session the referee asks
// for, it starts a local session (a process: stdio.Command's Launch; a bot
// in this process: InProcess) and carries its lines both ways.
type Server struct {
	NC *nats.Conn
	ID string
	// Sessions is how many sessions it serves at once (< 1: 1).
	Sessions int
	// Start starts a local session, given the referee's line limit.
	Start func(opt bot.LaunchOptions) (bot.Endpoint, error)
	// Claimed, if set, is called once the bot is this server's to serve:
	// no other connection serves it, and the referee's requests are
	// answered from then on.
	Claimed func()
	// OnEvent, if set, is told as sessions start and end and as their
	// games end, from the sessions' goroutines (at once: it must be safe
	// for concurrent use).
	OnEvent func(Event)
}

// tell passes e to OnEvent, if set.
func (srv *Server) tell(e Event) {
	if srv.OnEvent != nil {
		srv.OnEvent(e)
	}
}

// Serve serves the bot until ctx ends. It returns ctx's error, or why it
// could not serve: ErrServedElsewhere when another connection serves the
// bot already or claims it at the same moment.
func (srv *Server) Serve(ctx context.Context) error {
	id, nc := srv.ID, srv.NC
	if err := CheckID(id); err != nil {
		return err
	}
	sessions := max(srv.Sessions, 1)
	places := newPlaces(sessions)
	var wg sync.WaitGroup
	// One server per bot: a second (a copy left running, or someone
	// claiming the id) would answer the referee's requests too. A new
	// server claims the id first; see claim.
	c := claimant{nonce: nuid.Next()}
	sub, err := nc.Subscribe(OpenSubject(id), func(m *nats.Msg) {
		reply := func(r openReply) { b, _ := json.Marshal(r); m.Respond(b) }
		var req openRequest
		err := json.Unmarshal(m.Data, &req)
		if err == nil && req.Claim != "" {
			if r, ok := c.answer(req.Claim); ok {
				reply(r)
			}
			return
		}
		if err == nil && req.Probe {
			reply(openReply{Serving: c.won(), Sessions: sessions})
			return
		}
		if err != nil || req.Session == "" {
			reply(openReply{Error: "bad open request"})
			return
		}
		if !c.won() {
			reply(openReply{Busy: true, Sessions: sessions, Error: "busy: starting"})
			return
		}
		// Waiting for a place and starting the bot (a process start): off
		// the subscription's goroutine, which must answer claims and
		// other requests at once.
		wg.Add(1)
		go func() {
			defer wg.Done()
			srv.open(ctx, req, places, reply)
		}()
	})
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	if err := c.claim(nc, id); err != nil {
		return fmt.Errorf("bot %s: %w", id, err)
	}
	if srv.Claimed != nil {
		srv.Claimed()
	}
	announce(nc, id, true, sessions)
	<-ctx.Done()
	sub.Unsubscribe()
	announce(nc, id, false, sessions)
	wg.Wait()
	return ctx.Err()
}

// open serves the session req asks for, once it has a place (waiting up
// to req.WaitMs, at most maxHold, for one), until either side ends it;
// reply answers the request.
func (srv *Server) open(ctx context.Context, req openRequest, places *places, reply func(openReply)) {
	sessions := places.max
	n, got := places.take(ctx, req.Session, min(time.Duration(req.WaitMs)*time.Millisecond, maxHold))
	switch got {
	case placeRunning:
		// A request asked again (its answer came late): the session runs
		// already, and a second bot on its subjects would answer every
		// turn twice.
		reply(openReply{Sessions: sessions})
		return
	case placeBusy:
		reply(openReply{Busy: true, Sessions: sessions, Error: fmt.Sprintf("busy: serving %d sessions at once already (arena connect --sessions)", sessions)})
		return
	}
	release := func() int { return places.release(req.Session) }
	s := Session{Bot: srv.ID, ID: req.Session}
	end, err := NewBotEnd(srv.NC, s, req.MaxLine)
	if err != nil {
		release()
		reply(openReply{Error: err.Error()})
		return
	}
	local, err := srv.Start(bot.LaunchOptions{MaxLine: end.maxLine})
	if err != nil {
		release()
		end.Exit()
		reply(openReply{Error: "starting the bot: " + err.Error()})
		return
	}
	reply(openReply{Sessions: sessions})
	srv.tell(Event{Kind: SessionStarted, Session: n, Running: places.running()})
	watch := &gameWatch{onEnd: func(g *Game) { srv.tell(Event{Kind: GameEnded, Session: n, Running: places.running(), Game: g}) }}
	closer := &closing{local: local, done: make(chan struct{})}
	why := bridge(ctx, end, closer, watch)
	// The bot has exited: its place is free, while its confinement is
	// still being torn down.
	srv.tell(Event{Kind: SessionEnded, Session: n, Running: release(), Game: watch.playing(), Why: why})
	closer.wait()
}

// closing closes a local session once, off the caller's goroutine: a
// process's Close tears its confinement down (its cgroups removed: tens
// of milliseconds) after the process has exited, and the session's
// place is free once it has exited (Done), so that the referee's next
// session, which it asks for as it closes this one, does not wait for
// the teardown.
type closing struct {
	local bot.Endpoint
	once  sync.Once
	done  chan struct{} // closed once Close has returned
}

// start starts closing the local session, if it has not.
func (c *closing) start() {
	c.once.Do(func() {
		go func() {
			defer close(c.done)
			c.local.Close()
		}()
	})
}

// wait closes the local session, if it was not, and waits until it is.
func (c *closing) wait() {
	c.start()
	<-c.done
}

// maxHold bounds how long a server holds a request for a session while
// it has no place (openRequest.WaitMs).
const maxHold = openWait

// places are the sessions a server runs: at most max at once.
type places struct {
	max      int
	mu       sync.Mutex
	served   map[string]bool // session ids running
	numbered int             // sessions started, for their numbers in events
	freed    chan struct{}   // closed and replaced as a session ends
}

func newPlaces(max int) *places {
	return &places{max: max, served: map[string]bool{}, freed: make(chan struct{})}
}

// placeGot is what take got.
type placeGot int

const (
	placeTaken   placeGot = iota
	placeRunning          // the session runs already
	placeBusy             // no place freed within the wait
)

// take takes a place for session id, waiting up to wait for one to free;
// n numbers the session taken.
func (p *places) take(ctx context.Context, id string, wait time.Duration) (n int, got placeGot) {
	var timeout <-chan time.Time
	for {
		p.mu.Lock()
		switch {
		case p.served[id]:
			p.mu.Unlock()
			return 0, placeRunning
		case len(p.served) < p.max:
			p.served[id] = true
			p.numbered++
			n := p.numbered
			p.mu.Unlock()
			return n, placeTaken
		}
		freed := p.freed
		p.mu.Unlock()
		if wait <= 0 {
			return 0, placeBusy
		}
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-freed:
		case <-timeout:
			return 0, placeBusy
		case <-ctx.Done():
			return 0, placeBusy
		}
	}
}

// running counts the sessions running.
func (p *places) running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.served)
}

// release ends session id's place, and counts the sessions left.
func (p *places) release(id string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.served, id)
	close(p.freed)
	p.freed = make(chan struct{})
	return len(p.served)
}

// ErrServedElsewhere: another connection serves the bot already.
var ErrServedElsewhere = errors.New("served by another connection already")

// claimant is a server's claim to its bot id. A new server, once
// subscribed, asks every other subscriber of the id for claimWait: one
// that serves the id already, or claims it with a smaller nonce (asking
// at the same moment, or having asked before this one subscribed), wins,
// and this one gives up. Of servers started together exactly one serves.
type claimant struct {
	nonce string
	mu    sync.Mutex
	state claimState
}

type claimState int

const (
	claiming claimState = iota
	serving
	yielded // another claimant with a smaller nonce asked
)

// answer is the reply to another server's claim (none to this one's own).
func (c *claimant) answer(nonce string) (openReply, bool) {
	if nonce == c.nonce {
		return openReply{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == claiming && nonce < c.nonce {
		c.state = yielded
	}
	return openReply{Serving: c.state == serving, Claim: c.nonce}, true
}

func (c *claimant) won() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == serving
}

// claim asks the other subscribers of id and collects their answers.
func (c *claimant) claim(nc *nats.Conn, id string) error {
	inbox := nc.NewInbox()
	answers, err := nc.SubscribeSync(inbox)
	if err != nil {
		return err
	}
	defer answers.Unsubscribe()
	req, _ := json.Marshal(openRequest{Claim: c.nonce})
	if err := nc.PublishRequest(OpenSubject(id), inbox, req); err != nil {
		return err
	}
	lost := false
	for deadline := time.Now().Add(claimWait); ; {
		m, err := answers.NextMsg(time.Until(deadline))
		if errors.Is(err, nats.ErrTimeout) {
			break
		}
		if err != nil {
			return err
		}
		var r openReply
		if json.Unmarshal(m.Data, &r) == nil && (r.Serving || r.Claim < c.nonce) {
			lost = true
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if lost || c.state == yielded {
		return ErrServedElsewhere
	}
	c.state = serving
	return nil
}

// claimWait is how long a new server waits for other servers of its bot
// to answer its claim.
const claimWait = 250 * time.Millisecond

// lineWait is how long the bridge waits on either end before it looks
// again; a session has no deadline of its own (the referee's clocks are
// the judge).
const lineWait = time.Hour

// bridge carries one session between the referee (end) and the local
// bot until either side ends, and says why it ended ("the bot ended:
// exited with status 1", "the arena closed it; the bot: killed by
// signal 9"); watch follows the session's games.
func bridge(ctx context.Context, end *BotEnd, closer *closing, watch *gameWatch) (why string) {
	local := closer.local
	stop := context.AfterFunc(ctx, closer.start)
	defer stop()
	// A session does not survive its connection being lost: what was
	// sent meanwhile may be gone, and the referee has ended the game as
	// its own fault. The session ends, freeing its place for new ones.
	reconnects := end.nc.Stats().Reconnects
	// closed: the referee closed the session; bye: it said bye first.
	var closed, bye atomic.Bool
	// The session's last game ends (GameEnded, told from the reader)
	// before the session does (SessionEnded, told once bridge returns):
	// the reader ends with the session, or soon after, once it is gone.
	readerDone := make(chan struct{})
	defer func() {
		select {
		case <-readerDone:
		case <-time.After(exitWait):
		}
	}()
	go func() { // referee -> bot
		defer close(readerDone)
		for {
			line, err := end.Receive(time.Now().Add(lineWait))
			if errors.Is(err, transport.ErrTimeout) {
				continue
			}
			if err != nil {
				closed.Store(true)
				closer.start() // the referee closed the session
				return
			}
			if watch.saw(line) == protocol.TypeBye {
				bye.Store(true)
			}
			if err := local.Send(line, time.Now().Add(lineWait)); err != nil {
				return // the bot is gone: the other direction reports it
			}
		}
	}()
	for { // bot -> referee
		// Short reads, so that the end of the bot's output is passed on
		// at once: a read's own deadline bounds how long the transport
		// waits for an exit status after end of output, and the referee's
		// move clock is shorter than any deadline the bridge could pick.
		if end.nc.Stats().Reconnects != reconnects {
			closer.start()
			<-local.Done()
			end.ExitWith("the connection was lost")
			return "the connection to the NATS server was lost"
		}
		line, err := local.Receive(time.Now().Add(bridgeRead))
		switch {
		case err == nil:
			if _, err := end.Write(append(line, '\n')); err != nil {
				closer.start()
				return "passing the bot's line on: " + err.Error()
			}
		case errors.Is(err, transport.ErrTimeout):
		default:
			// Who ended it: a bot that ends after bye, or after the
			// referee closed its session (a forfeit, a run that stops),
			// or here, did not end of its own.
			ended := "the bot ended: "
			switch {
			case ctx.Err() != nil:
				ended = "stopped here; the bot: "
			case bye.Load():
				ended = "the arena needs it no more (bye); the bot: "
			case closed.Load():
				ended = "the arena closed it; the bot: "
			}
			if errors.Is(err, protocol.ErrLineTooLong) {
				end.oversize()
			}
			var ce *transport.ClosedError
			detail := ""
			if errors.As(err, &ce) {
				detail = ce.Detail // the transport's own words: as over stdio
			}
			closer.start()
			<-local.Done()
			if detail == "" {
				detail = "stdout closed (EOF), " + exitText(local, err)
			}
			end.exitDetail(detail)
			return ended + detail
		}
	}
}

// bridgeRead is how long one read of the local bot's output waits.
const bridgeRead = 50 * time.Millisecond

// exitText says how the local bot ended, as the stdio transport words
// it.
func exitText(local bot.Endpoint, err error) string {
	if p, ok := local.(interface{ ExitStatus() transport.ExitStatus }); ok {
		return p.ExitStatus().String()
	}
	var ce *transport.ClosedError
	if errors.As(err, &ce) {
		return ce.Detail
	}
	return err.Error()
}
