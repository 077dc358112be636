package ladder_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ledger"
)

// TestLedgerTampered: a ledger line edited by hand is named by the
// standings and by a resumed run (it counts as it reads), and a game's
// line copied is refused by both, naming the file and the line, rather
// than counted twice.
func TestLedgerTampered(t *testing.T) {
	t.Parallel()
	dir := initMem(t, "2", 3, 1)
	runFor(t, dir, 6)
	path := filepath.Join(dir, ledger.FileName)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	for _, tt := range []struct {
		name   string
		lines  func() [][]byte
		line   string // "line N" the error or warning names
		refuse bool
	}{
		{"edited", func() [][]byte {
			l := cloneLines(lines)
			l[2] = bytes.Replace(l[2], []byte(`"plies":`), []byte(`"plies":1`), 1)
			return l
		}, "line 3", false},
		{"copied", func() [][]byte { return append(cloneLines(lines), lines[1]) }, "line " + strconv.Itoa(len(lines)), true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(path, bytes.Join(tt.lines(), nil), 0o600); err != nil {
				t.Fatal(err)
			}
			st, err := ladder.ReadStandings(dir)
			switch {
			case tt.refuse:
				var le *ledger.LineError
				if !errors.Is(err, ladder.ErrDuplicate) || !errors.As(err, &le) || !strings.Contains(err.Error(), tt.line) {
					t.Errorf("standings: %v, want ErrDuplicate naming %s", err, tt.line)
				}
			case err != nil:
				t.Fatalf("standings: %v", err)
			case !strings.Contains(strings.Join(st.Warnings, "\n"), tt.line):
				t.Errorf("standings' warnings %q name no edited %s", st.Warnings, tt.line)
			}
			ctx, cancel := context.WithCancel(context.Background())
			cancel() // resume, then stop at once
			var warn bytes.Buffer
			_, err = ladder.Run(ctx, dir, ladder.RunOptions{Warn: &warn})
			switch {
			case tt.refuse:
				if !errors.Is(err, ladder.ErrDuplicate) || !strings.Contains(err.Error(), tt.line) {
					t.Errorf("run: %v, want ErrDuplicate naming %s", err, tt.line)
				}
			case err != nil:
				t.Fatalf("run: %v", err)
			case !strings.Contains(warn.String(), tt.line):
				t.Errorf("run's warnings %q name no edited %s", warn.String(), tt.line)
			}
		})
	}
}

// cloneLines copies a ledger's lines, to edit.
func cloneLines(l [][]byte) [][]byte {
	out := make([][]byte, len(l))
	for i, b := range l {
		out[i] = append([]byte(nil), b...)
	}
	return out
}

func TestTableSet(t *testing.T) {
	var s ladder.TableSet
	for _, seq := range []int64{1, 63, 64, 1000} {
		s.Add(seq)
	}
	s.Add(-3)
	for _, tt := range []struct {
		seq  int64
		want bool
	}{{1, true}, {63, true}, {64, true}, {1000, true}, {0, false}, {2, false}, {65, false}, {999, false}, {100000, false}, {-3, false}} {
		if got := s.Has(tt.seq); got != tt.want {
			t.Errorf("Has(%d) = %v, want %v", tt.seq, got, tt.want)
		}
	}
}
