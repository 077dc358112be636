package remote

import (
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// PresenceSubject is where a server of bot id says that it serves the
// bot, and that it stops: a subject the bot may publish on already
// (arena.ref.BOTID.>), under a token no session id takes (a session's id
// is a NUID, 22 letters and digits).
func PresenceSubject(id string) string { return "arena.ref." + id + ".presence" }

// presenceAll is every bot's PresenceSubject.
const presenceAll = "arena.ref.*.presence"

// announcement is what a Server publishes on its PresenceSubject.
type announcement struct {
	Serving  bool `json:"serving"`
	Sessions int  `json:"sessions,omitempty"`
}

// announce says on nc whether the bot id is served (once the server
// holds its claim, and as it stops). A server that dies says nothing:
// Presence's probes find that out. Disconnected (the NATS server gone,
// as when the ladder that embeds it stopped), it does not wait to
// flush: nothing would answer before nats.go's 10 s flush timeout, which
// held arena connect up that long as it stopped.
func announce(nc *nats.Conn, id string, serving bool, sessions int) {
	b, _ := json.Marshal(announcement{Serving: serving, Sessions: sessions})
	nc.Publish(PresenceSubject(id), b)
	if nc.Status() == nats.CONNECTED {
		nc.FlushTimeout(closeFlush)
	}
}

// PresenceEvery is how often a Presence asks each bot it follows
// whether a server still serves it: the longest a server that died (its
// process killed, its machine gone) is taken for present.
const PresenceEvery = 500 * time.Millisecond

// Presence follows which remote bots are served now, so that a
// long-running run (a ladder) seats a remote bot only while someone
// serves it, rather than letting each of its games wait out the startup
// limit and be forfeited. A server announces itself as it claims its bot
// and as it stops (PresenceSubject); one that dies is found by a probe
// (an open request the server answers at once, and that no responder
// answers when nobody serves the bot), sent to every bot followed every
// Every. A Launcher that finds its bot unserved says so too.
//
// Its methods are safe for concurrent use. Changed has one reader.
type Presence struct {
	nc    *nats.Conn
	every time.Duration
	sub   *nats.Subscription

	mu      sync.Mutex
	bots    map[string]*presenceState
	changed chan struct{}
	stop    chan struct{}
	done    chan struct{}
}

// presenceState is what is known of one bot: seq counts what overrules
// a probe (announcements, a Launcher's finding), so that a probe sent
// before does not undo it.
type presenceState struct {
	served bool
	seq    uint64
}

// NewPresence follows bots' servers on nc, probing every every (0:
// PresenceEvery), until Close.
func NewPresence(nc *nats.Conn, every time.Duration) (*Presence, error) {
	if every <= 0 {
		every = PresenceEvery
	}
	p := &Presence{nc: nc, every: every, bots: map[string]*presenceState{}, changed: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	sub, err := nc.Subscribe(presenceAll, p.heard)
	if err != nil {
		return nil, err
	}
	if err := nc.Flush(); err != nil {
		sub.Unsubscribe()
		return nil, err
	}
	p.sub = sub
	go p.loop()
	return p, nil
}

// Track follows bot id from now on; its first answer is known when
// Track returns.
func (p *Presence) Track(id string) {
	p.mu.Lock()
	_, known := p.bots[id]
	if !known {
		p.bots[id] = &presenceState{}
	}
	p.mu.Unlock()
	if !known {
		p.probe(id)
	}
}

// Served reports whether a server serves bot id, as last heard (false
// for a bot not followed).
func (p *Presence) Served(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.bots[id]
	return st != nil && st.served
}

// Changed receives once a bot's Served may have changed since it was
// last received from.
func (p *Presence) Changed() <-chan struct{} { return p.changed }

// Close stops following.
func (p *Presence) Close() {
	select {
	case <-p.stop:
		return
	default:
	}
	close(p.stop)
	<-p.done
	p.sub.Unsubscribe()
}

// loop probes every bot followed, every p.every, until Close.
func (p *Presence) loop() {
	defer close(p.done)
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		p.mu.Lock()
		ids := make([]string, 0, len(p.bots))
		for id := range p.bots {
			ids = append(ids, id)
		}
		p.mu.Unlock()
		var wg sync.WaitGroup
		for _, id := range ids {
			wg.Add(1)
			go func() { defer wg.Done(); p.probe(id) }()
		}
		wg.Wait()
	}
}

// heard takes a server's announcement.
func (p *Presence) heard(m *nats.Msg) {
	var a announcement
	if json.Unmarshal(m.Data, &a) != nil {
		return
	}
	id := m.Subject[len("arena.ref.") : len(m.Subject)-len(".presence")]
	p.mu.Lock()
	defer p.mu.Unlock()
	if st := p.bots[id]; st != nil {
		st.seq++
		p.setLocked(st, a.Serving)
	}
}

// probe asks whoever serves id whether it does: nobody answering (no
// responders, or no answer in time: a server gone without a word) is
// nobody serving it.
func (p *Presence) probe(id string) {
	p.mu.Lock()
	st := p.bots[id]
	seq := st.seq
	p.mu.Unlock()
	req, _ := json.Marshal(openRequest{Probe: true})
	served := false
	m, err := p.nc.Request(OpenSubject(id), req, openWait)
	if err == nil {
		var r openReply
		// A server that does not know probes answers with an error: it is
		// there, and serves.
		served = json.Unmarshal(m.Data, &r) != nil || r.Serving || r.Error != ""
	} else if !errors.Is(err, nats.ErrNoResponders) && !errors.Is(err, nats.ErrTimeout) {
		return // the arena's own connection: nothing learned of the bot
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if st.seq == seq {
		p.setLocked(st, served)
	}
}

// gone is told by a Launcher that nobody answered its request for a
// session of id.
func (p *Presence) gone(id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if st := p.bots[id]; st != nil {
		st.seq++
		p.setLocked(st, false)
	}
}

// setLocked records what was learned of a bot, and signals a change;
// p.mu is held.
func (p *Presence) setLocked(st *presenceState, served bool) {
	if st.served == served {
		return
	}
	st.served = served
	select {
	case p.changed <- struct{}{}:
	default:
	}
}
