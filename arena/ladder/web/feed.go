package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// keepAlive is how often an idle feed sends a comment, so that proxies
// and browsers keep the connection.
const keepAlive = 15 * time.Second

// retryMS is how long a browser waits before it reconnects a feed.
const retryMS = 2000

// busyRetry is the Retry-After of a feed refused (Options.MaxFeeds).
const busyRetry = 30 * time.Second

// feedGame is the data of a feed's game event: a game that became
// visible (its table whole in the ledger).
type feedGame struct {
	Index  int       `json:"index"`
	ID     string    `json:"id"`
	Table  int       `json:"table"`
	Bots   []string  `json:"bots"`
	Ranks  []int     `json:"ranks"`
	Scores []float64 `json:"scores"`
	Reason string    `json:"reason"`
	Plies  int       `json:"plies"`
}

// events is GET /events: a server-sent-events feed with a "game" event
// for each game as it becomes visible, its id "GEN-N" (N games visible
// after it) so that a reconnecting browser (Last-Event-ID) or a page
// (?after=GEN-N, what it was drawn from) misses none; "reset" says the
// ledger was read again from its start (edited by hand).
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	select {
	case s.feeds <- struct{}{}:
		defer func() { <-s.feeds }()
	default:
		w.Header().Set("Retry-After", strconv.Itoa(int(busyRetry/time.Second)))
		http.Error(w, "too many live feeds open (Options.MaxFeeds): the page polls instead", http.StatusServiceUnavailable)
		return
	}
	gen, next := -1, -1
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		gen, next = parseEventID(id)
	} else if id := r.URL.Query().Get("after"); id != "" {
		gen, next = parseEventID(id)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	rc := http.NewResponseController(w)
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", retryMS); err != nil {
		return
	}
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	for {
		var out []byte
		var wake chan struct{}
		s.view(func(st *state, g int) {
			wake = s.wake
			games, ok := st.since(next)
			switch {
			case next < 0: // a new page: from now on
			case gen != g || next > st.visible || !ok:
				// A page drawn from another ledger (rewritten), or
				// further behind than the state keeps: it redraws whole.
				out = fmt.Appendf(out, "id: %d-%d\nevent: reset\ndata: {}\n\n", g, st.visible)
			default:
				for _, sg := range games {
					out = appendGame(out, g, sg)
				}
			}
			gen, next = g, st.visible
		})
		if len(out) > 0 {
			if _, err := w.Write(out); err != nil {
				return
			}
		}
		if err := rc.Flush(); err != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.stop:
			return
		case <-wake:
		case <-ping.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return
			}
		}
	}
}

// appendGame appends the event of visible game sg.
func appendGame(out []byte, gen int, sg shown) []byte {
	r := sg.rec
	g := feedGame{Index: r.Index, ID: r.GameID, Table: r.Round, Bots: r.Bots, Ranks: r.Ranks,
		Scores: r.Scores, Reason: r.Reason, Plies: r.Plies}
	data, err := json.Marshal(g)
	if err != nil { // a score JSON cannot say (NaN): the game without its scores
		g.Scores = nil
		data, _ = json.Marshal(g)
	}
	return fmt.Appendf(out, "id: %d-%d\nevent: game\ndata: %s\n\n", gen, sg.n+1, data)
}

// parseEventID reads an event id "GEN-N"; -1, -1 if it is not one.
func parseEventID(id string) (gen, n int) {
	a, b, ok := strings.Cut(id, "-")
	g, err1 := strconv.Atoi(a)
	v, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || g < 0 || v < 0 {
		return -1, -1
	}
	return g, v
}
