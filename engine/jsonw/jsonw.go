// Package jsonw appends JSON values exactly as encoding/json writes them,
// for the engines' AppendJSON fast paths (engine.JSONAppender): views and
// actions are encoded on every move, and reflection is the slow part.
package jsonw

import (
	"encoding/json"
	"math"
	"slices"
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

// Float appends f as encoding/json writes a float64: the shortest
// decimal that reads back as f, in exponent form (e-7, not e-07) below
// 1e-6 and from 1e21. f must be finite (encoding/json refuses NaN and
// infinities).
func Float(dst []byte, f float64) []byte {
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Two digits of exponent are written as one, as encoding/json does.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// Floats appends a JSON array of float64s (null for a nil slice).
func Floats(dst []byte, xs []float64) []byte { return Array(dst, xs, Float) }

// StringMap appends m as encoding/json writes a map of strings: its keys
// in order (null for a nil map).
func StringMap(dst []byte, m map[string]string) []byte {
	if m == nil {
		return append(dst, "null"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = String(dst, k)
		dst = append(dst, ':')
		dst = String(dst, m[k])
	}
	return append(dst, '}')
}
