// Package expectimax is a Banqi bot that searches: alpha-beta over moves
// and captures, with every flip (and every attack on a face-down piece) a
// chance node that averages its outcomes over the public multiset of the
// pieces still face down, weighted by how many of each are left
// (expectimax, with Ballard's Star1 bounds to cut chance nodes short). Its
// evaluation counts material with the game's values, mobility, threats
// (cannon jumps included) and how close pieces stand to what they can
// take; a captures-only search settles exchanges past the horizon. It
// knows the repetition window (the positions since the last flip or
// capture) and scores a return to one of them as a draw, so it avoids
// repetition when ahead and seeks it when behind.
//
// It uses only what the protocol gives a seat: the hello's options, each
// turn's view and legal list, and the clock. docs/bots.md explains the
// algorithm and its measured strength.
package expectimax
