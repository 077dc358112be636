//go:build linux

package transport_test

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/transport"
)

// TestExitStatusValue: how a bot ended is a value (exited with a code,
// killed by a signal, still running), and a lost bot's error says what
// the transport saw as a field, without its text to take apart.
func TestExitStatusValue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode    string
		signal  syscall.Signal // sent to the bot once it runs, 0: none
		want    transport.ExitStatus
		success bool
		text    string
	}{
		{mode: "exit:0", want: transport.ExitStatus{Exited: true}, success: true, text: "exited with status 0"},
		{mode: "exit:3", want: transport.ExitStatus{Exited: true, Code: 3}, text: "exited with status 3"},
		{mode: "echo", signal: syscall.SIGTERM, want: transport.ExitStatus{Exited: true, Code: -1, Signal: syscall.SIGTERM}, text: "killed by signal terminated"},
	}
	for _, tc := range cases {
		t.Run(tc.mode, func(t *testing.T) {
			t.Parallel()
			p := start(t, tc.mode, transport.ProcessConfig{})
			if tc.signal != 0 {
				if st := p.ExitStatus(); st.Exited || st.Success() || st.String() != "process still running" {
					t.Errorf("a running bot: %+v %q", st, st)
				}
				syscall.Kill(p.Pid(), tc.signal) // the test's own child
			}
			<-p.Exited()
			st := p.ExitStatus()
			if st != tc.want || st.Success() != tc.success || st.String() != tc.text {
				t.Errorf("%+v (success %v, %q), want %+v (success %v, %q)", st, st.Success(), st, tc.want, tc.success, tc.text)
			}
			err := p.Send([]byte("x"), time.Now().Add(time.Second))
			var closed *transport.ClosedError
			if !errors.As(err, &closed) || !errors.Is(err, transport.ErrClosed) || closed.Detail != tc.text || err.Error() != "connection closed: "+tc.text {
				t.Errorf("Send to the ended bot: %v (%#v), want a ClosedError with detail %q", err, closed, tc.text)
			}
		})
	}
}
