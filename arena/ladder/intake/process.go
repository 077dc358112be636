package intake

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/shlex"

	"github.com/arena-dev/arena/arena/bot"
	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/check"
	"github.com/arena-dev/arena/arena/clock"
	"github.com/arena-dev/arena/arena/fileargs"
	"github.com/arena-dev/arena/arena/ladder"
	"github.com/arena-dev/arena/arena/ladder/matchmaking"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/runplan"
	"github.com/arena-dev/arena/engine"
	"github.com/arena-dev/arena/internal/atomicfile"
)

// Options are the run's choices for Process.
type Options struct {
	// Admitted, if set, is told of each version admitted, once its event
	// is logged: the run adds it to its roster.
	Admitted func(ladder.Event)
	// Withdrawn, if set, is told of each bot withdrawn, once its event
	// is logged: the run retires its active version.
	Withdrawn func(ladder.Event)
}

// Verdicts (Report.Verdict).
const (
	VerdictAdmitted = ladder.Admitted
	VerdictRefused  = ladder.Refused
	// VerdictWithdrawn: a request to withdraw (Withdraw) done.
	VerdictWithdrawn = ladder.Withdrawn
	// VerdictWaiting: the submission is complete and waits for the run
	// (Status only).
	VerdictWaiting = "waiting"
)

// Report is what the submitter is told of a submission
// (submissions/ID.report, Status).
type Report struct {
	ID      string `json:"id"`
	Bot     string `json:"bot,omitempty"`
	Verdict string `json:"verdict"`
	Version int    `json:"version,omitempty"` // the version admitted, NAME.vN
	Build   string `json:"build,omitempty"`
	// Text is the check's report (or why the submission could not be
	// judged: a missing program, a bad manifest).
	Text string `json:"report,omitempty"`
	Time string `json:"time,omitempty"`
}

// Process judges every complete submission waiting in l's incoming
// directory, in id order, and returns the reports of those it decided
// now. It stops between submissions when ctx is done. An error is one
// of the ladder's own (a roster log or a directory it cannot write, a
// sandbox this machine cannot provide): the submission it stopped at
// is judged again by the next call.
func Process(ctx context.Context, l *ladder.Ladder, opts Options) ([]Report, error) {
	incoming := filepath.Join(l.Dir, ladder.IncomingDir)
	CleanTmp(incoming)
	ids, err := waiting(incoming)
	if err != nil {
		return nil, err
	}
	var reports []Report
	for _, id := range ids {
		if ctx.Err() != nil {
			return reports, ctx.Err()
		}
		rep, err := processOne(ctx, l, id, opts)
		if err != nil {
			return reports, err
		}
		if rep != nil {
			reports = append(reports, *rep)
		}
	}
	return reports, nil
}

// Take is Process as a running ladder calls it (ladder.RunOptions.Intake):
// changed is told of each version admitted and each bot withdrawn; the
// reports are the submitters', in their files.
func Take(ctx context.Context, l *ladder.Ladder, changed func(ladder.Event)) error {
	_, err := Process(ctx, l, Options{Admitted: changed, Withdrawn: changed})
	return err
}

// waiting are the complete submissions in incoming, oldest first.
func waiting(incoming string) ([]string, error) {
	entries, err := os.ReadDir(incoming)
	if err != nil {
		return nil, fmt.Errorf("intake: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(e.Name(), ".") {
			ids = append(ids, e.Name())
		}
	}
	slices.Sort(ids) // names are times first
	return ids, nil
}

// logged is what the roster log says of submission id: its submitted
// event and its verdict (nil if none).
func logged(l *ladder.Ladder, id string) (submitted, verdict *ladder.Event, err error) {
	entries, _, err := ledger.ReadEntries[ladder.Event](filepath.Join(l.Dir, ladder.RosterName))
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		if e.Record.Submission != id {
			continue
		}
		switch e.Record.Kind {
		case ladder.Submitted:
			submitted = &e.Record
		case ladder.Admitted, ladder.Refused, ladder.Withdrawn:
			verdict = &e.Record
		}
	}
	return submitted, verdict, nil
}

// processOne takes submission id from submitted to its verdict, each
// step skipped that the roster log says is done; nil report: a
// submission already decided, only tidied. A submission the run cannot
// read, without a valid manifest, or under a name that is another
// user's is refused without a roster event: the submitter is told.
func processOne(ctx context.Context, l *ladder.Ladder, id string, opts Options) (*Report, error) {
	dir := filepath.Join(l.Dir, ladder.IncomingDir, id)
	submitted, verdict, err := logged(l, id)
	if err != nil {
		return nil, err
	}
	if verdict != nil { // decided before a crash: tidy up only
		return nil, finish(l, dir, reportOf(id, verdict))
	}
	sub, err := openSubmission(dir)
	if err != nil {
		rep := refusal(id, "", "the run cannot read the submission (%v): submit again", err)
		return &rep, finish(l, dir, rep)
	}
	defer sub.root.Close()
	m, err := readManifest(sub.root)
	if err == nil && (m.ID != id || checkName(m.Name) != nil) {
		err = fmt.Errorf("it names submission %q, bot %q", m.ID, m.Name)
	}
	if err != nil {
		rep := refusal(id, "", "a submission without a valid manifest (%v)", err)
		return &rep, finish(l, dir, rep)
	}
	if err := authoriseRemote(m, sub.owner); err != nil {
		rep := refusal(id, m.Name, "%v", err)
		return &rep, finish(l, dir, rep)
	}
	if err := authorise(l.Roster.State(), m, sub.owner); err != nil {
		rep := refusal(id, m.Name, "%v", err)
		return &rep, finish(l, dir, rep)
	}
	if m.Withdraw {
		return withdraw(l, dir, m, sub.owner, opts)
	}
	if submitted == nil {
		e := ladder.Event{Kind: ladder.Submitted, Time: now(), Bot: m.Name, Submission: id, Command: m.Command, Owner: uidString(sub.owner)}
		if err := l.Roster.Append(e); err != nil {
			return nil, err
		}
	}
	e, err := judge(ctx, l, sub, m)
	if err != nil {
		return nil, err
	}
	if err := l.Roster.Append(e); err != nil {
		return nil, err
	}
	if e.Kind == ladder.Admitted {
		if opts.Admitted != nil {
			opts.Admitted(e)
		}
		if err := prune(l, e.Bot); err != nil {
			return nil, err
		}
	}
	rep := reportOf(id, &e)
	return &rep, finish(l, dir, rep)
}

// refusal is the report of a submission refused before the roster
// hears of it.
func refusal(id, bot, format string, args ...any) Report {
	return Report{ID: id, Bot: bot, Verdict: VerdictRefused, Text: fmt.Sprintf(format, args...), Time: now()}
}

// judge copies the submission's bot into bots/NAME/BUILD and plays the
// check's games against it: the verdict event, admitted or refused.
func judge(ctx context.Context, l *ladder.Ladder, sub *submission, m Manifest) (ladder.Event, error) {
	refuse := func(format string, args ...any) (ladder.Event, error) {
		return ladder.Event{Kind: ladder.Refused, Time: now(), Bot: m.Name, Submission: m.ID, Command: m.Command,
			Report: fmt.Sprintf(format, args...), Owner: uidString(sub.owner)}, nil
	}
	if b := l.Roster.State().Bot(m.Name); b != nil && slices.ContainsFunc(b.Versions, func(v ladder.Version) bool { return v.Bundled }) {
		return refuse("%s is a bundled bot of the ladder: submit under another name", m.Name)
	}
	if spec, err := bot.Parse(ladder.VersionName(m.Name, l.Roster.State().Next(m.Name)), m.Command, ""); err == nil {
		if _, local := spec.Target.(stdio.Command); !local {
			return judgeRemote(ctx, l, spec, m, uidString(sub.owner), refuse)
		}
	}
	rel, build, err := install(l, sub, m)
	var unusable *unusableError
	if errors.As(err, &unusable) {
		return refuse("%v", unusable.err)
	}
	if err != nil {
		return ladder.Event{}, err
	}
	spec, err := bot.Parse(ladder.VersionName(m.Name, l.Roster.State().Next(m.Name)), m.Command, filepath.Join(l.Dir, rel))
	if err != nil {
		return refuse("%v", err)
	}
	if _, ok := spec.Target.(stdio.Command); !ok {
		return refuse("%s: a submission is a command run here (%s is not)", m.Command, spec.Target.Scheme())
	}
	specs := []bot.Spec{spec}
	drop := func() {
		if !inUse(l, m.Name, rel) {
			os.RemoveAll(filepath.Join(l.Dir, rel)) // a refused version's files are not kept
		}
	}
	// The run confined its bundled bots with the same limits and options
	// as it started: what fails now is the submission's (a program its
	// bots may not read), refused, and never the end of the run.
	if err := confine(l, specs); err != nil {
		drop()
		return refuse("%v", err)
	}
	text, ok, err := validate(ctx, l, specs[0], m.ID)
	if err != nil {
		return ladder.Event{}, err
	}
	if !ok {
		drop()
		return refuse("%s", text)
	}
	return ladder.Event{Kind: ladder.Admitted, Time: now(), Bot: m.Name, Submission: m.ID, Version: l.Roster.State().Next(m.Name),
		Build: build, Command: m.Command, Dir: rel, Report: text, Owner: uidString(sub.owner)}, nil
}

// unusableError is a submission whose files cannot make a bot: the
// submitter's mistake, refused, not the ladder's.
type unusableError struct{ err error }

func (e *unusableError) Error() string { return e.err.Error() }

// install copies the submission's files to bots/NAME/BUILD (relative
// to the ladder directory, rel) and returns it with the build hash. A
// build already there is kept (the same files, judged again).
func install(l *ladder.Ladder, sub *submission, m Manifest) (rel, build string, err error) {
	botDir := filepath.Join(l.Dir, ladder.BotsDir, m.Name)
	if err := os.MkdirAll(botDir, 0o711); err != nil {
		return "", "", fmt.Errorf("intake: %w", err)
	}
	if err := os.Chmod(botDir, 0o711); err != nil { // enter, not list: a version's files are its own
		return "", "", fmt.Errorf("intake: %w", err)
	}
	tmp := filepath.Join(botDir, "."+m.ID+tmpSuffix)
	os.RemoveAll(tmp) // a crash's leftovers
	os.RemoveAll(tmp + builtSuffix)
	if err := copyRoot(tmp, sub.root, FilesName, Bounds, sub.owner); err != nil {
		os.RemoveAll(tmp)
		return "", "", &unusableError{err}
	}
	if m.Build != "" {
		if err := runBuild(l, tmp, m.Build); err != nil {
			os.RemoveAll(tmp)
			return "", "", err
		}
	}
	err = ownFiles(m.Command, tmp, l.Dir)
	var argv []string
	if err == nil {
		argv, err = stdio.ParseCommand(m.Command, tmp)
	}
	var missing *stdio.MissingFileError
	if errors.As(err, &missing) {
		err = notSubmitted(missing, tmp)
	}
	if err == nil {
		build, err = stdio.Command{Name: m.Name, Argv: argv, Dir: tmp}.Build()
	}
	if err != nil {
		os.RemoveAll(tmp)
		return "", "", &unusableError{err}
	}
	name, err := place(botDir, tmp, strings.TrimPrefix(build, "sha256:"), m.ID)
	if err != nil {
		os.RemoveAll(tmp)
		return "", "", err
	}
	if err := syncDir(botDir); err != nil {
		return "", "", err
	}
	return filepath.Join(ladder.BotsDir, m.Name, name), build, nil
}

// ownFiles refuses a command, run in the copy dir, that names a file outside its own copy: an argument's
// file anywhere else, or a program in the ladder directory. What is run
// must be what was submitted and hashed: a file elsewhere could change
// under a version without a new build, and one in the ladder (its deal
// secret, another version's files) would be shown to the bot by the
// sandbox, or fail the run's sandbox for every game. A program outside
// the ladder ("/usr/bin/env") is the machine's, as a name on PATH is.
func ownFiles(command, dir, ladderDir string) error {
	argv, err := shlex.Split(command)
	if err != nil || len(argv) == 0 {
		return nil // stdio.ParseCommand says why
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if ladderDir, err = filepath.Abs(ladderDir); err != nil {
		return err
	}
	outside := func(word, path string) error {
		return fmt.Errorf("%q in the command names %s, outside the bot's directory: a submission runs only its own files; "+
			"put what it needs in the directory you submit and name it relative to it (python3 bot.py, not python3 mybot/bot.py)", word, path)
	}
	if prog, ok := fileargs.Program(argv[0], dir); ok && within(prog, ladderDir) && !within(prog, dir) {
		return outside(argv[0], prog)
	}
	files, _ := fileargs.Files(argv, dir)
	for _, f := range files {
		if !within(f.Abs, dir) {
			return outside(argv[f.Index], f.Abs)
		}
	}
	return nil
}

// within: path lies in root (both absolute, or both relative to one
// directory).
func within(path, root string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// notSubmitted is a script the command names that is not in the
// submitted directory, said in the submitter's terms: the path in the
// directory they submitted, not in the ladder's copy of it.
func notSubmitted(e *stdio.MissingFileError, dir string) error {
	if !within(e.Abs, dir) {
		return e
	}
	rel, _ := filepath.Rel(dir, e.Abs)
	return fmt.Errorf("%q in the command names no file: there is no %s in the directory you submitted, where the command runs; "+
		"name files relative to it (python3 bot.py, not python3 mybot/bot.py): %w", e.Arg, rel, fs.ErrNotExist)
}

// place renames the copy tmp to botDir/name, or finds it there already
// (the same files, judged again after a crash or submitted twice). The
// build hash covers only the files the command names: the same hash
// over other files (a changed library beside the same script) goes to
// name-id instead, so a version's files are never replaced.
func place(botDir, tmp, name, id string) (string, error) {
	for _, n := range []string{name, name + "-" + id} {
		final := filepath.Join(botDir, n)
		if _, err := os.Lstat(final); errors.Is(err, os.ErrNotExist) {
			if err := os.Rename(tmp, final); err != nil {
				return "", fmt.Errorf("intake: %w", err)
			}
			return n, nil
		}
		a, err := treeDigest(tmp)
		if err != nil {
			return "", err
		}
		b, err := treeDigest(final)
		if err != nil {
			return "", err
		}
		if a == b {
			return n, os.RemoveAll(tmp)
		}
	}
	return "", fmt.Errorf("intake: %s: two trees of build %s with the same id", botDir, name)
}

// treeDigest hashes the tree at root: every name, kind, permission,
// content and link target.
func treeDigest(root string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%q %v %d\n", rel, info.Mode(), info.Size())
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			to, err := os.Readlink(path)
			fmt.Fprintf(h, "-> %q\n", to)
			return err
		case d.Type().IsRegular():
			return hashFile(h, path)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("intake: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(h, f)
	return err
}

// inUse says whether a version of bot has its files at rel.
func inUse(l *ladder.Ladder, bot, rel string) bool {
	b := l.Roster.State().Bot(bot)
	return b != nil && slices.ContainsFunc(b.Versions, func(v ladder.Version) bool { return v.Dir == rel })
}

// validate plays arena check's games against spec, confined as the
// ladder confines its bots, on the ladder's game and options at its
// fewest seats and, for a seat range, at its most: the check's report
// as text, and whether it passed. The ladder's stop (ctx) interrupts
// it: ctx's error, and no verdict.
// judgeRemote judges a bot that runs elsewhere (nats:ID), submitted
// with no files: only under its own id (a contestant enters the bot
// they serve, not another's), only to a ladder that runs with a link
// for it (RunOptions.Bindings), and by the same check's games, played
// through that link: it must be served when it is judged.
func judgeRemote(ctx context.Context, l *ladder.Ladder, spec bot.Spec, m Manifest, owner string, refuse func(string, ...any) (ladder.Event, error)) (ladder.Event, error) {
	scheme := spec.Target.Scheme()
	if want := scheme + ":" + m.Name; spec.Target.String() != want {
		return refuse("%s: a remote bot is submitted under its own id: --name %s --command %s, or name it %s", m.Command, m.Name, want, strings.TrimPrefix(spec.Target.String(), scheme+":"))
	}
	if _, ok := l.Bindings[scheme]; !ok {
		return refuse("%s: this ladder runs without a link for %s: bots (its organiser starts it with --nats or --nats-listen): submit a bot to run here", m.Command, scheme)
	}
	specs := []bot.Spec{spec}
	if err := bot.Bind(specs, l.Bindings); err != nil {
		return refuse("%s: %v", m.Command, err)
	}
	build := spec.Target.String()
	if b, ok := spec.Target.(bot.Builder); ok {
		if build, _ = b.Build(); build == "" {
			build = spec.Target.String()
		}
	}
	text, ok, err := validate(ctx, l, specs[0], m.ID)
	if err != nil {
		return ladder.Event{}, err
	}
	if !ok {
		return refuse("%s", text)
	}
	return ladder.Event{Kind: ladder.Admitted, Time: now(), Bot: m.Name, Submission: m.ID, Version: l.Roster.State().Next(m.Name),
		Build: build, Command: m.Command, Report: text, Owner: owner}, nil
}

// confine binds specs (commands run here) in a sandbox of the ladder's
// limits that hides the ladder directory, as the run's.
func confine(l *ladder.Ladder, specs []bot.Spec) error {
	c := l.Config
	opts := c.BotOptions
	opts.Hide = append(slices.Clip(opts.Hide), ladder.Hidden(l.Dir)...)
	_, err := runplan.Confine(specs, c.BotLimits, opts, "")
	return err
}

// validate plays the check's games against spec, bound: its report,
// and whether it passed.
func validate(ctx context.Context, l *ladder.Ladder, spec bot.Spec, id string) (string, bool, error) {
	c := l.Config
	var err error
	specs := []bot.Spec{spec}
	lim := c.Settings.Limits
	move := lim.Move
	if move <= 0 {
		move = clock.Defaults.Move
	}
	startup := lim.Startup
	if startup <= 0 {
		startup = clock.Defaults.Startup
	}
	var text bytes.Buffer
	for _, k := range seatsJudged(c.Seats) {
		options := c.Options
		if c.Seats.Max > c.Seats.Min { // each size's report under its own heading
			if k != c.Seats.Min {
				text.WriteString("\n")
			}
			fmt.Fprintf(&text, "At %d seats:\n", k)
		}
		if k != c.Seats.Min {
			if options, err = engine.Setup(c.Game, k, c.File.Options); err != nil {
				return "", false, fmt.Errorf("intake: %d seats: %w", k, err) // Resolve set it up already
			}
		}
		cfg := check.Config{Game: c.Game, Options: options, Seats: k, Games: c.Submissions.ValidationGames,
			Seed: checkSeed(c.Seed, id), Startup: startup, Move: move, Margin: lim.Margin, ByeGrace: c.Settings.ByeGrace,
			MaxLine: c.Settings.MaxLine, Bot: specs[0].Launcher, Command: check.Words(specs[0].Target)}
		rep, err := check.RunContext(ctx, cfg)
		if err != nil {
			return "", false, err
		}
		rep.Text(&text)
		if !rep.OK {
			return text.String(), false, nil
		}
	}
	return text.String(), true, nil
}

// seatsJudged are the table sizes a submission is validated at: the
// fewest and the most of the ladder's seats.
func seatsJudged(s matchmaking.Seats) []int {
	if s.Max > s.Min {
		return []int{s.Min, s.Max}
	}
	return []int{s.Min}
}

// checkSeed derives the check's seed from the ladder's and the
// submission's id: judging a submission again deals alike.
func checkSeed(seed uint64, id string) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, id)
	return h.Sum64()
}

// finish writes the submitter's report and removes the incoming copy.
func finish(l *ladder.Ladder, dir string, rep Report) error {
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	if err := atomicfile.Write(reportPath(l.Dir, rep.ID), append(data, '\n')); err != nil {
		return fmt.Errorf("intake: %w", err)
	}
	if err := os.RemoveAll(dir); err != nil {
		// One the run may not empty (written without the ladder's group:
		// docs/security.md) is set aside under a name no run takes.
		if rerr := os.Rename(dir, dir+leftSuffix); rerr != nil {
			return fmt.Errorf("intake: %w", err)
		}
	}
	return nil
}

// leftSuffix names a submission finish could not remove.
const leftSuffix = ".left"

func reportPath(ladderDir, id string) string {
	return filepath.Join(ladderDir, filepath.Dir(ladder.IncomingDir), id+reportSuffix)
}

// reportOf is the report of a verdict event.
func reportOf(id string, e *ladder.Event) Report {
	return Report{ID: id, Bot: e.Bot, Verdict: e.Kind, Version: e.Version, Build: e.Build, Text: e.Report, Time: e.Time}
}

// manifestMax bounds a manifest's size.
const manifestMax = 1 << 20

// readManifest reads the manifest of the submission root (a regular
// file: a pipe in its place would block the run).
func readManifest(root *os.Root) (Manifest, error) {
	var m Manifest
	f, err := root.OpenFile(ManifestName, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return m, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return m, fmt.Errorf("%s: not a regular file (%v)", ManifestName, err)
	}
	data, err := io.ReadAll(io.LimitReader(f, manifestMax))
	if err != nil {
		return m, err
	}
	err = json.Unmarshal(data, &m)
	return m, err
}

func now() string { return time.Now().UTC().Format(time.RFC3339) }

// Status is what the submitter can know of submission id of the ladder
// at ladderDir: its report once decided, VerdictWaiting while it waits;
// ErrUnknown for an id that is neither (or a submission still being
// written).
func Status(ladderDir, id string) (Report, error) {
	if strings.ContainsAny(id, "/\\") || id == "" || strings.HasPrefix(id, ".") {
		return Report{}, fmt.Errorf("intake: %q: %w", id, ErrUnknown)
	}
	data, err := os.ReadFile(reportPath(ladderDir, id))
	if err == nil {
		var rep Report
		if err := json.Unmarshal(data, &rep); err != nil {
			return Report{}, fmt.Errorf("intake: %s: %w", reportPath(ladderDir, id), err)
		}
		return rep, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return Report{}, fmt.Errorf("intake: %w", err)
	}
	if _, err := os.Stat(filepath.Join(ladderDir, ladder.IncomingDir, id)); err == nil {
		return Report{ID: id, Verdict: VerdictWaiting}, nil
	}
	return Report{}, fmt.Errorf("intake: %q: %w", id, ErrUnknown)
}
