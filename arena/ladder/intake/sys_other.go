//go:build !unix

package intake

import (
	"os"
	"time"
)

// staleTmp is how old an ID.tmp directory is when it counts as
// abandoned where there is no flock.
const staleTmp = time.Hour

func holdTmp(string) (func(), error) { return func() {}, nil }

func abandoned(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && time.Since(st.ModTime()) > staleTmp
}

const noFollow = 0

// fileOwner: no owners here; submissions are not told apart by user.
func fileOwner(os.FileInfo) (int, bool) { return 0, false }

func organiser(int) bool { return true }
