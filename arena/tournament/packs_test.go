package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/replays"
)

// unpack turns the output directory out into what arenas before packs
// wrote: each recorded game's replay a file of its own,
// replays/GAME_ID.jsonl.zst (the very bytes of its span), named by its
// ledger line without replay_at; the packs are gone. keep is how many
// ledger lines are kept (the rest dropped, as if the run had stopped).
func unpack(t *testing.T, out string, keep int) {
	t.Helper()
	path := filepath.Join(out, ledger.FileName)
	recs, _, err := ledger.Read[map[string]any](path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, m := range recs[:keep] {
		var at replays.Span
		raw, _ := json.Marshal(m["replay_at"])
		if err := json.Unmarshal(raw, &at); err != nil || at.Size == 0 {
			t.Fatalf("line %v: no replay_at", m)
		}
		pack, err := os.Open(filepath.Join(out, m["replay"].(string)))
		if err != nil {
			t.Fatal(err)
		}
		data := make([]byte, at.Size)
		_, err = pack.ReadAt(data, at.Offset)
		pack.Close()
		if err != nil {
			t.Fatal(err)
		}
		rel := filepath.Join("replays", m["game_id"].(string)+replays.Ext)
		if err := os.WriteFile(filepath.Join(out, rel), data, 0o644); err != nil {
			t.Fatal(err)
		}
		m["replay"] = rel
		delete(m, "replay_at")
		delete(m, "sum") // nor checksums
		b, _ := json.Marshal(m)
		lines = append(lines, string(b))
	}
	packs, _ := filepath.Glob(filepath.Join(out, "replays", "*"+replays.PackExt))
	for _, p := range packs {
		os.Remove(p)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDirectoryWrittenBeforePacks: an output directory with a replay file
// per game (as arenas before packs wrote it) verifies; a resume of one
// that stopped half way plays the rest into a pack, and the directory,
// now of both kinds, verifies and has the standings of a run that never
// stopped.
func TestDirectoryWrittenBeforePacks(t *testing.T) {
	t.Parallel()
	whole, c := played(t, 3)
	_, want := openStandings(t, whole)
	recs, _, _ := ledger.Read[ledger.Record](filepath.Join(whole, ledger.FileName))

	old := t.TempDir()
	copyDir(t, old, whole)
	unpack(t, old, len(recs))
	if v, err := Verify(old); err != nil || len(v.Problems) != 0 || v.Games != len(recs) {
		t.Fatalf("a directory of replay files: %d games, problems %v (%v)", v.Games, v.Problems, err)
	}

	half := t.TempDir()
	copyDir(t, half, whole)
	unpack(t, half, len(recs)/2)
	if _, err := Run(context.Background(), c, half, Options{}); err != nil {
		t.Fatal(err)
	}
	resumed, _, _ := ledger.Read[ledger.Record](filepath.Join(half, ledger.FileName))
	files, packed := 0, 0
	for _, r := range resumed {
		if r.ReplayAt == nil {
			files++
		} else {
			packed++
		}
	}
	if files != len(recs)/2 || packed != len(recs)-files {
		t.Fatalf("after the resume %d games in replay files, %d in packs; want %d and %d", files, packed, len(recs)/2, len(recs)-len(recs)/2)
	}
	if v, err := Verify(half); err != nil || len(v.Problems) != 0 || v.Games != len(recs) {
		t.Fatalf("the resumed directory: %d games, problems %v (%v)", v.Games, v.Problems, err)
	}
	_, got := openStandings(t, half)
	if !reflect.DeepEqual(got.Standings, want.Standings) {
		t.Fatalf("standings after resuming a directory of replay files:\n%+v\nwant\n%+v", got.Standings, want.Standings)
	}
}

// TestVerifyDamagedPack: a pack damaged under one game's replay (bytes
// overwritten, the file cut short) is a problem of that game's line,
// naming the pack and the offset; the other games of the pack verify.
func TestVerifyDamagedPack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		damage func(path string, at replays.Span) error
		says   string
	}{
		{"overwritten", func(path string, at replays.Span) error {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteAt([]byte("garbage!"), at.Offset+at.Size/2)
			return err
		}, ""},
		{"cut short", func(path string, at replays.Span) error { return os.Truncate(path, at.Offset+at.Size/2) }, "truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, _ := played(t, 2)
			recs, _, _ := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
			last := len(recs) - 1
			r := recs[last]
			pack := filepath.Join(out, r.Replay)
			if err := tc.damage(pack, *r.ReplayAt); err != nil {
				t.Fatal(err)
			}
			v, err := Verify(out)
			if err != nil {
				t.Fatal(err)
			}
			if len(v.Problems) != 1 {
				t.Fatalf("problems %v; want one, of game %s", v.Problems, r.GameID)
			}
			p := v.Problems[0]
			offset := "at offset " + strconv.FormatInt(r.ReplayAt.Offset, 10)
			if !errors.Is(p, ErrReplay) || p.GameID != r.GameID || p.Line != last+1 ||
				!strings.Contains(p.Error(), pack) || !strings.Contains(p.Error(), offset) || !strings.Contains(p.Error(), tc.says) {
				t.Fatalf("problem %v; want ErrReplay of game %s on line %d, naming %s %s (%q)", p, r.GameID, last+1, pack, offset, tc.says)
			}
		})
	}
}

// copyDir copies the output directory from into to, the deal secret's
// mode with it.
func copyDir(t *testing.T, to, from string) {
	t.Helper()
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(to, deal.FileName), 0o600); err != nil {
		t.Fatal(err)
	}
}
