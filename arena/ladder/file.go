package ladder

import (
	"fmt"
	"io"
	"os"

	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/tournament"
)

// FileName is the ladder file's name inside a ladder directory.
const FileName = "ladder.yaml"

// File is a ladder file as written by people (YAML), checked as strictly
// as a tournament file (tournament.Decode): an unknown key or a value of
// the wrong type is a *tournament.FileError naming the file, the line and
// the key. A zero field keeps its default (Defaults, and those of
// options.Settings, stats and matchmaking).
type File struct {
	Name    string            `yaml:"name" json:"name"`
	Game    string            `yaml:"game" json:"game"`
	Options map[string]string `yaml:"options,omitempty" json:"options,omitempty"`
	// Seats is a table's size, "4", or a range for a game of k seats,
	// "2-4": the matchmaker then seats any number of bots in the range.
	// Absent: the game's fewest seats.
	Seats string `yaml:"seats,omitempty" json:"seats,omitempty"`
	// Settings are the clocks, failure policy, seed, deal secret,
	// concurrency and sandbox limits, as a tournament file has them
	// (options.Settings: their keys, inline).
	options.Settings `yaml:",inline"`
	Rating           RatingFile      `yaml:"rating,omitempty" json:"rating"`
	Matchmaking      MatchmakingFile `yaml:"matchmaking,omitempty" json:"matchmaking"`
	Submissions      SubmissionsFile `yaml:"submissions,omitempty" json:"submissions"`
	// Bots are the bundled bots the ladder starts with: the validation
	// games' opponents, and the field a newcomer is placed against.
	Bots []tournament.BotFile `yaml:"bots" json:"bots"`
}

// RatingFile is the rating model's section: Weng-Lin (Plackett-Luce)
// parameters, defaults from stats.DefaultParams and stats.DefaultSkill.
type RatingFile struct {
	Beta  float64  `yaml:"beta,omitempty" json:"beta,omitempty"`
	Kappa float64  `yaml:"kappa,omitempty" json:"kappa,omitempty"`
	Tau   float64  `yaml:"tau,omitempty" json:"tau,omitempty"`
	Mu    *float64 `yaml:"mu,omitempty" json:"mu,omitempty"` // a pointer: 0 is a mean one may want
	Sigma float64  `yaml:"sigma,omitempty" json:"sigma,omitempty"`
}

// MatchmakingFile is the matchmaker's section, matchmaking.Params by
// their file names; 0 keeps the matchmaker's defaults.
type MatchmakingFile struct {
	PlacementSigma float64 `yaml:"placement_sigma,omitempty" json:"placement_sigma,omitempty"`
	MaxGap         int     `yaml:"max_gap,omitempty" json:"max_gap,omitempty"`
	Quality        float64 `yaml:"quality,omitempty" json:"quality,omitempty"`
}

// SubmissionsFile bounds what a submission may cost the ladder.
type SubmissionsFile struct {
	BuildTime       options.Duration `yaml:"build_time,omitempty" json:"build_time,omitempty"`
	BuildMemory     string           `yaml:"build_memory,omitempty" json:"build_memory,omitempty"`
	ValidationGames int              `yaml:"validation_games,omitempty" json:"validation_games,omitempty"`
	MaxVersions     int              `yaml:"max_versions,omitempty" json:"max_versions,omitempty"`
	SuspendAfter    int              `yaml:"suspend_after,omitempty" json:"suspend_after,omitempty"`
}

// LoadFile reads and strictly decodes a ladder file (ParseFile).
func LoadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, tournament.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	return ParseFile(path, data)
}

// ParseFile decodes ladder file data; name is used in errors. A file
// over tournament.MaxFileSize is refused (tournament.ErrTooLarge).
func ParseFile(name string, data []byte) (*File, error) {
	if len(data) > tournament.MaxFileSize {
		return nil, &tournament.FileError{File: name, Err: fmt.Errorf("%w: more than %s, the most a ladder file may hold",
			tournament.ErrTooLarge, sandbox.FormatSize(tournament.MaxFileSize))}
	}
	var f File
	if err := tournament.Decode(name, data, &f); err != nil {
		return nil, err
	}
	return &f, nil
}
