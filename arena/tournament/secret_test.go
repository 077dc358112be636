package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
)

// interrupted runs testConfig's tournament of 3 bots (6 games) into out
// with the given secret until stopAfter games are recorded.
func interrupted(t *testing.T, secret *deal.Secret, out string, stopAfter int) {
	t.Helper()
	c := testConfig(t, 3, 1)
	c.Secret = secret
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Run(ctx, c, out, Options{OnGame: func(p Progress) {
		if p.Done >= stopAfter {
			cancel()
		}
	}})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("%v, want an interruption", err)
	}
}

func ledgerOf(t *testing.T, out string) map[string]ledger.Record {
	t.Helper()
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(out, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]ledger.Record{}
	for _, r := range recs {
		r.Index, r.Replay, r.ReplayAt = 0, "", nil // order of completion, not the game
		m[r.GameID] = r
	}
	return m
}

// TestResumeUsesTheStoredSecret: a run with no secret stores a fresh one
// (mode 0600) before its first game; its resume deals with it, so the
// resumed tournament is game for game an uninterrupted run with that
// secret; a run with the same seed and no secret deals other cards.
func TestResumeUsesTheStoredSecret(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	path := filepath.Join(out, deal.FileName)
	c := testConfig(t, 3, 1)
	c.Secret = nil
	ctx, cancel := context.WithCancel(context.Background())
	_, err := Run(ctx, c, out, Options{OnGame: func(p Progress) {
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("after game %d: %s: %v, mode %v; want mode 0600", p.Done, path, err, st.Mode())
		}
		if p.Done >= 2 {
			cancel()
		}
	}})
	cancel()
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("%v, want an interruption", err)
	}
	c = testConfig(t, 3, 1)
	c.Secret = nil
	if _, err := Run(context.Background(), c, out, Options{}); err != nil {
		t.Fatal(err)
	}
	stored, err := deal.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	whole := t.TempDir()
	c = testConfig(t, 3, 1)
	c.Secret = stored
	if _, err := Run(context.Background(), c, whole, Options{}); err != nil {
		t.Fatal(err)
	}
	got, want := ledgerOf(t, out), ledgerOf(t, whole)
	if len(got) != 6 || !reflect.DeepEqual(got, want) {
		t.Fatalf("resumed run differs from an uninterrupted one with its secret:\n got %+v\nwant %+v", got, want)
	}

	other := t.TempDir()
	c = testConfig(t, 3, 1)
	c.Secret = nil
	if _, err := Run(context.Background(), c, other, Options{}); err != nil {
		t.Fatal(err)
	}
	for id, r := range ledgerOf(t, other) {
		if r.Seed == want[id].Seed {
			t.Errorf("%s: a new directory and no secret dealt seed %d again", id, r.Seed)
		}
	}
}

// TestResumeRefusesALostOrOtherSecret: a resume whose stored secret is
// gone, damaged, exposed or replaced by another fails with a message
// naming the file, and changes nothing: once the secret is back the
// resume completes with every game recorded before kept. A copy given as
// Config.Secret stands in for a lost file (after it proved to deal the
// recorded games); another secret given is refused.
func TestResumeRefusesALostOrOtherSecret(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		damage func(path string)
		given  func(original *deal.Secret) *deal.Secret
		fails  error // nil: the resume works
		says   string
	}{
		{name: "deleted", damage: func(p string) { os.Remove(p) }, fails: os.ErrNotExist, says: "cannot resume"},
		{name: "corrupted", damage: func(p string) { os.WriteFile(p, []byte("not a secret\n"), 0o600) }, fails: deal.ErrMalformed, says: "cannot resume"},
		{name: "truncated", damage: func(p string) { os.Truncate(p, 10) }, fails: deal.ErrMalformed, says: "cannot resume"},
		{name: "world-readable", damage: func(p string) { os.Chmod(p, 0o644) }, fails: deal.ErrExposed, says: "chmod 600"},
		{name: "replaced by another", damage: func(p string) { deal.Write(p, deal.New()) }, fails: deal.ErrMismatch, says: "was dealt seed"},
		{name: "another given", given: func(*deal.Secret) *deal.Secret { return deal.New() }, fails: deal.ErrMismatch, says: "was dealt seed"},
		{name: "deleted, another given", damage: func(p string) { os.Remove(p) }, given: func(*deal.Secret) *deal.Secret { return deal.New() },
			fails: deal.ErrMismatch, says: "was dealt seed"},
		{name: "deleted, a copy given", damage: func(p string) { os.Remove(p) }, given: func(s *deal.Secret) *deal.Secret { return s }},
		{name: "the same given", given: func(s *deal.Secret) *deal.Secret { return s }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := t.TempDir()
			path := filepath.Join(out, deal.FileName)
			interrupted(t, nil, out, 2)
			original, err := deal.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			before, _ := os.ReadFile(filepath.Join(out, ledger.FileName))
			if tc.damage != nil {
				tc.damage(path)
			}
			c := testConfig(t, 3, 1)
			c.Secret = nil
			if tc.given != nil {
				c.Secret = tc.given(original)
			}
			_, err = Run(context.Background(), c, out, Options{})
			if tc.fails == nil {
				if err != nil {
					t.Fatal(err)
				}
				if s, err := deal.Read(path); err != nil || !s.Equal(original) {
					t.Fatalf("after the resume %s holds %v (%v), want the original secret", path, s, err)
				}
				return
			}
			if !errors.Is(err, tc.fails) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("resume: %v; want %v saying %q", err, tc.fails, tc.says)
			}
			if tc.given == nil && !strings.Contains(err.Error(), path) {
				t.Errorf("the error does not name %s: %v", path, err)
			}
			if after, _ := os.ReadFile(filepath.Join(out, ledger.FileName)); string(after) != string(before) {
				t.Fatalf("a refused resume changed the ledger:\n%s\nwas\n%s", after, before)
			}
			// Nothing is lost: with the secret back, the run completes.
			if err := deal.Write(path, original); err != nil {
				t.Fatal(err)
			}
			c = testConfig(t, 3, 1)
			c.Secret = nil
			if _, err := Run(context.Background(), c, out, Options{}); err != nil {
				t.Fatal(err)
			}
			after, _ := os.ReadFile(filepath.Join(out, ledger.FileName))
			if !strings.HasPrefix(string(after), string(before)) || len(ledgerOf(t, out)) != 6 {
				t.Fatalf("after restoring the secret: %d games, want the %d recorded before and the rest (6)", len(ledgerOf(t, out)), strings.Count(string(before), "\n"))
			}
		})
	}
}

// TestDealSecretField: a tournament file's deal_secret is read relative to
// the file, never saved with the results, and a missing file is an error
// naming the field and the file.
func TestDealSecretField(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "kept"), 0o700)
	secret := deal.New()
	if err := deal.Write(filepath.Join(dir, "kept", deal.FileName), secret); err != nil {
		t.Fatal(err)
	}
	yaml := func(path string) []byte {
		return []byte("name: cup\ngame: banqi\ndeal_secret: " + path + "\nbots:\n  - name: a\n    command: " + os.Args[0] + "\n  - name: b\n    command: " + os.Args[0] + "\n")
	}
	f, err := ParseFile("cup.yaml", yaml("kept/"+deal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	c, err := f.Resolve("cup.yaml", dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Secret == nil || !c.Secret.Equal(secret) || c.SecretFile != filepath.Join(dir, "kept", deal.FileName) {
		t.Fatalf("deal_secret read as %v from %q", c.Secret, c.SecretFile)
	}
	if saved, _ := json.Marshal(c.File); strings.Contains(string(saved), "deal_secret") || strings.Contains(string(saved), "kept") {
		t.Errorf("the saved tournament names the secret file: %s", saved)
	}
	f, _ = ParseFile("cup.yaml", yaml("nowhere"))
	if _, err := f.Resolve("cup.yaml", dir); err == nil || !strings.Contains(err.Error(), "cup.yaml: deal_secret: ") || !strings.Contains(err.Error(), filepath.Join(dir, "nowhere")) {
		t.Fatalf("a missing deal_secret: %v", err)
	}
}
