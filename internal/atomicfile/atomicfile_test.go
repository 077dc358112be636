package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arena-dev/arena/internal/atomicfile"
)

// TestWriteReplacesWhole: the file holds the new bytes, no temporary file
// is left, and a directory that does not exist is an error naming the path.
func TestWriteReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, data := range []string{"first", "second, longer"} {
		if err := atomicfile.Write(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != data {
			t.Fatalf("file holds %q, want %q", got, data)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d entries in the directory, want 1", len(ents))
	}
	bad := filepath.Join(dir, "missing", "f.json")
	if err := atomicfile.Write(bad, nil); err == nil {
		t.Fatalf("writing into a missing directory: no error")
	}
}
