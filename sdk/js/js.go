// Package js holds the arena's JavaScript bot SDK, arenabot.js: one file,
// no dependencies, for Node 18 or later, usable with require() and with
// import. Its reference is docs/sdk-js.md; its tests (go test ./sdk/js)
// run it under node against real views of every game, a scripted referee,
// and arena check and arena match with every starter of
// bots/starters/js.
package js

import _ "embed"

// Source is arenabot.js, the file a JavaScript starter kit puts next to
// its bot (a sandboxed bot sees only its own directory, so the kit carries
// its own copy).
//
//go:embed arenabot.js
var Source []byte

// FileName is the name the SDK is written under in a starter kit, and the
// one the starters require: require('./arenabot.js').
const FileName = "arenabot.js"
