package web

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ledger"
)

// TestTail: the reader takes complete lines only, whatever the file
// holds when it looks (a line being written, a torn one, a damaged one,
// a file rewritten shorter).
func TestTail(t *testing.T) {
	line := func(id string) string {
		return `{"index":0,"game_id":"` + id + `","bots":["a.v1","b.v1"],"ranks":[1,2]}` + "\n"
	}
	for _, tt := range []struct {
		name   string
		writes []string // the file's whole content at each look
		want   []string // the game ids read at each look
		errs   []error  // the error at each look
	}{
		{"grows", []string{line("g1"), line("g1") + line("g2") + line("g3")}, []string{"g1", "g2 g3"}, []error{nil, nil}},
		{"half a line", []string{line("g1") + line("g2")[:10], line("g1") + line("g2")}, []string{"g1", "g2"}, []error{nil, nil}},
		{"missing, then empty", []string{"-", ""}, []string{"", ""}, []error{nil, nil}},
		{"damaged", []string{line("g1") + "{nope\n" + line("g3")}, []string{"g1"}, []error{ledger.ErrDamaged}},
		{"shrunk", []string{line("g1") + line("g2"), line("g9")}, []string{"g1 g2", ""}, []error{nil, errShrunk}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ledger.FileName)
			tl := tail{path: path}
			for i, content := range tt.writes {
				if content != "-" {
					if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				recs, err := tl.next(100)
				var ids []string
				for _, r := range recs {
					ids = append(ids, r.GameID)
				}
				if got := strings.Join(ids, " "); got != tt.want[i] || !errors.Is(err, tt.errs[i]) || (err == nil) != (tt.errs[i] == nil) {
					t.Fatalf("look %d: read %q, %v; want %q, %v", i+1, got, err, tt.want[i], tt.errs[i])
				}
			}
		})
	}
}

// TestReplaySource: only a replay inside replays/ is read.
func TestReplaySource(t *testing.T) {
	for _, tt := range []struct {
		path string
		ok   bool
	}{
		{"replays/pack-000001.pack.zst", true},
		{"replays/g1.jsonl.zst", true},
		{"", false},
		{"ladder.yaml", false},
		{"deal-secret", false},
		{"replays", false},
		{"replays/../deal-secret", false},
		{"../other/replays/x.pack.zst", false},
		{"/etc/passwd", false},
		{"replays/../../x", false},
	} {
		_, err := replaySource("/ladder", ledger.Record{GameID: "g", Replay: tt.path})
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, errReplayPath)) {
			t.Errorf("replay %q: %v, want ok %v", tt.path, err, tt.ok)
		}
	}
}
