package ladder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arena-dev/arena/internal/atomicfile"
)

// SealName is the file that keeps what a ladder's games are, as Init
// made it: its game, rule options, table sizes and seed. The ladder file
// may be edited while a contest runs (clocks, limits, the matchmaker's
// and the intake's bounds), but not these: games of another game or
// other rules would be rated with the ones played.
const SealName = "ladder.seal"

// ErrSealed: the ladder file names another game, rules, seats or seed
// than the ladder's games were played with.
var ErrSealed = errors.New("cannot change in a ladder under way")

// seal is what SealName holds.
type seal struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Seats   [2]int            `json:"seats"`
	Seed    uint64            `json:"seed"`
}

func sealOf(c *Config) seal {
	return seal{Game: c.Game.Info().Name, Options: c.Options, Seats: [2]int{c.Seats.Min, c.Seats.Max}, Seed: c.Seed}
}

// writeSeal writes c's seal into dir.
func writeSeal(dir string, c *Config) error {
	data, err := json.MarshalIndent(sealOf(c), "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, SealName), append(data, '\n')); err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	return nil
}

// checkSeal compares c (the ladder file of dir, as read now) with the
// seal Init wrote: a difference is an error naming the file and the
// key, wrapping ErrSealed. A ladder made before seals is sealed now.
func checkSeal(dir string, c *Config) error {
	data, err := os.ReadFile(filepath.Join(dir, SealName))
	if errors.Is(err, fs.ErrNotExist) {
		return writeSeal(dir, c)
	}
	if err != nil {
		return fmt.Errorf("ladder: %w", err)
	}
	var was seal
	if err := json.Unmarshal(data, &was); err != nil {
		return fmt.Errorf("ladder: %s: %v (it is the arena's: restore it from a backup, or remove it to seal the ladder as %s says now)",
			filepath.Join(dir, SealName), err, FileName)
	}
	now := sealOf(c)
	var diffs []string
	if now.Game != was.Game {
		diffs = append(diffs, fmt.Sprintf("game: %s, the ladder's games are %s", now.Game, was.Game))
	}
	if now.Seats != was.Seats {
		diffs = append(diffs, fmt.Sprintf("seats: %s, the ladder's tables are %s", seatsText(now.Seats), seatsText(was.Seats)))
	}
	if now.Game == was.Game {
		for _, k := range slices.Sorted(maps.Keys(was.Options)) {
			if now.Options[k] != was.Options[k] {
				diffs = append(diffs, fmt.Sprintf("options.%s: %s, the ladder's games were played with %s", k, now.Options[k], was.Options[k]))
			}
		}
	}
	if now.Seed != was.Seed {
		diffs = append(diffs, fmt.Sprintf("seed: %d, the ladder's is %d", now.Seed, was.Seed))
	}
	if diffs != nil {
		return fmt.Errorf("%s: %s: %w (make a new ladder for other games: arena ladder init)",
			filepath.Join(dir, FileName), strings.Join(diffs, "; "), ErrSealed)
	}
	return nil
}

func seatsText(s [2]int) string {
	if s[0] == s[1] {
		return fmt.Sprint(s[0])
	}
	return fmt.Sprintf("%d-%d", s[0], s[1])
}
