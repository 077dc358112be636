package sprt

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arena-dev/arena/internal/atomicfile"

	"github.com/arena-dev/arena/arena/stats"
)

// Num is a figure of the summary, rounded to 4 decimals in JSON; one that
// is not finite is written as stats.JSONFloat writes it: "Infinity" or
// "-Infinity" (an Elo estimate or an interval's end when every pair went
// one way, or the data do not bound it), "NaN" where it is undefined
// (normalized Elo when every pair scored 1/2; every figure of a run with
// no games).
type Num float64

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	return stats.JSONFloat(round(float64(n))).MarshalJSON()
}

// Interval is an estimate with its 95% interval.
type Interval struct {
	Value Num `json:"value"`
	Low   Num `json:"low"`
	High  Num `json:"high"`
}

// SummaryFile is the summary's name in a run's output directory: Run
// writes it as it starts, with the hypotheses and the Verdict Running,
// and arena sprt writes it again when the run ends (WriteSummary).
const SummaryFile = "sprt.json"

// WriteSummary writes s as dir's SummaryFile.
func WriteSummary(dir string, s *Summary) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	// Whole or not at all: arena report reads it while the run goes on.
	return atomicfile.Write(filepath.Join(dir, SummaryFile), append(data, '\n')) // its error names the path
}

// ReadSummary reads dir's SummaryFile; an error wrapping os.ErrNotExist
// when no run has written it (none started there, or one of an arena
// older than the start summary is still going). Its Verdict is Running
// while the run goes on, and after a run that was killed.
// Figures read as stats.JSONFloat reads them (null, from older arenas, is
// NaN).
func ReadSummary(dir string) (*Summary, error) {
	path := filepath.Join(dir, SummaryFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := &Summary{}
	if err := json.Unmarshal(data, s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// UnmarshalJSON implements json.Unmarshaler, as stats.JSONFloat.
func (n *Num) UnmarshalJSON(b []byte) error {
	return (*stats.JSONFloat)(n).UnmarshalJSON(b)
}

// Summary is the JSON summary of a run (arena sprt --json, DIR/sprt.json).
type Summary struct {
	Game    string   `json:"game"`
	Seats   int      `json:"seats"`
	Test    string   `json:"test"`
	Base    string   `json:"base"`
	Fillers []string `json:"fillers"`
	Paired  bool     `json:"paired"`
	Seed    uint64   `json:"seed"`
	// The hypotheses, in normalized Elo, and the error rates.
	Elo0  float64 `json:"elo0"`
	Elo1  float64 `json:"elo1"`
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	// The LLR and its bounds ln(beta/(1-alpha)) and ln((1-beta)/alpha).
	LLR        float64 `json:"llr"`
	LowerBound float64 `json:"lower_bound"`
	UpperBound float64 `json:"upper_bound"`
	// Verdict is H1, H0, inconclusive or aborted, or running in the
	// summary written as the run starts; ExitCode is the command's exit
	// code for it, nil (null) while running. StoppedBy says what ended
	// the run: a bound, or the limit an inconclusive run reached
	// (max_games, max_time); "" while running and for an aborted run.
	Verdict   Verdict    `json:"verdict"`
	ExitCode  *int       `json:"exit_code"`
	StoppedBy StopReason `json:"stopped_by"`
	// Reason says why an aborted run stopped (an interrupt and its
	// signal, a test or base bot suspended for failing to start, an
	// arena error); absent otherwise.
	Reason string `json:"reason,omitempty"`
	// Pairs and Games counted; Played every game finished (counted or
	// not), Abandoned the games cut short at the stop.
	Pairs     int `json:"pairs"`
	Games     int `json:"games"`
	Played    int `json:"played"`
	Abandoned int `json:"abandoned"`
	MaxGames  int `json:"max_games"`
	// MaxSeconds is the time budget in effect (0: none).
	MaxSeconds float64     `json:"max_seconds"`
	Penta      stats.Penta `json:"penta"`
	WDL        stats.WDL   `json:"wdl"` // the test's game results among counted games
	Score      Num         `json:"score"`
	Elo        Interval    `json:"elo"`
	NElo       Interval    `json:"nelo"`
	// LOS is unrounded: its distance from 0 or 1 is what it says.
	LOS     stats.JSONFloat `json:"los"`
	Seconds float64         `json:"seconds"`
	Out     string          `json:"out"`
}

// NewSummary describes a run of cfg: a finished one, or one starting
// (res.Verdict Running).
func NewSummary(cfg *Config, res *Result) *Summary {
	e := res.Estimate
	maxGames := cfg.MaxGames
	if cfg.Paired {
		maxGames -= maxGames % 2
	}
	lo, hi := cfg.SPRT.Bounds()
	s := &Summary{
		Game: cfg.Game.Info().Name, Seats: cfg.seats(), Test: cfg.Test.Name, Base: cfg.Base.Name, Fillers: cfg.FillerNames(),
		Paired: cfg.Paired, Seed: cfg.Seed,
		Elo0: cfg.SPRT.Elo0, Elo1: cfg.SPRT.Elo1, Alpha: cfg.SPRT.Alpha, Beta: cfg.SPRT.Beta,
		LLR: round(res.LLR), LowerBound: round(lo), UpperBound: round(hi),
		Verdict: res.Verdict, StoppedBy: res.StoppedBy, Reason: res.Reason, Pairs: res.Pairs, Games: res.Games, Played: res.Played, Abandoned: res.Abandoned,
		MaxGames: maxGames, MaxSeconds: cfg.MaxTime.Seconds(), Penta: res.Penta, WDL: res.WDL,
		Score: Num(e.Score),
		Elo:   Interval{Num(e.Elo), Num(e.EloLow), Num(e.EloHigh)},
		NElo:  Interval{Num(e.NElo), Num(e.NEloLow), Num(e.NEloHigh)},
		LOS:   stats.JSONFloat(e.LOS), Seconds: math.Round(res.Elapsed.Seconds()*1000) / 1000, Out: cfg.OutDir,
	}
	if s.Fillers == nil {
		s.Fillers = []string{}
	}
	if res.Games == 0 {
		s.Score, s.LOS = Num(math.NaN()), stats.JSONFloat(math.NaN())
		s.Elo = Interval{Num(math.NaN()), Num(math.NaN()), Num(math.NaN())}
		s.NElo = s.Elo
	}
	return s
}

// round rounds a figure of the summary to 4 decimals (one not finite
// stays as it is).
func round(f float64) float64 {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return f
	}
	return math.Round(f*1e4) / 1e4
}

// Line is the one-line progress report of a status:
//
//	pairs 37 [0 4 20 9 4] LLR 1.23 [-2.94, 2.94] Elo +12.3 ±8.1 nElo +20.1 ±13.0 LOS 97.8%
func (s Status) Line() string {
	var b strings.Builder
	if s.Paired {
		p := s.Penta
		fmt.Fprintf(&b, "pairs %d [%d %d %d %d %d]", s.Pairs, p[0], p[1], p[2], p[3], p[4])
	} else {
		fmt.Fprintf(&b, "games %d [W %d D %d L %d]", s.Games, s.WDL.W, s.WDL.D, s.WDL.L)
	}
	e := s.Estimate
	fmt.Fprintf(&b, " LLR %.2f [%.2f, %.2f] Elo %s nElo %s LOS %s", s.LLR, s.Lower, s.Upper,
		PlusMinus(e.Elo, e.EloLow, e.EloHigh), PlusMinus(e.NElo, e.NEloLow, e.NEloHigh), stats.FormatLOS(e.LOS))
	return b.String()
}

// PlusMinus formats an estimate with its 95% interval: "+12.3 ±8.1" when
// the interval is finite and about symmetric (stats.Symmetric), else the
// interval itself, which may be open:
// "+45.2 [+10.1, +82.3]", "+381.7 [+159.0, +Inf]", "+Inf [+278.0, +Inf]".
// An undefined estimate (nElo when every pair scored 1/2) is "-"; one
// with no spread yet (a single pair, every pair alike) says so rather
// than "±0.0".
func PlusMinus(v, lo, hi float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if lo == hi && !math.IsInf(v, 0) {
		return fmt.Sprintf("%+.1f (no spread yet)", v)
	}
	if stats.Symmetric(v, lo, hi) {
		return fmt.Sprintf("%+.1f ±%.1f", v, (hi-lo)/2)
	}
	return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", v, lo, hi)
}

// Describe says what the verdict means, in one sentence.
func (s *Summary) Describe() string {
	switch s.Verdict {
	case H1:
		return fmt.Sprintf("H1 accepted: the games favour %s being at least %g nElo stronger than %s over at most %g (LLR %.2f reached the upper bound %.2f)", s.Test, s.Elo1, s.Base, s.Elo0, s.LLR, s.UpperBound)
	case H0:
		return fmt.Sprintf("H0 accepted: the games favour %s being at most %g nElo stronger than %s over at least %g (LLR %.2f reached the lower bound %.2f)", s.Test, s.Elo0, s.Base, s.Elo1, s.LLR, s.LowerBound)
	case Inconclusive:
		if s.StoppedBy == StoppedByMaxTime {
			return fmt.Sprintf("inconclusive: the time budget (--max-time %v) ran out after %d counted games, no bound crossed (LLR %.2f within [%.2f, %.2f])",
				s.maxTime(), s.Games, s.LLR, s.LowerBound, s.UpperBound)
		}
		return fmt.Sprintf("inconclusive: %d games played, no bound crossed (LLR %.2f within [%.2f, %.2f])", s.Games, s.LLR, s.LowerBound, s.UpperBound)
	case Running:
		return fmt.Sprintf("running: no bound crossed yet (LLR bounds [%.2f, %.2f])", s.LowerBound, s.UpperBound)
	}
	why := ""
	if s.Reason != "" {
		why = ": " + s.Reason
	}
	return fmt.Sprintf("aborted after %d counted games%s (LLR %.2f within [%.2f, %.2f])", s.Games, why, s.LLR, s.LowerBound, s.UpperBound)
}

// maxTime is the time budget as a duration.
func (s *Summary) maxTime() time.Duration {
	return time.Duration(s.MaxSeconds * float64(time.Second)).Round(time.Millisecond)
}

func (s *Summary) counts() string {
	if s.Paired {
		p := s.Penta
		return fmt.Sprintf("%d pairs [%d %d %d %d %d]", s.Pairs, p[0], p[1], p[2], p[3], p[4])
	}
	return fmt.Sprintf("%d games", s.Games)
}

func fnum(n Num, format string) string {
	f := float64(n)
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf(format, f)
}

// Text writes the summary for a terminal.
func (s *Summary) Text(w io.Writer) error {
	_, err := fmt.Fprintf(w, `%s
  %s vs %s, %s, %d seats, nElo H0 <= %g, H1 >= %g, alpha %g, beta %g, seed %d
  %s, test W %d D %d L %d, score %s
  LLR %.2f [%.2f, %.2f]
  Elo  %s
  nElo %s
  LOS  %s
`, s.Describe(), s.Test, s.Base, s.Game, s.Seats, s.Elo0, s.Elo1, s.Alpha, s.Beta, s.Seed,
		s.counts(), s.WDL.W, s.WDL.D, s.WDL.L, fnum(s.Score*100, "%.1f%%"),
		s.LLR, s.LowerBound, s.UpperBound, s.Elo.text(), s.NElo.text(), stats.FormatLOS(float64(s.LOS)))
	return err
}

func (i Interval) text() string {
	if math.IsNaN(float64(i.Value)) {
		return "-"
	}
	return PlusMinus(float64(i.Value), float64(i.Low), float64(i.High)) + " (95%)"
}

// Markdown writes the summary as Markdown, fit for a CI job summary
// ($GITHUB_STEP_SUMMARY).
func (s *Summary) Markdown(w io.Writer) error {
	icon := map[Verdict]string{H1: "✅", H0: "❌", Inconclusive: "⚠️", Aborted: "💥"}[s.Verdict]
	pairing := "game pairs (pentanomial)"
	if !s.Paired {
		pairing = "independent games (trinomial)"
	}
	fillers := ""
	if len(s.Fillers) > 0 {
		fillers = fmt.Sprintf(" (fillers: %s)", strings.Join(s.Fillers, ", "))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### SPRT `%s` vs `%s` on %s: %s %s\n\n", s.Test, s.Base, s.Game, verdictWords(s.Verdict), icon)
	fmt.Fprintf(&b, "%s.\n\n", s.Describe())
	b.WriteString("| | |\n|---|---|\n")
	row := func(k, v string) { fmt.Fprintf(&b, "| %s | %s |\n", k, v) }
	code := "none yet"
	if s.ExitCode != nil {
		code = fmt.Sprint(*s.ExitCode)
	}
	row("verdict", fmt.Sprintf("**%s** (exit code %s)", s.Verdict, code))
	row("hypotheses", fmt.Sprintf("H0: nElo ≤ %g, H1: nElo ≥ %g; α = %g, β = %g", s.Elo0, s.Elo1, s.Alpha, s.Beta))
	row("LLR", fmt.Sprintf("%.2f (bounds %.2f, %.2f)", s.LLR, s.LowerBound, s.UpperBound))
	if s.Paired {
		p := s.Penta
		row("pairs", fmt.Sprintf("%d: %d / %d / %d / %d / %d (test pair score 0 / ¼ / ½ / ¾ / 1)", s.Pairs, p[0], p[1], p[2], p[3], p[4]))
	}
	row("games", fmt.Sprintf("%d counted of %d played (max %s): test W %d, D %d, L %d", s.Games, s.Played, maxText(s.MaxGames), s.WDL.W, s.WDL.D, s.WDL.L))
	row("score", fnum(s.Score*100, "%.1f%%"))
	row("Elo", s.Elo.text())
	row("nElo", s.NElo.text())
	row("LOS", stats.FormatLOS(float64(s.LOS)))
	row("set-up", fmt.Sprintf("%s, %d seats%s, %s, seed %d", s.Game, s.Seats, fillers, pairing, s.Seed))
	spent := (time.Duration(s.Seconds * float64(time.Second))).Round(time.Millisecond).String()
	if s.MaxSeconds > 0 {
		spent += fmt.Sprintf(" (budget %v)", s.maxTime())
	}
	row("time", spent)
	_, err := io.WriteString(w, b.String())
	return err
}

func maxText(n int) string {
	if n == 0 {
		return "none"
	}
	return fmt.Sprint(n)
}

func verdictWords(v Verdict) string {
	switch v {
	case H1:
		return "H1 accepted"
	case H0:
		return "H0 accepted"
	}
	return string(v)
}

// JUnit XML, the subset CI systems read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

// JUnit writes the verdict as a JUnit XML report with one test case: H1
// accepted passes, H0 accepted is a failure, inconclusive is skipped (the
// exit code still tells a pipeline it is not a pass) and aborted is an
// error.
func (s *Summary) JUnit(w io.Writer) error {
	var text strings.Builder
	if err := s.Text(&text); err != nil {
		return err
	}
	secs := fmt.Sprintf("%.3f", s.Seconds)
	c := junitCase{
		Name:      fmt.Sprintf("%s vs %s: nElo [%g, %g]", s.Test, s.Base, s.Elo0, s.Elo1),
		Classname: "arena.sprt." + s.Game,
		Time:      secs,
		SystemOut: &junitText{text.String()},
	}
	suite := junitSuite{Name: "arena sprt", Tests: 1, Time: secs, Cases: []junitCase{c}}
	msg := &junitMessage{Message: s.Describe(), Type: string(s.Verdict), Text: text.String()}
	switch s.Verdict {
	case H0:
		suite.Cases[0].Failure, suite.Failures = msg, 1
	case Inconclusive:
		suite.Cases[0].Skipped, suite.Skipped = &junitMessage{Message: s.Describe()}, 1
	case Aborted:
		suite.Cases[0].Error, suite.Errors = msg, 1
	}
	suite.Properties = append(suite.Properties, []junitProperty{
		{"game", s.Game}, {"test", s.Test}, {"base", s.Base}, {"seed", fmt.Sprint(s.Seed)},
		{"elo0", fmt.Sprint(s.Elo0)}, {"elo1", fmt.Sprint(s.Elo1)}, {"alpha", fmt.Sprint(s.Alpha)}, {"beta", fmt.Sprint(s.Beta)},
		{"llr", fmt.Sprintf("%.4f", s.LLR)}, {"lower_bound", fmt.Sprintf("%.4f", s.LowerBound)}, {"upper_bound", fmt.Sprintf("%.4f", s.UpperBound)},
		{"verdict", string(s.Verdict)}, {"pairs", fmt.Sprint(s.Pairs)}, {"games", fmt.Sprint(s.Games)},
		{"elo", fnum(s.Elo.Value, "%.2f")}, {"nelo", fnum(s.NElo.Value, "%.2f")}, {"los", fnum(Num(s.LOS), "%.4f")},
	}...)
	doc := junitSuites{Name: "arena sprt", Tests: 1, Failures: suite.Failures, Errors: suite.Errors, Skipped: suite.Skipped, Time: secs, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// appendMarkdown appends s's Markdown summary to the file path (created
// if need be): $GITHUB_STEP_SUMMARY collects every step's summary.
func appendMarkdown(path string, s *Summary) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	err = s.Markdown(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeJUnit writes s's verdict as a JUnit XML test to the file path.
func writeJUnit(path string, s *Summary) error {
	var b strings.Builder
	if err := s.JUnit(&b); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
