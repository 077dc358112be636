package remote

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
)

// ServeStreams serves bot id on nc with a bot written against a stdin
// and a stdout (an SDK's Run): each session runs play in this process on
// a stream pair of its own. It is Serve for a bot that speaks NATS
// itself, with no process in between.
func ServeStreams(ctx context.Context, nc *nats.Conn, id string, sessions int, play func(in io.Reader, out io.Writer) error) error {
	return Serve(ctx, nc, id, sessions, func(opt bot.LaunchOptions) (bot.Endpoint, error) {
		conn, end := transport.Pipe(opt.MaxLine)
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer end.Exit()
			play(&pipeReader{end: end}, end)
		}()
		return bot.ConnSession{Conn: conn, Ended: done}, nil
	})
}

// pipeReader reads what the referee sends as the lines of a stdin.
type pipeReader struct {
	end  *transport.PipeBot
	rest []byte
}

func (r *pipeReader) Read(p []byte) (int, error) {
	for len(r.rest) == 0 {
		line, err := r.end.Receive(time.Now().Add(lineWait))
		switch {
		case errors.Is(err, transport.ErrTimeout):
			continue
		case err != nil:
			return 0, io.EOF // the session ended: end of input
		}
		r.rest = append(line, '\n')
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}
