// Package deal keys every deal of a run with a secret, so that no bot can
// compute the cards before they are dealt.
//
// The engines are deterministic and open source: whoever knows a game's
// deal seed knows every hand, the deck order, every face-down piece. A
// deal seed used to follow from the run's seed alone, and the run's seed
// is no secret (it is in the tournament file, on the command line, in an
// earlier run's results.jsonl), so a bot that read it could work out every
// deal by itself. Seed also takes a Secret: 32 random bytes per run
// (crypto/rand) that never reach a bot. They are kept in memory, and with
// an output directory in FileName there, mode 0600, where isolated bots
// see nothing (the directory is covered) and bots running as another user
// cannot read. Without the secret, the run's seed tells nothing about the
// deals; with it, the organiser reproduces a run game for game.
//
// What bots and replays see is unchanged: a game's deal seed (recorded in
// results.jsonl and in its replay, so replays verify without the secret)
// and, in hello, a one-way derivation of it (seed.Bot).
//
// A secret file holds 64 hex digits and a newline. Read refuses a file
// that its group or others may read (like ssh with a private key): the
// secret may have been read already, so it says so rather than fix the
// mode in silence.
package deal

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/arena-dev/arena/arena/seed"
)

// FileName is the secret's file in an output directory.
const FileName = "deal-secret"

// Size is a secret's length in bytes.
const Size = 32

// Secret keys the deals of one run. Its String is a fingerprint, never the
// secret, so printing one by mistake gives nothing away.
type Secret [Size]byte

// Errors, for errors.Is; a missing file is fs.ErrNotExist.
var (
	// ErrMalformed: the file does not hold 64 hex digits.
	ErrMalformed = errors.New("not a deal secret")
	// ErrExposed: the file's group or others may read it (or write it).
	ErrExposed = errors.New("readable by others")
	// ErrMismatch: a directory holds another secret than the one given.
	ErrMismatch = errors.New("another deal secret")
)

// New returns a fresh random secret.
func New() *Secret {
	var s Secret
	rand.Read(s[:]) // never fails (crypto/rand, Go 1.24+)
	return &s
}

// Seed derives the deal seed for (runSeed, label, index): HMAC-SHA256
// keyed with the secret, cut to seed.Mask like every seed so bots in any
// language hold it exactly. Without the secret, runSeed, label and
// index tell nothing about the result.
func (s *Secret) Seed(runSeed uint64, label string, index uint64) uint64 {
	m := hmac.New(sha256.New, s[:])
	m.Write([]byte("arena/deal/" + label + "\x00"))
	var buf [16]byte
	binary.LittleEndian.PutUint64(buf[:8], runSeed)
	binary.LittleEndian.PutUint64(buf[8:], index)
	m.Write(buf[:])
	return binary.LittleEndian.Uint64(m.Sum(nil)) & seed.Mask
}

// Equal reports whether s and o are the same secret (in constant time).
func (s *Secret) Equal(o *Secret) bool {
	return subtle.ConstantTimeCompare(s[:], o[:]) == 1
}

// Fingerprint names a secret without revealing it: 8 bytes of a one-way
// hash, in hex. Two files with the same fingerprint hold the same secret.
func (s *Secret) Fingerprint() string {
	h := sha256.Sum256(append([]byte("arena/deal-secret-fingerprint\x00"), s[:]...))
	return hex.EncodeToString(h[:8])
}

// String is the fingerprint.
func (s *Secret) String() string { return "deal secret " + s.Fingerprint() }

// maxFile bounds what Read takes in: a secret file is 65 bytes.
const maxFile = 4 << 10

// Read reads a secret file. Every error names the file: missing (wraps
// fs.ErrNotExist), not a regular file or not 64 hex digits
// (ErrMalformed), or open to its group or others (ErrExposed).
func Read(path string) (*Secret, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is named here
		}
		return nil, fmt.Errorf("deal secret %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("deal secret %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("deal secret %s: %w: not a regular file", path, ErrMalformed)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("deal secret %s: %w: mode %04o lets its group or others at it (the deals are as secret as this file); "+
			"chmod 600 %s, or make a new secret if someone may have read it", path, ErrExposed, perm, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFile))
	if err != nil {
		return nil, fmt.Errorf("deal secret %s: %w", path, err)
	}
	text := bytes.TrimSpace(data)
	if len(text) != 2*Size {
		return nil, fmt.Errorf("deal secret %s: %w: %d characters, want %d hex digits", path, ErrMalformed, len(text), 2*Size)
	}
	var s Secret
	if _, err := hex.Decode(s[:], text); err != nil {
		return nil, fmt.Errorf("deal secret %s: %w: %v", path, ErrMalformed, err)
	}
	return &s, nil
}

// Write stores s in path, mode 0600, atomically: a temporary file in the
// same directory, synced, renamed over path, and the directory synced, so
// a crash leaves either the old file or the new one.
func Write(path string, s *Secret) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*") // mode 0600
	if err != nil {
		return fmt.Errorf("deal secret: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return fmt.Errorf("deal secret %s: %w", tmp.Name(), err)
	}
	if _, err := tmp.WriteString(hex.EncodeToString(s[:]) + "\n"); err != nil {
		return fmt.Errorf("deal secret %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("deal secret %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("deal secret %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("deal secret: %w", err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("deal secret: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("deal secret: syncing %s: %w", dir, err)
	}
	return nil
}

// InDir returns the secret of an output directory: the one in
// dir/FileName if there is one (which must equal want, if want is given:
// else ErrMismatch), or else want, or a fresh secret when want is nil,
// written there first. A damaged file is an error (see Read), never
// replaced.
func InDir(dir string, want *Secret) (*Secret, error) {
	path := filepath.Join(dir, FileName)
	have, err := Read(path)
	switch {
	case err == nil:
		if want != nil && !want.Equal(have) {
			return nil, fmt.Errorf("%s holds %w (%s) than the one given (%s): an output directory keeps the secret its games were dealt with; "+
				"give that one (or none), or use another output directory", path, ErrMismatch, have.Fingerprint(), want.Fingerprint())
		}
		return have, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	s := want
	if s == nil {
		s = New()
	}
	if err := Write(path, s); err != nil {
		return nil, err
	}
	return s, nil
}
