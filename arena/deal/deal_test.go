package deal_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/seed"
)

func fixed(b byte) *deal.Secret {
	var s deal.Secret
	for i := range s {
		s[i] = b + byte(i)
	}
	return &s
}

func TestSeedIsKeyed(t *testing.T) {
	a, b := fixed(1), fixed(2)
	if a.Seed(42, "deal", 3) != fixed(1).Seed(42, "deal", 3) {
		t.Fatal("the same secret, seed, label and index gave two deal seeds")
	}
	seen := map[uint64]string{}
	for _, c := range []struct {
		name string
		got  uint64
	}{
		{"base", a.Seed(42, "deal", 3)},
		{"other secret", b.Seed(42, "deal", 3)},
		{"other seed", a.Seed(43, "deal", 3)},
		{"other label", a.Seed(42, "fresh", 3)},
		{"other index", a.Seed(42, "deal", 4)},
		{"public derivation", seed.Derive(42, "deal", 3)},
	} {
		if c.got >= 1<<53 {
			t.Errorf("%s: %d is not below 2^53", c.name, c.got)
		}
		if prev, dup := seen[c.got]; dup {
			t.Errorf("%s gives the same seed as %s", c.name, prev)
		}
		seen[c.got] = c.name
	}
}

func TestNewSecretsDiffer(t *testing.T) {
	a, b := deal.New(), deal.New()
	if a.Equal(b) || *a == (deal.Secret{}) {
		t.Fatalf("two fresh secrets: %s and %s", a, b)
	}
	if !a.Equal(a) {
		t.Fatal("a secret differs from itself")
	}
}

func TestStringIsAFingerprint(t *testing.T) {
	s := fixed(7)
	path := filepath.Join(t.TempDir(), deal.FileName)
	if err := deal.Write(path, s); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	hexText := strings.TrimSpace(string(data))
	if strings.Contains(s.String(), hexText[:16]) || len(s.Fingerprint()) != 16 || s.Fingerprint() == fixed(8).Fingerprint() {
		t.Fatalf("String %q, fingerprint %q: want a short one-way name", s, s.Fingerprint())
	}
}

func TestWriteReadBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, deal.FileName)
	for _, s := range []*deal.Secret{fixed(1), fixed(9)} { // the second replaces the first
		if err := deal.Write(path, s); err != nil {
			t.Fatal(err)
		}
		got, err := deal.Read(path)
		if err != nil || !got.Equal(s) {
			t.Fatalf("read back %v, %v; want %s", got, err, s)
		}
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v (%v), want 0600", st.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the directory, want only the secret (no temporary left)", len(entries))
	}
}

func TestReadRefuses(t *testing.T) {
	good := strings.Repeat("ab", deal.Size) + "\n"
	cases := []struct {
		name    string
		content string // "" with mode 0: no file
		mode    os.FileMode
		dir     bool
		want    error
		says    string
	}{
		{"missing", "", 0, false, fs.ErrNotExist, "no such file"},
		{"short", "abcd\n", 0o600, false, deal.ErrMalformed, "4 characters, want 64 hex digits"},
		{"long", good + good, 0o600, false, deal.ErrMalformed, "want 64 hex digits"},
		{"not hex", strings.Repeat("zz", deal.Size), 0o600, false, deal.ErrMalformed, "invalid byte"},
		{"empty", "\n", 0o600, false, deal.ErrMalformed, "0 characters"},
		{"world-readable", good, 0o644, false, deal.ErrExposed, "chmod 600"},
		{"group-readable", good, 0o640, false, deal.ErrExposed, "mode 0640"},
		{"a directory", "", 0, true, deal.ErrMalformed, "not a regular file"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "secret")
			switch {
			case tc.dir:
				os.Mkdir(path, 0o700)
			case tc.mode != 0:
				if err := os.WriteFile(path, []byte(tc.content), tc.mode); err != nil {
					t.Fatal(err)
				}
				os.Chmod(path, tc.mode) // past the umask
			}
			s, err := deal.Read(path)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Read = %v, %v; want %v", s, err, tc.want)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("error %q does not name the file and say %q", err, tc.says)
			}
		})
	}
	// Surrounding whitespace is fine.
	path := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(path, []byte("  "+good+"\n"), 0o600)
	if _, err := deal.Read(path); err != nil {
		t.Fatal(err)
	}
}

func TestInDir(t *testing.T) {
	t.Run("fresh", func(t *testing.T) {
		dir := t.TempDir()
		s, err := deal.InDir(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		again, err := deal.InDir(dir, nil)
		if err != nil || !again.Equal(s) {
			t.Fatalf("second InDir: %v, %v; want the stored %s", again, err, s)
		}
		if again, err := deal.InDir(dir, s); err != nil || !again.Equal(s) {
			t.Fatalf("InDir with the stored secret: %v, %v", again, err)
		}
	})
	t.Run("given", func(t *testing.T) {
		dir := t.TempDir()
		s, err := deal.InDir(dir, fixed(3))
		if err != nil || !s.Equal(fixed(3)) {
			t.Fatalf("InDir = %v, %v; want the given secret", s, err)
		}
		if got, _ := deal.Read(filepath.Join(dir, deal.FileName)); got == nil || !got.Equal(fixed(3)) {
			t.Fatal("the given secret was not stored")
		}
	})
	t.Run("mismatch", func(t *testing.T) {
		dir := t.TempDir()
		deal.InDir(dir, fixed(3))
		_, err := deal.InDir(dir, fixed(4))
		if !errors.Is(err, deal.ErrMismatch) || !strings.Contains(err.Error(), fixed(3).Fingerprint()) {
			t.Fatalf("InDir with another secret: %v; want ErrMismatch naming the stored one", err)
		}
	})
	t.Run("damaged is kept", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, deal.FileName)
		os.WriteFile(path, []byte("garbage"), 0o600)
		if _, err := deal.InDir(dir, nil); !errors.Is(err, deal.ErrMalformed) {
			t.Fatalf("InDir over a damaged file: %v, want ErrMalformed", err)
		}
		if b, _ := os.ReadFile(path); string(b) != "garbage" {
			t.Fatal("the damaged file was replaced")
		}
	})
}
