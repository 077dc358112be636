package protocol

import "slices"

// Reason classifies a bot's failure: one of the reasons of
// docs/protocol.md §5, the same names in the end message's forfeit list,
// a replay's strike and forfeit lines and results.jsonl. The type lives
// here, with the messages, because it is part of the contract with bots,
// and because this package is the one leaf that the referee, the replay
// format (which other programs import) and the ledger all share.
type Reason string

// Failure reasons.
const (
	ReasonStartup       Reason = "startup"        // no ready within the startup limit
	ReasonTimeout       Reason = "timeout"        // no reply within the move's time
	ReasonIllegalAction Reason = "illegal_action" // a well-formed reply naming an action that is not legal
	ReasonBadMessage    Reason = "bad_message"    // not JSON, wrong type or id, oversize line, or an error message
	ReasonCrash         Reason = "crash"          // exited, closed stdout, or could not be written to
	ReasonLeft          Reason = "left"           // a person playing the seat (arena play) left the game: never a bot
)

// Reasons lists every reason, in the order docs/protocol.md gives them.
var Reasons = []Reason{ReasonStartup, ReasonTimeout, ReasonIllegalAction, ReasonBadMessage, ReasonCrash, ReasonLeft}

// Valid reports whether r is one of Reasons (a replay read from a file
// may name any).
func (r Reason) Valid() bool { return slices.Contains(Reasons, r) }

// Hint says what usually causes a failure of r's kind, for the bot's
// author, or "": a ready that never arrives was most often written but
// not flushed.
func (r Reason) Hint() string {
	if r == ReasonStartup {
		return startupHint
	}
	return ""
}

// startupHint quotes the ready line as Line encodes it, so the advice
// follows the wire form.
var startupHint = "answer hello with " + string(Line(Ready{Type: TypeReady})) + " and flush stdout"

// Failure is one failure of a seat at a ply (the number of moves played
// before it), as the referee classifies it. It is not a message: it is
// what a replay's strike and forfeit lines hold (the JSON tags are that
// format's), and what results.jsonl and the end message report of it.
type Failure struct {
	Ply    int    `json:"ply"`
	Seat   int    `json:"seat"`
	Reason Reason `json:"reason"`
	Detail string `json:"detail,omitempty"`
}
