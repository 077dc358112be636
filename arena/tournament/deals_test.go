package tournament

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/protocol"
	"github.com/arena-dev/arena/sdk"
)

// envDealLog makes the test bot a memoryBot appending to this file.
const envDealLog = "ARENA_TOURNAMENT_DEAL_LOG"

// memoryBot is a bot duplicate deals must be kept from: it logs every
// hello ("<game id> <pid> <seed>") and remembers the seeds it was sent. A
// bot's seed is derived from the deal and the bot, so a seed seen before
// means this process is playing a deal again; it then answers with an
// illegal index, which the referee records as an illegal_action forfeit.
type memoryBot struct {
	sdk.Bot
	log    string
	seen   map[uint64]bool
	repeat bool
}

func (b *memoryBot) Start(h *protocol.Hello) error {
	b.repeat = b.seen[h.Seed]
	b.seen[h.Seed] = true
	f, err := os.OpenFile(b.log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("deal log: %w", err)
	}
	defer f.Close()
	// One short write with O_APPEND: lines of processes running at once
	// do not interleave.
	if _, err := fmt.Fprintf(f, "%s %d %d\n", h.GameID, os.Getpid(), h.Seed); err != nil {
		return fmt.Errorf("deal log: %w", err)
	}
	return b.Bot.Start(h)
}

func (b *memoryBot) Act(t *protocol.Turn) (int, error) {
	if b.repeat {
		return len(t.Legal), nil
	}
	return b.Bot.Act(t)
}

// TestNoProcessPlaysADealTwice runs a round-robin at concurrency 3 with 4
// games per encounter (deals 0, 0, 1, 1), sharing deals by cycle (every
// pairing plays the same two deals, and several games of one deal run at
// once: each bot plays each deal 6 times) and by encounter (each
// encounter has two deals of its own): no process gets a deal twice and no
// memoryBot forfeits either way.
func TestNoProcessPlaysADealTwice(t *testing.T) {
	t.Parallel()
	const n = 4
	for _, tc := range []struct {
		share string
		deals int // a bot's distinct deals
	}{
		{ShareCycle, 2},
		{ShareEncounter, 3 * 2},
	} {
		t.Run(tc.share, func(t *testing.T) {
			t.Parallel()
			logs := t.TempDir()
			seed := uint64(3)
			f := File{Name: "deals", Game: "banqi", Options: map[string]string{"max_plies": "120"}, GamesPerEncounter: 4, Settings: options.Settings{Seed: &seed, Concurrency: 3, ShareDeals: tc.share}}
			for i := range n {
				name := fmt.Sprintf("b%d", i)
				f.Bots = append(f.Bots, BotFile{Name: name, Command: os.Args[0], Env: map[string]string{
					"ARENA_TOURNAMENT_BOT": "random", envDealLog: filepath.Join(logs, name+".log")}})
			}
			_, recs := runRecords(t, resolve(t, f))
			if want := n * (n - 1) / 2 * 4; len(recs) != want {
				t.Fatalf("%d games recorded, want %d", len(recs), want)
			}
			for _, r := range recs {
				if len(r.Forfeits) != 0 {
					t.Errorf("%s: forfeits %+v: a process played a deal again", r.GameID, r.Forfeits)
				}
			}
			for i := range n {
				name := fmt.Sprintf("b%d", i)
				b, err := os.ReadFile(filepath.Join(logs, name+".log"))
				if err != nil {
					t.Fatal(err)
				}
				played := map[string]bool{} // "pid seed"
				seeds := map[string]int{}
				pids := map[string]bool{}
				lines := strings.Split(strings.TrimSpace(string(b)), "\n")
				for _, line := range lines {
					fields := strings.Fields(line)
					if len(fields) != 3 {
						t.Fatalf("%s's deal log line %q", name, line)
					}
					if _, err := strconv.ParseUint(fields[2], 10, 64); err != nil {
						t.Fatalf("%s's deal log line %q", name, line)
					}
					pid, seed := fields[1], fields[2]
					if played[pid+" "+seed] {
						t.Errorf("%s: process %s got seed %s twice", name, pid, seed)
					}
					played[pid+" "+seed] = true
					seeds[seed]++
					pids[pid] = true
				}
				// 3 encounters of 4 games: on the same 2 deals by cycle,
				// on 2 of their own each by encounter.
				if len(lines) != 12 || len(seeds) != tc.deals {
					t.Errorf("%s: %d games on %d deals, want 12 games on %d", name, len(lines), len(seeds), tc.deals)
				}
				t.Logf("%s: %d games, %d processes", name, len(lines), len(pids))
			}
		})
	}
}
