package tournament

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// File is a tournament file as written by people (YAML). Every field can
// also be given as a flag; flags override the file. docs/tournaments.md
// documents each field.
type File struct {
	Name              string            `yaml:"name" json:"name"`
	Game              string            `yaml:"game" json:"game"`
	Options           map[string]string `yaml:"options,omitempty" json:"options,omitempty"`
	Seats             int               `yaml:"seats,omitempty" json:"seats,omitempty"`
	Format            string            `yaml:"format" json:"format"`
	Rounds            int               `yaml:"rounds,omitempty" json:"rounds,omitempty"`
	GamesPerEncounter int               `yaml:"games_per_encounter,omitempty" json:"games_per_encounter,omitempty"`
	Gauntlet          []string          `yaml:"gauntlet,omitempty" json:"gauntlet,omitempty"`
	Seeding           []string          `yaml:"seeding,omitempty" json:"seeding,omitempty"`
	SeedingFrom       string            `yaml:"seeding_from,omitempty" json:"seeding_from,omitempty"`
	Advance           int               `yaml:"advance,omitempty" json:"advance,omitempty"`
	MaxGames          int               `yaml:"max_games,omitempty" json:"max_games,omitempty"`
	Clock             ClockFile         `yaml:"clock,omitempty" json:"clock"`
	Failure           FailureFile       `yaml:"failure,omitempty" json:"failure"`
	Seed              *uint64           `yaml:"seed,omitempty" json:"seed,omitempty"`
	DealSecret        string            `yaml:"deal_secret,omitempty" json:"-"` // a secret file to reuse; not saved (the output directory keeps the secret)
	FreshDeals        bool              `yaml:"fresh_deals,omitempty" json:"fresh_deals,omitempty"`
	RestartBots       bool              `yaml:"restart_bots,omitempty" json:"restart_bots,omitempty"`
	Concurrency       int               `yaml:"concurrency,omitempty" json:"concurrency,omitempty"`
	MaxLine           int               `yaml:"max_line,omitempty" json:"max_line,omitempty"`
	StderrCap         int64             `yaml:"stderr_cap,omitempty" json:"stderr_cap,omitempty"`
	Limits            LimitsFile        `yaml:"limits,omitempty" json:"limits"`
	Bots              []BotFile         `yaml:"bots" json:"bots"`
}

// LimitsFile confines every bot process (docs/security.md). Sizes read
// like 64MiB or 1GiB, counts are whole numbers, the CPU time a duration per
// game; "unlimited" (or 0) lifts a limit, an absent field keeps the default.
type LimitsFile struct {
	Memory    string   `yaml:"memory,omitempty" json:"memory,omitempty"`
	CPUTime   string   `yaml:"cpu_time,omitempty" json:"cpu_time,omitempty"`
	Procs     string   `yaml:"procs,omitempty" json:"procs,omitempty"`
	Files     string   `yaml:"files,omitempty" json:"files,omitempty"`
	FileSize  string   `yaml:"file_size,omitempty" json:"file_size,omitempty"`
	CPUs      string   `yaml:"cpus,omitempty" json:"cpus,omitempty"`
	Disk      string   `yaml:"disk,omitempty" json:"disk,omitempty"`
	Isolate   string   `yaml:"isolate,omitempty" json:"isolate,omitempty"`
	User      string   `yaml:"user,omitempty" json:"user,omitempty"`
	NoNetwork bool     `yaml:"no_network,omitempty" json:"no_network,omitempty"`
	Network   string   `yaml:"network,omitempty" json:"network,omitempty"`
	Env       []string `yaml:"env,omitempty" json:"env,omitempty"`
	ReadOnly  []string `yaml:"ro,omitempty" json:"ro,omitempty"`
	ReadWrite []string `yaml:"rw,omitempty" json:"rw,omitempty"`
	UIDs      string   `yaml:"uids,omitempty" json:"uids,omitempty"`
	Contest   bool     `yaml:"contest,omitempty" json:"contest,omitempty"`
}

// ClockFile holds the time limits.
type ClockFile struct {
	Move    Duration `yaml:"move,omitempty" json:"move,omitempty"`
	TC      string   `yaml:"tc,omitempty" json:"tc,omitempty"`
	Startup Duration `yaml:"startup,omitempty" json:"startup,omitempty"`
	Margin  Duration `yaml:"margin,omitempty" json:"margin,omitempty"`
}

// FailureFile holds the failure policy.
type FailureFile struct {
	Policy     string `yaml:"policy,omitempty" json:"policy,omitempty"`
	MaxStrikes int    `yaml:"max_strikes,omitempty" json:"max_strikes,omitempty"`
}

// BotFile is one bot.
type BotFile struct {
	Name    string            `yaml:"name" json:"name"`
	Command string            `yaml:"command" json:"command"`
	Dir     string            `yaml:"dir,omitempty" json:"dir,omitempty"`
	Env     map[string]string `yaml:"env,omitempty" json:"env,omitempty"`
}

// Duration is a time.Duration written as "250ms", "2s" or "1m30s".
type Duration time.Duration

// UnmarshalYAML reads a duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return fmt.Errorf("line %d: want a duration like 500ms or 2s", n.Line)
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: %q is not a duration (try 500ms, 2s, 1m30s)", n.Line, s)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration back as text (for the saved copy).
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText reads a duration back from the saved copy.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	*d = Duration(v)
	return err
}

// LoadFile reads and strictly decodes a tournament file: unknown or
// misspelt fields and wrong types are errors naming the file and line.
func LoadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, data)
}

// ParseFile decodes tournament file data; name is used in errors.
func ParseFile(name string, data []byte) (*File, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f File
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, errEOF) || strings.Contains(err.Error(), "EOF") && len(bytes.TrimSpace(data)) == 0 {
			return nil, fmt.Errorf("%s: the file is empty", name)
		}
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(strings.ReplaceAll(err.Error(), "\n ", ""), "yaml: "))
	}
	return &f, nil
}

var errEOF = errors.New("EOF")
