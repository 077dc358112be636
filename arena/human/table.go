package human

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/remote"
)

// Name is the person's name in hello.players and the results.
const Name = "you"

// FieldError is a seating the person cannot play (Seating): Field names
// the input at fault as arena play's flags do ("bot" or "seat"), Value
// is its value, Err why.
type FieldError struct {
	Field string
	Value string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + " " + e.Value + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// ErrRemote is a bot at the person's table that plays over NATS: the
// person's moves are timed and judged here, against bots run here.
var ErrRemote = errors.New("arena play seats local bots only")

// Seating checks a table of bots (the other seats, in order) that the
// person joins at seat, and is the number of seats: every bot local,
// none named Name (the person's name in the results), seat one of the
// table's. A mistake is a *FieldError, in that order.
func Seating(bots []bot.Spec, seat int) (int, error) {
	seats := len(bots) + 1
	switch {
	case bot.HasScheme(bots, remote.SchemeName):
		return 0, &FieldError{"bot", remote.SchemeName + ":BOTID", ErrRemote}
	case slices.ContainsFunc(bots, func(b bot.Spec) bool { return b.Name == Name }):
		return 0, &FieldError{"bot", Name + "=...", fmt.Errorf("%q is your name here", Name)}
	case seat < 0 || seat >= seats:
		return 0, &FieldError{"seat", strconv.Itoa(seat), fmt.Errorf("want 0 to %d (%d --bot flags and you)", seats-1, len(bots))}
	}
	return seats, nil
}

// Seated returns the table's bots with the person (their Launcher)
// inserted at seat: the specs of a match, in seat order.
func Seated(bots []bot.Spec, seat int, person bot.Launcher) []bot.Spec {
	return slices.Insert(slices.Clip(bots), seat, bot.Spec{Name: Name, Launcher: person})
}
