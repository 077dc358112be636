package web

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/arena-dev/arena/replays/viewer"
)

//go:embed play.js
var playScript string

//go:embed play.css
var playStyle string

// The page's one script and its style: the replay viewer's drawing of a
// view and its style sheet, then the seat's own.
var (
	script = viewer.DrawScript() + "\n" + playScript
	style  = viewer.Style() + "\n" + playStyle
)

// contentPolicy lets the page run its one script (by its hash) and its
// inline style, reach this server only (the feed, the moves), and load
// nothing else: no external asset, no frame, no form.
var contentPolicy = func() string {
	sum := sha256.Sum256([]byte(script))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	return "default-src 'none'; script-src " + hash + "; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}()

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>arena play</title>
<style>{{.Style}}</style>
</head>
<body>
<noscript>This page needs JavaScript.</noscript>
<script>{{.Script}}</script>
</body>
</html>
`))

// Bounds on what a page may ask of the server: feeds open at once (a
// person has a tab or two), the size of a move's request, the time
// between keep-alive comments on a quiet feed.
const (
	maxFeeds  = 8
	maxBody   = 1 << 10
	keepAlive = 15 * time.Second
	retryMS   = 1000
)

// Server serves a Seat's page: everything under a path of its own,
// /KEY/, with KEY random, so that only who was given the URL (the person
// at the terminal that started arena play) sees the seat's hand or moves
// for it; any other path is not found.
//
//	GET  /KEY/         the page (its script and style inline)
//	GET  /KEY/events   the feed: server-sent events, one message each
//	POST /KEY/act      {"id": TURN, "index": I}: the person's move
//	POST /KEY/leave    the person leaves the game (a forfeit)
type Server struct {
	seat  *Seat
	key   string
	mux   *http.ServeMux
	feeds chan struct{}
	page  []byte
}

// NewServer is the server of seat's page, with a fresh random key.
func NewServer(seat *Seat) *Server {
	b := make([]byte, 16)
	rand.Read(b) // never fails (crypto/rand)
	s := &Server{seat: seat, key: hex.EncodeToString(b), mux: http.NewServeMux(), feeds: make(chan struct{}, maxFeeds)}
	var page bytes.Buffer
	if err := pageTemplate.Execute(&page, map[string]any{"Style": template.CSS(style), "Script": template.JS(script)}); err != nil {
		panic(err) // the template and its inputs are this package's own
	}
	s.page = page.Bytes()
	s.mux.HandleFunc("GET /{key}/{$}", s.keyed(s.servePage))
	s.mux.HandleFunc("GET /{key}/events", s.keyed(s.events))
	s.mux.HandleFunc("POST /{key}/act", s.keyed(jsonOnly(s.act)))
	s.mux.HandleFunc("POST /{key}/leave", s.keyed(jsonOnly(s.leave)))
	return s
}

// Path is the page's path on the server: /KEY/.
func (s *Server) Path() string { return "/" + s.key + "/" }

// ServeHTTP serves the page, its feed and the moves (Server).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", contentPolicy)
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

// keyed serves h only under the server's key (compared in constant
// time); any other is not found.
func (s *Server) keyed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.PathValue("key")), []byte(s.key)) != 1 {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}
}

func (s *Server) servePage(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(s.page)
}

// events is the feed: each message once, its id its number, from the
// first the page has not seen (Last-Event-ID, when the browser
// reconnects); a "reset" event first when some of those were forgotten
// (the page starts again from what follows), a "closed" event when the
// match is over and the seat closed.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	select {
	case s.feeds <- struct{}{}:
		defer func() { <-s.feeds }()
	default:
		http.Error(w, "too many pages open on this seat: close one", http.StatusServiceUnavailable)
		return
	}
	after, err := strconv.ParseInt(r.Header.Get("Last-Event-ID"), 10, 64)
	if err != nil {
		after = -1 // a new page: everything kept, after a reset
	}
	w.Header().Set("Content-Type", "text/event-stream")
	rc := http.NewResponseController(w)
	out := fmt.Appendf(nil, "retry: %d\n\n", retryMS)
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	for {
		msgs, whole, wake, done := s.seat.feed.since(after)
		if !whole {
			out = append(out, "event: reset\ndata: {}\n\n"...)
		}
		for _, e := range msgs {
			out = fmt.Appendf(out, "id: %d\ndata: %s\n\n", e.seq, e.data)
			after = e.seq
		}
		if done {
			out = append(out, "event: closed\ndata: {}\n\n"...)
		}
		if _, err := w.Write(out); err != nil {
			return
		}
		if err := rc.Flush(); err != nil || done {
			return
		}
		out = out[:0]
		select {
		case <-r.Context().Done():
			return
		case <-wake:
		case <-ping.C:
			out = append(out, ": ping\n\n"...)
		}
	}
}

// jsonOnly serves h only a JSON request (a form posted from another site
// cannot be one without the browser asking first), so that no other page
// moves for the person or makes them leave.
func jsonOnly(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "want a JSON request (Content-Type: application/json)", http.StatusUnsupportedMediaType)
			return
		}
		h(w, r)
	}
}

// act takes the person's move (a JSON request only: jsonOnly).
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	var m struct {
		ID    int64 `json:"id"`
		Index *int  `json:"index"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if err := dec.Decode(&m); err != nil || m.Index == nil {
		http.Error(w, `want {"id": TURN, "index": I}, the turn and its legal action`, http.StatusBadRequest)
		return
	}
	switch err := s.seat.Choose(m.ID, *m.Index); {
	case errors.Is(err, ErrNotNow):
		http.Error(w, err.Error()+": the page shows the turn that is", http.StatusConflict)
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
	default:
		w.WriteHeader(http.StatusNoContent)
	}
}

// leave ends the person's game (Seat.Leave); a JSON request only, as act.
func (s *Server) leave(w http.ResponseWriter, _ *http.Request) {
	s.seat.Leave()
	w.WriteHeader(http.StatusNoContent)
}
