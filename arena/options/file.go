package options

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/arena-dev/arena/arena/sandbox"
)

// Limits confines every bot process (docs/security.md). Sizes read
// like 64MiB or 1GiB, counts are whole numbers, the CPU time a duration per
// game; "unlimited" (or 0) lifts a limit, an absent field keeps the default.
type Limits struct {
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

// Clock holds the time limits.
type Clock struct {
	Move    Duration `yaml:"move,omitempty" json:"move,omitempty"`
	TC      string   `yaml:"tc,omitempty" json:"tc,omitempty"`
	Startup Duration `yaml:"startup,omitempty" json:"startup,omitempty"`
	Margin  Duration `yaml:"margin,omitempty" json:"margin,omitempty"`
}

// Failure holds the failure policy.
type Failure struct {
	Policy     string `yaml:"policy,omitempty" json:"policy,omitempty"`
	MaxStrikes int    `yaml:"max_strikes,omitempty" json:"max_strikes,omitempty"`
	// MaxStartupFailures is how many games in a row a bot may fail to
	// start before it is suspended (run.Settings.MaxStartupFailures); 0
	// never suspends, absent is run.Defaults'.
	MaxStartupFailures *int `yaml:"max_startup_failures,omitempty" json:"max_startup_failures,omitempty"`
}

// Duration is a time.Duration written as "250ms", "2s" or "1m30s".
type Duration time.Duration

// UnmarshalYAML reads a duration string. The caller (ParseFile) names the
// file, line and key.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil || n.Kind != yaml.ScalarNode {
		return wrongType("want a duration like 500ms or 2s")
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return wrongType(fmt.Sprintf("%q is not a duration (try 500ms, 2s, 1m30s)", s))
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

// FieldError is a setting that cannot be used: the field of a
// tournament file (or the flag over it) and what is wrong with it. Src
// names the file ("flags" for flags alone; "" where the caller adds it).
type FieldError struct {
	Src   string
	Field string // "clock.tc", "bots[2].command", "limits.memory"...
	Err   error
}

func (e *FieldError) Error() string {
	if e.Src == "" {
		return e.Field + ": " + e.Err.Error()
	}
	return e.Src + ": " + e.Field + ": " + e.Err.Error()
}

func (e *FieldError) Unwrap() error { return e.Err }

// Resolve reads the limits, defaults filled in. A mistake is a
// *FieldError naming the field within the section ("memory").
func (l Limits) Resolve() (sandbox.Limits, error) {
	out := sandbox.DefaultLimits
	var err error
	size := func(field, s string, dst *int64) {
		if s == "" || err != nil {
			return
		}
		if *dst, err = sandbox.ParseSize(s); err != nil {
			err = &FieldError{Field: field, Err: err}
		}
	}
	count := func(field, s string, dst *int64) {
		if s == "" || err != nil {
			return
		}
		if *dst, err = sandbox.ParseCount(s); err != nil {
			err = &FieldError{Field: field, Err: err}
		}
	}
	size("memory", l.Memory, &out.Memory)
	size("file_size", l.FileSize, &out.FileSize)
	size("disk", l.Disk, &out.Disk)
	if l.CPUs != "" && err == nil {
		if out.CPUs, err = sandbox.ParseCPUs(l.CPUs); err != nil {
			err = &FieldError{Field: "cpus", Err: err}
		}
	}
	switch l.Isolate {
	case "", sandbox.IsolateAuto, sandbox.IsolateYes, sandbox.IsolateNo:
	default:
		if err == nil {
			err = &FieldError{Field: "isolate", Err: fmt.Errorf("%q: want auto, yes or no", l.Isolate)}
		}
	}
	count("procs", l.Procs, &out.Procs)
	count("files", l.Files, &out.Files)
	if l.CPUTime != "" && err == nil {
		if out.CPUTime, err = sandbox.ParseDuration(l.CPUTime); err != nil {
			err = &FieldError{Field: "cpu_time", Err: err}
		}
	}
	for _, kv := range l.Env {
		if name, _, _ := strings.Cut(kv, "="); name == "" && err == nil {
			err = &FieldError{Field: "env", Err: fmt.Errorf("%q: want NAME=VALUE or NAME", kv)}
		}
	}
	switch l.Network {
	case "", sandbox.NetworkLoopback, sandbox.NetworkNone, sandbox.NetworkHost:
		if l.NoNetwork && l.Network != "" && l.Network != sandbox.NetworkNone && err == nil {
			err = &FieldError{Field: "network", Err: fmt.Errorf("%q contradicts no_network: true", l.Network)}
		}
	default:
		if err == nil {
			err = &FieldError{Field: "network", Err: fmt.Errorf("%q: want loopback, none or host", l.Network)}
		}
	}
	if l.UIDs != "" && err == nil {
		if _, _, uerr := sandbox.ParseUIDs(l.UIDs); uerr != nil {
			err = &FieldError{Field: "uids", Err: uerr}
		}
	}
	return out, err
}

// Options are the sandbox options the limits section asks for, its paths
// taken relative to baseDir (the output directory and the other files to
// hide are added by the caller, which knows them).
func (l Limits) Options(baseDir string) sandbox.Options {
	o := sandbox.Options{User: l.User, Env: l.Env, Isolate: l.Isolate, Network: l.Network, UIDs: l.UIDs, Contest: l.Contest}
	if l.NoNetwork {
		o.Network = sandbox.NetworkNone
	}
	abs := func(paths []string) []string {
		var out []string
		for _, p := range paths {
			if !filepath.IsAbs(p) {
				p = filepath.Join(baseDir, p)
			}
			out = append(out, p)
		}
		return out
	}
	o.ReadOnly, o.ReadWrite = abs(l.ReadOnly), abs(l.ReadWrite)
	return o
}
