// Package cluster plays a run's games on workers elsewhere, over NATS
// JetStream: a Coordinator is the run's Executor (arena/run) and turns
// each game into a job on a work-queue stream; a Worker, on any machine,
// pulls one job at a time per slot, plays it with its own bot commands
// and publishes the ledger record and the replay as its result.
//
// What JetStream gives and what this package adds:
//
//   - Leases: a worker keeps its job with progress acknowledgements; a
//     worker that dies has its job redelivered after the ack wait.
//   - Exactly once: a job's result is published with "expected last
//     sequence 0" on a subject of its own (ResultSubject), so a second
//     result for one game (a redelivered job, a worker whose lease ran
//     out) is refused by the stream. JetStream's acks are bound to the
//     message, not to the worker, so an ack alone proves nothing.
//   - Restarts: the results stream is the coordinator's memory beyond its
//     ledger. A restarted coordinator resumes from its ledger; for each
//     game left, it looks for a result first and publishes the job only
//     if there is none (jobs carry their id, deduplicated by the stream).
//   - Builds: a job names each bot with its build (bot.Builder: stdio.Command.Build),
//     fixed by the coordinator as the bot joins the run. A worker that
//     lacks the bot or has another build refuses the job, says why, and
//     leaves it for another worker. A run whose bots join as it goes (a
//     ladder) shares their files (Options.ShareFiles): a worker that
//     lacks one fetches it by its digest from the bot bucket, and plays
//     it only if it is the job's build; a bot retired is retired on the
//     workers too (Retirement).
//
// The layout (streams, subjects, consumer) is in docs/distributed.md.
package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/run"
	"github.com/arena-dev/arena/engine"
)

// Names of the streams, the consumer and the object store the arena
// creates (Setup).
const (
	JobsStream    = "ARENA_JOBS"
	ResultsStream = "ARENA_RESULTS"
	Consumer      = "workers"
	ReplayBucket  = "arena_replays"
)

// JobSubject is where run's jobs are queued; ResultSubject where the
// result of one of its games is kept (once); EventSubject where workers
// tell the coordinator of run what they refused and why.
func JobSubject(run string) string { return "arena.jobs." + Token(run) }
func ResultSubject(run, gameID string) string {
	return "arena.results." + Token(run) + "." + Token(gameID)
}
func EventSubject(run string) string { return "arena.events." + Token(run) }

// ControlSubject is where the coordinator of run tells workers which of
// them it no longer takes results from (Ban).
func ControlSubject(run string) string { return "arena.control." + Token(run) }

// Retirement is a coordinator's notice that a bot of its run is retired
// (a ladder's version replaced): workers close its sessions and seat it
// no more in the run's games.
type Retirement struct {
	Retired JobBot `json:"retired"`
}

// Ban is a coordinator's notice that a worker's results are refused for
// the rest of its run: the worker stops taking the run's jobs.
type Ban struct {
	Worker string `json:"worker"`
	Reason string `json:"reason"`
}

// Token makes s one subject token: itself when it is made of letters,
// digits, '-' and '_' only (run and game ids are), else a hash of it.
func Token(s string) string {
	ok := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	h := sha256.Sum256([]byte(s))
	return "h" + hex.EncodeToString(h[:8])
}

// Options are the stream and consumer settings a coordinator sets up.
type Options struct {
	// AckWait is a job's lease: a worker that gives no sign of life for
	// that long has its job given to another (0: DefaultAckWait).
	AckWait time.Duration
	// MaxDeliver bounds how often one job is handed out (0:
	// DefaultMaxDeliver); the last worker that cannot play it reports it
	// as failed.
	MaxDeliver int
	// ShareFiles: each bot that is a command with a directory of its own
	// (a ladder's versions) has that directory stored in the bot bucket
	// (BotBucket) as it joins the run, and its jobs name it (JobBot.Files),
	// so that a worker that lacks the bot fetches it (Worker.FetchDir).
	ShareFiles bool
}

// Defaults of Options.
const (
	DefaultAckWait    = 30 * time.Second
	DefaultMaxDeliver = 5
)

// dedupWindow is how long the jobs stream remembers a job id: a
// coordinator restarted within it publishes no job twice.
const dedupWindow = time.Hour

// Setup creates (or updates) the streams, the replay bucket and, last,
// the workers' consumer.
func Setup(ctx context.Context, js jetstream.JetStream, o Options) error {
	if o.AckWait <= 0 {
		o.AckWait = DefaultAckWait
	}
	if o.MaxDeliver <= 0 {
		o.MaxDeliver = DefaultMaxDeliver
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: JobsStream, Subjects: []string{"arena.jobs.>"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Duplicates: dedupWindow,
	}); err != nil {
		return fmt.Errorf("stream %s: %w", JobsStream, err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: ResultsStream, Subjects: []string{"arena.results.>"}, Storage: jetstream.FileStorage,
		MaxMsgsPerSubject: 1,
	}); err != nil {
		return fmt.Errorf("stream %s: %w", ResultsStream, err)
	}
	if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: ReplayBucket, Storage: jetstream.FileStorage}); err != nil {
		return fmt.Errorf("object store %s: %w", ReplayBucket, err)
	}
	// Last: a worker takes the consumer's existence to mean everything
	// is in place.
	if _, err := js.CreateOrUpdateConsumer(ctx, JobsStream, jetstream.ConsumerConfig{
		Durable: Consumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: o.AckWait, MaxDeliver: o.MaxDeliver,
		MaxAckPending: -1,
	}); err != nil {
		return fmt.Errorf("consumer %s: %w", Consumer, err)
	}
	return nil
}

// Job is a unit of games to play in turn on one machine (the games of
// one deal between the same bots: run.UnitKey), with everything a worker
// needs to play them.
type Job struct {
	// ID is the run and the unit's first game: the stream's
	// deduplication id.
	ID string `json:"id"`
	// Run names the run in subjects; Match is its MatchID, which the
	// bots and the replays are given.
	Run   string `json:"run"`
	Match string `json:"match"`
	Arena string `json:"arena"` // the coordinator's version
	Game  string `json:"game"`
	// Rules is the game's rules revision (engine.Info.Rules): a worker
	// with another one would play another game.
	Rules    int            `json:"rules"`
	Options  engine.Options `json:"options"`
	Settings run.Settings   `json:"settings"`
	// Tables are the games; their Seats index Bots, their BotSeeds are
	// set.
	Tables []run.Table `json:"tables"`
	Bots   []JobBot    `json:"bots"`
	// Rotation is the games of one deal between the same bots
	// (run.Config), for the worker's spare budget.
	Rotation int `json:"rotation"`
}

// JobBot is a bot of a job: its name in the run and the build the
// coordinator fixed (Build).
type JobBot struct {
	Name  string `json:"name"`
	Build string `json:"build"`
	// Argv, Env and Files are a shared bot's (Options.ShareFiles): its
	// command, run in its directory, whose archive is object Files (its
	// digest) of the bot bucket. A worker that fetches it plays it only
	// if the archive has that digest and the command is Build there.
	Argv  []string `json:"argv,omitempty"`
	Env   []string `json:"env,omitempty"`
	Files string   `json:"files,omitempty"`
}

// Result is what a worker publishes for a job: the game's record and its
// replay, or why no worker could play it.
type Result struct {
	Job    string        `json:"job"`
	Game   string        `json:"game"` // its game id
	Worker string        `json:"worker"`
	Record ledger.Record `json:"record"`
	// Replay is the compressed replay when it fits in the message;
	// ReplayObject names it in the replay bucket otherwise.
	Replay       []byte `json:"replay,omitempty"`
	ReplayObject string `json:"replay_object,omitempty"`
	// Error: the job was not played (it ran out of deliveries).
	Error string `json:"error,omitempty"`
}

// Event is a worker's notice to the coordinator: a job it refused.
type Event struct {
	Worker string `json:"worker"`
	Job    string `json:"job"`
	Reason string `json:"reason"`
}

// ErrNotPlayed is a job that ran out of deliveries: no worker could play
// it (Result.Error says the last one's reason).
var ErrNotPlayed = errors.New("no worker could play the game")

// DefaultInlineReplay bounds a replay carried in the result message;
// larger ones go to the object store (a message is bounded by the
// server's max_payload, 1 MiB by default).
const DefaultInlineReplay = 512 << 10

// load is the machine's load per core: the 1-minute load average over
// the cores (0 where the system does not say).
func load() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	return v / float64(runtime.NumCPU())
}
