package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/deal"
	"github.com/arena-dev/arena/arena/ledger"
	"github.com/arena-dev/arena/arena/options"
	"github.com/arena-dev/arena/arena/schedule"
	"github.com/arena-dev/arena/arena/tournament"
	"github.com/arena-dev/arena/internal/proctest"
	"github.com/arena-dev/arena/replays"
)

func tournamentArgs(out string, extra ...string) []string {
	return append([]string{"tournament", "run", "--name", "kcup", "--game", "banqi", "--option", "max_plies=200",
		"--bot", "g=arena bot greedy", "--bot", "r1=arena bot random", "--bot", "r2=arena bot random",
		"--bot", "r3=arena bot random", "--bot", "r4=arena bot random",
		"--games-per-encounter", "2", "--seed", "99", "--concurrency", "2", "--out", out, "-q"}, extra...)
}

// standingsOnly is the part of `standings --json` that must not depend on
// how the run was interrupted.
func standingsOnly(t *testing.T, dir string) string {
	t.Helper()
	out, stderr, code := arena(t, "tournament", "standings", dir, "--json")
	if code != 0 {
		t.Fatalf("standings: %s", stderr)
	}
	var st struct {
		Games     int             `json:"games"`
		Standings json.RawMessage `json:"standings"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d games %s", st.Games, st.Standings)
}

func ledgerLines(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	return bytes.Count(b, []byte("\n"))
}

// TestTournamentSurvivesSIGKILL kills the arena with SIGKILL at several
// points, resumes each time, and ends with exactly the standings of a run
// that was never killed; no bot process outlives a killed arena.
func TestTournamentSurvivesSIGKILL(t *testing.T) {
	t.Parallel()
	whole := t.TempDir()
	if _, stderr, code := arena(t, tournamentArgs(whole)...); code != 0 {
		t.Fatalf("uninterrupted run: %s", stderr)
	}
	want := standingsOnly(t, whole)
	// The same games from the same seed: with the whole run's deal secret.
	secret := filepath.Join(whole, deal.FileName)

	out := t.TempDir()
	token := fmt.Sprintf("ARENA_KILL_TOKEN=%d", time.Now().UnixNano())
	for _, killAt := range []int{3, 8, 14} {
		cmd := exec.Command(os.Args[0], tournamentArgs(out, "--deal-secret", secret)...)
		cmd.Env = append(os.Environ(), token)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for the ledger to reach killAt games (an event, polled).
		deadline := time.Now().Add(60 * time.Second)
		for ledgerLines(out) < killAt && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if n := ledgerLines(out); n < killAt || n >= 20 {
			t.Fatalf("killed with %d games recorded, wanted to kill at %d of 20: %s", n, killAt, stderr.String())
		}
		replaysOfLedgerVerify(t, out)
	}
	// The bots die with the arena (parent-death signal); give the kernel a
	// moment to deliver it, then count survivors.
	deadline := time.Now().Add(5 * time.Second)
	for len(proctest.WithEnv(token)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if left := proctest.WithEnv(token); len(left) > 0 {
		t.Errorf("bot processes outlived the killed arena: %v", left)
	}
	if _, stderr, code := arena(t, tournamentArgs(out, "--deal-secret", secret)...); code != 0 {
		t.Fatalf("resumed run: %s", stderr)
	}
	if got := standingsOnly(t, out); got != want {
		t.Fatalf("standings after kills and resume differ:\n got %s\nwant %s", got, want)
	}
	b, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
	ids := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct {
			GameID string `json:"game_id"`
		}
		json.Unmarshal([]byte(line), &r)
		if ids[r.GameID] {
			t.Fatalf("game %s recorded twice", r.GameID)
		}
		ids[r.GameID] = true
	}
}

// replaysOfLedgerVerify: every game in dir's ledger has its replay in
// place, whole, and it verifies (what a killed run must leave: a ledger
// line is written only once its replay is).
func replaysOfLedgerVerify(t *testing.T, dir string) {
	t.Helper()
	recs, _, err := ledger.Read[ledger.Record](filepath.Join(dir, ledger.FileName))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		rp, err := r.ReplaySource(dir).Read()
		if err == nil {
			err = replays.Verify(rp)
		}
		if err != nil {
			t.Errorf("game %s is in the ledger of the killed run, but its replay %q: %v", r.GameID, r.Replay, err)
		}
	}
}

func TestTournamentUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("name: x\ngame: banqi\nbots:\n  - name: a\n    comand: arena bot random\n"), 0o644)
	// A valid file but for its size: a comment line past the bound.
	big := filepath.Join(dir, "big.yaml")
	os.WriteFile(big, []byte("name: x\ngame: banqi\noptions: {max_plies: 20}\nbots: [{name: a, command: arena bot random}, {name: b, command: arena bot random}]\n# "+
		strings.Repeat("x", tournament.MaxFileSize)+"\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"tournament", "run", bad}, "bad.yaml: line 5: bots[0].comand: unknown key (the keys in bots[0]: name, command, dir, env)"},
		{[]string{"tournament", "run", big, "--out", filepath.Join(dir, "big")}, "big.yaml: file too large: more than 1MiB"},
		{[]string{"tournament", "run", "--resume", "--out", filepath.Join(dir, "none")}, "--resume: no tournament to resume"},
		{[]string{"tournament", "standings", dir}, "not a tournament directory"},
		{[]string{"tournament", "run", "--name", "x", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--format", "swizz", "--out", filepath.Join(dir, "o")}, `format: "swizz" is not a format`},
	}
	for _, tc := range cases {
		_, stderr, code := arena(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %q", tc.args, code, stderr, tc.want)
		}
	}
}

// quickCup is a 3-bot round-robin of 6 short games.
func quickCup(out string, extra ...string) []string {
	return append([]string{"tournament", "run", "--name", "cup", "--game", "banqi", "--option", "max_plies=60",
		"--bot", "a=arena bot greedy", "--bot", "b=arena bot random", "--bot", "c=arena bot random",
		"--games-per-encounter", "2", "--seed", "5", "--concurrency", "2", "--out", out, "-q"}, extra...)
}

// copyDir copies a results directory (modes kept: the deal secret is 0600).
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(target, info.Mode().Perm())
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// editLine rewrites line n (from 1) of a JSON-lines file with f.
func editLine(t *testing.T, path string, n int, f func(m map[string]any)) {
	t.Helper()
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[n-1]), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, _ := json.Marshal(m)
	lines[n-1] = string(b)
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// TestDamagedResultsAreNoticed: standings and resume count what the
// schedule has once; `tournament verify` checks every ledger line against
// its replay and exits 1 with a line per problem naming the file, the
// line and the game; an edited tournament.json is refused on resume.
func TestDamagedResultsAreNoticed(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	if _, stderr, code := arena(t, quickCup(base)...); code != 0 {
		t.Fatalf("run: %s", stderr)
	}
	ledgerLine := func(out string, n int) map[string]any {
		data, _ := os.ReadFile(filepath.Join(out, "results.jsonl"))
		var m map[string]any
		json.Unmarshal([]byte(strings.Split(string(data), "\n")[n-1]), &m)
		return m
	}
	cases := []struct {
		name       string
		damage     func(t *testing.T, out string)
		verifyWant string // "" : verify passes
		refused    string // what a resume says, if it is refused
	}{
		{name: "intact", damage: func(*testing.T, string) {}},
		{name: "duplicated line", damage: func(t *testing.T, out string) {
			path := filepath.Join(out, "results.jsonl")
			data, _ := os.ReadFile(path)
			first := strings.SplitAfter(string(data), "\n")[0]
			os.WriteFile(path, append(data, first...), 0o644)
		}, verifyWant: "results.jsonl: line 7: game %1: recorded twice (first on line 1)"},
		{name: "unknown game id", damage: func(t *testing.T, out string) {
			path := filepath.Join(out, "results.jsonl")
			data, _ := os.ReadFile(path)
			first := strings.Replace(strings.SplitAfter(string(data), "\n")[0], `"game_id":"cup-`, `"game_id":"cup-x`, 1)
			os.WriteFile(path, append(data, first...), 0o644)
		}, verifyWant: "results.jsonl: line 7: game cup-x%1: not a game of this tournament"},
		{name: "ranks edited", damage: func(t *testing.T, out string) {
			ranks := ledgerLine(out, 2)["ranks"].([]any)
			editLine(t, filepath.Join(out, "results.jsonl"), 2, func(m map[string]any) {
				if ranks[0] == ranks[1] {
					m["ranks"] = []int{1, 2}
				} else {
					m["ranks"] = []any{ranks[1], ranks[0]}
				}
			})
		}, verifyWant: "results.jsonl: line 2: game " + "%s" + ": replay does not match: ranks"},
		// The pack of every game: each line is a problem, this one too.
		{name: "replay deleted", damage: func(t *testing.T, out string) {
			os.Remove(filepath.Join(out, ledgerLine(out, 2)["replay"].(string)))
		}, verifyWant: "results.jsonl: line 2: game %s: replay does not match: replay " + "%o" + " is missing"},
		{name: "seed edited in tournament.json", damage: func(t *testing.T, out string) {
			path := filepath.Join(out, "tournament.json")
			data, _ := os.ReadFile(path)
			os.WriteFile(path, bytes.Replace(data, []byte(`"seed": 5`), []byte(`"seed": 6`), 1), 0o644)
		}, verifyWant: "tournament.json: edited after the tournament began: its checksum", refused: "tournament.json was edited after the tournament began"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "cup")
			copyDir(t, base, out)
			first, second := ledgerLine(out, 1), ledgerLine(out, 2)
			tc.damage(t, out)
			want := strings.ReplaceAll(tc.verifyWant, "%s", fmt.Sprint(second["game_id"]))
			want = strings.ReplaceAll(want, "%1", fmt.Sprint(first["game_id"]))
			want = strings.ReplaceAll(want, "cup-xcup-", "cup-x")
			if second["replay"] != nil {
				where := filepath.Join(out, second["replay"].(string))
				if at, ok := second["replay_at"].(map[string]any); ok {
					where += fmt.Sprintf(" at offset %v (%v bytes)", at["offset"], at["size"])
				}
				want = strings.ReplaceAll(want, "%o", where)
			}

			if tc.refused == "" {
				if got := standingsOnly(t, out); !strings.HasPrefix(got, "6 games ") {
					t.Errorf("standings count %s; want the 6 games of the schedule, once each", got[:12])
				}
			}
			stdout, stderr, code := arena(t, "tournament", "verify", out)
			switch {
			case want == "" && code != 0:
				t.Fatalf("verify of an intact directory: exit %d\n%s%s", code, stdout, stderr)
			case want != "" && (code != exitFail || !strings.Contains(stdout, want)):
				t.Fatalf("verify: exit %d, want 1 and a line %q:\n%s%s", code, want, stdout, stderr)
			}
			if tc.refused != "" {
				_, stderr, code := arena(t, "tournament", "run", out, "-q")
				if code == 0 || !strings.Contains(stderr, tc.refused) {
					t.Fatalf("resume: exit %d, want a refusal saying %q:\n%s", code, tc.refused, stderr)
				}
				return
			}
			// A resume warns of each problem once: the standings it
			// prints after the run do not say it again.
			_, stderr, code = arena(t, "tournament", "run", out, "-q")
			if code != 0 {
				t.Fatalf("resume: exit %d:\n%s", code, stderr)
			}
			seen := map[string]int{}
			for _, l := range strings.Split(stderr, "\n") {
				if strings.HasPrefix(l, "arena: warning: ") {
					if seen[l]++; seen[l] == 2 {
						t.Errorf("the resume warned twice: %s", l)
					}
				}
			}
		})
	}
}

// TestResumeWithOutAndConcurrency: `--resume` works with --out (also
// without --seed: the saved seed is the tournament's), and resuming
// from the directory alone keeps the concurrency it was run with.
func TestResumeWithOutAndConcurrency(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	args := []string{"tournament", "run", "--name", "rs", "--game", "banqi", "--option", "max_plies=60",
		"--bot", "a=arena bot random", "--bot", "b=arena bot random", "--games-per-encounter", "2", "--concurrency", "7", "--out", out, "-q"}
	if _, stderr, code := arena(t, args...); code != 0 {
		t.Fatalf("first run: %s", stderr)
	}
	if _, stderr, code := arena(t, append(args, "--resume")...); code != 0 {
		t.Fatalf("the same command with --resume: exit %d\n%s", code, stderr)
	}
	_, stderr, code := arena(t, "tournament", "run", out, "-q")
	if code != 0 || !strings.Contains(stderr, "concurrency 7,") {
		t.Fatalf("resume from the directory: exit %d; want concurrency 7 kept:\n%s", code, stderr)
	}
	if got := ledgerLines(out); got != 2 {
		t.Fatalf("%d games recorded, want 2", got)
	}
}

// holdLock starts `arena match` into out with a bot that never gets
// ready (sleep), so that it holds out's lock until killed, and returns
// once it does (its pid is in the lock file).
func holdLock(t *testing.T, out string) *exec.Cmd {
	t.Helper()
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep(1) to make a bot that never gets ready")
	}
	cmd := exec.Command(os.Args[0], "match", "--game", "banqi", "--bot", "a="+sleep+" 600", "--bot", "b=arena bot random",
		"--startup-time", "10m", "--bot-isolate", "no", "--out", out, "-q")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	pid := fmt.Sprint(cmd.Process.Pid)
	// An event (the holder's note in the lock file), polled.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		note, _ := os.ReadFile(filepath.Join(out, "arena.lock"))
		if first, _, _ := strings.Cut(string(note), "\n"); first == pid {
			return cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("the holder never took the lock: %s", stderr.String())
		}
	}
}

// TestRunsIntoOneDirectoryAreLocked: while one arena process plays into
// a directory, match, tournament run and sprt into it are refused before
// they write anything, naming the directory and the holder's pid; once
// the holder is killed (SIGKILL: no clean release), the next run takes
// the directory over and says a run was interrupted there.
func TestRunsIntoOneDirectoryAreLocked(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	holder := holdLock(t, out)
	pid := fmt.Sprintf("pid %d", holder.Process.Pid)
	contenders := []struct {
		name string
		args []string
	}{
		{"match", []string{"match", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--games", "2", "--out", out, "-q"}},
		{"tournament run", []string{"tournament", "run", "--name", "t", "--game", "banqi", "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--out", out, "-q"}},
		{"sprt", []string{"sprt", "--game", "banqi", "--base", "a=arena bot random", "--test", "b=arena bot random", "--max-games", "2", "--out", out, "-q"}},
	}
	for _, tc := range contenders {
		_, stderr, code := arena(t, tc.args...)
		if code != exitFail || !strings.Contains(stderr, "in use by another arena run") || !strings.Contains(stderr, pid) || !strings.Contains(stderr, out) {
			t.Errorf("%s into a held directory: exit %d, stderr %q; want 1, naming %s and %s", tc.name, code, stderr, out, pid)
		}
	}
	for _, f := range []string{"tournament.json", "sprt.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("a refused run wrote %s", f)
		}
	}
	if n := ledgerLines(out); n != 0 {
		t.Errorf("refused runs recorded %d games", n)
	}
	holder.Process.Signal(syscall.SIGKILL)
	holder.Wait()
	_, stderr, code := arena(t, contenders[0].args...)
	if code != 0 || !strings.Contains(stderr, "without releasing it") || !strings.Contains(stderr, pid) {
		t.Fatalf("a match after the holder was killed: exit %d; want 0 and a note on %s's stale lock:\n%s", code, pid, stderr)
	}
	if got := ledgerLines(out); got != 2 {
		t.Fatalf("%d games recorded, want the 2 of the match", got)
	}
}

// ratingsBreaker writes a results directory of 18 bots, a round robin
// of 2 games per pairing with very unequal bots, whose ratings the
// Bradley-Terry fit of this repository's first releases did not converge
// on (stats: BradleyTerry did not converge).
func ratingsBreaker(t *testing.T, out string) {
	t.Helper()
	const n = 18
	seed := uint64(1)
	f := tournament.File{Name: "bt", Game: "banqi", Format: "round-robin", GamesPerEncounter: 2, Settings: options.Settings{Seed: &seed}}
	for i := range n {
		f.Bots = append(f.Bots, tournament.BotFile{Name: fmt.Sprintf("bot%02d", i), Command: "arena bot random"})
	}
	c, err := f.Resolve("test", ".")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.MarshalIndent(c.File, "", "  ")
	os.WriteFile(filepath.Join(out, "tournament.json"), data, 0o644)
	rng := rand.New(rand.NewPCG(0, 7))
	elo := make([]float64, n)
	for i := range elo {
		elo[i] = 1200 * (0.5 - float64(i)/float64(n-1))
	}
	elo[0] += 1500
	elo[n-1] -= 1500
	s, _ := c.NewScheduler()
	var lines bytes.Buffer
	for i := 0; ; i++ {
		g, st := s.Next()
		if st != schedule.Ready {
			break
		}
		a, b := g.Seats[0], g.Seats[1]
		p := 1 / (1 + math.Pow(10, -(elo[a]-elo[b])/400))
		draw := 0.3 * 4 * p * (1 - p)
		ranks := []int{2, 1}
		switch u := rng.Float64(); {
		case u < draw:
			ranks = []int{1, 1}
		case u < draw+(1-draw)*p:
			ranks = []int{1, 2}
		}
		rec := ledger.Record{Index: i, GameID: c.Name + "-" + g.ID, Bots: []string{c.Bots[a].Name, c.Bots[b].Name},
			Ranks: ranks, Scores: []float64{0, 0}, Reason: "test", Forfeits: []ledger.SeatFailure{}}
		line, _ := json.Marshal(rec)
		lines.Write(append(line, '\n'))
		s.Result(g, ranks)
	}
	os.WriteFile(filepath.Join(out, "results.jsonl"), lines.Bytes(), 0o644)
}

// TestStandingsOfAHardField: the standings of 18 very unequal bots are
// shown in every form (with ratings, or without them and a warning if the
// fit fails: never no standings); the CSV carries no float noise; the
// table says where the head-to-head matrix of 18 bots is.
func TestStandingsOfAHardField(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	ratingsBreaker(t, out)
	noise := regexp.MustCompile(`\.\d{3,}`)
	cases := []struct {
		name  string
		flags []string
		check func(t *testing.T, stdout, stderr string)
	}{
		{"table", nil, func(t *testing.T, stdout, stderr string) {
			if strings.Count(stdout, "│ bot") != 18 && strings.Count(stdout, " bot") < 18 {
				t.Errorf("not every bot in the table:\n%s", stdout)
			}
			if !strings.Contains(stdout, "ELO") && !strings.Contains(stderr, "warning: ratings:") {
				t.Errorf("no ratings and no warning saying why:\n%s", stderr)
			}
			if !strings.Contains(stdout, "head to head: not shown for 18 bots") || !strings.Contains(stdout, "--json") {
				t.Errorf("the matrix of 18 bots is dropped without a word:\n%s", stdout)
			}
		}},
		{"json", []string{"--json"}, func(t *testing.T, stdout, _ string) {
			var st struct {
				Games      int               `json:"games"`
				Standings  []json.RawMessage `json:"standings"`
				HeadToHead [][]float64       `json:"head_to_head"`
			}
			if err := json.Unmarshal([]byte(stdout), &st); err != nil || st.Games != 306 || len(st.Standings) != 18 || len(st.HeadToHead) != 18 {
				t.Errorf("JSON (%v): %d games, %d rows:\n%.300s", err, st.Games, len(st.Standings), stdout)
			}
		}},
		{"csv", []string{"--csv"}, func(t *testing.T, stdout, _ string) {
			if lines := strings.Split(strings.TrimSpace(stdout), "\n"); len(lines) != 19 {
				t.Errorf("CSV: %d lines, want a header and 18", len(lines))
			}
			if bad := noise.FindString(stdout); bad != "" {
				t.Errorf("CSV carries float noise (%q):\n%s", bad, stdout)
			}
		}},
		{"csv head to head", []string{"--csv", "--head-to-head"}, func(t *testing.T, stdout, _ string) {
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(lines) != 19 || !strings.HasPrefix(lines[0], "bot,bot00,bot01") || !strings.Contains(lines[1], ",2/2,") {
				t.Errorf("head-to-head CSV:\n%s", stdout)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := arena(t, append([]string{"tournament", "standings", out}, tc.flags...)...)
			if code != 0 {
				t.Fatalf("standings %v: exit %d\n%s", tc.flags, code, stderr)
			}
			tc.check(t, stdout, stderr)
		})
	}
}

// TestOversizedInputsNameTheBound: a ledger line over the bound is an
// error naming the file, the line and the bound (not "token too long").
func TestOversizedInputsNameTheBound(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	if _, stderr, code := arena(t, quickCup(base)...); code != 0 {
		t.Fatalf("run: %s", stderr)
	}
	path := filepath.Join(base, "results.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Longer than any bound a reader might have had (64 MiB was one).
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	f.Write([]byte(`{"game_id":"`))
	for range 65 {
		f.Write(chunk)
	}
	f.Write([]byte("\"}\n"))
	f.Close()
	for _, args := range [][]string{{"tournament", "standings", base}, {"tournament", "run", base, "-q"}} {
		_, stderr, code := arena(t, args...)
		if code != exitFail || !strings.Contains(stderr, path+": line 7: line too long") || !strings.Contains(stderr, "16 MiB") {
			t.Errorf("%v: exit %d, stderr %q; want 1 naming %s, line 7 and the 16 MiB bound", args, code, stderr, path)
		}
	}
}

// TestLostStderrLogsOfATournament: with the logs on a full disk, the
// tournament plays on, warns of every lost log and counts them at the
// end.
func TestLostStderrLogsOfATournament(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("a full disk is made with a small tmpfs, which needs root")
	}
	out := t.TempDir()
	logs := filepath.Join(out, "logs")
	os.MkdirAll(logs, 0o755)
	if err := syscall.Mount("tmpfs", logs, "tmpfs", 0, "size=4k"); err != nil {
		t.Skipf("cannot mount a small tmpfs to fill (%v): no full disk to test with", err)
	}
	t.Cleanup(func() { syscall.Unmount(logs, syscall.MNT_DETACH) })
	os.WriteFile(filepath.Join(logs, "filler"), make([]byte, 64<<10), 0o644) // fills it (the write stops at the size)
	// A bot that writes to stderr: this binary as `arena bot random`, from
	// a shell that says hello on stderr first.
	bot := fmt.Sprintf("sh -c 'echo starting >&2; exec %s bot random'", os.Args[0])
	_, stderr, code := arena(t, "tournament", "run", "--name", "full", "--game", "banqi", "--option", "max_plies=60",
		"--bot", "a="+bot, "--bot", "b="+bot, "--games-per-encounter", "2", "--seed", "1", "--concurrency", "1",
		"--bot-isolate", "no", "--bot-env", "ARENA_AS_CLI=1", "--out", out, "-q")
	if code != 0 {
		t.Fatalf("a full disk for the logs failed the tournament: exit %d\n%s", code, stderr)
	}
	if got := strings.Count(stderr, "is incomplete"); got != 4 || !strings.Contains(stderr, "4 of 4 stderr logs lost") {
		t.Fatalf("%d lost-log warnings, want 4 and the count:\n%s", got, stderr)
	}
	if got := ledgerLines(out); got != 2 {
		t.Fatalf("%d games recorded, want 2", got)
	}
}

// TestResumeCleansUp: the unfinished replay files a killed run leaves
// (hidden temporary files) are removed by the resume.
func TestResumeCleansUp(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	if _, stderr, code := arena(t, quickCup(out)...); code != 0 {
		t.Fatalf("run: %s", stderr)
	}
	tmp := filepath.Join(out, "replays", ".cup-c1-r01-1-2-g1.jsonl.zst.tmp-4242-1-99")
	os.WriteFile(tmp, []byte("half a replay"), 0o644)
	if _, stderr, code := arena(t, "tournament", "run", out, "-q"); code != 0 {
		t.Fatalf("resume: %s", stderr)
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s survived the resume (%v)", tmp, err)
	}
}
