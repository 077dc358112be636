package options

import (
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/cluster"
	"github.com/arena-dev/arena/arena/remote"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/arena/sandbox"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/usage"
)

// The flags of a run's bots: how they are confined (SandboxFlags), where
// remote bots and workers are (NATSFlags, DistributedFlags), how a
// program reaches the arena's server (ClientFlags), and the game they
// play (GameFlag, OptionFlag). Each group is declared here once and read
// back by one call (ReadPlan, ReadGroup, ReadNATS, ReadClient, ReadGame)
// into what runplan and remote take, so that a flag's name, help and
// error cannot drift between the commands that have it.

// SandboxFlags are the bot confinement flags of every command that
// starts bots. They have no Value so that a tournament file's limits
// stay unless a flag is given (readLimits); the defaults shown are
// sandbox.DefaultLimits.
func SandboxFlags() []cli.Flag {
	d := sandbox.DefaultLimits
	return []cli.Flag{
		&cli.StringFlag{Name: "bot-memory", Usage: "memory per bot, with everything it starts (e.g. 512MiB; unlimited)", DefaultText: sandbox.FormatSize(d.Memory)},
		&cli.StringFlag{Name: "bot-cpu-time", Usage: "CPU time a bot process may use per game, whole seconds (e.g. 30s)", DefaultText: "unlimited"},
		&cli.StringFlag{Name: "bot-procs", Usage: "processes and threads per bot", DefaultText: strconv.FormatInt(d.Procs, 10)},
		&cli.StringFlag{Name: "bot-files", Usage: "open files per bot process", DefaultText: strconv.FormatInt(d.Files, 10)},
		&cli.StringFlag{Name: "bot-file-size", Usage: "largest file a bot may write", DefaultText: sandbox.FormatSize(d.FileSize)},
		&cli.StringFlag{Name: "bot-cpus", Usage: "CPU rate per bot, in cores (e.g. 0.5, 2; throttled past it)", DefaultText: "unlimited"},
		&cli.StringFlag{Name: "bot-disk", Usage: "size of an isolated bot's writable directory", DefaultText: sandbox.FormatSize(d.Disk)},
		&cli.StringFlag{Name: "bot-isolate", Usage: "give each bot a read-only view of the files, a private directory and its own processes: auto (where the machine allows), yes (or refuse to start), no", DefaultText: "auto"},
		&cli.StringFlag{Name: "bot-user", Usage: "run every bot process as this user (needs root; by default an isolated bot of a root arena runs as a uid of its own)"},
		&cli.StringFlag{Name: "bot-uids", Usage: "the uids isolated bot processes of a root arena run as, one each", DefaultText: sandbox.DefaultUIDs},
		&cli.StringFlag{Name: "bot-network", Usage: "loopback (each bot process has only a loopback of its own), none, or host (the host's network: bots reach each other and the machine)", DefaultText: "loopback where the machine allows it"},
		&cli.BoolFlag{Name: "bot-no-network", Usage: "the same as --bot-network none"},
		&cli.StringSliceFlag{Name: "bot-ro", Usage: "show PATH read-only to isolated bots, at the same place (repeatable)"},
		&cli.StringSliceFlag{Name: "bot-rw", Usage: "show PATH writable to isolated bots: shared by every bot process, so a channel between them (repeatable; --contest refuses it)"},
		&cli.BoolFlag{Name: "contest", Usage: "refuse to start unless every protection against bots passing hidden information is in place (docs/security.md)"},
		// The flag takes one NAME=VALUE each time, commas and all; the
		// variable is a list, split at commas, for the environment the
		// arena is started from (a test harness, a CI job).
		&cli.StringSliceFlag{Name: "bot-env", Usage: "add NAME=VALUE to the bots' scrubbed environment; a bare NAME passes the arena's value (repeatable, one variable each; the arena's ARENA_BOT_ENV adds a comma-separated list)"},
		&cli.BoolFlag{Name: "verbose", Usage: "say at start how bots are confined in full: what enforces each limit and protection here, and why one is missing (by default one line)"},
	}
}

// NATSFlags are the flags of a run that can seat remote bots; ReadNATS
// reads them.
func NATSFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "nats", Usage: "URL of the NATS server remote bots (--bot NAME=nats:BOTID) connect to", DefaultText: "an embedded server on a free loopback port, printed"},
		&cli.StringFlag{Name: "nats-listen", Value: "127.0.0.1:0", Usage: "HOST:PORT the embedded server (no --nats) listens on: 0.0.0.0 for bots and workers on other machines; port 0: a free one (a distributed run keeps it across restarts)"},
		&cli.StringFlag{Name: "nats-creds", Usage: "the arena's key for --nats: an nkey seed file (arena nats add-bot makes KEYS/arena.nk) or a .creds file"},
		DurationFlag("nats-grace", "how long a remote bot may be unreachable mid-game before it forfeits with crash", remote.DefaultGrace, ""),
		&cli.StringFlag{Name: "nats-ca", Usage: "CA certificate (PEM) that signed the --nats server's TLS certificate"},
		&cli.StringFlag{Name: "nats-cert", Usage: "client TLS certificate (PEM), for a server that asks for one"},
		&cli.StringFlag{Name: "nats-key", Usage: "the client certificate's key (PEM)"},
	}
}

// DistributedFlags are the flags of a run whose games workers play;
// ReadNATS reads them.
func DistributedFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "distributed", Usage: "have workers play the games, over NATS JetStream (--nats, or an embedded server with local workers): docs/distributed.md"},
		&cli.IntFlag{Name: "workers", Usage: "workers to run in this process (--distributed)", DefaultText: "1 with the embedded server, 0 with --nats"},
		DurationFlag("lease", "how long a worker may give no sign of life before its game goes to another (--distributed)", cluster.DefaultAckWait, ""),
		&cli.IntFlag{Name: "max-deliver", Value: cluster.DefaultMaxDeliver, Usage: "how often one game may be handed out before the run gives up on it (--distributed)"},
	}
}

// PlanFlags are the flags ReadPlan reads, but --deal-secret: NATSFlags,
// DistributedFlags and SandboxFlags, in that order.
func PlanFlags() []cli.Flag {
	return slices.Concat(NATSFlags(), DistributedFlags(), SandboxFlags())
}

// ClientFlags are the flags of a program that connects to the arena's
// NATS server (arena connect, arena worker): its URL, its key (what
// credsUsage says) and TLS; ReadClient reads them.
func ClientFlags(credsUsage string) []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "nats", Usage: "URL of the arena's NATS server; required"},
		&cli.StringFlag{Name: "creds", Usage: credsUsage},
		&cli.StringFlag{Name: "tls-ca", Usage: "CA certificate (PEM) that signed the server's TLS certificate"},
		&cli.StringFlag{Name: "tls-cert", Usage: "client TLS certificate (PEM), for a server that asks for one"},
		&cli.StringFlag{Name: "tls-key", Usage: "the client certificate's key (PEM)"},
	}
}

// ReadClient reads ClientFlags: how a client connects.
func ReadClient(c *cli.Context) remote.Client {
	return remote.Client{Creds: c.String("creds"), CA: c.String("tls-ca"), Cert: c.String("tls-cert"), Key: c.String("tls-key")}
}

// ReadNATS reads NATSFlags and DistributedFlags: where a run's remote
// bots and workers are (runplan.Plan's NATS, and Distributed: nil
// without --distributed); concurrency and seats are the run's.
func ReadNATS(c *cli.Context, concurrency, seats int) (runplan.NATS, *runplan.Distributed) {
	n := runplan.NATS{URL: c.String("nats"), Listen: c.String("nats-listen"), Creds: c.String("nats-creds"),
		CA: c.String("nats-ca"), Cert: c.String("nats-cert"), Key: c.String("nats-key"), Grace: DurationOf(c, "nats-grace")}
	if !c.Bool("distributed") {
		return n, nil
	}
	return n, &runplan.Distributed{Workers: c.Int("workers"), WorkersGiven: c.IsSet("workers"), Lease: DurationOf(c, "lease"),
		MaxDeliver: c.Int("max-deliver"), Concurrency: concurrency, Seats: seats}
}

// readSandbox reads SandboxFlags (and ARENA_BOT_ENV) alone, over an
// empty limits section: the limits and options of sandbox.New. A
// mistake is a usage error (internal/usage), said with the flag at fault.
func readSandbox(c *cli.Context) (sandbox.Limits, sandbox.Options, error) {
	lf, err := limitsOfFlags(c)
	if err != nil {
		return sandbox.Limits{}, sandbox.Options{}, usage.Wrap(err)
	}
	lim, err := lf.Resolve()
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) { // the limits field the flag --bot-FIELD sets
			err = fmt.Errorf("%s: %v", limitFlag(fe.Field), fe.Err)
		}
		return lim, sandbox.Options{}, usage.Wrap(err)
	}
	return lim, lf.Options("."), nil
}

// ReadPlan reads the flags of a run's bots given on the command line
// into p: the sandbox flags (readSandbox, its refusals named by
// Refusal), --deal-secret and where remote bots and workers are
// (ReadNATS, for a run at concurrency of games of seats). A flag the
// command does not have reads as not given.
func ReadPlan(c *cli.Context, p *runplan.Plan, concurrency, seats int) error {
	lim, opts, err := readSandbox(c)
	if err != nil {
		return err
	}
	p.Limits, p.Sandbox, p.Refused, p.SecretFile = lim, opts, Refusal, c.String("deal-secret")
	p.NATS, p.Distributed = ReadNATS(c, concurrency, seats)
	return nil
}

// ReadGroup reads the sandbox flags (readSandbox) for specs, which see
// no output directory: their runplan.Group, its refusals named by
// Refusal.
func ReadGroup(c *cli.Context, specs []bot.Spec) (runplan.Group, error) {
	lim, opts, err := readSandbox(c)
	return runplan.Group{Bots: specs, Limits: lim, Sandbox: opts, Refused: Refusal}, err
}

// sandboxOptionFlags name the flag behind each sandbox option
// (sandbox.OptionError's Option).
var sandboxOptionFlags = map[string]string{"User": "--bot-user", "Network": "--bot-network", "Isolate": "--bot-isolate",
	"Env": "--bot-env", "CPUs": "--bot-cpus", "UIDs": "--bot-uids", "ReadOnly": "--bot-ro", "ReadWrite": "--bot-rw",
	"Contest": "--contest"}

// Refusal names the flag behind a refusal of the bots
// (runplan.Plan.Refused), --out or a sandbox flag, as a
// usage error (internal/usage).
func Refusal(refused *runplan.RefusedError) error {
	err := refused.Err
	var oe *sandbox.OptionError
	var ce *sandbox.ContestError
	switch {
	case refused.Dir != "":
		err = fmt.Errorf("--out %s: %w", refused.Dir, refused.Err)
	case errors.As(refused.Err, &oe):
		if flag, ok := sandboxOptionFlags[oe.Option]; ok {
			err = fmt.Errorf("%s: %w", flag, oe.Err)
		}
	case errors.As(refused.Err, &ce):
		err = fmt.Errorf("--%w", refused.Err)
	}
	return usage.Wrap(err)
}

// GameFlag is --game. Not Required: urfave/cli would print the whole
// help for it and exit 1; each command says what is missing in one line.
func GameFlag(usage string) cli.Flag { return &cli.StringFlag{Name: "game", Usage: usage} }

// OptionFlag is --option k=v, the game's rule options.
func OptionFlag() cli.Flag {
	return &cli.StringSliceFlag{Name: "option", Usage: "rule option k=v (repeatable)"}
}

// ReadGame reads --game (the caller has said what to do when it is
// missing) and --option (RuleOptions): the game and the options given.
func ReadGame(c *cli.Context) (engine.Game, map[string]string, error) {
	game, err := engine.Lookup(c.String("game"))
	if err != nil {
		return nil, nil, fmt.Errorf("--game: %w", err)
	}
	given, err := RuleOptions(c.StringSlice("option"))
	if err != nil {
		return nil, nil, err
	}
	return game, given, nil
}

// JSONFlag is --json, one JSON object on stdout.
func JSONFlag(usage string) cli.Flag { return &cli.BoolFlag{Name: "json", Usage: usage} }

// QuietFlag is --quiet (-q), no progress lines.
func QuietFlag(usage string) cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: usage}
}
