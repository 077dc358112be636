package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/tournament"
)

// sandboxFlags are the bot confinement flags of match and tournament run.
// They have no Value so that a tournament file's limits stay unless a flag
// is given; the defaults are sandbox.DefaultLimits.
func sandboxFlags() []cli.Flag {
	d := sandbox.DefaultLimits
	return []cli.Flag{
		&cli.StringFlag{Name: "bot-memory", Usage: fmt.Sprintf("memory per bot, with everything it starts (e.g. 512MiB; unlimited) (default: %s)", sandbox.FormatSize(d.Memory))},
		&cli.StringFlag{Name: "bot-cpu-time", Usage: "CPU time a bot process may use per game, whole seconds (e.g. 30s) (default: unlimited)"},
		&cli.StringFlag{Name: "bot-procs", Usage: fmt.Sprintf("processes and threads per bot (default: %d)", d.Procs)},
		&cli.StringFlag{Name: "bot-files", Usage: fmt.Sprintf("open files per bot process (default: %d)", d.Files)},
		&cli.StringFlag{Name: "bot-file-size", Usage: fmt.Sprintf("largest file a bot may write (default: %s)", sandbox.FormatSize(d.FileSize))},
		&cli.StringFlag{Name: "bot-cpus", Usage: "CPU rate per bot, in cores (e.g. 0.5, 2; throttled past it) (default: unlimited)"},
		&cli.StringFlag{Name: "bot-disk", Usage: fmt.Sprintf("size of an isolated bot's writable directory (default: %s)", sandbox.FormatSize(d.Disk))},
		&cli.StringFlag{Name: "bot-isolate", Usage: "give each bot a read-only view of the files, a private directory and its own processes: auto (where the machine allows), yes (or refuse to start), no (default: auto)"},
		&cli.StringFlag{Name: "bot-user", Usage: "run bots as this user (needs root)"},
		&cli.BoolFlag{Name: "bot-no-network", Usage: "run bots without any network, not even loopback (needs CAP_SYS_ADMIN)"},
		&cli.StringSliceFlag{Name: "bot-env", Usage: "add NAME=VALUE to the bots' scrubbed environment; a bare NAME passes the arena's value (repeatable; the arena's ARENA_BOT_ENV adds a comma-separated list)"},
	}
}

// limitsFromFlags lays the sandbox flags over l (a tournament file's limits
// section, or empty for a match).
func limitsFromFlags(c *cli.Context, l *tournament.LimitsFile) {
	for flag, dst := range map[string]*string{"bot-memory": &l.Memory, "bot-cpu-time": &l.CPUTime, "bot-procs": &l.Procs,
		"bot-files": &l.Files, "bot-file-size": &l.FileSize, "bot-user": &l.User, "bot-cpus": &l.CPUs, "bot-disk": &l.Disk,
		"bot-isolate": &l.Isolate} {
		if c.IsSet(flag) {
			*dst = c.String(flag)
		}
	}
	if c.IsSet("bot-no-network") {
		l.NoNetwork = c.Bool("bot-no-network")
	}
	var extra []string
	if v := os.Getenv("ARENA_BOT_ENV"); v != "" {
		extra = strings.Split(v, ",")
	}
	extra = append(extra, c.StringSlice("bot-env")...)
	if len(extra) > 0 {
		have := map[string]bool{}
		for _, kv := range l.Env {
			have[kv] = true
		}
		for _, kv := range extra {
			if kv == "" {
				continue
			}
			if !have[kv] { // a resumed run's saved file has them already
				l.Env = append(l.Env, kv)
				have[kv] = true
			}
		}
	}
}
