// Package ladder is a standing ladder: a contest that runs for weeks,
// where contestants submit bots (and new versions of them) while games
// go on, the matchmaker (arena/ladder/matchmaking) chooses each next
// table, and every bot version has a Weng-Lin rating updated game by
// game. Unlike a tournament it has no schedule and no fixed bot list:
// its bots are a log of events (the roster) and its results a ledger
// that only grows.
//
// This package holds the ladder's files: the ladder file (ladder.yaml:
// File, Resolve, Config), the directory (Init, Open), the roster log
// (roster.jsonl: Event, Roster) and the ratings folded from the ledger
// (Ratings); and Run, which plays the matchmaker's tables on the runner
// (arena/run) until its context ends, resumes from the ledger, takes
// submissions in while it plays (arena/ladder/intake, through
// RunOptions.Intake) and confines its bots in a sandbox that hides the
// directory from them (Hidden).
//
// # The directory
//
// Init lays it out, with the modes a machine shared with contestants
// needs (Modes, docs/security.md); everything in it is the ladder's:
//
//	ladder.yaml          the ladder file, copied as given (written last by Init)
//	arena.lock           held by the one process that writes (arena/outdir)
//	deal-secret          keys every deal (arena/deal)
//	roster.jsonl         the roster log: one checksummed event a line
//	results.jsonl        the ledger of finished games (arena/ledger)
//	replays/             the games' replays
//	logs/                the bots' stderr, by version and game
//	bots/NAME/BUILD/     an admitted version's files, by build hash
//	submissions/incoming/ submissions waiting for the intake
//
// The roster log and the ledger are the truth: ratings, the active
// version of each bot and its status are recomputed from them on every
// start, and equal what the running ladder held (Ratings.Add is the one
// update, in ledger order).
package ladder
