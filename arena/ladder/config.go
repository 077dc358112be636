package ladder

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/arena/seed"
	"github.com/arena-dev/arena/arena/stats"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/engine"
)

// Submissions are the bounds on a submission, resolved.
type Submissions struct {
	// BuildTime and BuildMemory bound the optional build step, run in
	// the sandbox.
	BuildTime   time.Duration
	BuildMemory int64
	// ValidationGames is how many games (arena check's) a new version
	// plays against the bundled bots before it is admitted.
	ValidationGames int
	// MaxVersions is how many versions of a bot keep their files (the
	// newest); the games of older ones stay in the ledger.
	MaxVersions int
	// SuspendAfter is how many games in a row a version may forfeit
	// (crashes, timeouts, illegal moves: failures of its own, not an
	// absence) before it is suspended, until a new version is admitted.
	// Failing to start is the runner's (Settings.MaxStartupFailures).
	SuspendAfter int
}

// Defaults are what a ladder file's zero fields stand for, declared here
// once (the rating model's are stats', the matchmaker's its own, the
// clocks' and limits' run's and sandbox's).
var Defaults = Submissions{BuildTime: 10 * time.Minute, BuildMemory: 2 << 30, ValidationGames: 4, MaxVersions: 10, SuspendAfter: 5}

// Config is a checked ladder file, defaults filled in.
type Config struct {
	File    File // as given, but for the seed, filled in
	Name    string
	Game    engine.Game
	Options engine.Options // for the fewest seats; Setup again for another table size
	Seats   matchmaking.Seats
	// Settings are the clocks, the failure policy and the bounds on
	// bots, as options.Settings resolves them.
	run.Settings
	Seed        uint64
	Secret      *deal.Secret // the file's deal_secret; nil: a fresh one (Init)
	Concurrency int
	BotLimits   sandbox.Limits
	BotOptions  sandbox.Options
	// Rating is the Weng-Lin model and Initial a new version's skill.
	Rating      stats.Params
	Initial     stats.Skill
	Matchmaking matchmaking.Params
	Submissions Submissions
	// Bots are the bundled bots, parsed (tournament.ResolveBot).
	Bots []bot.Spec
}

// Errors of Resolve, for errors.Is (each in a *options.FieldError naming
// the file and field).
var (
	ErrMissing = errors.New("missing")
	ErrInvalid = errors.New("invalid value")
)

// fieldErr is a mistake in field of the file src.
func fieldErr(src, field string, err error, format string, args ...any) error {
	return &options.FieldError{Src: src, Field: field, Err: fmt.Errorf("%w: "+format, append([]any{err}, args...)...)}
}

// Resolve checks every field of f and fills in the defaults. src names
// the file in errors; baseDir is where its relative paths (bot
// directories, deal_secret) start. A mistake is a *options.FieldError
// naming the field ("rating.sigma", "bots[1].command").
func (f *File) Resolve(src, baseDir string) (*Config, error) {
	c := &Config{File: *f, Name: f.Name}
	if f.Name == "" {
		return nil, fieldErr(src, "name", ErrMissing, "a short name for the ladder")
	}
	if strings.ContainsAny(f.Name, "/\\ ") {
		return nil, fieldErr(src, "name", ErrInvalid, "%q: no spaces or slashes (it is part of game ids)", f.Name)
	}
	if err := c.resolveGame(src); err != nil {
		return nil, err
	}
	if err := c.resolveSettings(src, baseDir); err != nil {
		return nil, err
	}
	if err := c.resolveModel(src); err != nil {
		return nil, err
	}
	if len(f.Bots) == 0 {
		return nil, fieldErr(src, "bots", ErrMissing, "no bundled bots (a ladder needs opponents to validate submissions against)")
	}
	for i, b := range f.Bots {
		if _, _, ok := SplitVersion(b.Name); ok {
			return nil, fieldErr(src, fmt.Sprintf("bots[%d].name", i), ErrInvalid, "%q ends as a version's name does (NAME.vN)", b.Name)
		}
		spec, err := tournament.ResolveBot(src, i, b, baseDir, true, c.Bots)
		if err != nil {
			return nil, err
		}
		c.Bots = append(c.Bots, spec)
	}
	return c, nil
}

// resolveGame checks the game, its options and the seats.
func (c *Config) resolveGame(src string) error {
	f := &c.File
	if f.Game == "" {
		return fieldErr(src, "game", ErrMissing, "one of the games `arena games` lists")
	}
	g, err := engine.Lookup(f.Game)
	if err != nil {
		return fieldErr(src, "game", ErrInvalid, "%v", err)
	}
	c.Game = g
	info := g.Info()
	if c.Seats, err = parseSeats(f.Seats, info.MinSeats); err != nil {
		return fieldErr(src, "seats", ErrInvalid, "%v", err)
	}
	for k := c.Seats.Min; k <= c.Seats.Max; k++ {
		o, err := engine.Setup(g, k, f.Options)
		if err != nil {
			field := "options"
			if k < info.MinSeats || k > info.MaxSeats {
				field = "seats"
			}
			return fieldErr(src, field, ErrInvalid, "%v", err)
		}
		if k == c.Seats.Min {
			c.Options = o
		}
	}
	return nil
}

// parseSeats reads "4" or "2-4"; "" is def seats.
func parseSeats(s string, def int) (matchmaking.Seats, error) {
	if s == "" {
		return matchmaking.Seats{Min: def, Max: def}, nil
	}
	lo, hi, isRange := strings.Cut(s, "-")
	min, err1 := strconv.Atoi(strings.TrimSpace(lo))
	max, err2 := min, error(nil)
	if isRange {
		max, err2 = strconv.Atoi(strings.TrimSpace(hi))
	}
	if err1 != nil || err2 != nil || min < 2 || max < min {
		return matchmaking.Seats{}, fmt.Errorf("%q: want a number of seats (4) or a range (2-4), at least 2", s)
	}
	return matchmaking.Seats{Min: min, Max: max}, nil
}

// resolveSettings resolves the shared settings (options.Settings) and
// the seed, the deal secret, concurrency and the limits.
func (c *Config) resolveSettings(src, baseDir string) error {
	f := &c.File
	var err error
	if c.Settings, err = f.Settings.Resolve(nil); err != nil {
		var fe *options.FieldError
		if errors.As(err, &fe) {
			fe.Src = src
		}
		return err
	}
	if f.Seed != nil {
		c.Seed = *f.Seed
	} else {
		c.Seed = seed.Random()
		c.File.Seed = &c.Seed // kept in the copy Init writes, so a resumed ladder deals alike
	}
	if f.DealSecret != "" {
		path := f.DealSecret
		if !filepath.IsAbs(path) {
			path = filepath.Join(baseDir, path)
		}
		if c.Secret, err = deal.Read(path); err != nil {
			return fieldErr(src, "deal_secret", ErrInvalid, "%v", err)
		}
	}
	if f.ShareDeals != "" {
		return fieldErr(src, "share_deals", ErrInvalid, "a ladder deals each table's games alike (a duplicate unit); it has no other choice")
	}
	c.Concurrency = f.Concurrency
	if c.Concurrency == 0 {
		c.Concurrency = run.DefaultConcurrency(c.Seats.Max)
	}
	if c.Concurrency < 0 {
		return fieldErr(src, "concurrency", ErrInvalid, "%d: must be positive", f.Concurrency)
	}
	if f.SpareProcesses < 0 {
		return fieldErr(src, "spare_processes", ErrInvalid, "%d: want at least 1", f.SpareProcesses)
	}
	if c.BotLimits, err = f.Limits.Resolve(); err != nil {
		return fieldErr(src, "limits", ErrInvalid, "%v", err)
	}
	c.BotOptions = f.Limits.Options(baseDir)
	return nil
}

// resolveModel resolves the rating, matchmaking and submission sections.
func (c *Config) resolveModel(src string) error {
	r, m, s := c.File.Rating, c.File.Matchmaking, c.File.Submissions
	positive := func(field string, v float64) error {
		if v < 0 {
			return fieldErr(src, field, ErrInvalid, "%g: must be positive (or absent for the default)", v)
		}
		return nil
	}
	for _, p := range []struct {
		field string
		v     float64
	}{{"rating.beta", r.Beta}, {"rating.kappa", r.Kappa}, {"rating.tau", r.Tau}, {"rating.sigma", r.Sigma},
		{"matchmaking.placement_sigma", m.PlacementSigma}, {"matchmaking.max_gap", float64(m.MaxGap)},
		{"submissions.validation_games", float64(s.ValidationGames)}, {"submissions.max_versions", float64(s.MaxVersions)},
		{"submissions.suspend_after", float64(s.SuspendAfter)}} {
		if err := positive(p.field, p.v); err != nil {
			return err
		}
	}
	c.Rating, c.Initial = stats.DefaultParams(), stats.DefaultSkill()
	c.Rating.Tau = r.Tau
	or := func(v, def float64) float64 {
		if v == 0 {
			return def
		}
		return v
	}
	c.Rating.Beta, c.Rating.Kappa, c.Initial.Sigma = or(r.Beta, c.Rating.Beta), or(r.Kappa, c.Rating.Kappa), or(r.Sigma, c.Initial.Sigma)
	if r.Mu != nil {
		c.Initial.Mu = *r.Mu
	}
	c.Matchmaking = matchmaking.Params{Seats: c.Seats, PlacementSigma: or(m.PlacementSigma, matchmaking.DefaultPlacementSigma),
		MaxGap: m.MaxGap, Quality: or(m.Quality, matchmaking.DefaultQuality), Beta: c.Rating.Beta}

	c.Submissions = Defaults
	if s.BuildTime != 0 {
		c.Submissions.BuildTime = time.Duration(s.BuildTime)
	}
	if s.BuildMemory != "" {
		n, err := sandbox.ParseSize(s.BuildMemory)
		if err != nil {
			return fieldErr(src, "submissions.build_memory", ErrInvalid, "%v", err)
		}
		c.Submissions.BuildMemory = n
	}
	if s.ValidationGames != 0 {
		c.Submissions.ValidationGames = s.ValidationGames
	}
	if s.MaxVersions != 0 {
		c.Submissions.MaxVersions = s.MaxVersions
	}
	if s.SuspendAfter != 0 {
		c.Submissions.SuspendAfter = s.SuspendAfter
	}
	return nil
}
