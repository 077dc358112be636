package viewer

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/arena-dev/arena/internal/atomicfile"

	"github.com/arena-dev/arena/replays"
)

//go:embed draw.js
var drawScript string

//go:embed viewer.js
var viewerScript string

//go:embed viewer.css
var style string

// script is the page's one script: the drawing of a view (draw.js, which
// arena play --web's page shares: DrawScript), then the viewer.
var script = drawScript + "\n" + viewerScript

// DrawScript is the script that draws one view of a game as the viewer
// does (the cards, the Banqi board): it defines arenaDraw(bots), which
// returns the drawing functions (see draw.js). A page of its own
// (arena play --web) includes it before its script, with Style.
func DrawScript() string { return drawScript }

// Style is the viewer's style sheet, which draws what DrawScript makes.
func Style() string { return style }

// scriptHash is the Content-Security-Policy source of the page's one
// script: the page runs it and nothing else, so even a string that got
// past the escaping could not run, and it loads nothing from anywhere.
var scriptHash = func() string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src {{.ScriptHash}}; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head>
<body>
<noscript>This replay viewer needs JavaScript.</noscript>
<script type="application/json" id="replay-data">{{.Data}}</script>
<script>{{.Script}}</script>
</body>
</html>
`))

// WriteHTML re-simulates r and writes its viewer page to w: one HTML
// document with the viewer's script, its style and the game's data
// inline, which any browser opens from a file with no network access.
// opts choose whose views the page holds (Options, ForSeat); a seat the
// game does not have is an error wrapping ErrNoSeat. A replay the engine
// cannot re-simulate is an error as replays.Walk reports it.
func WriteHTML(w io.Writer, r *replays.Replay, opts Options) error {
	p, err := build(r, opts)
	if err != nil {
		return err
	}
	// json.Marshal escapes <, > and & (so "</script>" in a bot's name
	// cannot close the element) and U+2028/U+2029.
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("viewer: encoding the page data: %w", err)
	}
	title := fmt.Sprintf("%s %s: %s", r.Header.Game, r.Header.GameID, strings.Join(p.Bots, " vs "))
	if opts.OneSeat {
		title += fmt.Sprintf(" (as seat %d saw it)", opts.Seat)
	}
	return pageTemplate.Execute(w, map[string]any{
		"Title":      title,
		"ScriptHash": template.HTMLAttr(scriptHash),
		"Style":      template.CSS(style),
		"Data":       template.JS(data),
		"Script":     template.JS(script),
	})
}

// WriteFile reads the replay at replayPath and writes its viewer page
// (WritePage) to htmlPath.
func WriteFile(htmlPath, replayPath string, opts Options) error {
	r, err := replays.ReadFile(replayPath)
	if err != nil {
		return err
	}
	return WritePage(htmlPath, r, opts)
}

// WritePage writes the viewer page of r (WriteHTML) to htmlPath,
// atomically: readers see the whole page or none.
func WritePage(htmlPath string, r *replays.Replay, opts Options) error {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, opts); err != nil {
		return err
	}
	if err := atomicfile.Write(htmlPath, buf.Bytes()); err != nil {
		return fmt.Errorf("viewer: %w", err)
	}
	return nil
}

// WriteSource writes the viewer page, every seat's view, of the replay
// at src (a file, or a span of a pack) to htmlPath: a report's
// WriteViewer (arena/report).
func WriteSource(src replays.Source, htmlPath string) error {
	r, err := src.Read()
	if err != nil {
		return err
	}
	return WritePage(htmlPath, r, Options{})
}

// IsDir says whether out names a directory for pages rather than one
// page's file: a directory that is there, or a name ending in a path
// separator (made when the pages are written).
func IsDir(out string) bool {
	fi, err := os.Stat(out)
	return (err == nil && fi.IsDir()) || strings.HasSuffix(out, string(filepath.Separator))
}

// Dest is where the page of r goes: named after its replay file, or
// after gameID for a game of a pack; beside its replay when out is "",
// in the directory out when outDir, else at out itself.
func Dest(r *replays.Replay, gameID, out string, outDir bool, opts Options) string {
	name := PageName(r.Path, opts)
	if replays.IsPack(r.Path) {
		name = GamePageName(gameID, opts)
	}
	switch {
	case outDir:
		return filepath.Join(out, name)
	case out != "":
		return out
	}
	return filepath.Join(filepath.Dir(r.Path), name)
}

// PageName is the viewer page's file name for a replay file: the
// replay's name with .html for replays.Ext (GAME_ID.jsonl.zst becomes
// GAME_ID.html), and .seatK.html for a one-seat page.
func PageName(replayPath string, opts Options) string {
	return GamePageName(strings.TrimSuffix(filepath.Base(replayPath), replays.Ext), opts)
}

// GamePageName is the viewer page's file name for game gameID (a game of
// a pack, whose file is not named after it): GAME_ID.html, or
// GAME_ID.seatK.html for a one-seat page.
func GamePageName(gameID string, opts Options) string {
	if opts.OneSeat {
		return fmt.Sprintf("%s.seat%d.html", gameID, opts.Seat)
	}
	return gameID + ".html"
}
