package viewer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// errNotJSON is a view that is not the JSON the scanner expects; views
// come from json.Marshal (or engine.AppendJSON, the same bytes), so it
// means a broken engine.
var errNotJSON = errors.New("not a compact JSON object or array")

// members splits a compact JSON object or array (json.Marshal's output:
// no spaces) into its top-level members without decoding them: for an
// object each key and its value's bytes, for an array each element's
// bytes (keys nil). The views of a long game are split tens of
// thousands of times; encoding/json would spend most of the page's
// build time validating and copying.
func members(raw []byte) (keys []string, vals [][]byte, err error) {
	if len(raw) < 2 || (raw[0] != '{' && raw[0] != '[') {
		return nil, nil, fmt.Errorf("viewer: %w: %.40q", errNotJSON, raw)
	}
	object := raw[0] == '{'
	i := 1
	if raw[i] == '}' || raw[i] == ']' {
		return nil, nil, nil
	}
	for {
		if object {
			end, err := valueEnd(raw, i)
			if err != nil || end >= len(raw) || raw[end] != ':' {
				return nil, nil, fmt.Errorf("viewer: %w: %.40q", errNotJSON, raw)
			}
			k := string(raw[i+1 : end-1])
			if bytes.IndexByte(raw[i:end], '\\') >= 0 || raw[i] != '"' {
				if err := json.Unmarshal(raw[i:end], &k); err != nil {
					return nil, nil, fmt.Errorf("viewer: %w: %.40q", errNotJSON, raw)
				}
			}
			keys = append(keys, k)
			i = end + 1
		}
		end, err := valueEnd(raw, i)
		if err != nil || end >= len(raw) {
			return nil, nil, fmt.Errorf("viewer: %w: %.40q", errNotJSON, raw)
		}
		vals = append(vals, raw[i:end])
		switch raw[end] {
		case ',':
			i = end + 1
		case '}', ']':
			return keys, vals, nil
		default:
			return nil, nil, fmt.Errorf("viewer: %w: %.40q", errNotJSON, raw)
		}
	}
}

// valueEnd is the index just past the JSON value that starts at i.
func valueEnd(raw []byte, i int) (int, error) {
	if i >= len(raw) {
		return 0, errNotJSON
	}
	depth := 0
	for j := i; j < len(raw); j++ {
		switch c := raw[j]; c {
		case '"':
			for j++; j < len(raw) && raw[j] != '"'; j++ {
				if raw[j] == '\\' {
					j++
				}
			}
			if depth == 0 {
				return j + 1, nil
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j, nil // a scalar ended by its container
			}
			depth--
			if depth == 0 {
				return j + 1, nil
			}
		case ',', ':':
			if depth == 0 {
				return j, nil
			}
		}
	}
	return 0, errNotJSON
}
