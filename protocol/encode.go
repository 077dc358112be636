package protocol

import (
	"encoding/json"
	"fmt"
)

// Line encodes a message the arena sends (Hello, End, Bye...) as one
// protocol line, without its newline: the one place the wire form of a
// message is written, apart from the referee's turn appender (the hot
// path, which appends Turn's fields itself). The message types of this
// package always encode, so a failure is a programming error and panics.
func Line(msg any) []byte {
	b, err := json.Marshal(msg)
	if err != nil {
		panic(fmt.Sprintf("protocol: encoding %T: %v", msg, err))
	}
	return b
}
