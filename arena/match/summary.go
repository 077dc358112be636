package match

import (
	"github.com/arena-dev/arena/arena/stats"
)

// BotStats is one bot's tally over a match.
//
// With 2 seats a win is rank 1 against rank 2, a draw equal ranks. With more
// seats a win is a sole first place, a draw a shared first place, and
// anything else a loss; Score counts, per game, the share of opponents the
// bot finished above (ties count half), so it is on the same 0..1-per-game
// scale as a two-player score.
type BotStats struct {
	Name     string  `json:"name"`
	Games    int     `json:"games"`
	Wins     int     `json:"wins"`
	Draws    int     `json:"draws"`
	Losses   int     `json:"losses"`
	Forfeits int     `json:"forfeits"`
	Score    float64 `json:"score"`
	// MeanRank is the average finishing rank (1 = first), the clearest
	// single figure with more than 2 seats.
	MeanRank float64 `json:"mean_rank"`
	rankSum  int
}

// Summary is a whole match.
type Summary struct {
	Game    string       `json:"game"`
	Games   int          `json:"games"`
	Seed    uint64       `json:"seed"`
	Out     string       `json:"out"`
	Bots    []BotStats   `json:"bots"`
	Records []GameRecord `json:"-"`
	index   map[string]int
}

func newSummary(cfg Config, bots []Bot) *Summary {
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.Name
	}
	s := NewSummary(names)
	s.Game, s.Seed, s.Out = cfg.Game.Info().Name, cfg.Seed, cfg.OutDir
	return s
}

// NewSummary starts an empty tally for the named bots.
func NewSummary(names []string) *Summary {
	s := &Summary{index: map[string]int{}}
	for i, n := range names {
		s.Bots = append(s.Bots, BotStats{Name: n})
		s.index[n] = i
	}
	return s
}

// Add counts one finished game; its bots are matched by name.
func (s *Summary) Add(r GameRecord) { s.add(r) }

func (s *Summary) add(r GameRecord) {
	s.Games++
	s.Records = append(s.Records, r)
	n := len(r.Ranks)
	for seat, rank := range r.Ranks {
		st := &s.Bots[s.index[r.Bots[seat]]]
		st.Games++
		firsts, beaten, tied := 0, 0, 0
		for other, o := range r.Ranks {
			if o == 1 {
				firsts++
			}
			if other == seat {
				continue
			}
			switch {
			case rank < o:
				beaten++
			case rank == o:
				tied++
			}
		}
		switch {
		case rank == 1 && firsts == 1:
			st.Wins++
		case rank == 1:
			st.Draws++
		default:
			st.Losses++
		}
		if n > 1 {
			st.Score += (float64(beaten) + 0.5*float64(tied)) / float64(n-1)
		}
		st.rankSum += rank
		st.MeanRank = float64(st.rankSum) / float64(st.Games)
	}
	for _, f := range r.Forfeits {
		s.Bots[s.index[r.Bots[f.Seat]]].Forfeits++
	}
}

// WDL is bot b's record, for rating.
func (s *Summary) WDL(b int) stats.WDL {
	st := s.Bots[b]
	return stats.WDL{W: st.Wins, D: st.Draws, L: st.Losses}
}
