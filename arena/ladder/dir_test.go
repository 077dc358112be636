package ladder

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/outdir"
)

// initLadder makes a ladder of good in a new directory.
func initLadder(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "cup")
	if _, err := Init(dir, writeFile(t, good)); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestInitLayout(t *testing.T) {
	dir := initLadder(t)
	for _, name := range []string{FileName, RosterName, ledger.FileName, deal.FileName, IncomingDir, BotsDir, ReplaysDir} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var names []string
	for _, b := range l.Roster.State().Bots {
		names = append(names, b.ActiveName())
		if b.Status != StatusActive || !b.Versions[0].Bundled {
			t.Errorf("bundled bot %+v", b)
		}
	}
	if !reflect.DeepEqual(names, []string{"random.v1", "greedy.v1"}) {
		t.Errorf("bundled versions %v", names)
	}
	spec, err := l.Spec(l.Roster.State().Bots[0], l.Roster.State().Bots[0].Versions[0])
	if err != nil || spec.Name != "random.v1" {
		t.Errorf("spec %+v, %v", spec, err)
	}
	// The copy holds the seed: opening again resolves the same one.
	if l.Config.File.Seed == nil {
		t.Error("the copy has no seed")
	}
	// One writer: the lock is held.
	if _, err := Open(dir); !errors.Is(err, outdir.ErrBusy) {
		t.Errorf("a second Open: %v, want ErrBusy", err)
	}
}

func TestInitRefuses(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		is    error
	}{
		{"a ladder", func(t *testing.T, dir string) {
			if _, err := Init(dir, writeFile(t, good)); err != nil {
				t.Fatal(err)
			}
		}, ErrExists},
		{"another run's results", func(t *testing.T, dir string) {
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, ledger.FileName), []byte("{}\n"), 0o644)
		}, ErrNotLadder},
		{"other files", func(t *testing.T, dir string) {
			os.MkdirAll(dir, 0o755)
			os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
		}, ErrNotLadder},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cup")
			tt.setup(t, dir)
			before, _ := os.ReadDir(dir)
			_, err := Init(dir, writeFile(t, good))
			if !errors.Is(err, tt.is) {
				t.Fatalf("Init: %v, want %v", err, tt.is)
			}
			after, _ := os.ReadDir(dir)
			if len(after) > len(before)+1 { // the lock file at most
				t.Errorf("Init refused but wrote: %v", after)
			}
		})
	}
	// A bad ladder file creates nothing.
	dir := filepath.Join(t.TempDir(), "cup")
	if _, err := Init(dir, writeFile(t, "name: cup\n")); err == nil {
		t.Fatal("Init of a file without a game succeeded")
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused file left %s: %v", dir, err)
	}
	// Open of a directory that is not a ladder.
	if _, err := Open(t.TempDir()); !errors.Is(err, ErrNotLadder) {
		t.Errorf("Open of an empty directory: %v", err)
	}
}

// events is a roster's history: a bundled field, three submissions
// (one refused), a suspension lifted by a new version, a retirement and
// a withdrawal.
var events = []Event{
	{Kind: Submitted, Bot: "alice", Submission: "s1"},
	{Kind: Admitted, Bot: "alice", Submission: "s1", Version: 1, Build: "b1", Command: "python3 bot.py", Dir: "bots/alice/b1"},
	{Kind: Submitted, Bot: "alice", Submission: "s2"},
	{Kind: Refused, Bot: "alice", Submission: "s2", Report: "game 1: crashed: exit status 1"},
	{Kind: Suspended, Bot: "alice", Reason: "timed out in 5 games in a row"},
	{Kind: Submitted, Bot: "alice", Submission: "s3"},
	{Kind: Admitted, Bot: "alice", Submission: "s3", Version: 2, Build: "b3", Command: "python3 bot.py", Dir: "bots/alice/b3"},
	{Kind: Submitted, Bot: "bob", Submission: "s4"},
	{Kind: Admitted, Bot: "bob", Submission: "s4", Version: 1, Build: "b4", Command: "./bob"},
	{Kind: Retired, Bot: "random", Version: 1},
	{Kind: Withdrawn, Bot: "greedy", Reason: "by its owner"},
	{Kind: Submitted, Bot: "carol", Submission: "s5"},
}

// appendEvents opens dir and appends evs.
func appendEvents(t *testing.T, dir string, evs []Event) *Roster {
	t.Helper()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, e := range evs {
		if err := l.Roster.Append(e); err != nil {
			t.Fatalf("%+v: %v", e, err)
		}
	}
	return l.Roster.State()
}

func TestRosterReplay(t *testing.T) {
	dir := initLadder(t)
	live := appendEvents(t, dir, events)
	read, rr, err := ReadRoster(filepath.Join(dir, RosterName))
	if err != nil || rr.Torn != nil || rr.Edited != nil {
		t.Fatal(err, rr)
	}
	if !reflect.DeepEqual(read.Bots, live.Bots) {
		t.Errorf("replayed roster differs from the live one:\n%+v\n%+v", read.Bots, live.Bots)
	}
	alice, bob, carol := read.Bot("alice"), read.Bot("bob"), read.Bot("carol")
	if alice.Active != 2 || alice.Status != StatusActive || !alice.Versions[0].Retired || len(alice.Refusals) != 1 || len(alice.Pending) != 0 {
		t.Errorf("alice %+v", alice)
	}
	if bob.ActiveName() != "bob.v1" || carol.Status != StatusPending || carol.Pending[0] != "s5" {
		t.Errorf("bob %+v, carol %+v", bob, carol)
	}
	if r := read.Bot("random"); r.Active != 0 || r.Status != StatusRetired {
		t.Errorf("random %+v", r)
	}
	if g := read.Bot("greedy"); g.Status != StatusWithdrawn || g.Reason != "by its owner" {
		t.Errorf("greedy %+v", g)
	}
	if read.Next("alice") != 3 || read.Next("dave") != 1 {
		t.Errorf("next versions %d %d", read.Next("alice"), read.Next("dave"))
	}
}

func TestRosterRefusesOutOfPlace(t *testing.T) {
	dir := initLadder(t)
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, e := range []Event{
		{Kind: Admitted, Bot: "random", Version: 3},
		{Kind: Retired, Bot: "random", Version: 2},
		{Kind: Suspended, Bot: "nobody"},
		{Kind: "promoted", Bot: "random"},
	} {
		if err := l.Roster.Append(e); !errors.Is(err, ErrRoster) {
			t.Errorf("%+v: %v, want ErrRoster", e, err)
		}
	}
	if l.Roster.State().Bot("nobody") != nil {
		t.Error("a refused event changed the state")
	}
	data, _ := os.ReadFile(filepath.Join(dir, RosterName))
	if n := bytes.Count(data, []byte("\n")); n != 2 {
		t.Errorf("%d lines, want the 2 bundled bots'", n)
	}
}

func TestRosterDamage(t *testing.T) {
	tests := []struct {
		name   string
		damage func(data []byte) []byte
		torn   bool
		edited int
	}{
		{"torn last line", func(d []byte) []byte { return append(d, `{"event":"submitted","bot":"da`...) }, true, 0},
		{"edited line", func(d []byte) []byte {
			return bytes.Replace(d, []byte("timed out in 5 games"), []byte("timed out in 1 game"), 1)
		}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := initLadder(t)
			live := appendEvents(t, dir, events)
			path := filepath.Join(dir, RosterName)
			data, _ := os.ReadFile(path)
			os.WriteFile(path, tt.damage(data), 0o644)
			_, rr, err := ReadRoster(path)
			if err != nil || (rr.Torn != nil) != tt.torn || len(rr.Edited) != tt.edited {
				t.Fatalf("read: %v, torn %v, edited %v", err, rr.Torn, rr.Edited)
			}
			for _, e := range rr.Edited {
				var le *ledger.LineError
				if !errors.Is(e, ledger.ErrEdited) || !errors.As(e, &le) || le.Line != 7 {
					t.Errorf("edited: %v, want line 7 (ErrEdited)", e)
				}
			}
			// Open repairs a torn line and goes on appending.
			l, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.Roster.Append(Event{Kind: Submitted, Bot: "dave", Submission: "s6"}); err != nil {
				t.Fatal(err)
			}
			l.Close()
			read, rr, err := ReadRoster(path)
			if err != nil || rr.Torn != nil || read.Bot("dave") == nil || len(read.Bots) != len(live.Bots)+1 {
				t.Errorf("after repair: %v, %+v, %d bots", err, rr, len(read.Bots))
			}
		})
	}
}

// TestSealed: the ladder file may change its clocks under way, not what
// its games are (game, rules, seats, seed): a run or Open of a ladder
// whose file names another is refused, naming the file and the key.
func TestSealed(t *testing.T) {
	tests := []struct{ name, from, to, key string }{
		{"clock", "  move: 500ms", "  move: 2s", ""},
		{"game", "game: uno", "game: boon\nseats: 3", "game: boon"},
		{"seats", "seats: 2-4", "seats: 2-3", "seats: 2-3"},
		{"options", "seats: 2-4", "seats: 2-4\noptions:\n  stack_draws: true", "options.stack_draws: true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := initLadder(t)
			path := filepath.Join(dir, FileName)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			edited := strings.Replace(string(data), tt.from, tt.to, 1)
			if tt.name == "game" {
				edited = strings.Replace(strings.Replace(string(data), "seats: 2-4\n", "", 1), tt.from, tt.to, 1)
			}
			if edited == string(data) {
				t.Fatalf("%q is not in the saved ladder file:\n%s", tt.from, data)
			}
			if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
				t.Fatal(err)
			}
			l, err := Open(dir)
			if tt.key == "" {
				if err != nil {
					t.Fatalf("an edited clock: %v", err)
				}
				l.Close()
				return
			}
			if err == nil {
				l.Close()
				t.Fatalf("Open with %s: no error", tt.key)
			}
			if !errors.Is(err, ErrSealed) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tt.key) {
				t.Errorf("Open with %s: %v; want ErrSealed naming %s and %q", tt.key, err, path, tt.key)
			}
		})
	}
}

// TestRosterRefusedStatus: a bot none of whose submissions was admitted
// is "refused" once none waits (it stayed "pending", which the
// leaderboard showed its owner as if a verdict were to come), and
// "pending" again when a new one arrives.
func TestRosterRefusedStatus(t *testing.T) {
	sub := func(id string) Event { return Event{Kind: Submitted, Bot: "carol", Submission: id} }
	ref := func(id string) Event { return Event{Kind: Refused, Bot: "carol", Submission: id, Report: "FAIL ready"} }
	adm := Event{Kind: Admitted, Bot: "carol", Submission: "s3", Version: 1, Build: "b3", Command: "python3 bot.py"}
	tests := []struct {
		name   string
		events []Event
		want   string
	}{
		{"waiting", []Event{sub("s1")}, StatusPending},
		{"refused", []Event{sub("s1"), ref("s1")}, StatusRefused},
		{"one refused, one waiting", []Event{sub("s1"), sub("s2"), ref("s1")}, StatusPending},
		{"refused, then submitted again", []Event{sub("s1"), ref("s1"), sub("s2")}, StatusPending},
		{"refused, then admitted", []Event{sub("s1"), ref("s1"), sub("s3"), adm}, StatusActive},
		{"admitted, then refused", []Event{sub("s3"), adm, sub("s4"), ref("s4")}, StatusActive},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Roster
			for _, e := range tt.events {
				if err := r.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			if got := r.Bot("carol").Status; got != tt.want {
				t.Errorf("status %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPlaying: the versions that play are the roster's active ones,
// those entered after init included (a command learns from them which
// remote bots its run must reach), not retired or withdrawn ones.
func TestPlaying(t *testing.T) {
	dir := initLadder(t)
	appendEvents(t, dir, []Event{
		{Kind: Submitted, Bot: "alice", Submission: "s1"},
		{Kind: Admitted, Bot: "alice", Submission: "s1", Version: 1, Command: "/bin/cat"},
		{Kind: Submitted, Bot: "alice", Submission: "s2"},
		{Kind: Admitted, Bot: "alice", Submission: "s2", Version: 2, Command: "/bin/cat"},
		{Kind: Withdrawn, Bot: "greedy", Reason: "on request"},
	})
	specs, err := Playing(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range specs {
		names = append(names, s.Name)
	}
	if want := []string{"random.v1", "alice.v2"}; !reflect.DeepEqual(names, want) {
		t.Errorf("Playing: %v, want %v", names, want)
	}
}
