package main

import (
	"crypto/sha256"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sprtJSON decodes arena sprt --json output, checking every documented
// field is present.
func sprtJSON(t *testing.T, out string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	for _, k := range []string{"game", "seats", "test", "base", "fillers", "paired", "seed", "elo0", "elo1", "alpha", "beta",
		"llr", "lower_bound", "upper_bound", "verdict", "exit_code", "stopped_by", "pairs", "games", "played", "abandoned", "max_games", "max_seconds",
		"penta", "wdl", "score", "elo", "nelo", "los", "seconds", "out"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON summary lacks %q", k)
		}
	}
	for _, k := range []string{"elo", "nelo"} {
		iv, _ := m[k].(map[string]any)
		for _, f := range []string{"value", "low", "high"} {
			if _, ok := iv[f]; !ok {
				t.Errorf("JSON summary lacks %s.%s", k, f)
			}
		}
	}
	return m
}

func num(m map[string]any, k string) float64 {
	f, _ := m[k].(float64)
	return f
}

type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Skipped  int      `xml:"skipped,attr"`
	Suites   []struct {
		Name  string `xml:"name,attr"`
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Skipped *struct{} `xml:"skipped"`
			Error   *struct{} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// sprtOutputs are the paths a test's arena sprt writes to, in a new
// directory: --out, --summary-md and --junit.
func sprtOutputs(t *testing.T) (out, md, junit string) {
	dir := t.TempDir()
	return filepath.Join(dir, "out"), filepath.Join(dir, "summary.md"), filepath.Join(dir, "junit.xml")
}

// wholeGames checks that the results.jsonl of an sprt's out holds a line
// for each game its summary m says was played, each a whole game (two
// bots ranked, its pair, the test's score and its replay); it returns
// how many lines there are.
func wholeGames(t *testing.T, out string, m map[string]any) int {
	t.Helper()
	lines := readLines(t, filepath.Join(out, "results.jsonl"))
	if len(lines) != int(num(m, "played")) {
		t.Errorf("results.jsonl has %d lines, played %v", len(lines), m["played"])
	}
	for _, l := range lines {
		var r struct {
			Bots      []string `json:"bots"`
			Ranks     []int    `json:"ranks"`
			Pair      *int     `json:"pair"`
			TestScore *float64 `json:"test_score"`
			Replay    string   `json:"replay"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || len(r.Bots) != 2 || len(r.Ranks) != 2 || r.Pair == nil || r.TestScore == nil || r.Replay == "" {
			t.Errorf("not a whole game (%v): %s", err, l)
		}
	}
	return len(lines)
}

func readJUnit(t *testing.T, path string) junitDoc {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("--junit file is not well-formed XML: %v\n%s", err, data)
	}
	if doc.Tests != 1 || len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != 1 {
		t.Fatalf("want one suite with one test case:\n%s", data)
	}
	return doc
}

// TestSPRTAcceptsH1 runs greedy (test) against random (base): the test
// must accept H1 with exit code 0 well within --max-games, and write every
// promised output.
func TestSPRTAcceptsH1(t *testing.T) {
	t.Parallel()
	out, md, junit := sprtOutputs(t)
	stdout, stderr, code := arena(t, "sprt", "--game", "banqi", "--test", "greedy=arena bot greedy", "--base", "random=arena bot random",
		"--elo0", "0", "--elo1", "20", "--max-games", "400", "--seed", "1", "--concurrency", "2",
		"--out", out, "--json", "--summary-md", md, "--junit", junit)
	if code != exitOK {
		t.Fatalf("exit %d, want %d (H1 accepted):\n%s\n%s", code, exitOK, stdout, stderr)
	}
	m := sprtJSON(t, stdout)
	if m["verdict"] != "H1" || num(m, "exit_code") != 0 || m["test"] != "greedy" || m["base"] != "random" || m["paired"] != true {
		t.Errorf("summary: %v", m)
	}
	pairs, games := num(m, "pairs"), num(m, "games")
	if pairs < 1 || games != 2*pairs || games >= 400 || num(m, "llr") < num(m, "upper_bound") {
		t.Errorf("pairs %v games %v llr %v upper %v", pairs, games, m["llr"], m["upper_bound"])
	}
	sum := 0.0
	for _, c := range m["penta"].([]any) {
		sum += c.(float64)
	}
	if sum != pairs {
		t.Errorf("penta %v does not add up to %v pairs", m["penta"], pairs)
	}
	if num(m, "los") < 0.99 {
		t.Errorf("LOS %v", m["los"])
	}
	if !strings.Contains(stderr, "pairs 1 [") || !strings.Contains(stderr, " LLR ") || !strings.Contains(stderr, " nElo ") {
		t.Errorf("no progress lines on stderr:\n%s", stderr)
	}
	// Every finished game is in results.jsonl, counted or not.
	if played := wholeGames(t, out, m); played < int(games) {
		t.Errorf("results.jsonl has %d lines; counted %v", played, games)
	}
	if _, err := os.Stat(filepath.Join(out, "sprt.json")); err != nil {
		t.Error(err)
	}
	b, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(b), "H1 accepted") || !strings.Contains(string(b), "| LLR |") {
		t.Errorf("--summary-md (%v):\n%s", err, b)
	}
	doc := readJUnit(t, junit)
	if c := doc.Suites[0].Cases[0]; c.Failure != nil || c.Skipped != nil || c.Error != nil || doc.Failures != 0 {
		t.Errorf("H1 accepted must be a passing test: %+v", doc)
	}
}

// TestSPRTAcceptsH0 swaps the roles: random as the test loses every pair.
func TestSPRTAcceptsH0(t *testing.T) {
	t.Parallel()
	junit := filepath.Join(t.TempDir(), "junit.xml")
	stdout, stderr, code := arena(t, "sprt", "--game", "banqi", "--test", "random=arena bot random", "--base", "greedy=arena bot greedy",
		"--elo0", "0", "--elo1", "20", "--max-games", "400", "--seed", "2", "--junit", junit, "-q")
	if code != exitH0 {
		t.Fatalf("exit %d, want %d (H0 accepted):\n%s\n%s", code, exitH0, stdout, stderr)
	}
	if !strings.Contains(stdout, "H0 accepted") {
		t.Errorf("summary does not say H0 accepted:\n%s", stdout)
	}
	doc := readJUnit(t, junit)
	if doc.Suites[0].Cases[0].Failure == nil || doc.Failures != 1 {
		t.Errorf("H0 accepted must be a failing test: %+v", doc)
	}
}

// TestSPRTIdenticalBots: random against random must not accept H1 in a
// short run (the error-rate test over many runs is in arena/sprt).
func TestSPRTIdenticalBots(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	md, junit := filepath.Join(dir, "summary.md"), filepath.Join(dir, "junit.xml")
	stdout, stderr, code := arena(t, "sprt", "--game", "banqi", "--test", "a=arena bot random", "--base", "b=arena bot random",
		"--max-games", "40", "--seed", "7", "--json", "--summary-md", md, "--junit", junit)
	if code != exitInconclusive && code != exitH0 {
		t.Fatalf("exit %d, want %d (inconclusive) or %d (H0):\n%s\n%s", code, exitInconclusive, exitH0, stdout, stderr)
	}
	m := sprtJSON(t, stdout)
	doc := readJUnit(t, junit)
	c := doc.Suites[0].Cases[0]
	if code == exitInconclusive {
		if m["verdict"] != "inconclusive" || num(m, "games") != 40 || num(m, "pairs") != 20 || num(m, "exit_code") != 4 {
			t.Errorf("summary: %v", m)
		}
		if c.Skipped == nil || c.Failure != nil || doc.Skipped != 1 {
			t.Errorf("inconclusive must be a skipped test: %+v", doc)
		}
	}
	b, _ := os.ReadFile(md)
	if !strings.Contains(string(b), "### SPRT `a` vs `b` on banqi") {
		t.Errorf("--summary-md:\n%s", b)
	}
}

// TestSPRTMultiSeatFiller: 4-seat Uno, base and test swap seats within a
// deal, two filler processes take the other seats.
func TestSPRTMultiSeatFiller(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	stdout, stderr, code := arena(t, "sprt", "--game", "uno", "--seats", "4", "--option", "target=0",
		"--test", "greedy=arena bot greedy", "--base", "random=arena bot random",
		"--max-games", "12", "--seed", "3", "--concurrency", "2", "--out", out, "--json")
	if code != exitInconclusive && code != exitOK {
		t.Fatalf("exit %d:\n%s\n%s", code, stdout, stderr)
	}
	m := sprtJSON(t, stdout)
	if num(m, "seats") != 4 || num(m, "pairs") != 6 || num(m, "games") != 12 {
		t.Errorf("summary: %v", m)
	}
	if f, _ := m["fillers"].([]any); len(f) != 2 || f[0] != "filler1" || f[1] != "filler2" {
		t.Errorf("fillers %v", m["fillers"])
	}
	type line struct {
		Bots      []string `json:"bots"`
		Seed      uint64   `json:"seed"`
		Pair      int      `json:"pair"`
		TestScore float64  `json:"test_score"`
	}
	byPair := map[int][]line{}
	for _, l := range readLines(t, filepath.Join(out, "results.jsonl")) {
		var r line
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		byPair[r.Pair] = append(byPair[r.Pair], r)
	}
	if len(byPair) != 6 {
		t.Fatalf("want 6 pairs in results.jsonl, got %d", len(byPair))
	}
	for p, games := range byPair {
		if len(games) != 2 || games[0].Seed != games[1].Seed {
			t.Fatalf("pair %d: %+v", p, games)
		}
		a, b := games[0].Bots, games[1].Bots
		for s := range a {
			switch a[s] {
			case "greedy":
				if b[s] != "random" {
					t.Errorf("pair %d: seats not swapped: %v / %v", p, a, b)
				}
			case "random":
				if b[s] != "greedy" {
					t.Errorf("pair %d: seats not swapped: %v / %v", p, a, b)
				}
			default:
				if b[s] != a[s] || !strings.HasPrefix(a[s], "filler") {
					t.Errorf("pair %d: fillers moved: %v / %v", p, a, b)
				}
			}
		}
	}
	// The fillers write nothing to stderr: no log is made for them (a
	// log is made with a bot's first byte of stderr in a game).
	if logs, _ := filepath.Glob(filepath.Join(out, "logs", "filler2", "*.stderr.log")); len(logs) != 0 {
		t.Errorf("%d filler2 logs of nothing written, want none", len(logs))
	}
}

// TestSPRTNoPairs: independent games and the trinomial statistic, under
// either name of the flag (--fresh-deals, as arena match and tournaments
// call a new deal for every game).
func TestSPRTNoPairs(t *testing.T) {
	t.Parallel()
	for _, flag := range []string{"--no-pairs", "--fresh-deals"} {
		stdout, stderr, code := arena(t, "sprt", "--game", "banqi", "--test", "a=arena bot greedy", "--base", "b=arena bot random",
			flag, "--max-games", "9", "--seed", "4", "--json")
		if code != exitInconclusive {
			t.Fatalf("%s: exit %d:\n%s\n%s", flag, code, stdout, stderr)
		}
		m := sprtJSON(t, stdout)
		if m["paired"] != false || num(m, "games") != 9 || num(m, "pairs") != 0 {
			t.Errorf("%s: summary: %v", flag, m)
		}
		if !strings.Contains(stderr, "games 1 [W ") || !strings.Contains(stderr, "independent games (trinomial)") {
			t.Errorf("%s: progress lines should count independent games:\n%s", flag, stderr)
		}
	}
}

func TestSPRTUsageErrors(t *testing.T) {
	t.Parallel()
	bots := []string{"--test", "a=arena bot random", "--base", "b=arena bot random"}
	cases := []usageCase{
		{"missing base", []string{"--game", "banqi", "--test", "a=arena bot random"}, "--base"},
		{"missing test", []string{"--game", "banqi", "--base", "a=arena bot random"}, "--test"},
		{"missing game", bots, "--game"},
		{"base without command", []string{"--game", "banqi", "--test", "a=arena bot random", "--base", "b"}, "--base"},
		{"same names", []string{"--game", "banqi", "--test", "a=arena bot random", "--base", "a=arena bot greedy"}, "--test"},
		{"missing program", []string{"--game", "banqi", "--test", "a=./no-such-bot", "--base", "b=arena bot random"}, "--test"},
		{"bounds reversed", append([]string{"--game", "banqi", "--elo0", "5", "--elo1", "0"}, bots...), "--elo0"},
		{"bounds equal", append([]string{"--game", "banqi", "--elo0", "1", "--elo1", "1"}, bots...), "--elo1"},
		{"alpha plus beta", append([]string{"--game", "banqi", "--alpha", "0.5", "--beta", "0.5"}, bots...), "--alpha"},
		{"alpha zero", append([]string{"--game", "banqi", "--alpha", "0"}, bots...), "--alpha"},
		{"beta one", append([]string{"--game", "banqi", "--beta", "1"}, bots...), "--beta"},
		{"bad elo", append([]string{"--game", "banqi", "--elo1", "lots"}, bots...), "elo1"},
		{"one game", append([]string{"--game", "banqi", "--max-games", "1"}, bots...), "--max-games"},
		{"negative max time", append([]string{"--game", "banqi", "--max-time", "-5m"}, bots...), "--max-time"},
		{"seats", append([]string{"--game", "banqi", "--seats", "3"}, bots...), "--seats"},
		{"filler clash", append([]string{"--game", "uno", "--seats", "3", "--filler", "a=arena bot random"}, "--test", "a1=arena bot random", "--base", "b=arena bot random"), "--filler"},
		{"bad option", append([]string{"--game", "banqi", "--option", "colour=blue"}, bots...), `no option "colour"`},
		{"bad concurrency", append([]string{"--game", "banqi", "--concurrency", "0"}, bots...), "--concurrency"},
		{"bad junit dir", append([]string{"--game", "banqi", "--junit", "/no/such/dir/j.xml"}, bots...), "--junit"},
		{"unknown game", append([]string{"--game", "chess"}, bots...), `unknown game "chess"`},
	}
	for i := range cases {
		cases[i].args = append([]string{"sprt"}, cases[i].args...)
	}
	runUsageCases(t, cases, nil)
}

// TestSPRTArenaErrorExit1: an output directory that cannot be made is the
// arena's failure, not a verdict.
func TestSPRTArenaErrorExit1(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	_, stderr, code := arena(t, "sprt", "--game", "banqi", "--test", "a=arena bot random", "--base", "b=arena bot random",
		"--out", filepath.Join(file, "out"), "-q")
	if code != exitFail {
		t.Fatalf("exit %d, want %d:\n%s", code, exitFail, stderr)
	}
}

// TestSPRTStopsWhenItsTestBotNeverStarts: a test bot that never says
// ready is suspended after --max-startup-failures games, and the SPRT
// stops there (exit 1), saying so in every report, rather than accepting
// H0 from the forfeits of a bot that never played: a CI job must not
// read a build that does not start as a weaker one.
func TestSPRTStopsWhenItsTestBotNeverStarts(t *testing.T) {
	t.Parallel()
	sleeper := script(t, "sleeper.sh", "exec sleep 1000")
	out, md, junit := sprtOutputs(t)
	stdout, stderr, code := arena(t, "sprt", "--game", "banqi", "--test", "new="+sleeper, "--base", "old=arena bot random",
		"--startup-time", "1s", "--max-startup-failures", "2", "--seed", "5", "--out", out, "--summary-md", md, "--junit", junit, "-q")
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s\n%s", code, stdout, stderr)
	}
	const said = "the test bot new was suspended after 2 startup failures in a row"
	if !strings.Contains(stderr, said) || !strings.Contains(stdout, "aborted after") || !strings.Contains(stdout, said) {
		t.Errorf("the run does not say why it stopped:\n%s\n%s", stdout, stderr)
	}
	m := sprtJSON(t, readFile(t, filepath.Join(out, "sprt.json")))
	if m["verdict"] != "aborted" || !strings.Contains(fmt.Sprint(m["reason"]), said) {
		t.Errorf("sprt.json: verdict %v, reason %v", m["verdict"], m["reason"])
	}
	for _, f := range []string{md, junit} {
		if b := readFile(t, f); !strings.Contains(b, said) {
			t.Errorf("%s does not say why:\n%s", f, b)
		}
	}
}

// TestSPRTMaxTime: a run that cannot decide within its time budget (equal
// bots, bounds 2 nElo apart at alpha = beta = 0.001: tens of thousands
// of games before a bound, on any machine) stops at --max-time with exit
// 4 and every report written, saying the budget ran out; the games cut
// short are not recorded.
func TestSPRTMaxTime(t *testing.T) {
	t.Parallel()
	out, md, junit := sprtOutputs(t)
	stdout, stderr, code := arena(t, "sprt", "--game", "banqi", "--test", "a=arena bot random", "--base", "b=arena bot random",
		"--elo0", "-1", "--elo1", "1", "--alpha", "0.001", "--beta", "0.001", "--max-games", "0", "--max-time", "1s",
		"--concurrency", "2", "--seed", "5", "--out", out, "--json", "--summary-md", md, "--junit", junit, "-q")
	if code != exitInconclusive {
		t.Fatalf("exit %d, want %d (inconclusive):\n%s\n%s", code, exitInconclusive, stdout, stderr)
	}
	for src, data := range map[string]string{"stdout": stdout, "sprt.json": readFile(t, filepath.Join(out, "sprt.json"))} {
		m := sprtJSON(t, data)
		if m["verdict"] != "inconclusive" || m["stopped_by"] != "max_time" || num(m, "exit_code") != exitInconclusive ||
			num(m, "max_seconds") != 1 || num(m, "max_games") != 0 {
			t.Errorf("%s: %s", src, data)
		}
		if games, pairs, played := num(m, "games"), num(m, "pairs"), num(m, "played"); games != 2*pairs || played < games {
			t.Errorf("%s: %v games counted in %v pairs, %v played", src, games, pairs, played)
		}
	}
	// Every recorded game is whole; the games the budget cut short are in
	// abandoned, not in results.jsonl.
	wholeGames(t, out, sprtJSON(t, stdout))
	b, err := os.ReadFile(md)
	if err != nil || !strings.Contains(string(b), "inconclusive") || !strings.Contains(string(b), "the time budget (--max-time 1s) ran out") {
		t.Errorf("--summary-md (%v):\n%s", err, b)
	}
	doc := readJUnit(t, junit)
	if c := doc.Suites[0].Cases[0]; c.Skipped == nil || c.Failure != nil || c.Error != nil || doc.Skipped != 1 {
		t.Errorf("an inconclusive run must be a skipped test: %+v", doc)
	}
	if data, _ := os.ReadFile(junit); !strings.Contains(string(data), "time budget") {
		t.Errorf("the JUnit report does not say the budget ran out:\n%s", data)
	}
}

// readFile is the file's content, failing the test if it cannot be read.
func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRunsIntoAnotherRunsDirectoryAreRefused: an SPRT does not resume,
// so an --out that holds an earlier SPRT, or any results, is refused
// (exit 2) before anything is written there; a match adds to a
// directory of matches of its game only. The directory is left as it
// was.
func TestRunsIntoAnotherRunsDirectoryAreRefused(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	sprtOut, matchOut := filepath.Join(base, "sprt"), filepath.Join(base, "match")
	sprtArgs := func(game, out string) []string {
		return []string{"sprt", "--game", game, "--test", "a=arena bot random", "--base", "b=arena bot random", "--max-games", "2", "--out", out, "-q"}
	}
	matchArgs := func(game, out string) []string {
		return []string{"match", "--game", game, "--bot", "a=arena bot random", "--bot", "b=arena bot random", "--games", "2", "--out", out, "-q"}
	}
	if _, stderr, code := arena(t, sprtArgs("banqi", sprtOut)...); code != exitInconclusive {
		t.Fatalf("the first sprt: exit %d: %s", code, stderr)
	}
	if _, stderr, code := arena(t, matchArgs("banqi", matchOut)...); code != 0 {
		t.Fatalf("the first match: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		name string
		args []string
		dir  string
		says string
	}{
		{"an sprt into an sprt's", sprtArgs("banqi", sprtOut), sprtOut, "holds an earlier sprt (sprt.json; an sprt does not resume)"},
		{"an sprt into a match's", sprtArgs("banqi", matchOut), matchOut, "holds the results of another run (its first game: banqi-"},
		{"a match into an sprt's", matchArgs("banqi", sprtOut), sprtOut, "holds the results of another run (its first game: sprt-banqi-"},
		{"a match of another game", matchArgs("uno", matchOut), matchOut, "which this match of uno would mix with its own results"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshotDir(t, tc.dir)
			_, stderr, code := arena(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.says) || !strings.Contains(stderr, "give another output directory") {
				t.Fatalf("exit %d, want %d saying %q:\n%s", code, exitUsage, tc.says, stderr)
			}
			if after := snapshotDir(t, tc.dir); after != before {
				t.Errorf("the refused run changed %s", tc.dir)
			}
		})
	}
	// Another match of the same game adds its games.
	if _, stderr, code := arena(t, matchArgs("banqi", matchOut)...); code != 0 || len(readLines(t, filepath.Join(matchOut, "results.jsonl"))) != 4 {
		t.Fatalf("a second match of banqi: exit %d: %s", code, stderr)
	}
}

// snapshotDir is every file's path, size and content hash under dir
// but the lock, as one string.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "arena.lock" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s %d %x\n", path, len(data), sha256.Sum256(data))
		return nil
	})
	return b.String()
}
