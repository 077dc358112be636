package output

import (
	"fmt"
	"io"
	"time"
)

// SPRT is an SPRT run's text: its status line on Progress after a
// counted pair, at most one a second, and its last status (Game.Final)
// unless said already; at the end the summary on Out
// (sprt.Summary.Text). Make one with NewSPRT.
type SPRT struct {
	Warnings
	progress, out io.Writer
	last          time.Time
	printed       int // games counted at the last line written
}

// NewSPRT is an SPRT run's text, its progress on progress and its
// summary on out.
func NewSPRT(progress, out io.Writer) *SPRT { return &SPRT{progress: progress, out: out} }

// Game writes the run's status line when due.
func (s *SPRT) Game(g Game) {
	st := g.SPRT
	if st == nil {
		return
	}
	if g.Final {
		if st.Games > s.printed {
			fmt.Fprintln(s.progress, st.Line())
		}
		return
	}
	if time.Since(s.last) < time.Second {
		return
	}
	s.last, s.printed = time.Now(), st.Games
	fmt.Fprintln(s.progress, st.Line())
}

// End writes the summary.
func (s *SPRT) End(e End) error {
	if e.SPRT == nil {
		return nil
	}
	return e.SPRT.Text(s.out)
}
