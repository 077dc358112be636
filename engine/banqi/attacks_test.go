package banqi

import (
	"fmt"
	"reflect"
	"testing"
)

// AppendAttacks is the capture geometry of the legal moves: a cannon
// jumps over one screen onto a face-up enemy (or, with facedown, onto a
// face-down piece), an ordinary piece takes beside it, an empty or
// face-down from square has none.
func TestAppendAttacks(t *testing.T) {
	b, err := ParseBoard("-X--", "----", "-C-X", "-X-k", "----", "-p--", "----", "-n--")
	if err != nil {
		t.Fatal(err)
	}
	sq := func(s string) int8 { n, _ := ParseSquare(s); return int8(n) }
	cases := []struct {
		ranks    Ranks
		from     string
		facedown bool
		want     []int8
	}{
		{Taiwan, "b6", false, []int8{sq("b3")}}, // over b5 onto the pawn; d6 has no screen
		{Taiwan, "b6", true, []int8{sq("b3")}},  // b8 is adjacent: no jump, and c6 is empty
		{HK, "b6", true, []int8{sq("b5")}},      // HK cannon: beside it, face-down b5
		{HK, "b6", false, nil},                  // nothing face up beside it
		{Taiwan, "d5", false, nil},              // the king beside nothing face up
		{Taiwan, "d5", true, []int8{sq("d6")}},  // attack on the face-down d6
		{Taiwan, "b5", false, nil},              // face down: no attacks
		{Taiwan, "a1", false, nil},              // empty
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%v %s %v", tc.ranks, tc.from, tc.facedown), func(t *testing.T) {
			got := b.AppendAttacks(tc.ranks, int(sq(tc.from)), tc.facedown, nil)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if !tc.facedown {
				var ints []int
				for _, s := range got {
					ints = append(ints, int(s))
				}
				if want := b.AppendTargets(tc.ranks, int(sq(tc.from)), nil); !reflect.DeepEqual(ints, want) {
					t.Errorf("AppendTargets %v, AppendAttacks %v", want, got)
				}
			}
		})
	}
}
