package expectimax

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/engine/banqi"
)

// presets are option sets every test of the bot runs under: each rule
// option away from its default at least once.
var presets = []map[string]string{
	nil,
	{"ranks": "hk"},
	{"chain_capture": "true", "capture_facedown": "true", "repetition": "chase_loss"},
	{"ranks": "hk", "chain_capture": "true", "capture_facedown": "true", "no_progress_plies": "40"},
}

// Presets is presets, for the tests outside the package.
var Presets = presets

func rulesOf(t testing.TB, opts map[string]string) rules {
	t.Helper()
	r, err := banqi.RulesFromOptions(engine.Options(opts))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// seatView is the position the seat to move sees in s.
func seatView(t testing.TB, s *banqi.State) position {
	t.Helper()
	v := s.ViewOf(s.ToMove())
	p, err := fromView(&v, s.ColourOf(s.ToMove()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The search's move generator and its play must be the engine's: in
// random games under every preset, the legal list is the engine's (same
// order) and playing an action with the piece the engine revealed gives
// the position the next view shows.
func TestPositionFollowsTheEngine(t *testing.T) {
	for _, opts := range presets {
		r := rulesOf(t, opts)
		for seed := range uint64(30) {
			s := banqi.NewState(seed, r)
			rng := rand.New(rand.NewPCG(seed, 1))
			var want, got []banqi.Action
			for !s.Over() {
				want = s.AppendLegal(want[:0])
				a := want[rng.IntN(len(want))]
				if s.ColourOf(0) == banqi.NoColour {
					if err := s.Play(a); err != nil {
						t.Fatal(err)
					}
					continue
				}
				p := seatView(t, s)
				if got = p.legal(&r, got[:0]); !reflect.DeepEqual(got, want) {
					t.Fatalf("%v seed %d ply %d: legal\n got %v\nwant %v", opts, seed, s.Ply(), got, want)
				}
				reveal := banqi.Empty
				needs := p.needsReveal(a)
				if err := s.Play(a); err != nil {
					t.Fatal(err)
				}
				if needs {
					reveal = s.Board()[a.To]
					if a.Kind == banqi.KindCapture && s.Board()[a.From] == banqi.Empty {
						// captured: the engine shows the attacker; the
						// revealed piece is the one now missing
						reveal = missing(t, &p, s)
					}
				}
				won := p.play(&r, a, reveal)
				if s.Over() {
					if won != (s.Outcome().Reason[:6] == "all 16") {
						t.Fatalf("%v seed %d: won %v, engine: %s", opts, seed, won, s.Outcome().Reason)
					}
					break
				}
				if won {
					t.Fatalf("%v seed %d: play says won, the engine goes on", opts, seed)
				}
				next := seatView(t, s)
				next.side = s.ColourOf(s.ToMove())
				if p.board != next.board || p.hidden != next.hidden || p.alive != next.alive || p.side != next.side ||
					p.chain != next.chain || p.quiet != next.quiet || p.ply != next.ply || p.hash != next.hash {
					t.Fatalf("%v seed %d ply %d after %v:\n got %+v\nwant %+v", opts, seed, s.Ply(), a, p, next)
				}
			}
		}
	}
}

// missing is the face-down piece an attack revealed and took: the one
// the engine's multiset has lost.
func missing(t testing.TB, before *position, s *banqi.State) banqi.Piece {
	v := s.ViewOf(0)
	after, err := fromView(&v, banqi.Red)
	if err != nil {
		t.Fatal(err)
	}
	for pc := banqi.Piece(1); pc <= 14; pc++ {
		if after.hidden[pc] < before.hidden[pc] {
			return pc
		}
	}
	t.Fatal("no piece left the face-down multiset")
	return 0
}
