package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/internal/replaytest"
	"github.com/arena-dev/arena/replays"
)

// playedMatch plays a real 3-game match into a new directory and
// returns it with its game ids.
func playedMatch(t *testing.T) (string, []string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "m")
	if _, stderr, code := arena(t, "match", "--game", "banqi", "--option", "max_plies=60", "--bot", "a=arena bot random",
		"--bot", "b=arena bot random", "--games", "3", "--out", dir, "-q"); code != 0 {
		t.Fatalf("match: %s", stderr)
	}
	return dir, ledgerGameIDs(t, filepath.Join(dir, "results.jsonl"))
}

// recordOf is the ledger line of game id in the output directory dir.
func recordOf(t *testing.T, dir, id string) ledger.Record {
	t.Helper()
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.GameID == id {
			return r
		}
	}
	t.Fatalf("no game %s in %s", id, dir)
	return ledger.Record{}
}

// replayBytes is the replay of game id of the output directory dir, as a
// replay file of its own holds it (its span of the pack).
func replayBytes(t *testing.T, dir, id string) []byte {
	t.Helper()
	r := recordOf(t, dir, id)
	data, err := os.ReadFile(filepath.Join(dir, r.Replay))
	if err != nil || r.ReplayAt == nil || r.ReplayAt.End() > int64(len(data)) {
		t.Fatalf("game %s: no span %v of %s (%v)", id, r.ReplayAt, r.Replay, err)
	}
	return data[r.ReplayAt.Offset:r.ReplayAt.End()]
}

// copyOf copies the directory dir to a new one, to damage.
func copyOf(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(out, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return out
}

func writeTestFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// editedReplay is the replay at path with its fourth move's action made
// one no game allows, compressed again: a well-formed file whose game
// does not re-simulate.
func editedReplay(t *testing.T, path string) []byte {
	t.Helper()
	lines := replaytest.Lines(t, path)
	if len(lines) < 5 || !strings.Contains(lines[4], `"type":"move"`) {
		t.Fatalf("line 5 of %s is not a move: %s", path, lines[4])
	}
	i := strings.Index(lines[4], `"action":`)
	j := strings.Index(lines[4][i:], "}")
	lines[4] = lines[4][:i] + `"action":{"type":"flip","square":"z9"` + lines[4][i+j:]
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll([]byte(strings.Join(lines, "\n")+"\n"), nil)
}

// TestReplayCommandsOnBadFiles: show, verify and html each name a
// damaged replay and exit 1, and exit 2 naming a FILE that is not there
// or is a directory, before reading any.
func TestReplayCommandsOnBadFiles(t *testing.T) {
	t.Parallel()
	dir, ids := playedMatch(t)
	bad := t.TempDir()
	data := replayBytes(t, dir, ids[0])
	good := filepath.Join(bad, ids[0]+".jsonl.zst")
	writeTestFile(t, good, data)
	files := map[string][]byte{
		"truncated.jsonl.zst": data[:len(data)/3],
		"garbage.jsonl.zst":   bytes.Repeat([]byte("\x00not zstd\xff"), 50),
		"edited.jsonl.zst":    editedReplay(t, good),
	}
	for name, b := range files {
		writeTestFile(t, filepath.Join(bad, name), b)
	}
	tests := []struct {
		name, file string
		code       int
		want       string // in stderr, beside the file's name
	}{
		{"truncated zstd", filepath.Join(bad, "truncated.jsonl.zst"), exitFail, "truncated"},
		{"garbage bytes", filepath.Join(bad, "garbage.jsonl.zst"), exitFail, "bad zstd data"},
		{"an edited action", filepath.Join(bad, "edited.jsonl.zst"), exitFail, "ply 3"},
		{"a directory", dir, exitUsage, "is a directory, not a replay FILE"},
		{"no such file", filepath.Join(bad, "nope.jsonl.zst"), exitUsage, "no such file"},
	}
	for _, tc := range tests {
		for _, command := range []string{"show", "verify", "html"} {
			t.Run(tc.name+"/"+command, func(t *testing.T) {
				_, stderr, code := arena(t, "replay", command, tc.file, good)
				if command == "show" {
					_, stderr, code = arena(t, "replay", command, tc.file)
				}
				if code != tc.code || !strings.Contains(stderr, tc.file) || !strings.Contains(stderr, tc.want) {
					t.Fatalf("exit %d, stderr %q; want %d naming %s and %q", code, stderr, tc.code, tc.file, tc.want)
				}
				page := filepath.Join(filepath.Dir(tc.file), strings.TrimSuffix(filepath.Base(tc.file), ".jsonl.zst")+".html")
				if _, err := os.Stat(page); command == "html" && err == nil {
					t.Fatalf("a page %s was written for a bad replay", page)
				}
			})
		}
	}
}

// TestReplayCommandsOnADamagedPack: a pack whose middle game is damaged
// is that game's failure, named by the pack and its offset (exit 1); its
// other games verify and are drawn, and are shown by --game.
func TestReplayCommandsOnADamagedPack(t *testing.T) {
	t.Parallel()
	played, ids := playedMatch(t)
	dir := copyOf(t, played)
	r := recordOf(t, dir, ids[1])
	pack := filepath.Join(dir, r.Replay)
	f, err := os.OpenFile(pack, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.WriteAt([]byte("garbage!"), r.ReplayAt.Offset+r.ReplayAt.Size/2)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	where := fmt.Sprintf("%s at offset %d", pack, r.ReplayAt.Offset)
	out, stderr, code := arena(t, "replay", "verify", pack)
	if code != exitFail || !strings.Contains(stderr, where) || strings.Count(out, "ok ") != 2 {
		t.Fatalf("verify: exit %d, stdout %q, stderr %q; want exit 1, 2 ok, the damage at %s", code, out, stderr, where)
	}
	pages := filepath.Join(t.TempDir(), "pages") + string(filepath.Separator)
	out, stderr, code = arena(t, "replay", "html", pack, "-o", pages)
	if code != exitFail || !strings.Contains(stderr, where) || strings.Count(out, "wrote ") != 2 {
		t.Fatalf("html: exit %d, stdout %q, stderr %q; want exit 1, 2 pages, the damage at %s", code, out, stderr, where)
	}
	if _, err := os.Stat(filepath.Join(pages, ids[1]+".html")); err == nil {
		t.Fatalf("a page was written for the damaged game %s", ids[1])
	}
	if _, stderr, code = arena(t, "replay", "show", dir, "--game", ids[1]); code != exitFail || !strings.Contains(stderr, where) {
		t.Fatalf("show of the damaged game: exit %d, %q; want exit 1 naming %s", code, stderr, where)
	}
	if out, _, code = arena(t, "replay", "show", pack, "--game", ids[2]); code != 0 || !strings.Contains(out, ids[2]) {
		t.Fatalf("show of the game after the damage: exit %d, %.300s", code, out)
	}
}

// TestReportOfDamagedDirectories: arena report of a directory a hostile
// or unlucky user hands it.
func TestReportOfDamagedDirectories(t *testing.T) {
	t.Parallel()
	played, ids := playedMatch(t)
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
		code   int
		// In stdout (exit 0) or stderr; in the page, when written.
		want, page []string
	}{
		{"a ledger line damaged in the middle", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "results.jsonl")
			b, _ := os.ReadFile(path)
			lines := strings.SplitAfter(string(b), "\n")
			lines[1] = `{"index":1,"game_id": garbage` + "\n"
			writeTestFile(t, path, []byte(strings.Join(lines, "")))
		}, exitFail, []string{"results.jsonl: line 2"}, nil},
		{"a test score the stop rule cannot count", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "results.jsonl")
			b, _ := os.ReadFile(path)
			lines := strings.SplitAfter(string(b), "\n")
			lines[0] = `{"test_score":1.5,` + lines[0][1:]
			writeTestFile(t, path, []byte(strings.Join(lines, "")))
		}, 0, []string{"line 1: game " + ids[0] + ": test_score 1.5, want 0, 0.5 or 1: not counted in the LLR"}, []string{`id="standings"`}},
		{"a damaged sprt.json", func(t *testing.T, dir string) {
			writeTestFile(t, filepath.Join(dir, "sprt.json"), []byte(`{"verdict": `))
		}, exitFail, []string{"sprt.json"}, nil},
		{"an empty ledger", func(t *testing.T, dir string) {
			writeTestFile(t, filepath.Join(dir, "results.jsonl"), nil)
		}, 0, []string{"match report of 0 games"}, []string{`id="standings"`}},
		{"a game's replay missing", func(t *testing.T, dir string) {
			path := filepath.Join(dir, "results.jsonl")
			b, _ := os.ReadFile(path)
			lines := strings.SplitAfter(string(b), "\n")
			lines[1] = strings.Replace(lines[1], replays.PackName(1), replays.PackName(9), 1)
			writeTestFile(t, path, []byte(strings.Join(lines, "")))
		}, 0, []string{"match report of 3 games", "1 of 3 games have no replay"},
			[]string{ids[1] + ` <span class="missing">(replay missing)</span>`, `href="viewer/` + ids[0] + `.html"`, `href="viewer/` + ids[2] + `.html"`}},
		{"a game's replay truncated", func(t *testing.T, dir string) {
			r := recordOf(t, dir, ids[2])
			if err := os.Truncate(filepath.Join(dir, r.Replay), r.ReplayAt.Offset+r.ReplayAt.Size/2); err != nil {
				t.Fatal(err)
			}
		}, 0, []string{"match report of 3 games", fmt.Sprintf("%s at offset %d (%d bytes) not written: replay", replays.PackName(1), recordOf(t, played, ids[2]).ReplayAt.Offset, recordOf(t, played, ids[2]).ReplayAt.Size), "truncated"},
			[]string{ids[2] + ` <span class="missing">(no viewer page: `, `href="viewer/` + ids[0] + `.html"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyOf(t, played)
			tc.damage(t, dir)
			stdout, stderr, code := arena(t, "report", dir)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q:\n%s%s", w, stdout, stderr)
				}
			}
			page, err := os.ReadFile(filepath.Join(dir, "report.html"))
			if tc.page == nil {
				if err == nil {
					t.Fatal("a report was written")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.page {
				if !strings.Contains(string(page), w) {
					t.Errorf("the page lacks %q", w)
				}
			}
		})
	}
}
