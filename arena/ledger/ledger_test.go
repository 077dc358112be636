package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type rec struct {
	ID int `json:"id"`
}

func TestAppendReadAndTornLine(t *testing.T) {
	cases := []struct {
		name     string
		existing string
		wantIDs  []int
		wantTorn bool
		wantErr  string
	}{
		{"empty", "", nil, false, ""},
		{"complete lines", "{\"id\":1}\n{\"id\":2}\n", []int{1, 2}, false, ""},
		{"torn last line is dropped", "{\"id\":1}\n{\"id\":2}\n{\"id\":", []int{1, 2}, true, ""},
		{"torn line that happens to parse is still dropped", "{\"id\":1}\n{\"id\":2}", []int{1}, true, ""},
		{"damage in the middle is an error", "{\"id\":1}\ngarbage\n{\"id\":3}\n", nil, false, "line 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), FileName)
			if tc.existing != "" {
				os.WriteFile(path, []byte(tc.existing), 0o644)
			}
			got, torn, err := Read[rec](path)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || (torn != nil) != tc.wantTorn || len(got) != len(tc.wantIDs) {
				t.Fatalf("got %v torn %v err %v", got, torn, err)
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
			got, torn, err = Read[rec](path)
			if err != nil || torn != nil || len(got) != len(tc.wantIDs)+1 || got[len(got)-1].ID != 9 {
				t.Fatalf("after append: %v torn %v err %v", got, torn, err)
			}
		})
	}
}
