package main

import (
	"errors"

	"github.com/arena-dev/arena/arena/check"
	"github.com/arena-dev/arena/internal/usage"
)

// checkFlags name the flag that sets each check.Config field.
var checkFlags = map[string]string{"Games": "--games", "Move": "--move-time", "Startup": "--startup-time",
	"Margin": "--margin", "MaxLine": "--max-line"}

// flagError says a config's field error (check.FieldError) with the
// flag that set the field: "--games 0: want at least 1".
func flagError(err error) error {
	var fe *check.FieldError
	if errors.As(err, &fe) {
		return usage.Errorf("%s %v", checkFlags[fe.Field], fe.Err)
	}
	return err
}
