package match

import (
	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/ledger"
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
	Name     string `json:"name"`
	Games    int    `json:"games"`
	Wins     int    `json:"wins"`
	Draws    int    `json:"draws"`
	Losses   int    `json:"losses"`
	Forfeits int    `json:"forfeits"`
	// Strikes counts the failed turns that cost the bot a strike rather
	// than the game (--on-timeout random), over all its games.
	Strikes int     `json:"strikes"`
	Score   float64 `json:"score"`
	// MeanRank is the average finishing rank (1 = first), the clearest
	// single figure with more than 2 seats.
	MeanRank float64 `json:"mean_rank"`
	rankSum  int
	// score is Score as a fraction, summed exactly: each game adds a
	// multiple of 1/(2(seats-1)), which a float sum of thirds would round
	// (20.999999999999996 for 21); Score is its one division.
	score fraction
}

// fraction is num/den, exactly, for scores: den is the least common
// multiple of the denominators added, 2(seats-1) of the games' seats.
type fraction struct{ num, den int64 }

// add adds n/d (d > 0).
func (f *fraction) add(n, d int64) {
	if f.den == 0 {
		f.den = d
	}
	if f.den%d != 0 {
		l := f.den / gcd(f.den, d) * d
		f.num *= l / f.den
		f.den = l
	}
	f.num += n * (f.den / d)
}

// ScorePct is Score as a percentage of the bot's games (0 without
// games), from the exact sum with one rounding.
func (b BotStats) ScorePct() float64 {
	if b.Games == 0 || b.score.den == 0 {
		return 0
	}
	return float64(100*b.score.num) / float64(b.score.den*int64(b.Games))
}

func (f fraction) float() float64 {
	if f.den == 0 {
		return 0
	}
	return float64(f.num) / float64(f.den)
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// Summary is a whole match.
type Summary struct {
	Game  string     `json:"game"`
	Games int        `json:"games"`
	Seed  uint64     `json:"seed"`
	Out   string     `json:"out"`
	Bots  []BotStats `json:"bots"`
	index map[string]int
	// elo is bot 0's score against bot 1 game by game, tallied as the
	// games come (EloEstimate): a summary keeps no record, so a run of a
	// million games holds what one of ten does.
	elo eloTally
}

// eloTally counts bot 0's scores against bot 1 in the order the games
// were added, every way EloEstimate may count them: by games (wdl), and by
// consecutive pairs (penta), with what decides between the two: the
// blocks of consecutive games on one deal (the same Seed).
type eloTally struct {
	wdl     stats.WDL
	penta   stats.Penta
	scores  int     // games scored
	pending float64 // a game's score waiting for its partner in penta
	// blocks so far; cur, the size of the last one (still open); uneven:
	// a block before it that was not a pair.
	blocks, cur int
	uneven      bool
	lastSeed    uint64 // of the last game added, scored or not
}

// add counts one game: sc is bot 0's score, if both bots played it.
func (t *eloTally) add(seed uint64, sc float64, scored bool) {
	sameDeal := seed == t.lastSeed // as the game added before, scored or not
	t.lastSeed = seed
	if !scored {
		return
	}
	addScore(&t.wdl, sc, 1)
	if t.scores%2 == 1 {
		t.penta.Add(t.pending, sc)
	}
	t.pending = sc
	t.scores++
	if t.blocks > 0 && sameDeal {
		t.cur++
		return
	}
	if t.blocks > 0 && t.cur != 2 {
		t.uneven = true
	}
	t.blocks, t.cur = t.blocks+1, 1
}

// addScore adds n games (n -1 takes one away) in which the bot scored sc
// to r.
func addScore(r *stats.WDL, sc float64, n int) {
	switch sc {
	case 1:
		r.W += n
	case 0:
		r.L += n
	default:
		r.D += n
	}
}

// paired reports whether the games came in pairs on one deal: every block
// of two, but for a lone last game after the first pair.
func (t *eloTally) paired() bool {
	return t.blocks > 0 && !t.uneven && (t.cur == 2 || t.cur == 1 && t.blocks > 1)
}

func newSummary(cfg Config, bots []bot.Spec) *Summary {
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
func (s *Summary) Add(r ledger.Record) { s.add(r) }

func (s *Summary) add(r ledger.Record) {
	s.Games++
	s.tallyElo(r)
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
			st.score.add(int64(2*beaten+tied), int64(2*(n-1)))
			st.Score = st.score.float()
		}
		st.rankSum += rank
		st.MeanRank = float64(st.rankSum) / float64(st.Games)
	}
	for _, f := range r.Forfeits {
		s.Bots[s.index[r.Bots[f.Seat]]].Forfeits++
	}
	for _, f := range r.Strikes {
		s.Bots[s.index[r.Bots[f.Seat]]].Strikes++
	}
}

// Strikes is the number of strikes over every bot's games.
func (s *Summary) Strikes() int {
	n := 0
	for _, b := range s.Bots {
		n += b.Strikes
	}
	return n
}

// WDL is bot b's record, for rating.
func (s *Summary) WDL(b int) stats.WDL {
	st := s.Bots[b]
	return stats.WDL{W: st.Wins, D: st.Draws, L: st.Losses}
}

// EloEstimate is bot 0's strength relative to bot 1 in a two-bot match,
// and what it was estimated from.
type EloEstimate struct {
	stats.Estimate
	// Paired is true when the games were played in rotation blocks (one
	// deal, the seats swapped: a game pair) and are counted as pairs,
	// pentanomially, as arena sprt counts them: the error bars then use
	// the variance of the pair scores, which is smaller than that of
	// independent games as far as a deal's luck cancels within its pair.
	// False with fresh deals (every game its own deal): counted per game.
	Paired bool
	// Units is the number of pairs (paired) or games counted.
	Units int
	// Games is the number of games behind the estimate, and Left the games
	// left out of it: an incomplete last block, whose partner game was not
	// played.
	Games, Left int
	// WDL is bot 0's record in those games (the Estimate's LOS is
	// stats.LOS of it).
	WDL stats.WDL
}

// EloEstimate estimates bot 0 against bot 1 from the games added; ok is
// false unless the match has exactly two bots and a game. Games added one
// after the other that share a deal (the same Seed) form a block; when
// the blocks are pairs, the complete pairs are counted pentanomially and a
// lone last game is left out, else every game counts on its own
// (trinomially). The conventions for the figures are stats.Estimate's.
func (s *Summary) EloEstimate() (e EloEstimate, ok bool) {
	t := &s.elo
	if len(s.Bots) != 2 || t.scores == 0 {
		return e, false
	}
	if t.paired() {
		games := t.wdl // the pairs' games: without a lone last game
		if t.scores > t.penta.Games() {
			addScore(&games, t.pending, -1)
		}
		return EloEstimate{Estimate: stats.EstimatePenta(t.penta, games), Paired: true, Units: t.penta.Pairs(),
			Games: t.penta.Games(), Left: t.scores - t.penta.Games(), WDL: games}, true
	}
	return EloEstimate{Estimate: stats.EstimateTri(t.wdl), Units: t.wdl.Games(), Games: t.wdl.Games(), WDL: t.wdl}, true
}

// tallyElo adds game r to the Elo tally of a two-bot summary: bot 0's
// score, if both bots played it.
func (s *Summary) tallyElo(r ledger.Record) {
	if len(s.Bots) != 2 {
		return
	}
	a, b := -1, -1
	for seat, name := range r.Bots {
		switch i, ok := s.index[name]; {
		case ok && i == 0:
			a = seat
		case ok && i == 1:
			b = seat
		}
	}
	scored := a >= 0 && b >= 0 && a < len(r.Ranks) && b < len(r.Ranks)
	sc := 0.5
	if scored && r.Ranks[a] < r.Ranks[b] {
		sc = 1
	} else if scored && r.Ranks[a] > r.Ranks[b] {
		sc = 0
	}
	s.elo.add(r.Seed, sc, scored)
}
