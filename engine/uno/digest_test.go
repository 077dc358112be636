package uno

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math/rand/v2"
	"testing"

	"github.com/arena-dev/arena/internal/testkit"
)

// digestRules are rule sets that between them reach every phase, action
// type and event kind.
func digestRules() map[string]Rules {
	set := map[string]Rules{}
	set["official"] = DefaultRules()
	set["rlcard"] = rlcardLike()
	b, err := RulesFromOptions(map[string]string{"rules": "bounce"})
	if err != nil {
		panic(err)
	}
	set["bounce"] = b
	house, err := RulesFromOptions(map[string]string{
		"stack_draws": "true", "seven_zero": "true", "reverse_deflects_draw": "true",
		"jump_in": "true", "play_to_last": "true", "uno_call": "catch_window", "target": "0",
		"max_actions": "1500",
	})
	if err != nil {
		panic(err)
	}
	set["house"] = house
	h2, err := RulesFromOptions(map[string]string{
		"draw_until_playable": "true", "scoring": "penalty_low_wins", "target": "150",
		"seven_zero": "true", "jump_in": "true", "max_actions": "400",
	})
	if err != nil {
		panic(err)
	}
	set["house2"] = h2
	return set
}

// traceDigest plays random games and hashes everything a replay or a
// bot could observe: every legal list in order, every seat's view JSON
// (sampled), and the outcome.
func traceDigest(t testing.TB, r Rules, seats, games int) string {
	h := sha256.New()
	rng := rand.New(rand.NewPCG(7, uint64(seats)))
	for g := range games {
		s := NewState(seats, uint64(g)*0x9e3779b97f4a7c15, r)
		traceGame(t, h, s, rng, g%4 == 0)
		// Reset must give the same game as NewState.
		if g%16 == 1 {
			s.Reset(uint64(g) * 0x9e3779b97f4a7c15)
			traceGame(t, h, s, rand.New(rand.NewPCG(uint64(g), 1)), false)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func traceGame(t testing.TB, h hash.Hash, s *State, rng *rand.Rand, views bool) {
	var buf []Action
	for !s.Over() {
		buf = s.AppendLegal(buf[:0])
		for _, a := range buf {
			h.Write(a.AppendJSON(nil))
		}
		h.Write([]byte{'\n'})
		if views && s.Ply()%23 == 0 {
			for seat := -1; seat < s.Seats(); seat++ {
				h.Write(s.ViewOf(seat).AppendJSON(nil))
			}
		}
		if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
			t.Fatal(err)
		}
	}
	for seat := -1; seat < s.Seats(); seat++ {
		h.Write(s.ViewOf(seat).AppendJSON(nil))
	}
	// The outcome as the engine worded it when the digests were taken:
	// a reason worded otherwise since (Formerly) is hashed as it was, so
	// the pinned digests also show that Formerly gives back, game for
	// game, the reasons replays of those days recorded.
	out := s.Outcome()
	if len(out.Formerly) > 0 {
		out.Reason = out.Formerly[0]
	}
	o, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	h.Write(o)
	fmt.Fprint(h, s.Ply(), s.Actions())
}

// TestTraceDigest pins the engine's observable behaviour, so that a
// change made for speed cannot alter recorded games: the digests were
// taken from the engine before its optimisation. A change of the rules
// that is meant (a new Info().Rules) updates them; run with -v to print
// the new values.
func TestTraceDigest(t *testing.T) {
	for name, r := range digestRules() {
		// Quick: the fewest and the most seats but one (a digest is 40
		// games); thorough: every seat count.
		for _, seats := range testkit.Pick([]int{2, 7}, []int{2, 3, 4, 7, 10}) {
			key := fmt.Sprintf("%s/%d", name, seats)
			t.Run(key, func(t *testing.T) {
				got := traceDigest(t, r, seats, 40)
				t.Logf("%q: %q,", key, got)
				if want, ok := wantDigests[key]; !ok || got != want {
					t.Errorf("trace digest %s = %s, want %s", key, got, want)
				}
			})
		}
	}
}

var wantDigests = map[string]string{
	"bounce/10":   "a84c185b71481048974187b6ebbc122e04cb1116a54cab7d08cb8f383bc39d36",
	"bounce/2":    "2b0732d893fbe92f106543400a0c3b3de21331f0e3718feff3e50cd7855eb17f",
	"bounce/3":    "789734f26965f039c93bf575926c1f7af28fe17c6d2142a0a0737d3a57e06b0c",
	"bounce/4":    "3a30b89ce8ecb6f86864753acc19981ad1ec3c50864d4143cee87f5800ac07ab",
	"bounce/7":    "c58369e1540bc16f676043a09ea090112f30806fcf268c3726d8893b506a5f43",
	"house/10":    "22fb10f0219c555071e0c266e1517b37b7b39ef66bfbb95c61768c9e7f6c01c1",
	"house/2":     "d62a828e4a3ef7bcf0310ee7ac38091bea4b97581aad8bfb6eb638eca793fd00",
	"house/3":     "2b2d532d33623ab6ad160ddfbb777894037e11d323d5f5eca017065ec8196a82",
	"house/4":     "0a2f93a0a4e4c93623a00de40b7fe80463dc12512e4beb5e31e920904079a593",
	"house/7":     "9486e71c341e74e945c05f1469a6e0ca655a58803faa6b8972956a3799fa8186",
	"house2/10":   "0348ce802df5622f32bab197cca1923456ba61d042cb8e1b68c6ab976c846ec6",
	"house2/2":    "0aea4871e03d020d35eae59538f43176743de851ae6440adc19d9671009574fd",
	"house2/3":    "6b9f02bf1cc3ab12f1923dcdac8707a4cabe0686d79dff66f1bcba1a06e0423e",
	"house2/4":    "7d4088242098e2d85ce859d58119ffc5392982903615b45c4057a3581a831eff",
	"house2/7":    "ecb16017158e60c001fb33c6fd4943ef7f8adc112ebfe092e9de034d8f5659c6",
	"official/10": "d7847b7687f990cb957d66017290a342c80e6b6af950e55c2ed11896aa7ec627",
	"official/2":  "c8f52f7bd177144afd7d8a6d25859595372a3beb6d6ed8a7036e7306d4841e26",
	"official/3":  "3d8ec5e027c97e6f65f0cd65241f7bfec8f59d90266fbddba29ed29f89687ad2",
	"official/4":  "e2c145b1543c1b9d425282a7768c5993e4d005ec10d7a6b11fc6a63524bf14bf",
	"official/7":  "290345af5fad4c5ea41785c84838a1650f82c91e22e5e248849697d569985856",
	"rlcard/10":   "529a53364d677c6c487ebbe92f262acd2fce3741ac8a0ed2ad5bcf6c1acc3d98",
	"rlcard/2":    "a7663b2af61fcacda7683643e1a27fcfa9bf0c52d1b6ebd155eb61cb6482723d",
	"rlcard/3":    "7c6ef23cb6ac60a6f4a7dd54213be5af3a897395e1cf12dfd1c109551714411f",
	"rlcard/4":    "64841846e76b15ebca16aa6942c120328709401d60d3677b4ea685cf9229adfd",
	"rlcard/7":    "c9bc06ebe325ffa84a23a164cd3176b5f4eb3f4db5bfd55d698354e36fe7ddaa",
}

// refTurnMask is turnMask computed from scratch, as it was before match
// was kept up to date by setColour.
func refTurnMask(s *State, p int) uint64 {
	held := s.mask[p]
	top := s.Top()
	m := colourMask[s.colour] | wildBits
	if !top.IsWild() {
		m |= faceMask[top.Face()]
	}
	if s.rules.Enforce && held&colourMask[s.colour] != 0 {
		m &^= bitWildDraw
	}
	return held & m
}

// refAdv is adv with the plain modular step it replaced.
func refAdv(s *State, p, k int) int {
	for k > 0 {
		p = (p + s.dir + s.n) % s.n
		if s.active[p] {
			k--
		}
	}
	return p
}

// TestCachedMasksMatchReference checks, at every decision of many random
// games under every rule set, that the kept match mask gives what
// turnMask computed from scratch gives, for every seat, and that the
// branch-free adv steps as the modular one does.
func TestCachedMasksMatchReference(t *testing.T) {
	for name, r := range digestRules() {
		for _, seats := range []int{2, 3, 5, 10} {
			rng := rand.New(rand.NewPCG(11, uint64(seats)))
			var buf []Action
			for g := range 60 {
				s := NewState(seats, uint64(g), r)
				for !s.Over() {
					if s.colour >= 0 {
						for p := range seats {
							if got, want := s.turnMask(p), refTurnMask(s, p); got != want {
								t.Fatalf("%s/%d game %d ply %d: turnMask(%d) = %x, want %x", name, seats, g, s.Ply(), p, got, want)
							}
						}
					}
					for p := range seats {
						for k := 1; k <= 2 && s.nActive > 0; k++ {
							if got, want := s.adv(p, k), refAdv(s, p, k); got != want {
								t.Fatalf("%s/%d game %d ply %d: adv(%d, %d) = %d, want %d", name, seats, g, s.Ply(), p, k, got, want)
							}
						}
					}
					buf = s.AppendLegal(buf[:0])
					if err := s.Play(buf[rng.IntN(len(buf))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}
