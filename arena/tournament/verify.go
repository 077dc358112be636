package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/replays"
)

// Verified is what Verify found.
type Verified struct {
	Games    int       // ledger lines that count, each checked against its replay
	Problems []Problem // by file, then line
}

// Verify cross-checks an output directory: tournament.json against its
// checksum; every ledger line against the schedule (as a resume reads it:
// duplicates, unknown games, seats not as scheduled, a torn last line);
// against the run's deal secret, when it can be read (each game dealt as
// the seed and secret deal it); and against its replay, which must be
// there, name the same game, seed and seats, end in the same ranks,
// scores, reason, plies and forfeits, and re-simulate (replays.Verify).
// The replays are checked on every core. An error means the directory
// could not be read as a tournament at all.
func Verify(dir string) (*Verified, error) {
	d, err := Open(dir)
	var le *ledger.LineError
	if errors.As(err, &le) {
		// A damaged line: nothing after it can be trusted, but it is
		// still a problem to report, not a failure to read.
		return &Verified{Problems: []Problem{{File: le.Path, Line: le.Line, Err: le.Err}}}, nil
	}
	if err != nil {
		return nil, err
	}
	v := &Verified{Games: len(d.Ledger.Records)}
	saved := filepath.Join(dir, SavedConfig)
	if d.Edited != nil {
		v.Problems = append(v.Problems, Problem{File: saved, Err: errEdited})
	}
	l := d.Ledger
	if l.Torn != nil {
		v.Problems = append(v.Problems, Problem{File: l.Path, Line: l.Torn.Line,
			Err: fmt.Errorf("%s; a resume plays that game again", l.Torn)})
	}
	v.Problems = append(v.Problems, l.Edited...)
	v.Problems = append(v.Problems, l.Problems...)
	v.Problems = append(v.Problems, d.checkDeals()...)
	v.Problems = append(v.Problems, d.checkReplays()...)
	sort.SliceStable(v.Problems, func(a, b int) bool {
		pa, pb := v.Problems[a], v.Problems[b]
		if pa.File != pb.File {
			return pa.File > pb.File // tournament.json, then results.jsonl, then deal-secret
		}
		return pa.Line < pb.Line
	})
	return v, nil
}

// checkDeals checks the recorded deal seeds against the directory's deal
// secret.
func (d *Dir) checkDeals() []Problem {
	if len(d.Ledger.Records) == 0 {
		return nil
	}
	path := filepath.Join(d.Path, deal.FileName)
	secret, err := deal.Read(path)
	if err != nil {
		return []Problem{{File: path, Err: fmt.Errorf("%w: the deals of the games recorded cannot be checked, nor the rest of the tournament dealt alike", err)}}
	}
	var out []Problem
	for i, r := range d.Ledger.Records {
		if want := d.Config.dealSeed(secret, d.Ledger.Games[i]); r.Seed != want {
			out = append(out, Problem{File: d.Ledger.Path, Line: d.Ledger.Lines[i], GameID: r.GameID,
				Err: fmt.Errorf("%w: seed %d recorded, the tournament's seed and %s deal it %d", ErrDealt, r.Seed, path, want)})
		}
	}
	return out
}

// checkReplays checks every counted record against its replay, on every
// core.
func (d *Dir) checkReplays() []Problem {
	l := d.Ledger
	found := make([]error, len(l.Records))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for i := range next {
				found[i] = d.checkReplay(i)
			}
		})
	}
	for i := range l.Records {
		next <- i
	}
	close(next)
	wg.Wait()
	var out []Problem
	for i, err := range found {
		if err != nil {
			out = append(out, Problem{File: l.Path, Line: l.Lines[i], GameID: l.Records[i].GameID, Err: err})
		}
	}
	return out
}

// checkReplay checks record i of the ledger against its replay.
func (d *Dir) checkReplay(i int) error {
	r := d.Ledger.Records[i]
	// The replay is where the arena puts it: a pack in replays/, or (a
	// directory written before packs) replays/GAME_ID.jsonl.zst. A ledger
	// line naming another file is wrong, and the file it names is not
	// read.
	src := r.ReplaySource(d.Path)
	if err := replayPlace(r); err != nil {
		return err
	}
	rp, err := src.Read()
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%w: replay %s is missing", ErrReplay, src)
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrReplay, err)
	}
	path := src.String()
	h, res := rp.Header, rp.Result
	seats := make([]string, len(h.Seats))
	for s, si := range h.Seats {
		seats[s] = si.Bot
	}
	mismatch := func(what string, line, replay any) error {
		return fmt.Errorf("%w: %s %v on the line, %v in %s", ErrReplay, what, line, replay, path)
	}
	switch {
	case h.GameID != r.GameID:
		return mismatch("game id", r.GameID, h.GameID)
	case h.Game != d.Config.Game.Info().Name:
		return mismatch("game", d.Config.Game.Info().Name, h.Game)
	case h.Seed != r.Seed:
		return mismatch("seed", r.Seed, h.Seed)
	case !slices.Equal(seats, r.Bots):
		return mismatch("bots", r.Bots, seats)
	case !slices.Equal(res.Ranks, r.Ranks):
		return mismatch("ranks", r.Ranks, res.Ranks)
	case !slices.Equal(res.Scores, r.Scores):
		return mismatch("scores", r.Scores, res.Scores)
	case res.Reason != r.Reason:
		return mismatch("reason", fmt.Sprintf("%q", r.Reason), fmt.Sprintf("%q", res.Reason))
	case res.Plies != r.Plies:
		return mismatch("plies", r.Plies, res.Plies)
	}
	lineF, replayF := forfeitKeys(r.Forfeits), []string{}
	for _, f := range res.Forfeits {
		replayF = append(replayF, fmt.Sprintf("seat %d %s", f.Seat, f.Reason))
	}
	slices.Sort(replayF)
	if !slices.Equal(lineF, replayF) {
		return mismatch("forfeits", lineF, replayF)
	}
	if err := replays.Verify(rp); err != nil {
		return fmt.Errorf("%w: it does not re-simulate: %v", ErrReplay, err)
	}
	return nil
}

// replayPlace checks that r names its replay where the arena puts it.
func replayPlace(r ledger.Record) error {
	if r.ReplayAt == nil {
		if rel := filepath.Join("replays", r.GameID+replays.Ext); r.Replay != rel {
			return fmt.Errorf("%w: the line names replay %q, the game's is %s", ErrReplay, r.Replay, rel)
		}
		return nil
	}
	if dir, name := filepath.Split(r.Replay); dir != "replays"+string(filepath.Separator) {
		return fmt.Errorf("%w: the line names replay %q, not a pack of replays/", ErrReplay, r.Replay)
	} else if _, ok := replays.PackSeq(name); !ok {
		return fmt.Errorf("%w: the line names replay %q, not a pack of replays/ (%s, ...)", ErrReplay, r.Replay, replays.PackName(1))
	}
	return nil
}

// forfeitKeys are a record's forfeits as "seat S reason", sorted.
func forfeitKeys(fs []ledger.SeatFailure) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("seat %d %s", f.Seat, f.Reason))
	}
	slices.Sort(out)
	return out
}
