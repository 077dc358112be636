package ladder

import (
	"errors"
	"fmt"
	"slices"

	"github.com/arena-dev/arena/arena/ledger"
)

// ErrDuplicate is a ledger line of a game the ledger holds already (a
// line copied by hand): counted, it would count the game twice.
var ErrDuplicate = errors.New("a game the ledger holds already")

// lineCheck looks at a ladder ledger's lines as they are read, in file
// order: an edited line (its checksum no longer matches) is named, and
// counts as it reads; a game's second line is refused. It keeps a bit
// per table read whole and the game numbers of the tables not yet whole
// (a handful), so that it costs a ladder of a million games little.
type lineCheck struct {
	path  string
	whole TableSet        // the tables read whole
	games map[int64][]int // the games (from 0) read of a table not whole
	warn  func(error)     // told of each edited line
}

func newLineCheck(path string, warn func(error)) *lineCheck {
	return &lineCheck{path: path, games: map[int64][]int{}, warn: warn}
}

// check looks at e, the next line: an error (a *ledger.LineError
// wrapping ErrDuplicate) if its game was read before.
func (lc *lineCheck) check(e ledger.Entry[ledger.Record]) error {
	if err := e.EditedError(); err != nil && lc.warn != nil {
		lc.warn(&ledger.LineError{Path: lc.path, Line: e.Line, Err: err})
	}
	r := e.Record
	seq := int64(r.Round)
	g, ok := gameOf(r.GameID)
	if seq < 1 || !ok {
		return nil // not a ladder table's game (tables count from 1): nothing to tell it by
	}
	if lc.whole.Has(seq) || slices.Contains(lc.games[seq], g) {
		return &ledger.LineError{Path: lc.path, Line: e.Line,
			Err: fmt.Errorf("%w: %s (remove this line, or the other: both say how it ended)", ErrDuplicate, r.GameID)}
	}
	games := append(lc.games[seq], g)
	if len(games) < len(r.Bots) {
		lc.games[seq] = games
		return nil
	}
	delete(lc.games, seq)
	lc.whole.Add(seq)
	return nil
}

// TableSet is a set of table numbers (Round) kept as one bit a table:
// the tables a reader of a ledger has seen whole, at any ledger size.
type TableSet struct{ bits []uint64 }

// Add puts table seq in the set (a negative one is not kept).
func (t *TableSet) Add(seq int64) {
	if seq < 0 {
		return
	}
	for int64(len(t.bits)) <= seq/64 {
		t.bits = append(t.bits, 0)
	}
	t.bits[seq/64] |= 1 << (seq % 64)
}

// Has says whether table seq is in the set.
func (t *TableSet) Has(seq int64) bool {
	return seq >= 0 && seq/64 < int64(len(t.bits)) && t.bits[seq/64]&(1<<(seq%64)) != 0
}
