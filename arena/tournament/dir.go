package tournament

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/internal/atomicfile"
)

// SavedConfig is the tournament's resolved file, kept with its results so
// `arena tournament run DIR` resumes it and standings can be rendered.
const SavedConfig = "tournament.json"

// Errors about an output directory's contents, for errors.Is.
var (
	// ErrEdited: tournament.json was changed after the tournament began
	// (its checksum does not match).
	ErrEdited = errors.New("edited after the tournament began")
	// ErrDuplicate: a game recorded on more than one ledger line.
	ErrDuplicate = errors.New("recorded twice")
	// ErrUnknownGame: a ledger line for a game that is not in the
	// schedule (as far as the recorded results lead).
	ErrUnknownGame = errors.New("not a game of this tournament")
	// ErrNotAsScheduled: a ledger line whose seats or ranks do not fit
	// the game the schedule has under its id.
	ErrNotAsScheduled = errors.New("not the game the schedule has")
	// ErrReplay: a ledger line its replay does not bear out (verify).
	ErrReplay = errors.New("replay does not match")
	// ErrDealt: a game dealt with another seed than the run's seed and
	// deal secret give it (verify).
	ErrDealt = errors.New("dealt differently")
)

// Problem is something wrong in an output directory: a file, a line of
// it (0: the file as a whole), the game it is about ("" if none).
type Problem struct {
	File   string
	Line   int
	GameID string
	Err    error
}

func (p Problem) Error() string {
	s := p.File + ": "
	if p.Line > 0 {
		s += fmt.Sprintf("line %d: ", p.Line)
	}
	if p.GameID != "" {
		s += "game " + p.GameID + ": "
	}
	return s + p.Err.Error()
}

func (p Problem) Unwrap() error { return p.Err }

// errEdited says what ErrEdited means and what to do.
var errEdited = fmt.Errorf("%w: its checksum (over every field but concurrency, spare_processes, failure.max_startup_failures, until, withdrawn and suspended: "+
	"name, game, options, seats, format, rounds, games_per_encounter, gauntlet, seeding, advance, max_games, clock, failure, seed, fresh_deals, "+
	"share_deals, restart_bots, max_line, stderr_cap, limits, bots) no longer matches, and the games recorded belong to the tournament as it began: "+
	"restore the file, or start a new tournament in another directory (--concurrency, --spare-processes, --max-startup-failures and --until may change on any run)", ErrEdited)

// sealed is what of a tournament must not change once it has begun, the
// part its checksum covers: every saved field but concurrency and
// spare_processes (a resume may use other cores, and keep other bot
// processes: neither changes a game), the bots withdrawn and suspended
// and failure.max_startup_failures (they change as it runs, and every
// game they forfeit is recorded as such), until (a stop rule changes no
// game, only where the run ends) and the checksum itself. Fields
// added to File later must be omitempty, so that the checksums of older
// directories still hold.
func sealed(f File) File {
	f.Concurrency, f.SpareProcesses, f.Checksum, f.Until = 0, 0, "", ""
	f.Withdrawn, f.Suspended = nil, nil
	f.Failure.MaxStartupFailures = nil
	return f
}

// checksum is the checksum of f's sealed part.
func checksum(f File) string {
	data, _ := json.Marshal(sealed(f))
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// sameTournament compares the sealed parts.
func sameTournament(a, b File) bool {
	ja, _ := json.Marshal(sealed(a))
	jb, _ := json.Marshal(sealed(b))
	return string(ja) == string(jb)
}

// readSaved reads out's tournament.json. edited (wrapping ErrEdited) says
// its checksum does not match; the file is returned all the same, for
// readers that only warn. A file written before checksums has none to
// check.
func readSaved(out string) (f *File, edited, err error) {
	path := filepath.Join(out, SavedConfig)
	data, err := readBounded(path)
	if err != nil {
		return nil, nil, fmt.Errorf("%s is not a tournament directory: %w", out, err)
	}
	f = &File{}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Checksum != "" && f.Checksum != checksum(*f) {
		edited = fmt.Errorf("%s was %w", path, errEdited)
	}
	if f.ShareDeals == "" {
		// Checked as it was saved, read as it was dealt.
		f.ShareDeals = savedShareDeals
	}
	return f, edited, nil
}

// LoadSaved reads the tournament saved in an output directory; one whose
// tournament.json was edited after it began is refused (ErrEdited).
func LoadSaved(out string) (*File, error) {
	f, edited, err := readSaved(out)
	if err != nil {
		return nil, err
	}
	if edited != nil {
		return nil, edited
	}
	return f, nil
}

// saveConfig writes the resolved file (with its checksum) next to the
// results, or checks that the one already there is intact and describes
// the same tournament. The concurrency, which may change between runs,
// is saved as this run's, so that resuming from the directory alone
// keeps it.
func saveConfig(c *Config, out string) error {
	path := filepath.Join(out, SavedConfig)
	mine := c.File
	mine.Checksum = checksum(mine)
	theirs, err := LoadSaved(out)
	switch {
	case err == nil:
		if !sameTournament(*theirs, mine) {
			return fmt.Errorf("%s holds a different tournament (%s); use another output directory, or `arena tournament run %s` to resume that one", out, diffField(sealed(*theirs), sealed(mine)), out)
		}
		if string(jsonOf(*theirs)) == string(jsonOf(mine)) {
			return nil // nothing changed
		}
	case errors.Is(err, ErrEdited):
		return err
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	data, _ := json.MarshalIndent(mine, "", "  ")
	return atomicfile.Write(path, append(data, '\n'))
}

func jsonOf(f File) []byte {
	data, _ := json.Marshal(f)
	return data
}

// diffField names the first top-level field that differs: the bots by
// what changed of them (botsDiff), any other field with both values.
func diffField(a, b File) string {
	if d := botsDiff(a.Bots, b.Bots); d != "" {
		return d + "; a bot may be removed from a tournament under way, which withdraws it, but not added or changed"
	}
	var ma, mb map[string]json.RawMessage
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	json.Unmarshal(ja, &ma)
	json.Unmarshal(jb, &mb)
	keys := make([]string, 0, len(mb))
	for k := range mb {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if string(ma[k]) != string(mb[k]) {
			return fmt.Sprintf("%q differs: %s there, %s now", k, ma[k], mb[k])
		}
	}
	for k := range ma {
		if _, ok := mb[k]; !ok {
			return fmt.Sprintf("%q is set there but not now", k)
		}
	}
	return "its settings differ"
}

// Ledger is a tournament's results.jsonl as resume, standings and verify
// all read it: the lines that count, and those that do not, with why.
type Ledger struct {
	Path string
	// Records are the games that count, in file order: for every game id
	// of the schedule the first line whose seats and ranks fit the game.
	Records []ledger.Record
	Lines   []int           // Lines[i] is the line of Records[i]
	Games   []schedule.Game // Games[i] is the schedule's game of Records[i]
	// Problems are the lines that do not count: a game recorded again
	// (ErrDuplicate), an id the schedule does not have (ErrUnknownGame),
	// a record that does not fit its game (ErrNotAsScheduled).
	Problems []Problem
	// Torn is a last line cut short by a crash (dropped; the game is
	// played again), nil if none.
	Torn *ledger.Torn
	// Edited are the lines changed after the arena wrote them (wrapping
	// ledger.ErrEdited): they count as they read, with a warning.
	Edited []Problem
	// Sched is the schedule with every counted result fed.
	Sched schedule.Scheduler
}

// ReadLedger reads the ledger at path and checks it against the schedule.
// A damaged line other than the last, or one over ledger.MaxLine, is an
// error (*ledger.LineError): nothing can be trusted to follow it.
func (c *Config) ReadLedger(path string) (*Ledger, error) {
	entries, torn, err := ledger.ReadEntries[ledger.Record](path)
	if err != nil {
		return nil, err
	}
	l := &Ledger{Path: path, Torn: torn}
	byID := map[string][]int{}
	for i, e := range entries {
		byID[e.Record.GameID] = append(byID[e.Record.GameID], i)
		if err := e.EditedError(); err != nil {
			l.Edited = append(l.Edited, Problem{File: path, Line: e.Line, GameID: e.Record.GameID,
				Err: fmt.Errorf("%w; arena tournament verify checks it against the game's replay", err)})
		}
	}
	s, err := c.NewScheduler()
	if err != nil {
		return nil, err
	}
	counted := make([]int, 0, len(entries)) // entry indexes
	games := map[int]schedule.Game{}
	reached := map[string]bool{}
	for {
		g, st := s.Next()
		if st != schedule.Ready {
			break
		}
		id := c.Name + "-" + g.ID
		reached[id] = true
		first := -1
		for _, i := range byID[id] {
			e := entries[i]
			if err := c.fits(g, e.Record); err != nil {
				l.Problems = append(l.Problems, Problem{File: path, Line: e.Line, GameID: id, Err: err})
				continue
			}
			if first >= 0 {
				l.Problems = append(l.Problems, Problem{File: path, Line: e.Line, GameID: id,
					Err: fmt.Errorf("%w (first on line %d): this line is not counted", ErrDuplicate, entries[first].Line)})
				continue
			}
			first = i
		}
		if first >= 0 {
			counted = append(counted, first)
			games[first] = g
			s.Result(g, entries[first].Record.Ranks)
		}
	}
	for _, e := range entries {
		if !reached[e.Record.GameID] {
			l.Problems = append(l.Problems, Problem{File: path, Line: e.Line, GameID: e.Record.GameID,
				Err: fmt.Errorf("%w (its schedule has no such game, or not after the games recorded): this line is not counted", ErrUnknownGame)})
		}
	}
	slices.Sort(counted)
	l.Records = make([]ledger.Record, 0, len(counted))
	l.Lines, l.Games = make([]int, 0, len(counted)), make([]schedule.Game, 0, len(counted))
	for _, i := range counted {
		l.Records = append(l.Records, entries[i].Record)
		l.Lines = append(l.Lines, entries[i].Line)
		l.Games = append(l.Games, games[i])
	}
	sort.SliceStable(l.Problems, func(a, b int) bool { return l.Problems[a].Line < l.Problems[b].Line })
	l.Sched = s
	return l, nil
}

// fits checks that r records game g: its bots in g's seats, a rank for
// each seat.
func (c *Config) fits(g schedule.Game, r ledger.Record) error {
	want := make([]string, len(g.Seats))
	for s, b := range g.Seats {
		want[s] = c.Bots[b].Name
	}
	if !slices.Equal(r.Bots, want) {
		return fmt.Errorf("%w: bots %v by seat, the schedule seats %v: this line is not counted", ErrNotAsScheduled, r.Bots, want)
	}
	if len(r.Ranks) != len(g.Seats) || slices.ContainsFunc(r.Ranks, func(k int) bool { return k < 1 || k > len(g.Seats) }) {
		return fmt.Errorf("%w: ranks %v for %d seats: this line is not counted", ErrNotAsScheduled, r.Ranks, len(g.Seats))
	}
	return nil
}

// Dir is a tournament output directory opened for reading (standings,
// verify): nothing is run, so the bots' programs need not be here.
type Dir struct {
	Path   string
	File   *File
	Config *Config
	Ledger *Ledger
	// Edited (wrapping ErrEdited) if tournament.json was changed after
	// the tournament began; readers warn and go on with it.
	Edited error
}

// Open reads a tournament's output directory: its saved tournament and
// its ledger, checked against the schedule (Config.ReadLedger) exactly as
// a resume reads it, so standings count what a resume counts.
func Open(dir string) (*Dir, error) {
	f, edited, err := readSaved(dir)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(dir, SavedConfig)
	c, err := f.resolveForReading(src)
	if err != nil {
		return nil, err
	}
	l, err := c.ReadLedger(filepath.Join(dir, ledger.FileName))
	if err != nil {
		return nil, err
	}
	return &Dir{Path: dir, File: f, Config: c, Ledger: l, Edited: edited}, nil
}

// Warnings are what a reader of the directory should be told: an edited
// tournament.json, a torn last line, edited lines, the lines that do not
// count.
func (d *Dir) Warnings() []string {
	var out []string
	if d.Edited != nil {
		out = append(out, d.Edited.Error())
	}
	if d.Ledger.Torn != nil {
		out = append(out, d.Ledger.Path+": "+d.Ledger.Torn.String())
	}
	for _, p := range d.Ledger.Edited {
		out = append(out, p.Error())
	}
	for _, p := range d.Ledger.Problems {
		out = append(out, p.Error())
	}
	return out
}

// InheritDeals gives f the seed and the deal sharing of the tournament
// saved from it, where f has none: running the same command (no --seed,
// no --share-deals) again then resumes that tournament, dealt as it
// began, rather than naming another.
func (f *File) InheritDeals(saved *File) {
	if f.Seed == nil && saved.Seed != nil {
		seed := *saved.Seed
		f.Seed = &seed
	}
	if f.ShareDeals == "" {
		f.ShareDeals = saved.ShareDeals
	}
}
