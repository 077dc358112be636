package ledger

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
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

// TestEditedLines: every line a Writer appends carries a checksum of
// itself, so that a line edited afterwards (other ranks, say) is told
// apart from one the arena wrote, while a ledger written before
// checksums reads as it always did.
func TestEditedLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	w, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for id := 1; id <= 3; id++ {
		if err := w.Append(rec{ID: id, S: `a "quoted" sum":"x`}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	written, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(written), "\n")[:3]
	if !strings.Contains(lines[0], `,"sum":"`) {
		t.Fatalf("line %q has no checksum", lines[0])
	}
	edit := func(i int, from, to string) []string {
		out := slices.Clone(lines)
		if !strings.Contains(out[i], from) {
			t.Fatalf("line %q has no %q", out[i], from)
		}
		out[i] = strings.Replace(out[i], from, to, 1)
		return out
	}
	noSum := func(line string) string {
		at := strings.Index(line, `,"sum":"`)
		return line[:at] + "}\n"
	}
	for _, tc := range []struct {
		name   string
		lines  []string
		edited []string // per entry: "" or a piece of the reason
	}{
		{"as written", lines, []string{"", "", ""}},
		{"a value changed", edit(1, `"id":2`, `"id":7`), []string{"", "does not match", ""}},
		{"a field added after the checksum", edit(2, `"}`+"\n", `","x":1}`+"\n"), []string{"", "", "does not match"}},
		{"the checksum removed after lines that have one", []string{lines[0], noSum(lines[1]), lines[2]}, []string{"", "no checksum (sum), as every line from line 1", ""}},
		{"a ledger written before checksums", []string{noSum(lines[0]), noSum(lines[1])}, []string{"", ""}},
		{"an old ledger resumed by this version", []string{noSum(lines[0]), lines[1], lines[2]}, []string{"", "", ""}},
		{"the checksum of an empty object", []string{string(sealLine([]byte("{}"))) + "\n"}, []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), FileName)
			os.WriteFile(p, []byte(strings.Join(tc.lines, "")), 0o644)
			got, torn, err := ReadEntries[rec](p)
			if err != nil || torn != nil || len(got) != len(tc.edited) {
				t.Fatalf("got %+v torn %v err %v", got, torn, err)
			}
			for i, e := range got {
				if (e.Edited == "") != (tc.edited[i] == "") || !strings.Contains(e.Edited, tc.edited[i]) {
					t.Errorf("line %d: edited %q, want %q", e.Line, e.Edited, tc.edited[i])
				}
			}
		})
	}
}

// TestReadFirst: the first complete line, decoded and checked as
// ReadEntries decodes it, and nothing after it read: a ledger damaged
// further on, or too long to read, still gives its first record.
func TestReadFirst(t *testing.T) {
	sealed := string(sealLine([]byte(`{"id":4}`)))
	for _, tc := range []struct {
		name     string
		existing *string // nil: no file
		wantID   int     // 0: no entry
		wantLine int
		edited   bool
		wantErr  error
	}{
		{name: "no file"},
		{name: "empty", existing: ptr("")},
		{name: "blank lines only", existing: ptr("\n\n")},
		{name: "a torn line only", existing: ptr(`{"id":1}`)},
		{name: "the first record", existing: ptr("{\"id\":1}\n{\"id\":2}\n"), wantID: 1, wantLine: 1},
		{name: "after blank lines", existing: ptr("\n{\"id\":3}\n"), wantID: 3, wantLine: 2},
		{name: "with its checksum", existing: ptr(sealed + "\n"), wantID: 4, wantLine: 1},
		{name: "edited", existing: ptr(strings.Replace(sealed, `"id":4`, `"id":5`, 1) + "\n"), wantID: 5, wantLine: 1, edited: true},
		{name: "damage further on is not read", existing: ptr("{\"id\":1}\ngarbage\n" + strings.Repeat("x", MaxLine+2)), wantID: 1, wantLine: 1},
		{name: "a damaged first line", existing: ptr("garbage\n{\"id\":2}\n"), wantErr: ErrDamaged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if tc.existing != nil {
				os.WriteFile(path, []byte(*tc.existing), 0o644)
			}
			got, err := ReadFirst[rec](path)
			switch {
			case tc.wantErr != nil:
				if !errors.Is(err, tc.wantErr) || got != nil {
					t.Fatalf("got %+v, error %v; want %v", got, err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case tc.wantID == 0:
				if got != nil {
					t.Fatalf("got %+v, want none", got)
				}
			case got == nil || got.Record.ID != tc.wantID || got.Line != tc.wantLine || (got.Edited != "") != tc.edited:
				t.Fatalf("got %+v, want id %d on line %d (edited %v)", got, tc.wantID, tc.wantLine, tc.edited)
			}
		})
	}
}

func ptr(s string) *string { return &s }
