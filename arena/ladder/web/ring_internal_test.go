package web

import (
	"fmt"
	"testing"
)

func TestRing(t *testing.T) {
	for _, tt := range []struct {
		adds, n int
		want    string
	}{
		{0, 3, "[]"},
		{2, 3, "[0 1]"},
		{3, 3, "[0 1 2]"},
		{3, 2, "[1 2]"},
		{5, 3, "[2 3 4]"},
		{7, 2, "[5 6]"},
		{7, 9, "[4 5 6]"},
	} {
		r := newRing[int](3)
		for i := range tt.adds {
			r.add(i)
		}
		if got := fmt.Sprint(r.last(tt.n)); got != tt.want {
			t.Errorf("%d added, last %d: %s, want %s", tt.adds, tt.n, got, tt.want)
		}
	}
}
