// Package jsonw appends JSON values exactly as encoding/json writes them,
// for the engines' AppendJSON fast paths (engine.JSONAppender): views and
// actions are encoded on every move, and reflection is the slow part.
package jsonw

import (
	"encoding/json"
	"strconv"
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
func Strings(dst []byte, xs []string) []byte {
	if xs == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = String(dst, x)
	}
	return append(dst, ']')
}

// Ints appends a JSON array of integers (null for a nil slice).
func Ints(dst []byte, xs []int) []byte {
	if xs == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(x), 10)
	}
	return append(dst, ']')
}
