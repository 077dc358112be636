// Package report writes the HTML report of an arena results directory
// (a tournament's, or an `arena match --out` or `arena sprt --out`
// directory): one self-contained file, opened in any browser with no
// server and no network, showing the standings with rating error bars,
// the head-to-head matrix as a heat map for any number of bots, the
// ratings game by game, an elimination's bracket, forfeits and strikes
// by reason per bot with links to their games, an SPRT's LLR against its
// bounds, and a link to every game's viewer page.
//
// The directory is read as `arena tournament standings` reads it (Load:
// tournament.Open, tournament.Compute), so the report counts what the
// standings count, and may be written while a run plays into the
// directory: it reads and writes nothing else there, and replaces its
// own file atomically (Write). Charts are SVG drawn in the file (the
// matrix by its script, from JSON in the page); every name is escaped by
// html/template, so a hostile bot name is text, never markup.
package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/internal/atomicfile"
	"github.com/arena-dev/arena/internal/words"
	"github.com/arena-dev/arena/replays"
)

// DefaultName is the report's file name in the results directory when
// no other is given.
const DefaultName = "report.html"

// ViewerDir is the directory, next to the report, of the games' viewer
// pages: ViewerDir/GAMEID.html.
const ViewerDir = "viewer"

// Options change how a report is written.
type Options struct {
	// WriteViewer, if set, writes the viewer page of the replay at
	// src (a file, or a span of a pack) to htmlPath (ViewerDir/GAMEID.html
	// next to the report) and the report links each game to it; a page
	// newer than its replay's file is kept, not written again. Nil: the
	// report links each game to its replay file instead (a pack, for a
	// game recorded in one). It should write htmlPath whole or not at all
	// (a temporary file renamed), as the report does its own file. A
	// page it fails to write leaves its game unlinked, with the error
	// beside it and in the warnings; the report is still written.
	WriteViewer func(src replays.Source, htmlPath string) error
	// Now is the time the report says it was made (zero: time.Now).
	Now time.Time
}

// Write reads the results directory dir (Load) and writes its report to
// out (DefaultName in dir if ""), atomically: a temporary file beside it,
// renamed over it, so a reader never sees half a report. With
// opt.WriteViewer the games' viewer pages are written first.
func Write(dir, out string, opt Options) (*Report, error) {
	r, err := Load(dir)
	if err != nil {
		return nil, err
	}
	out = Path(dir, out)
	links, err := r.links(filepath.Dir(out), opt.WriteViewer)
	if err != nil {
		return r, err
	}
	var buf bytes.Buffer
	if err := r.render(&buf, links, opt.Now, opt.WriteViewer != nil); err != nil {
		return r, err
	}
	return r, writeAtomic(out, buf.Bytes())
}

// Path is where Write writes the report of dir given out: out, or
// DefaultName in dir if "".
func Path(dir, out string) string {
	if out == "" {
		return filepath.Join(dir, DefaultName)
	}
	return out
}

// HTML writes the report to w as a page that sits in outDir: its links to
// the games' replays are relative to outDir (no viewer pages).
func (r *Report) HTML(w io.Writer, outDir string) error {
	links, err := r.links(outDir, nil)
	if err != nil {
		return err
	}
	return r.render(w, links, time.Time{}, false)
}

// writeAtomic writes data to path through a temporary file in the same
// directory, renamed over path once complete.
func writeAtomic(path string, data []byte) error {
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

// safeID is a game id that is a plain file name: ids come from the
// ledger, which must not lead a link or a viewer page out of its
// directory.
var safeID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// replaySource is where the replay of rec is in dir, false if the game
// id is not a plain file name, the line names its replay anywhere but
// where the arena puts it (a pack of replays/, or replays/GAME_ID.jsonl.zst),
// or the file is not there.
func replaySource(dir string, rec ledger.Record) (replays.Source, bool) {
	if !safeID.MatchString(rec.GameID) {
		return replays.Source{}, false
	}
	rel := filepath.Join("replays", rec.GameID+replays.Ext)
	if rec.ReplayAt != nil {
		rel = rec.Replay
		if d, name := filepath.Split(rel); d != "replays"+string(filepath.Separator) {
			return replays.Source{}, false
		} else if _, ok := replays.PackSeq(name); !ok {
			return replays.Source{}, false
		}
	}
	src := replays.Source{Path: filepath.Join(dir, rel), At: rec.ReplayAt}
	return src, exists(src.Path)
}

// pageLinks are the href of each game by id (its viewer page, or its
// replay) and, for the games that have none, why not.
type pageLinks struct {
	Href    map[string]string
	Missing map[string]string
}

// links finds or writes each game's page, relative to outDir. A game
// whose replay is missing, or whose viewer page cannot be written (a
// damaged replay), gets no link, its reason in Missing, and a warning: the
// report is still written. Only a viewer directory that cannot be made is
// an error.
func (r *Report) links(outDir string, writeViewer func(src replays.Source, htmlPath string) error) (pageLinks, error) {
	l := pageLinks{Href: map[string]string{}, Missing: map[string]string{}}
	var noReplay, noPage []string
	for _, rec := range r.Records {
		src, ok := replaySource(r.Dir, rec)
		if !ok {
			if safeID.MatchString(rec.GameID) {
				l.Missing[rec.GameID] = "replay missing"
				noReplay = append(noReplay, rec.GameID)
			}
			continue
		}
		if writeViewer == nil {
			if href, err := relHref(outDir, src.Path); err == nil {
				l.Href[rec.GameID] = href
			}
			continue
		}
		page := filepath.Join(outDir, ViewerDir, rec.GameID+".html")
		if !newer(page, src.Path) {
			if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
				return l, fmt.Errorf("viewer pages: %w", err)
			}
			if err := writeViewer(src, page); err != nil {
				l.Missing[rec.GameID] = fmt.Sprintf("no viewer page: %v", err)
				noPage = append(noPage, fmt.Sprintf("viewer page of %s not written: %v", src, err))
				continue
			}
		}
		l.Href[rec.GameID] = ViewerDir + "/" + url.PathEscape(rec.GameID) + ".html"
	}
	if n := len(noReplay); n > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %d of %d games have no replay (first: %s.jsonl.zst): they are listed without a link",
			filepath.Join(r.Dir, "replays"), n, len(r.Records), noReplay[0]))
	}
	if n := len(noPage); n > MaxPageWarnings {
		noPage = append(noPage[:MaxPageWarnings], fmt.Sprintf("and %d more viewer pages not written", n-MaxPageWarnings))
	}
	r.Warnings = append(r.Warnings, noPage...)
	return l, nil
}

// MaxPageWarnings is how many viewer pages not written the warnings name
// one by one; the rest are counted (each game's row says why in any case).
const MaxPageWarnings = 10

// newer says the file at path exists and is not older than src.
func newer(path, src string) bool {
	a, err := os.Stat(path)
	if err != nil {
		return false
	}
	b, err := os.Stat(src)
	return err == nil && !a.ModTime().Before(b.ModTime())
}

// relHref is target as a relative URL from the directory from.
func relHref(from, target string) (string, error) {
	af, err := filepath.Abs(from)
	if err != nil {
		return "", err
	}
	at, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(af, at)
	if err != nil {
		return "", err
	}
	u := url.URL{Path: filepath.ToSlash(rel)}
	return u.EscapedPath(), nil
}

//go:embed report.html.tmpl
var pageTemplate string

//go:embed report.css
var pageCSS string

//go:embed report.js
var pageJS string

// page is the report's template, parsed when a report is first rendered:
// every arena process (each bundled bot is one) would otherwise parse it
// at start, a third of a millisecond (GODEBUG=inittrace=1).
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"css":       func() template.CSS { return template.CSS(pageCSS) },
		"count":     words.Count,
		"keepWords": keepWords,
		"oneLine":   oneLine,
		"barWidth":  func() int { return barWidth },
		"js":        func() template.JS { return template.JS(pageJS) },
	}).Parse(pageTemplate))
})

func (r *Report) render(w io.Writer, links pageLinks, now time.Time, viewer bool) error {
	if now.IsZero() {
		now = time.Now()
	}
	v := r.view(links, now)
	if viewer {
		v.GamePage = "viewer page"
	}
	return page().Execute(w, v)
}
