package replays_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/replays"
)

// FuzzRead feeds arbitrary bytes to Read, both as a zstd stream and as
// plain text compressed first (to reach the line parser). Read, Verify and
// Show must never panic.
func FuzzRead(f *testing.F) {
	dir := f.TempDir()
	good, err := os.ReadFile(record(f, dir, script{seats: 3, seed: 9, forfeitAt: map[int][]int{4: {1}}, strikeAt: map[int]bool{2: true}}))
	if err != nil {
		f.Fatal(err)
	}
	lines := decompress(f, record(f, dir, script{seed: 1}))
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{})
	f.Add([]byte("not zstd"))
	f.Add([]byte(joinLines(lines)))
	f.Add([]byte(joinLines(lines[:3])))
	f.Add([]byte(lines[0] + "\n" + `{"type":"result","ranks":[1,2],"scores":[1,0],"reason":"x","plies":0}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(data []byte) {
			rp, err := replays.Read(bytes.NewReader(data))
			if err != nil {
				return
			}
			_ = replays.Verify(rp)
			for seat := -1; seat < len(rp.Header.Seats)+1; seat++ {
				_ = replays.Show(io.Discard, rp, seat)
			}
			_ = replays.Show(io.Discard, rp, engine.Spectator)
		}
		check(data)
		check(compress(t, string(data)))
	})
}
