package viewer_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/arena-dev/arena/replays/viewer"
)

// longest is the longest game the engines allow: Uno with 10 seats to
// 500 points (random play; seed 30 is the longest of the first 40 seeds, 4,894 plies).
var longest = game{name: "uno", seats: 10, seed: 30, options: map[string]string{"target": "500"}}

func TestMeasureLongest(t *testing.T) {
	r := play(t, longest)
	var buf bytes.Buffer
	if err := viewer.WriteHTML(&buf, r, viewer.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("plies %d, page %d bytes", r.Result.Plies, buf.Len())
	buf.Reset()
	if err := viewer.WriteHTML(&buf, r, viewer.ForSeat(3)); err != nil {
		t.Fatal(err)
	}
	t.Logf("one seat page %d bytes", buf.Len())
}

func TestBreakdown(t *testing.T) {
	r := play(t, longest)
	var buf bytes.Buffer
	viewer.WriteHTML(&buf, r, viewer.Options{})
	var d struct {
		Frames [][]map[string]json.RawMessage `json:"frames"`
	}
	if err := json.Unmarshal(dataOf(t, buf.Bytes()), &d); err != nil {
		t.Fatal(err)
	}
	size := map[string]int{}
	for _, f := range d.Frames {
		for i, dl := range f {
			for op, raw := range dl {
				var m map[string]json.RawMessage
				if json.Unmarshal(raw, &m) != nil {
					size[op] += len(raw)
					continue
				}
				for k, v := range m {
					key := fmt.Sprintf("%s/%s/%s", map[bool]string{true: "pub", false: "seat"}[i == 0], op, k)
					size[key] += len(v) + len(k) + 4
				}
			}
		}
	}
	t.Logf("total %d: %v", buf.Len(), size)
}
