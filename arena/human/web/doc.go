// Package web lets a person take a seat in a browser (arena play --web):
// a bot.Launcher whose session is a page served on loopback. The referee
// talks to it as to any bot, over the same protocol lines, so clocks and
// recording are those of every game, and the page holds only what the
// seat's lines hold: the seat's views (never another hand, never a
// face-down piece), its legal actions and the turn's clock, who sits
// where, and the results. Nothing else reaches the page: a referee line
// is never passed on whole (not hello's seed, for one).
//
// The page draws each view as the replay viewer does (its drawing and
// style, replays/viewer's DrawScript and Style); it gets the seat's
// messages from a server-sent-events feed and posts the person's move,
// the index of a legal action, which the seat returns to the referee as
// a bot's reply. Standard library only, one inline script under a
// content policy that names its hash, nothing loaded from anywhere.
//
// The server answers under a random path (Server.Path): only who has the
// printed URL sees the seat. It listens on loopback unless asked
// otherwise (Listen).
package web
