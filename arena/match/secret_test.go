package match_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/match"
)

// dealt is what must repeat when a match is reproduced: per game, the
// deal seed and the result.
type dealt struct {
	Seed  uint64
	Ranks []int
	Plies int
}

func playMatch(t *testing.T, fx *fixture, secret *deal.Secret, out string) []dealt {
	t.Helper()
	cfg := config(t, 4, 5, out) // the same match seed every time
	cfg.Secret = secret
	var got []dealt
	cfg.OnGame = func(r ledger.Record) { got = append(got, dealt{r.Seed, r.Ranks, r.Plies}) }
	if _, err := match.Run(context.Background(), cfg, fx.bots); err != nil {
		t.Fatal(err)
	}
	return got
}

func noSharedSeed(a, b []dealt) bool {
	seen := map[uint64]bool{}
	for _, d := range a {
		seen[d.Seed] = true
	}
	for _, d := range b {
		if seen[d.Seed] {
			return false
		}
	}
	return true
}

// TestSameSeedNewSecretNewDeals: two matches with one seed and no secret
// deal different cards, with and without an output directory; each
// directory gets its own secret, mode 0600.
func TestSameSeedNewSecretNewDeals(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
	for _, withOut := range []bool{false, true} {
		var outs [2]string
		var runs [2][]dealt
		for i := range runs {
			if withOut {
				outs[i] = filepath.Join(fx.dir, "out", []string{"one", "two"}[i])
			}
			runs[i] = playMatch(t, fx, nil, outs[i])
		}
		if !noSharedSeed(runs[0], runs[1]) {
			t.Errorf("out %v: the same seed without a secret dealt the same cards twice: %v and %v", withOut, runs[0], runs[1])
		}
		if !withOut {
			continue
		}
		var secrets [2]*deal.Secret
		for i, out := range outs {
			path := filepath.Join(out, deal.FileName)
			st, err := os.Stat(path)
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("%s: %v (mode %v), want mode 0600", path, err, st.Mode())
			}
			if secrets[i], err = deal.Read(path); err != nil {
				t.Fatal(err)
			}
		}
		if secrets[0].Equal(secrets[1]) {
			t.Error("two new output directories got the same secret")
		}
	}
}

// TestReusedSecretReproducesTheMatch: the secret an earlier match stored
// deals every game of a rerun into a new directory again, with the same
// results (the bots' choices depend on hello.seed alone); a rerun into
// the same directory reuses its secret without being told; another secret
// there is refused before anything is played.
func TestReusedSecretReproducesTheMatch(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, []string{"a", "b"}, []string{"random", "random"})
	first := filepath.Join(fx.dir, "first")
	want := playMatch(t, fx, nil, first)
	stored, err := deal.Read(filepath.Join(first, deal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		secret *deal.Secret
		out    string
	}{
		{"the stored secret, a new directory", stored, filepath.Join(fx.dir, "again")},
		{"the stored secret, in memory", stored, ""},
		{"no secret, the same directory", nil, first},
	}
	for _, tc := range cases {
		got := playMatch(t, fx, tc.secret, tc.out)
		for i := range want {
			if i >= len(got) || got[i].Seed != want[i].Seed || got[i].Plies != want[i].Plies || !slices.Equal(got[i].Ranks, want[i].Ranks) {
				t.Fatalf("%s: games %v, want %v", tc.name, got, want)
			}
		}
	}
	if again, err := deal.Read(filepath.Join(fx.dir, "again", deal.FileName)); err != nil || !again.Equal(stored) {
		t.Errorf("the rerun's directory holds %v (%v), want the reused secret", again, err)
	}

	before, _ := os.ReadFile(filepath.Join(first, "results.jsonl"))
	cfg := config(t, 4, 5, first)
	cfg.Secret = deal.New()
	if _, err := match.Run(context.Background(), cfg, fx.bots); !errors.Is(err, deal.ErrMismatch) {
		t.Fatalf("another secret into %s: %v, want deal.ErrMismatch", first, err)
	}
	if after, _ := os.ReadFile(filepath.Join(first, "results.jsonl")); string(after) != string(before) {
		t.Error("a match refused for its secret recorded games")
	}
}
