// Package engineserver serves the rules engines over JSON lines (the
// `arena engine` command), so that a bot or a learning agent in any
// language can simulate a game without rewriting its rules: it creates
// states by integer handle, lists their legal actions, applies one, asks
// for a seat's view, clones, runs random playouts in Go and, for games
// with hidden information, samples a full state consistent with the views
// one seat has seen (engine.Sampler).
//
// It exists so that search bots (MCTS, ISMCTS, expectimax) and training
// environments outside Go play by exactly the rules the referee plays by:
// the same engines, the same option resolution (engine.Setup), the same
// view and action bytes (the referee's own rendering: engine.ViewAppender
// when the state has it, engine.AppendJSON otherwise). One request line gets one response line; a line
// may be a batch (a JSON array), so a search pays one pipe round trip per
// batch rather than per node. The wire contract is docs/engine.md.
//
// Bad input never stops the server: every failure is a response carrying
// an error Code (bad_request, no_handle, illegal, ...), which clients
// branch on, never on the message.
package engineserver
