package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type rec struct {
	ID int    `json:"id"`
	S  string `json:"s,omitempty"`
}

func TestAppendReadAndTornLine(t *testing.T) {
	long := `{"id":5,"s":"` + strings.Repeat("x", MaxLine) + `"}` // over the bound by its JSON around it
	cases := []struct {
		name      string
		existing  string
		wantIDs   []int
		wantLines []int
		wantTorn  bool
		wantErr   error
		wantLine  int // of the *LineError
	}{
		{name: "empty"},
		{name: "complete lines", existing: "{\"id\":1}\n{\"id\":2}\n", wantIDs: []int{1, 2}, wantLines: []int{1, 2}},
		{name: "blank lines keep their numbers", existing: "{\"id\":1}\n\n{\"id\":2}\n", wantIDs: []int{1, 2}, wantLines: []int{1, 3}},
		{name: "torn last line is dropped", existing: "{\"id\":1}\n{\"id\":2}\n{\"id\":", wantIDs: []int{1, 2}, wantLines: []int{1, 2}, wantTorn: true},
		{name: "torn line that happens to parse is still dropped", existing: "{\"id\":1}\n{\"id\":2}", wantIDs: []int{1}, wantLines: []int{1}, wantTorn: true},
		{name: "damage in the middle is an error", existing: "{\"id\":1}\ngarbage\n{\"id\":3}\n", wantErr: ErrDamaged, wantLine: 2},
		{name: "a line over MaxLine names the line and the limit", existing: "{\"id\":1}\n" + long + "\n{\"id\":3}\n", wantErr: ErrLineTooLong, wantLine: 2},
		{name: "a torn line over MaxLine too", existing: "{\"id\":1}\n" + long, wantErr: ErrLineTooLong, wantLine: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if tc.existing != "" {
				os.WriteFile(path, []byte(tc.existing), 0o644)
			}
			got, torn, err := ReadEntries[rec](path)
			if tc.wantErr != nil {
				var le *LineError
				if !errors.Is(err, tc.wantErr) || !errors.As(err, &le) || le.Line != tc.wantLine || le.Path != path {
					t.Fatalf("error %v, want %v on line %d of %s", err, tc.wantErr, tc.wantLine, path)
				}
				want := fmt.Sprintf("ledger %s: line %d: ", path, tc.wantLine)
				if !strings.HasPrefix(err.Error(), want) || (tc.wantErr == ErrLineTooLong && !strings.Contains(err.Error(), "16 MiB")) {
					t.Fatalf("message %q does not name the file, line (and limit)", err)
				}
				return
			}
			if err != nil || (torn != nil) != tc.wantTorn || len(got) != len(tc.wantIDs) {
				t.Fatalf("got %v torn %v err %v", got, torn, err)
			}
			for i, e := range got {
				if e.Record.ID != tc.wantIDs[i] || e.Line != tc.wantLines[i] {
					t.Errorf("entry %d: %+v, want id %d on line %d", i, e, tc.wantIDs[i], tc.wantLines[i])
				}
			}
			// Appending after a torn line must start on a clean line.
			w, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Append(rec{ID: 9}); err != nil {
				t.Fatal(err)
			}
			w.Close()
			recs, torn, err := Read[rec](path)
			if err != nil || torn != nil || len(recs) != len(tc.wantIDs)+1 || recs[len(recs)-1].ID != 9 {
				t.Fatalf("after append: %v torn %v err %v", recs, torn, err)
			}
		})
	}
}

// TestAppendRefusesWhatReadWouldNot: a record over MaxLine is refused,
// and the ledger is left as it was.
func TestAppendRefusesWhatReadWouldNot(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Append(rec{ID: 1}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if err := w.Append(rec{ID: 2, S: strings.Repeat("x", MaxLine)}); !errors.Is(err, ErrLineTooLong) {
		t.Fatalf("a record over MaxLine: %v, want ErrLineTooLong", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Fatal("a refused record changed the ledger")
	}
}
