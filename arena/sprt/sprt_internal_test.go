package sprt

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arena-dev/arena/arena/bot/stdio"
	"github.com/arena-dev/arena/arena/stats"
	_ "github.com/arena-dev/arena/engine/all"
	"github.com/arena-dev/arena/internal/testkit"
)

// TestLayout: in every unit the two games swap test and base and leave the
// fillers where they are; over a full cycle every seat hosts the test and
// the base equally often.
func TestLayout(t *testing.T) {
	for seats := 2; seats <= 6; seats++ {
		cycle := len(seatPairs(seats))
		testAt := make([]int, seats)
		baseAt := make([]int, seats)
		for unit := 0; unit < 2*cycle; unit++ {
			a, b := Layout(seats, unit, 0), Layout(seats, unit, 1)
			if got := seatOf(a, testBot); got < 0 || b[got] != baseBot {
				t.Fatalf("%d seats unit %d: %v then %v: test and base not swapped", seats, unit, a, b)
			}
			if got := seatOf(a, baseBot); got < 0 || b[got] != testBot {
				t.Fatalf("%d seats unit %d: %v then %v: test and base not swapped", seats, unit, a, b)
			}
			seen := map[int]bool{}
			for s := range a {
				if seen[a[s]] {
					t.Fatalf("%d seats: bot %d twice in %v", seats, a[s], a)
				}
				seen[a[s]] = true
				if a[s] >= 2 && b[s] != a[s] {
					t.Fatalf("%d seats unit %d: filler moved: %v then %v", seats, unit, a, b)
				}
			}
			if len(seen) != seats {
				t.Fatalf("%d seats: %v", seats, a)
			}
			for _, l := range [][]int{a, b} {
				testAt[seatOf(l, testBot)]++
				baseAt[seatOf(l, baseBot)]++
			}
		}
		for s := 1; s < seats; s++ {
			if testAt[s] != testAt[0] || baseAt[s] != baseAt[0] {
				t.Errorf("%d seats: test per seat %v, base per seat %v: not balanced", seats, testAt, baseAt)
			}
		}
	}
}

func TestTestHalves(t *testing.T) {
	for _, c := range []struct {
		ranks      []int
		test, base int
		want       int
	}{
		{[]int{1, 2}, 0, 1, 2},
		{[]int{1, 2}, 1, 0, 0},
		{[]int{1, 1}, 0, 1, 1},
		{[]int{2, 1, 2, 2}, 0, 2, 1}, // a filler won: test and base tied below it
		{[]int{3, 1, 2, 4}, 0, 3, 2},
		{[]int{3, 1, 2, 4}, 0, 2, 0},
	} {
		if got := TestHalves(c.ranks, c.test, c.base); got != c.want {
			t.Errorf("TestHalves(%v, %d, %d) = %d, want %d", c.ranks, c.test, c.base, got, c.want)
		}
	}
}

func testConfig(t *testing.T, game string, seats int) *Config {
	t.Helper()
	g, opts := testkit.Setup(t, game, seats, nil)
	return &Config{Game: g, Options: opts, Seats: seats, Paired: true, Seed: 9, MaxGames: 100,
		Test: stdio.Command{Name: "new", Argv: []string{"new"}}.Spec(), Base: stdio.Command{Name: "old", Argv: []string{"old"}}.Spec(),
		Filler: stdio.Command{Argv: []string{"filler"}}.Spec(),
		SPRT:   stats.SPRT{Elo0: -5, Elo1: 0, Alpha: 0.05, Beta: 0.05}}
}

func TestCheck(t *testing.T) {
	c := testConfig(t, "uno", 4)
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.FillerNames(), ","); got != "filler1,filler2" {
		t.Errorf("filler names %s", got)
	}
	c.Filler.Name = "new"
	if err := c.Check(); err != nil {
		t.Errorf("fillers new1, new2 do not clash with new: %v", err)
	}
	c.Base.Name = "new1"
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a clash of names must be an error, got %v", err)
	}
	c = testConfig(t, "banqi", 2)
	c.Seats = 3
	if err := c.Check(); err == nil {
		t.Error("3 seats of banqi must be an error")
	}
	c = testConfig(t, "banqi", 2)
	c.SPRT.Alpha = 0.96
	if err := c.Check(); err == nil {
		t.Error("alpha + beta >= 1 must be an error")
	}
	c = testConfig(t, "banqi", 2)
	c.MaxGames = 1
	if err := c.Check(); err == nil {
		t.Error("a cap of one game cannot hold a pair")
	}
}

func TestSummaryOutputs(t *testing.T) {
	c := testConfig(t, "banqi", 2)
	for _, v := range []Verdict{H1, H0, Inconclusive, Aborted} {
		res := &Result{Verdict: v, Seed: 9}
		res.Paired = true
		res.Penta = stats.Penta{0, 0, 0, 0, 12}
		res.Pairs, res.Games, res.Played = 12, 24, 25
		res.WDL = stats.WDL{W: 24}
		res.LLR = cfgLLR(c, res.Penta)
		res.Lower, res.Upper = c.SPRT.Bounds()
		res.Estimate = stats.EstimatePenta(res.Penta, res.WDL)
		res.Elapsed = 1500 * time.Millisecond
		s := NewSummary(c, res)
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		var m map[string]any
		json.Unmarshal(data, &m)
		if m["verdict"] != string(v) || m["pairs"].(float64) != 12 {
			t.Errorf("%s: %s", v, data)
		}
		if math.IsInf(res.Estimate.Elo, 1) && m["elo"].(map[string]any)["value"] != "Infinity" {
			t.Errorf("an infinite Elo must be \"Infinity\" in JSON: %s", data)
		}
		var md bytes.Buffer
		if err := s.Markdown(&md); err != nil || !strings.Contains(md.String(), "| LLR |") || !strings.Contains(md.String(), verdictWords(v)) {
			t.Errorf("%s: markdown (%v):\n%s", v, err, md.String())
		}
		var ju bytes.Buffer
		if err := s.JUnit(&ju); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Failures int `xml:"failures,attr"`
			Errors   int `xml:"errors,attr"`
			Skipped  int `xml:"skipped,attr"`
			Suite    struct {
				Case struct {
					Failure *struct{} `xml:"failure"`
					Error   *struct{} `xml:"error"`
					Skipped *struct{} `xml:"skipped"`
					Out     string    `xml:"system-out"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(ju.Bytes(), &doc); err != nil {
			t.Fatalf("%s: JUnit XML: %v\n%s", v, err, ju.String())
		}
		cs := doc.Suite.Case
		want := map[Verdict][3]bool{H1: {}, H0: {true, false, false}, Inconclusive: {false, false, true}, Aborted: {false, true, false}}[v]
		if got := [3]bool{cs.Failure != nil, cs.Error != nil, cs.Skipped != nil}; got != want {
			t.Errorf("%s: failure/error/skipped %v, want %v", v, got, want)
		}
		if doc.Failures+doc.Errors+doc.Skipped != btoi(want[0])+btoi(want[1])+btoi(want[2]) || !strings.Contains(cs.Out, "LLR") {
			t.Errorf("%s: counts or system-out wrong:\n%s", v, ju.String())
		}
	}
}

func cfgLLR(c *Config, p stats.Penta) float64 { return c.SPRT.LLRPenta(p) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestStatusLine(t *testing.T) {
	s := Status{Paired: true, Pairs: 37, Penta: stats.Penta{0, 4, 20, 9, 4}, LLR: 1.234, Lower: -2.94, Upper: 2.94,
		Estimate: stats.Estimate{Elo: 12.3, EloLow: 4.2, EloHigh: 20.4, NElo: 20.1, NEloLow: 7.1, NEloHigh: 33.1, LOS: 0.978}}
	want := "pairs 37 [0 4 20 9 4] LLR 1.23 [-2.94, 2.94] Elo +12.3 ±8.1 nElo +20.1 ±13.0 LOS 97.8%"
	if got := s.Line(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// The progress line shows open and undefined intervals as they are: a
// lopsided start has no upper Elo bound (it once printed the clamped
// +3600 as a symmetric ±), and nElo is undefined while every pair split.
func TestStatusLineOpenIntervals(t *testing.T) {
	for _, tc := range []struct {
		p     stats.Penta
		games stats.WDL
		want  string
	}{
		// Mean 0.95: the score interval passes 1, the Elo one is open.
		{stats.Penta{0, 0, 0, 1, 4}, stats.WDL{W: 9, D: 1}, "Elo +511.5 [+318.8, +Inf]"},
		{stats.Penta{0, 0, 0, 0, 10}, stats.WDL{W: 20}, "Elo +Inf [+277.4, +Inf] nElo +Inf [+Inf, +Inf] LOS >99.9999%"},
		{stats.Penta{0, 0, 7, 0, 0}, stats.WDL{W: 5, D: 4, L: 5}, "Elo +0.0 (no spread yet) nElo - LOS 50.0%"},
		// 5 pairs won, 10 games: LOS is exact, 1 - 2^-11, not 100%.
		{stats.Penta{0, 0, 0, 0, 5}, stats.WDL{W: 10}, "LOS 99.95%"},
	} {
		e := stats.EstimatePenta(tc.p, tc.games)
		s := Status{Paired: true, Pairs: tc.p.Pairs(), Penta: tc.p, Estimate: e}
		if got := s.Line(); !strings.Contains(got, tc.want) {
			t.Errorf("%v: %s\nwant it to contain %s", tc.p, got, tc.want)
		}
	}
}

// TestStartSummary: the summary a run writes as it starts says it is
// running, with the hypotheses and bounds, and no exit code yet.
func TestStartSummary(t *testing.T) {
	c := testConfig(t, "banqi", 2)
	dir := t.TempDir()
	res := &Result{Verdict: Running}
	res.Paired = true
	if err := WriteSummary(dir, NewSummary(c, res)); err != nil {
		t.Fatal(err)
	}
	s, err := ReadSummary(dir)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := c.SPRT.Bounds()
	if s.Verdict != Running || s.ExitCode != nil || s.Elo0 != c.SPRT.Elo0 || s.Elo1 != c.SPRT.Elo1 ||
		math.Abs(s.LowerBound-lo) > 1e-4 || math.Abs(s.UpperBound-hi) > 1e-4 {
		t.Fatalf("start summary %+v; want running, no exit code, nElo [%g, %g], bounds [%.4f, %.4f]", s, c.SPRT.Elo0, c.SPRT.Elo1, lo, hi)
	}
	if d := s.Describe(); !strings.HasPrefix(d, "running") {
		t.Fatalf("Describe: %q", d)
	}
}

// TestSummaryJSONFigures: the JSON summary tells an infinite figure
// ("Infinity", "-Infinity") from an undefined one ("NaN"), where both
// were null, reads back what it wrote, and carries the exact LOS.
func TestSummaryJSONFigures(t *testing.T) {
	c := testConfig(t, "banqi", 2)
	type figures struct {
		Score   any `json:"score"`
		Elo     struct{ Value, Low, High any }
		NElo    struct{ Value, Low, High any } `json:"nelo"`
		LOS     any                            `json:"los"`
		Verdict string                         `json:"verdict"`
	}
	for _, tc := range []struct {
		name  string
		penta stats.Penta
		games stats.WDL
		check func(f figures) bool
	}{
		{"every pair won", stats.Penta{0, 0, 0, 0, 5}, stats.WDL{W: 10}, func(f figures) bool {
			low, ok := f.Elo.Low.(float64)
			return f.Elo.Value == "Infinity" && ok && low > 0 && f.Elo.High == "Infinity" &&
				f.NElo.Value == "Infinity" && f.NElo.Low == "Infinity" && f.LOS == 2047.0/2048 && f.Score == 1.0
		}},
		{"every pair lost", stats.Penta{5, 0, 0, 0, 0}, stats.WDL{L: 10}, func(f figures) bool {
			high, ok := f.Elo.High.(float64)
			return f.Elo.Value == "-Infinity" && f.Elo.Low == "-Infinity" && ok && high < 0 &&
				f.NElo.High == "-Infinity" && f.LOS == 1.0/2048
		}},
		{"every pair split: nElo undefined", stats.Penta{0, 0, 6, 0, 0}, stats.WDL{W: 4, D: 4, L: 4}, func(f figures) bool {
			return f.Elo.Value == 0.0 && f.NElo.Value == "NaN" && f.NElo.Low == "NaN" && f.NElo.High == "NaN" && f.LOS == 0.5
		}},
		{"no games", stats.Penta{}, stats.WDL{}, func(f figures) bool {
			return f.Score == "NaN" && f.Elo.Value == "NaN" && f.NElo.Value == "NaN" && f.LOS == "NaN"
		}},
	} {
		res := &Result{Verdict: Inconclusive}
		res.Paired, res.Penta, res.WDL = true, tc.penta, tc.games
		res.Pairs, res.Games = tc.penta.Pairs(), tc.games.Games()
		res.Estimate = stats.EstimatePenta(tc.penta, tc.games)
		dir := t.TempDir()
		if err := WriteSummary(dir, NewSummary(c, res)); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, SummaryFile))
		var f figures
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !tc.check(f) {
			t.Errorf("%s: figures %+v in\n%s", tc.name, f, data)
		}
		back, err := ReadSummary(dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := NewSummary(c, res)
		for _, p := range [][2]float64{
			{float64(back.Elo.Value), float64(want.Elo.Value)}, {float64(back.Elo.Low), math.Round(float64(want.Elo.Low)*1e4) / 1e4},
			{float64(back.NElo.High), float64(want.NElo.High)}, {float64(back.LOS), float64(want.LOS)}, {float64(back.Score), float64(want.Score)},
		} {
			if !(p[0] == p[1] || math.IsNaN(p[0]) && math.IsNaN(p[1])) {
				t.Errorf("%s: read back %v, wrote %v", tc.name, p[0], p[1])
			}
		}
	}
}
