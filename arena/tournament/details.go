package tournament

import (
	"encoding/json"
	"path/filepath"

	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/internal/atomicfile"
)

// BracketFile is where elimination formats store their bracket.
const BracketFile = "bracket.json"

// Rebuild feeds the recorded results through a fresh scheduler, exactly as
// a resume does, so the format's state can be shown without playing.
func (c *Config) Rebuild(records []ledger.Record) (schedule.Scheduler, error) {
	s, err := c.NewScheduler()
	if err != nil {
		return nil, err
	}
	ranks := make(map[string][]int, len(records))
	for _, r := range records {
		ranks[r.GameID] = r.Ranks
	}
	for {
		g, st := s.Next()
		if st != schedule.Ready {
			return s, nil
		}
		if r, ok := ranks[c.Name+"-"+g.ID]; ok {
			s.Result(g, r)
		}
	}
}

// writeBracket stores an elimination bracket as JSON next to the results
// (atomically, so a reader never sees half of it).
func writeBracket(out string, s schedule.Scheduler) error {
	v := schedule.DetailsOf(s).Chart()
	if v == nil {
		return nil
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(out, BracketFile), append(data, '\n'))
}
