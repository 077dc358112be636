package boon

import (
	"fmt"

	"github.com/arena-dev/arena/engine"
)

// Encoding is the fixed-size encoding of Boon for learning agents
// (engine.Encoding), at one seat count. The layout is in
// docs/games/boon.md, "Encoding"; the offsets below are its one home.
type Encoding struct {
	*engine.ActionSpace[Action]
	seats int
}

// Observation layout: card blocks of NumCards slots (bit c for Card c),
// small one-hot blocks, then blocks of one slot per seat counted from the
// observer (0 = itself, 1 = the next seat in turn order, ...), so that
// an agent's weights do not depend on where it sits.
const (
	obsHand     = 0                          // the hand
	obsBoon     = obsHand + NumCards         // the Boon the observer took (the picker's own view)
	obsBuried   = obsBoon + NumCards         // the cards the observer buried
	obsPlayed   = obsBuried + NumCards       // the cards of this round's completed tricks
	obsTrick    = obsPlayed + NumCards       // the cards of the trick in play
	obsLed      = obsTrick + NumCards        // the suit led in the trick in play, one-hot B G R Au
	obsPhase    = obsLed + 4                 // pick, bury, play, over
	obsDecision = obsPhase + len(phaseNames) // take_or_pass, bury, play, wait, none
	obsMode     = obsDecision + len(decisionNames)
	obsTeam     = obsMode + len(modeNames) // undecided, picker, defender, self, none
	obsScalars  = obsTeam + len(teamNames) // bury_left, boon_size, trick_no / tricks_per_round, trick points / 120
	obsSeats    = obsScalars + 4           // per seat (9 blocks): see seatBlocks
	seatBlocks  = 9                        // dealer, picker, passed, leader, winning, hand size, trick points / 120, tricks won, victory cards
)

var (
	decisionNames = [...]string{"take_or_pass", "bury", "play", "wait", "none"}
	teamNames     = [...]string{"undecided", "picker", "defender", "self", "none"}
)

// Encoding implements engine.Encoder.
func (Game) Encoding(seats int, opts engine.Options) (engine.Encoding, error) {
	if seats < MinSeats || seats > MaxSeats {
		return nil, fmt.Errorf("game boon takes %d-%d seats, got %d", MinSeats, MaxSeats, seats)
	}
	if _, err := RulesFromOptions(opts); err != nil {
		return nil, err
	}
	return NewEncoding(seats), nil
}

// NewEncoding is the encoding of games of seats seats (the rules options
// change no action and no slot).
func NewEncoding(seats int) *Encoding {
	all := []Action{Take(), Pass()}
	for c := range Card(NumCards) {
		all = append(all, Bury(c))
	}
	for c := range Card(NumCards) {
		all = append(all, Play(c))
	}
	return &Encoding{ActionSpace: engine.NewActionSpace(all), seats: seats}
}

// ObsSize implements engine.Encoding.
func (e *Encoding) ObsSize() int { return obsSeats + seatBlocks*e.seats }

// Encode implements engine.Encoding: v is a View or *View of a seat.
func (e *Encoding) Encode(v any, dst []float32) error {
	x, err := engine.ViewAs[View](v)
	if err != nil {
		return err
	}
	return e.encode(x, dst)
}

func (e *Encoding) encode(v *View, dst []float32) error {
	n := e.seats
	if v.Seat < 0 || v.Seat >= n || v.Seats != n || len(dst) != e.ObsSize() {
		return fmt.Errorf("%w: a seat's view of %d seats into %d slots (got seat %d of %d, %d slots)",
			engine.ErrNotEncodable, n, e.ObsSize(), v.Seat, v.Seats, len(dst))
	}
	clear(dst)
	cards(dst[obsHand:], v.Hand)
	cards(dst[obsBoon:], v.Boon)
	cards(dst[obsBuried:], v.Buried)
	for _, t := range v.Tricks {
		cards(dst[obsPlayed:], t.Cards)
	}
	cards(dst[obsTrick:], v.Trick.Cards)
	for i, code := range suitCodes {
		if v.Trick.Led == code {
			dst[obsLed+i] = 1
		}
	}
	oneHot(dst[obsPhase:], phaseNames[:], v.Phase)
	oneHot(dst[obsDecision:], decisionNames[:], v.Decision)
	oneHot(dst[obsMode:], modeNames[:], v.Mode)
	oneHot(dst[obsTeam:], teamNames[:], v.Team)
	dst[obsScalars] = float32(v.BuryLeft)
	dst[obsScalars+1] = float32(v.BoonSize)
	if v.TricksPerRound > 0 {
		dst[obsScalars+2] = float32(v.TrickNo) / float32(v.TricksPerRound)
	}
	dst[obsScalars+3] = float32(v.Trick.Points) / TotalPoints
	rel := func(block, seat int) int { return obsSeats + block*n + (seat-v.Seat+n)%n }
	seatFlag := func(block, seat int) {
		if seat >= 0 && seat < n {
			dst[rel(block, seat)] = 1
		}
	}
	seatFlag(0, v.Dealer)
	seatFlag(1, v.Picker)
	for _, q := range v.Passed {
		seatFlag(2, q)
	}
	if len(v.Trick.Cards) > 0 {
		seatFlag(3, v.Trick.Leader)
		seatFlag(4, v.Trick.Winner)
	}
	for q := range n {
		dst[rel(5, q)] = float32(at(v.HandSizes, q))
		dst[rel(6, q)] = float32(at(v.TrickPoints, q)) / TotalPoints
		dst[rel(7, q)] = float32(at(v.TricksWon, q))
		dst[rel(8, q)] = float32(at(v.VC, q))
	}
	return nil
}

// cards sets dst[c] for every card named (names it cannot read are left
// out: a view the engine wrote has none).
func cards(dst []float32, names []string) {
	for _, s := range names {
		if c, err := ParseCard(s); err == nil {
			dst[c] = 1
		}
	}
}

func oneHot(dst []float32, names []string, name string) {
	for i, n := range names {
		if n == name {
			dst[i] = 1
		}
	}
}

func at(xs []int, i int) int {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}
