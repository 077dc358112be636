package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFingerprintCoversEverySource: the fingerprint hashes every non-test
// Go file of the package and of devcgroup, and no test file, so a change
// to the code that confines bots marks a wrapper of the old code as
// another build, and a change to a test does not.
func TestFingerprintCoversEverySource(t *testing.T) {
	var want []string
	for _, dir := range []string{".", "devcgroup"} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
				want = append(want, filepath.ToSlash(filepath.Join(dir, n)))
			}
		}
	}
	var got []string
	if err := fs.WalkDir(sources, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			got = append(got, path)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the fingerprint hashes %v, want the package's sources %v (name a new file in fingerprint.go's go:embed lines)", got, want)
	}
}
