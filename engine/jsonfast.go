package engine

import "encoding/json"

// JSONAppender is an optional fast path for actions and views, which the
// referee encodes on every move: AppendJSON appends exactly the bytes
// json.Marshal would produce. Engines that skip it are still correct, just
// slower (reflection plus re-validation of MarshalJSON output).
type JSONAppender interface {
	AppendJSON(dst []byte) []byte
}

// AppendJSON appends v's JSON encoding to dst, through JSONAppender when v
// has it.
func AppendJSON(dst []byte, v any) ([]byte, error) {
	if a, ok := v.(JSONAppender); ok {
		return a.AppendJSON(dst), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, b...), nil
}
