// Package web is a ladder's live leaderboard: an http.Handler that
// serves, from a ladder directory (arena/ladder), the standings with
// each bot's conservative rating, interval, games and trend, each bot's
// page (its versions, status, games, head-to-head and forfeits), the
// most recent games, each game's replay viewer (replays/viewer), and a
// server-sent-events feed that announces each game as it becomes
// visible, from which the pages update themselves. Everything is Go's
// standard library; the style and script are inline, so a page loads
// nothing else.
//
// The server only reads the directory: results.jsonl and roster.jsonl,
// and the replays the ledger names. It never takes the ladder's lock, so
// it serves a ladder another process runs (`arena ladder serve`) as well
// as the one its own process runs (`arena ladder run --http`, which
// calls Server.Changed after each game); without Changed it notices new
// lines by the files' sizes. A torn last line is read once it is whole.
// It reads each line once, as the ledger grows, and keeps of the games
// what the pages show (the last ones, per list; the ratings; where each
// replay is): some 100 bytes a game, not the records.
//
// # Hidden deals
//
// A ladder table is a unit of k games of one deal, seats rotated: a
// finished game of a table whose other games are still being played
// tells those games' bots the cards they are playing against. The page
// is a channel to a remote bot (its owner's browser runs beside it), so
// the server shows the ledger only up to, not including, the first game
// of a table the ledger does not hold whole (k games with its Round, k
// the number of its bots). Everything it serves (pages, feed, replays,
// ratings, game counts) is computed from that prefix; the ratings are
// ladder.Fold of it, equal to the live ones as of its last game.
package web
