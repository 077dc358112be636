package run

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"time"
)

// NewMatchID names a run: prefix, the UTC start time to the second (so ids
// read and sort by when they started) and 8 random hex digits, so that two
// runs started in the same second, here or on another machine, do not
// share ids (and so game ids and replay file names).
func NewMatchID(prefix string) string {
	return fmt.Sprintf("%s-%s-%08x", prefix, time.Now().UTC().Format(matchIDTime), rand.Uint32())
}

// matchIDTime is the time in a match id (NewMatchID).
const matchIDTime = "20060102-150405"

// matchIDRest is what follows a match id's prefix: its time and random
// part, "-20261205-014856-a8094d8c".
var matchIDRest = regexp.MustCompile(`^-\d{8}-\d{6}-[0-9a-f]{8}$`)

// IsMatchID reports whether id is a match id NewMatchID(prefix) made.
func IsMatchID(id, prefix string) bool {
	rest, ok := strings.CutPrefix(id, prefix)
	return ok && matchIDRest.MatchString(rest)
}
