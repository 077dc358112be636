// Package seed is where the arena's seeds come from: a fresh random run
// seed (Random) and the one-way derivation of further seeds from one
// (Derive, and Bot for the seed a bot is sent in hello). Every seed is
// below 2^53 (Mask), so that a bot in any language, JavaScript's doubles
// included, holds it exactly; the deal seeds of package deal are cut to
// the same bits.
package seed

import (
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
)

// Bits is how many low bits a seed may have, and Mask keeps them: the
// largest integer a float64 holds exactly is 2^53.
const (
	Bits = 53
	Mask = 1<<Bits - 1
)

// Random returns a fresh random seed, for a run given none.
func Random() uint64 { return rand.Uint64() & Mask }

// Derive derives an independent seed from parent, a label and an index.
// It is one-way (SHA-256): a bot that sees a derived seed cannot recover
// the parent (a game's deal seed) and replay the hidden draws.
func Derive(parent uint64, label string, index uint64) uint64 {
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], parent)
	binary.LittleEndian.PutUint64(buf[8:], index)
	h := sha256.New()
	h.Write([]byte("arena/" + label + "\x00"))
	h.Write(buf[:])
	return binary.LittleEndian.Uint64(h.Sum(nil)) & Mask
}

// Bot derives the seed sent to a bot in hello from the game's deal seed;
// index tells bots apart (the seat, or the bot's place in a match, so
// that a bot keeps its stream when seats swap).
func Bot(gameSeed uint64, index int) uint64 {
	return Derive(gameSeed, "bot", uint64(index))
}
