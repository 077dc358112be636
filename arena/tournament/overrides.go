package tournament

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Plan is what a tournament run is about: its settings, where they came
// from and where it writes.
type Plan struct {
	File File
	// Src names where the settings came from in messages: the file, the
	// saved copy in an output directory, or "flags".
	Src string
	// BaseDir is where a file's relative paths start.
	BaseDir string
	// Out is the output directory.
	Out string
	// Withdraw and Readmit name bots to take out of the tournament, and
	// to let play again (withdrawn or suspended ones): --withdraw and
	// --readmit, applied by Settle.
	Withdraw, Readmit []string
	// Notes say, for people, what Settle changed of who plays ("bot
	// sleeper withdrawn: its remaining games are forfeits").
	Notes []string
}

// ErrNothingToResume is Settle's error when resume is asked for and the
// output directory holds no tournament.
var ErrNothingToResume = errors.New("no tournament to resume")

// Locate finds the tournament a run is given. arg is a tournament file,
// an earlier run's output directory (resumed there unless out is set), or
// "": then the settings come from overrides alone, unless out holds a
// saved tournament and gameGiven is false (`run --out DIR`: resume it).
func Locate(arg, out string, gameGiven bool) (*Plan, error) {
	p := &Plan{Src: "flags", BaseDir: ".", Out: out}
	resumeFrom := ""
	if arg != "" {
		st, err := os.Stat(arg)
		switch {
		case err != nil:
			return nil, err
		case st.IsDir():
			resumeFrom = arg
			if p.Out == "" {
				p.Out = arg
			}
		default:
			loaded, err := LoadFile(arg)
			if err != nil {
				return nil, err
			}
			p.File, p.Src, p.BaseDir = *loaded, arg, filepath.Dir(arg)
		}
	} else if p.Out != "" && !gameGiven {
		if _, err := LoadSaved(p.Out); err == nil || errors.Is(err, ErrEdited) {
			resumeFrom = p.Out
		}
	}
	if resumeFrom != "" {
		saved, err := LoadSaved(resumeFrom)
		if err != nil {
			return nil, err
		}
		p.File, p.Src = *saved, filepath.Join(resumeFrom, SavedConfig)
	}
	return p, nil
}

// Settle picks the output directory once the overrides are laid over the
// file (out/NAME unless given) and, when it holds this tournament
// already, takes the seed saved there: the same command again resumes
// it, where a new random seed would make it another tournament. It also
// takes who plays from there: the bots withdrawn and suspended, and bots
// removed from the file since are withdrawn (File.inheritRoster); then
// Withdraw and Readmit are applied. With resume it insists there is one
// to resume.
func (p *Plan) Settle(resume bool) error {
	if p.Out == "" {
		if p.File.Name == "" {
			return errors.New("give the tournament a name (--name or the file's name field) or an --out directory")
		}
		p.Out = filepath.Join("out", p.File.Name)
	}
	saved, err := LoadSaved(p.Out)
	var removed []string
	switch {
	case err == nil:
		p.File.InheritDeals(saved)
		removed = p.File.inheritRoster(saved, &p.Notes)
	case resume:
		if errors.Is(err, ErrEdited) {
			return err
		}
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("--resume: %w in %s (it has no %s); give the tournament's output directory with --out or as DIR", ErrNothingToResume, p.Out, SavedConfig)
		}
		return fmt.Errorf("--resume: %w", err)
	}
	return p.File.changeRoster(p.Withdraw, p.Readmit, removed, &p.Notes)
}
