package tournament

import (
	"fmt"
	"time"

	"github.com/arena-dev/arena/engine"
)

// Headline is what the run is at in a few words: the round in play for
// eliminations, else the bot with the best score per game so far.
func (p Progress) Headline() string {
	if p.Stage != "" {
		return p.Stage
	}
	leader, best := "", -1.0
	if p.Summary != nil {
		for _, b := range p.Summary.Bots {
			if b.Games > 0 && b.Score/float64(b.Games) > best {
				best, leader = b.Score/float64(b.Games), b.Name
			}
		}
	}
	if leader == "" {
		return "no leader yet"
	}
	return fmt.Sprintf("leader %s (%.0f%%)", leader, 100*best)
}

// Count is where the run is, as progress lines begin: "[34/192]", or
// for brackets "[34/~60]".
func (p Progress) Count() string {
	total, _ := p.total()
	return fmt.Sprintf("[%d/%s]", p.Done, total)
}

// total is the games in all as progress lines write it ("192", "~60" for
// a bracket's estimate, "?"), and the games still to play (-1: unknown).
func (p Progress) total() (string, int) {
	switch {
	case p.Total >= 0:
		return fmt.Sprint(p.Total), p.Total - p.Done
	case p.Estimate > 0:
		return fmt.Sprintf("~%d", p.Estimate), p.Estimate - p.Done
	}
	return "?", -1
}

// Line is one progress line: games done of scheduled (or of about so
// many, for brackets), rate, ETA, the headline, the last result.
func (p Progress) Line() string {
	played := p.Done - p.Resumed
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(played) / p.Elapsed.Seconds()
	}
	eta := ""
	_, remaining := p.total()
	if remaining >= 0 && rate > 0 {
		approx := ""
		if p.Total < 0 {
			approx = "~"
		}
		eta = fmt.Sprintf(", ETA %s%v", approx, (time.Duration(float64(remaining)/rate) * time.Second).Round(time.Second))
	}
	line := fmt.Sprintf("%s %.1f games/s%s, %s, last %s: %s", p.Count(), rate, eta, p.Headline(), p.Last.GameID, engine.NameSeats(p.Last.Reason, p.Last.Bots))
	if p.LostLogs > 0 {
		line += fmt.Sprintf(" (%d stderr logs lost)", p.LostLogs)
	}
	return line
}
