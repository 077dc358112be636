package main

import (
	"context"
	"io"

	"github.com/arena-dev/arena/internal/stop"
)

// stopContext is every long-running command's context (stop.Context):
// the first SIGINT or SIGTERM ends it, a second kills.
func stopContext(w io.Writer) (context.Context, func()) { return stop.Context(w) }
