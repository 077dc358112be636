package web

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
)

// Defaults of Options, declared once.
const (
	// PollEvery is how often the server looks at the ledger's and
	// roster's sizes when no one calls Changed: a stat each, cheap.
	PollEvery = 500 * time.Millisecond
	// Recent is how many games /games and a bot's page list.
	Recent = 100
	// MaxFeeds is how many live feeds (/events) the server keeps open at
	// once. Each holds a connection and a goroutine for as long as its
	// client likes, and the leaderboard may share its process (run
	// --http) with the games: a client opening feeds by the thousand
	// must not use up the files and memory the games need. A browser
	// refused polls instead.
	MaxFeeds = 256
)

// Options tune a Server; zero fields keep their defaults.
type Options struct {
	// PollEvery is how often the files are looked at (PollEvery).
	PollEvery time.Duration
	// Recent is how many games a list shows (Recent).
	Recent int
	// MaxFeeds is how many feeds may be open at once (MaxFeeds).
	MaxFeeds int
}

// Server is a ladder's leaderboard: an http.Handler for the pages and
// the feed (see the routes in ServeHTTP). It reads the ladder directory
// and nothing else, and never writes.
type Server struct {
	dir  string
	name string
	opt  Options
	mux  *http.ServeMux

	ledger  tail
	roster  stamp
	results stamp

	mu      sync.RWMutex
	st      *state
	gen     int           // bumps when the ledger is read again from its start
	wake    chan struct{} // closed (and replaced) when games become visible
	problem error         // why the files could not be read further, for the pages

	feeds   chan struct{} // a token per open feed, at most Options.MaxFeeds
	changed chan struct{}
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
}

// stamp is what a file looked like when last read.
type stamp struct {
	size int64
	mod  time.Time
}

func stampOf(path string) stamp {
	st, err := os.Stat(path)
	if err != nil {
		return stamp{size: -1}
	}
	return stamp{size: st.Size(), mod: st.ModTime()}
}

// New serves the ladder in dir: it reads its ladder file (for the rating
// model), its roster and its ledger, then follows them (Changed, or
// every opts.PollEvery) until Close.
func New(dir string, opts Options) (*Server, error) {
	if opts.PollEvery <= 0 {
		opts.PollEvery = PollEvery
	}
	if opts.Recent <= 0 {
		opts.Recent = Recent
	}
	if opts.MaxFeeds <= 0 {
		opts.MaxFeeds = MaxFeeds
	}
	path := filepath.Join(dir, ladder.FileName)
	f, err := ladder.LoadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s is %w: no %s (make one with arena ladder init)", dir, ladder.ErrNotLadder, ladder.FileName)
	}
	if err != nil {
		return nil, err
	}
	c, err := f.Resolve(path, dir)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, name: c.Name, opt: opts, st: newState(c.Rating, c.Initial, opts.Recent),
		ledger: tail{path: filepath.Join(dir, ledger.FileName)}, wake: make(chan struct{}),
		feeds: make(chan struct{}, opts.MaxFeeds), changed: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	s.routes()
	s.refresh()
	go s.follow()
	return s, nil
}

// Changed tells s that the ledger or the roster may have grown: it reads
// them at once rather than at its next look. It does not wait.
func (s *Server) Changed() {
	select {
	case s.changed <- struct{}{}:
	default:
	}
}

// Close stops following the files and ends the feeds' connections.
func (s *Server) Close() error {
	s.once.Do(func() { close(s.stop) })
	<-s.done
	return nil
}

// follow reads the files when told to, or when their stamps change.
func (s *Server) follow() {
	defer close(s.done)
	tick := time.NewTicker(s.opt.PollEvery)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-s.changed:
		case <-tick.C:
			if stampOf(s.ledger.path) == s.results && stampOf(filepath.Join(s.dir, ladder.RosterName)) == s.roster {
				continue
			}
		}
		s.refresh()
	}
}

// batch is how many ledger lines the server reads at a time.
const batch = 4096

// refresh reads what the files hold beyond what was read. Only one
// goroutine at a time calls it (New, then follow).
func (s *Server) refresh() {
	rosterPath := filepath.Join(s.dir, ladder.RosterName)
	results, rosterStamp := stampOf(s.ledger.path), stampOf(rosterPath)
	var roster *ladder.Roster
	var rosterErr error
	if rosterStamp != s.roster {
		roster, _, rosterErr = ladder.ReadRoster(rosterPath)
	}
	s.results, s.roster = results, rosterStamp
	s.mu.Lock()
	if roster != nil {
		s.st.roster = roster
	}
	s.mu.Unlock()
	// A ledger rewritten shorter is read again into a fresh state, which
	// replaces the old one whole: no page shows it half read.
	var fresh *state
	var err error
	for {
		var recs []ledger.Record
		recs, err = s.ledger.next(batch)
		switch {
		case errors.Is(err, errShrunk):
			fresh = newState(s.st.params, s.st.initial, s.opt.Recent)
			continue
		case fresh != nil:
			fresh.add(recs)
		default:
			s.mu.Lock()
			if s.st.add(recs) > 0 {
				s.announce()
			}
			s.mu.Unlock()
		}
		if err != nil || len(recs) < batch {
			break
		}
	}
	if fresh != nil {
		s.mu.Lock()
		fresh.roster = s.st.roster
		s.st, s.gen = fresh, s.gen+1
		s.announce()
		s.mu.Unlock()
	}
	s.mu.Lock()
	s.problem = errors.Join(err, rosterErr)
	s.mu.Unlock()
}

// announce wakes the feeds. s.mu is held.
func (s *Server) announce() {
	close(s.wake)
	s.wake = make(chan struct{})
}

// view runs fn on the state, read-locked.
func (s *Server) view(fn func(st *state, gen int)) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	fn(s.st, s.gen)
}
