package bench

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/arena-dev/arena/engine"
)

// FieldError is a Config field a command gave that Setup refuses: Field
// names it ("Game", "Move", "Games", "MaxConcurrency"), so that the
// command says it by its flag, Value is the value as given, Err why.
type FieldError struct {
	Field, Value string
	Err          error
}

func (e *FieldError) Error() string { return e.Field + " " + e.Value + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// Setup checks c as a command gives it, every field its own (Games at
// least 1, MaxConcurrency 0 for its default), and resolves the game's
// options given (engine.Setup, whose error it returns as it is) into
// c.Options: a game two copies of a bot can play, a positive move clock.
func (c *Config) Setup(given engine.Options) error {
	info := c.Game.Info()
	if info.MinSeats > 2 {
		return &FieldError{"Game", info.Name, fmt.Errorf("arena bench plays two copies of a bot, and %s needs %d seats at least", info.Name, info.MinSeats)}
	}
	opts, err := engine.Setup(c.Game, 2, given)
	if err != nil {
		return err
	}
	c.Options = opts
	switch {
	case c.Move <= 0:
		return &FieldError{"Move", c.Move.String(), errors.New("want a positive duration, such as 100ms")}
	case c.Games < 1:
		return &FieldError{"Games", strconv.Itoa(c.Games), errors.New("want at least 1")}
	case c.MaxConcurrency < 0:
		return &FieldError{"MaxConcurrency", strconv.Itoa(c.MaxConcurrency), errors.New("want 0 (the default) or more")}
	}
	return nil
}
