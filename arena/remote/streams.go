package remote

import (
	"errors"
	"io"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/transport"
)

// InProcess is a Server's Start for a bot written against a stdin and a
// stdout (an SDK's Run): each session runs play in this process on a
// stream pair of its own, with no process in between.
func InProcess(play func(in io.Reader, out io.Writer) error) func(bot.LaunchOptions) (bot.Endpoint, error) {
	return func(opt bot.LaunchOptions) (bot.Endpoint, error) {
		conn, end := transport.Pipe(opt.MaxLine)
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer end.Exit()
			play(&pipeReader{end: end}, end)
		}()
		return bot.ConnSession{Conn: conn, Ended: done}, nil
	}
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
