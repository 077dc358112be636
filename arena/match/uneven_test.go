package match_test

import (
	"testing"

	"github.com/arena-dev/arena/arena/match"
	"github.com/arena-dev/arena/arena/run"
)

// Uneven: a replayed deal over part of a seat rotation favours some
// seats; fresh deals have no rotation to even out.
func TestUneven(t *testing.T) {
	for _, tc := range []struct {
		games, seats int
		fresh        bool
		want         bool
	}{
		{2, 2, false, false},
		{4, 2, false, false},
		{3, 2, false, true},
		{1, 3, false, true},
		{6, 3, false, false},
		{3, 2, true, false},
		{1, 4, true, false},
	} {
		cfg := match.Config{Settings: run.Settings{FreshDeals: tc.fresh}, Games: tc.games}
		if got := cfg.Uneven(tc.seats); got != tc.want {
			t.Errorf("%d games of %d seats, fresh deals %v: Uneven = %v, want %v", tc.games, tc.seats, tc.fresh, got, tc.want)
		}
	}
}
