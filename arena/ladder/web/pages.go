package web

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/replays"
	"github.com/arena-dev/arena/replays/viewer"
)

var (
	//go:embed page.html.tmpl
	pageText string
	//go:embed style.css
	styleText string
	//go:embed live.js
	scriptText string
)

var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{
	"botURL":  botURL,
	"gameURL": gameURL,
	"num":     func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
}).Parse(pageText))

// botURL is the path of a bot's page.
func botURL(bot string) string { return "/bot/" + url.PathEscape(bot) }

// gameURL is the path of a game's replay viewer.
func gameURL(id string) string { return "/game/" + url.PathEscape(id) }

// contentPolicy lets a page run its inline script and style and load
// nothing else: no external asset, no frame, no form.
const contentPolicy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// routes are the server's pages.
func (s *Server) routes() {
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /{$}", s.page(func(st *state, p *page, _ *http.Request) bool {
		p.Title, p.Standings = "Standings", standings(st)
		return true
	}))
	s.mux.HandleFunc("GET /games", s.page(func(st *state, p *page, _ *http.Request) bool {
		p.Title, p.Games = "Recent games", recentGames(st, s.opt.Recent)
		return true
	}))
	s.mux.HandleFunc("GET /bot/{name}", s.page(func(st *state, p *page, r *http.Request) bool {
		p.Bot = botPageOf(st, r.PathValue("name"), s.opt.Recent)
		if p.Bot == nil {
			return false
		}
		p.Title = p.Bot.Name
		return true
	}))
	s.mux.HandleFunc("GET /game/{id}", s.game)
	s.mux.HandleFunc("GET /events", s.events)
}

// ServeHTTP serves:
//
//	GET /           the standings
//	GET /bot/NAME   a bot's page
//	GET /games      the most recent games
//	GET /game/ID    a game's replay viewer
//	GET /events     the feed (server-sent events) of games as they become visible
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Security-Policy", contentPolicy)
	s.mux.ServeHTTP(w, r)
}

// page is what the template draws: the frame, and one of the pages.
type page struct {
	Title, Ladder string
	Style         template.CSS
	Script        template.JS
	After         string // the feed's event id the page is drawn from
	Visible       int    // games shown
	Problem       string

	Standings []row
	Games     []gameRow
	Bot       *botPage
}

// page makes a handler of a page: fill fills it in from the state, or
// says there is no such page (404).
func (s *Server) page(fill func(st *state, p *page, r *http.Request) bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := &page{Ladder: s.name, Style: template.CSS(styleText), Script: template.JS(scriptText)}
		found := false
		s.view(func(st *state, gen int) {
			p.Visible = st.visible
			p.After = strconv.Itoa(gen) + "-" + strconv.Itoa(st.visible)
			if s.problem != nil { // its files named as in the directory, not where it is
				p.Problem = strings.ReplaceAll(s.problem.Error(), s.dir+string(filepath.Separator), "")
			}
			if st.repeated > 0 {
				p.Problem = strings.TrimSpace(p.Problem + " " + fmt.Sprintf("%s: %d lines repeat a game of a table counted whole already: not counted (arena ladder run refuses this ledger and names the line).",
					ledger.FileName, st.repeated))
			}
			found = fill(st, p, r)
		})
		if !found {
			http.NotFound(w, r)
			return
		}
		var buf bytes.Buffer
		if err := pageTemplate.Execute(&buf, p); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Write(buf.Bytes())
	}
}

// gameRow is a game of a list.
type gameRow struct {
	ID      string
	Table   int
	Seats   []seatCell
	Reason  string
	Plies   int
	Version string // on a bot's page: its version in the game
}

// seatCell is a seat of a game: who sat there and where they finished.
type seatCell struct {
	Version, Bot string
	Rank         int
	Score        float64
	Forfeit      bool
}

func gameRowOf(r ledger.Record) gameRow {
	g := gameRow{ID: r.GameID, Table: r.Round, Reason: r.Reason, Plies: r.Plies}
	for seat, name := range r.Bots {
		c := seatCell{Version: name, Bot: botOf(name)}
		if seat < len(r.Ranks) {
			c.Rank = r.Ranks[seat]
		}
		if seat < len(r.Scores) {
			c.Score = r.Scores[seat]
		}
		c.Forfeit = slices.ContainsFunc(r.Forfeits, func(f ledger.SeatFailure) bool { return f.Bot == name })
		g.Seats = append(g.Seats, c)
	}
	return g
}

// recentGames are the last n visible games, the latest first.
func recentGames(st *state, n int) []gameRow {
	var out []gameRow
	for _, g := range slices.Backward(st.recent.last(n)) {
		out = append(out, gameRowOf(g.rec))
	}
	return out
}

// game is GET /game/ID: the replay viewer of a visible game, every seat's
// view (its table is over). A game not visible is not found, whether or
// not the ledger holds it.
func (s *Server) game(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var rec ledger.Record
	found := false
	s.view(func(st *state, _ int) {
		var at *replays.Span
		rec.Replay, at, found = st.replay(id)
		if at != nil {
			span := *at
			rec.ReplayAt = &span
		}
	})
	if !found {
		http.NotFound(w, r)
		return
	}
	rec.GameID = id
	src, err := replaySource(s.dir, rec)
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	rp, err := src.Read()
	if errors.Is(err, fs.ErrNotExist) {
		http.Error(w, "the replay of "+rec.GameID+" is not in the ladder's replays/ (removed?): its result stands in the ledger", http.StatusNotFound)
		return
	}
	if err != nil { // a damaged file: named as in the directory, not where it is
		http.Error(w, "replay of "+rec.GameID+": "+strings.ReplaceAll(err.Error(), s.dir+string(filepath.Separator), ""), http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := viewer.WriteHTML(&buf, rp, viewer.Options{}); err != nil {
		http.Error(w, "replay of "+rec.GameID+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(buf.Bytes())
}

// errReplayPath: a ledger line names a replay outside the ladder's
// replays/ (a line not written by the arena): it is not read.
var errReplayPath = errors.New("names no replay in " + ladder.ReplaysDir)

// replaySource is where rec's replay is, refusing any path but one
// inside dir/replays.
func replaySource(dir string, rec ledger.Record) (replays.Source, error) {
	rel := filepath.FromSlash(rec.Replay)
	inside, err := filepath.Rel(ladder.ReplaysDir, rel)
	if rec.Replay == "" || !filepath.IsLocal(rel) || err != nil || inside == "." || !filepath.IsLocal(inside) {
		return replays.Source{}, &badReplay{game: rec.GameID, path: rec.Replay}
	}
	return rec.ReplaySource(dir), nil
}

// badReplay is errReplayPath for one game.
type badReplay struct{ game, path string }

func (e *badReplay) Error() string {
	return "game " + e.game + ": its ledger line " + errReplayPath.Error() + " (" + strconv.Quote(e.path) + ")"
}

func (e *badReplay) Unwrap() error { return errReplayPath }
