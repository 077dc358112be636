package protocol

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Excerpt quotes what a bot sent, for a message a person reads: at most
// max bytes of it, then how long it was.
func Excerpt(b []byte, max int) string {
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + fmt.Sprintf("... (%d bytes)", len(b))
	}
	return strconv.Quote(string(b))
}

// ErrorText is the message of an error line from a bot, or an Excerpt of
// the line when it carries none.
func ErrorText(line []byte, max int) string {
	var e Error
	_ = json.Unmarshal(line, &e)
	if e.Message == "" {
		return Excerpt(line, max)
	}
	return e.Message
}
