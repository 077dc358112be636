// Package jsonw appends JSON values exactly as encoding/json writes them,
// for the engines' AppendJSON fast paths (engine.JSONAppender): views and
// actions are encoded on every move, and reflection is the slow part.
package jsonw

import (
	"encoding/json"
	"strconv"

	"github.com/arena-dev/arena/engine"
)

// String appends s as a JSON string. Plain ASCII is copied as is; anything
// encoding/json would escape (control characters, quotes, backslashes,
// <, >, &, non-ASCII) goes through encoding/json, so the bytes match.
func String(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// StringPtr appends *s, or null.
func StringPtr(dst []byte, s *string) []byte {
	if s == nil {
		return append(dst, "null"...)
	}
	return String(dst, *s)
}

// Strings appends a JSON array of strings (null for a nil slice).
func Strings(dst []byte, xs []string) []byte { return Array(dst, xs, String) }

// Ints appends a JSON array of integers (null for a nil slice).
func Ints(dst []byte, xs []int) []byte {
	return Array(dst, xs, func(dst []byte, x int) []byte { return strconv.AppendInt(dst, int64(x), 10) })
}

// Array appends xs as a JSON array (null for a nil slice), each element
// written by elem.
func Array[T any](dst []byte, xs []T, elem func([]byte, T) []byte) []byte {
	if xs == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = elem(dst, x)
	}
	return append(dst, ']')
}

// Values appends xs as a JSON array of their own encodings (null for nil).
func Values[T engine.JSONAppender](dst []byte, xs []T) []byte {
	return Array(dst, xs, func(dst []byte, x T) []byte { return x.AppendJSON(dst) })
}
