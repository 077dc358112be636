package replays_test

// A small but complete test-only game, "testnim", so the replays package
// is tested against a real engine while the real games are written
// elsewhere. Seats take turns adding 1..maxtake to a shared total; whoever
// brings it to target wins. Each seat holds a secret number dealt from the
// seed (only that seat sees it; it counts in the final scores), and the
// seed also picks who moves first. "testnim-json" is the same game without
// a text renderer, to test Show's JSON view fallback.

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/arena-dev/arena/engine"
)

func init() {
	engine.Register(nimGame{name: "testnim"})
	engine.Register(nimGame{name: "testnim-json", plain: true})
}

type nimGame struct {
	name  string
	plain bool
}

func (g nimGame) Info() engine.Info {
	return engine.Info{
		Name:     g.name,
		Summary:  "race to a target total (test game)",
		MinSeats: 2,
		MaxSeats: 4,
		Options: []engine.OptionSpec{
			{Name: "target", Kind: "int", Default: "21", Min: 5, Max: 100, Doc: "total that wins"},
			{Name: "maxtake", Kind: "int", Default: "3", Min: 2, Max: 5, Doc: "most one move may add"},
		},
	}
}

func (g nimGame) New(seats int, seed uint64, opts engine.Options) (engine.State, error) {
	if seats < 2 || seats > 4 {
		return nil, fmt.Errorf("testnim: %d seats", seats)
	}
	rng := rand.New(rand.NewPCG(seed, 0x6e696d))
	st := &nimState{
		target:  opts.Int("target"),
		maxTake: opts.Int("maxtake"),
		toMove:  int(seed % uint64(seats)),
		taken:   make([]int, seats),
		secret:  make([]int, seats),
		winner:  -1,
	}
	for i := range st.secret {
		st.secret[i] = 1 + rng.IntN(9)
	}
	if g.plain {
		return plainState{st}, nil
	}
	return st, nil
}

func (nimGame) ParseAction(raw json.RawMessage) (engine.Action, error) {
	var v struct {
		Take *int `json:"take"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("testnim action: %v", err)
	}
	if v.Take == nil {
		return nil, errors.New(`testnim action: missing "take"`)
	}
	if *v.Take < 1 {
		return nil, fmt.Errorf("testnim action: take %d, want at least 1", *v.Take)
	}
	return nimAction{Take: *v.Take}, nil
}

type nimAction struct {
	Take int `json:"take"`
}

func (a nimAction) String() string { return fmt.Sprintf("+%d", a.Take) }

type nimState struct {
	total, target, maxTake int
	toMove                 int
	taken, secret          []int
	winner                 int
}

// plainState hides RenderText.
type plainState struct{ engine.State }

func (s *nimState) ToMove() int { return s.toMove }

func (s *nimState) Legal() []engine.Action {
	out := make([]engine.Action, s.maxTake)
	for i := range out {
		out[i] = nimAction{Take: i + 1}
	}
	return out
}

func (s *nimState) Apply(a engine.Action) error {
	if s.Over() {
		return errors.New("game is over")
	}
	na, ok := a.(nimAction)
	if !ok {
		return fmt.Errorf("not a testnim action: %T", a)
	}
	if na.Take < 1 || na.Take > s.maxTake {
		return fmt.Errorf("take %d is illegal (1-%d)", na.Take, s.maxTake)
	}
	s.total += na.Take
	s.taken[s.toMove] += na.Take
	if s.total >= s.target {
		s.winner = s.toMove
		return nil
	}
	s.toMove = (s.toMove + 1) % len(s.taken)
	return nil
}

type nimView struct {
	Total  int   `json:"total"`
	Target int   `json:"target"`
	ToMove int   `json:"to_move"`
	Taken  []int `json:"taken"`
	Secret *int  `json:"secret,omitempty"`
}

func (s *nimState) View(seat int) any {
	v := nimView{Total: s.total, Target: s.target, ToMove: s.toMove, Taken: append([]int(nil), s.taken...)}
	if seat >= 0 && seat < len(s.secret) {
		sec := s.secret[seat]
		v.Secret = &sec
	}
	return v
}

func (s *nimState) RenderText(seat int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "total %d/%d  taken %v\n", s.total, s.target, s.taken)
	if seat >= 0 && seat < len(s.secret) {
		fmt.Fprintf(&b, "your secret: %d\n", s.secret[seat])
	}
	return b.String()
}

func (s *nimState) Over() bool { return s.winner >= 0 }

func (s *nimState) Outcome() engine.Outcome {
	scores := make([]float64, len(s.taken))
	for i := range scores {
		scores[i] = float64(s.taken[i] + s.secret[i])
		if i == s.winner {
			scores[i] += 100
		}
	}
	return engine.Outcome{
		Ranks:  engine.RanksFromScores(scores),
		Scores: scores,
		Reason: fmt.Sprintf("seat %d reached %d", s.winner, s.target),
	}
}
