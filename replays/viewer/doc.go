// Package viewer writes a replay as one self-contained HTML page that
// draws the game move by move in any browser: no server, no network, no
// external file (the script, the style sheet and the game's data are all
// inline). `arena replay html` and the tournament report use it.
//
// The page's data comes from the same re-simulation as replays.Verify and
// replays.Show (replays.Walk): for every position (the start and after
// each move) the public view (engine.Spectator) and, per seat, the view
// that seat had, stored as deltas (see data.go) because the longest games
// (Uno to 500 points with 10 seats) have tens of thousands of positions.
//
// A page written with Options{} holds every seat's view: its seat
// selector shows the game with every hand open, as the public saw it, or
// as any one seat saw it. A page written with ForSeat(k) holds only what
// seat k could know: its views, the public views, the moves of the other
// seats as k saw them (a hidden decision of another seat, such as Uno's
// jump-in pass, is left out altogether; a Boon burial does not name the
// card), and no seed (seed and actions would re-create every hand). It is
// the page to hand to the contestant in seat k.
package viewer
