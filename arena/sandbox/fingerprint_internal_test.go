package sandbox

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/arena-dev/arena/internal/fds"
)

// TestFingerprintCoversEverySource: the fingerprint hashes every non-test
// Go file of the package, of devcgroup and of internal/fds, and no test
// file, so a change to the code that confines bots marks a wrapper of the
// old code as another build, and a change to a test does not.
func TestFingerprintCoversEverySource(t *testing.T) {
	type dir struct{ path, as string } // a directory, and what its files are named in files
	for _, tc := range []struct {
		dirs  []dir
		files fs.FS
		embed string
	}{
		{[]dir{{".", ""}, {"devcgroup", "devcgroup/"}}, sources, "fingerprint.go's"},
		{[]dir{{"../../internal/fds", ""}}, fds.Sources, "internal/fds/fds.go's"},
	} {
		var want []string
		for _, d := range tc.dirs {
			ents, err := os.ReadDir(d.path)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
					want = append(want, d.as+n)
				}
			}
		}
		slices.Sort(want)
		if got := sourceNames(tc.files); !slices.Equal(got, want) {
			t.Errorf("the fingerprint hashes %v, want the sources %v (name a new file in %s go:embed lines)", got, want, tc.embed)
		}
	}
}
