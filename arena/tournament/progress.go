package tournament

import (
	"fmt"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/engine"
)

// stageOf describes where an elimination stands, for progress lines: the
// rounds in play, and an estimate of the games in all (done plus what
// the open encounters plan: gpe for one not started, the rest of its
// planned games for one under way; ties add more, early decisions fewer,
// a grand-final reset counts only once it is known to be played). Other
// formats: "" and 0 (their leader and Total tell more).
func stageOf(s schedule.Scheduler, gpe, done int) (string, int) {
	switch x := s.(type) {
	case *schedule.Elimination:
		return bracketStage(x.Bracket(), gpe, done)
	case *schedule.TableKnockout:
		return tableStage(x.View()), 0
	}
	return "", 0
}

func bracketStage(v schedule.BracketView, gpe, done int) (string, int) {
	estimate := done
	stage := 0 // the earliest stage with a match to be played
	for _, r := range v.Rounds {
		for _, m := range r.Matches {
			switch m.Status {
			case "ready", "playing":
				estimate += max(gpe-m.Games, 0)
			case "waiting":
				if r.Bracket == "final" && r.Number == 2 {
					continue // a reset, played only if the losers' champion wins the final
				}
				estimate += gpe
			default:
				continue
			}
			if m.Status != "waiting" && (stage == 0 || r.Stage < stage) {
				stage = r.Stage
			}
		}
	}
	if stage == 0 {
		return "", estimate
	}
	var parts []string
	for _, r := range v.Rounds {
		if r.Stage != stage {
			continue
		}
		decided, all := 0, 0
		for _, m := range r.Matches {
			switch m.Status {
			case "empty", "not needed":
				continue
			case "done", "walkover":
				decided++
			}
			all++
		}
		parts = append(parts, fmt.Sprintf("%s %d of %d matches decided", roundName(r), decided, all))
	}
	return strings.Join(parts, ", "), estimate
}

// roundName names a bracket round for people.
func roundName(r schedule.BracketRound) string {
	switch {
	case r.Bracket == "final" && r.Number == 2:
		return "grand final reset"
	case r.Bracket == "final":
		return "grand final"
	case r.Bracket == "losers":
		return fmt.Sprintf("losers' round %d (%s)", r.Number, r.Name)
	}
	return fmt.Sprintf("round %d (%s)", r.Number, r.Name)
}

func tableStage(v schedule.TableView) string {
	for _, r := range v.Rounds {
		done := 0
		for _, t := range r.Tables {
			if t.Status == "done" {
				done++
			}
		}
		if len(r.Tables) == 0 || done < len(r.Tables) {
			if r.Final {
				return "final table"
			}
			return fmt.Sprintf("round %d of %d: %d of %d tables done", r.Round, len(v.Rounds), done, len(r.Tables))
		}
	}
	return ""
}

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
