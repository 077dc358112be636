// Package python holds the Python SDK for arena bots: arenabot.py, one
// module of the standard library only (Python 3.9+), documented in
// docs/sdk-python.md. Its tests feed it real views of every game, drive it
// with a scripted referee, and run the starter bots of
// bots/starters/python through arena check and arena match.
package python

import _ "embed" // for Source

// Source is the text of arenabot.py, the Python SDK module. A starter kit
// is a directory holding it next to the bot's bot.py (and a README.md):
// sandboxed bots see only their own directory, so the kit carries its own
// copy of the SDK.
//
//go:embed arenabot.py
var Source []byte

// FileName is the name Source must be written under for a bot's
// "import arenabot" to find it.
const FileName = "arenabot.py"
