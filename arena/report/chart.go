package report

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/arena-dev/arena/arena/tournament"
)

// chart is a line chart laid out for an SVG of W x H: the plot area
// within the margins, the ticks, the lines (points in SVG coordinates),
// and horizontal reference lines (an SPRT's bounds).
type chart struct {
	W, H                     float64
	Left, Right, Top, Bottom float64
	// Font is the size of its text; LabelRoom the width a line's label
	// may take at its end, in SVG units (the page's script cuts a label
	// wider than that with "…").
	Font, LabelRoom float64
	XTicks, YTicks  []tick
	XLabel, YLabel  string
	Lines           []line
	HLines          []hline
}

type tick struct {
	Pos   float64
	Label string
}

type line struct {
	Name, Points, Color string
	// Label is shown at the line's end (LabelX, LabelY) when true.
	Label          bool
	LabelX, LabelY float64
}

type hline struct {
	Y            float64
	Label, Class string
}

// MaxLabelWidth is the most room a chart gives a bot's name as a label
// (the heat map's rows and columns, a line's end), in SVG units (CSS
// pixels where a chart is drawn at its full size): a name fits whole up
// to about 30 characters. The page's script measures each label in the
// page's own font and cuts one that is wider than its room with "…" at
// its end, the whole name on hover (and in the tables).
const MaxLabelWidth = 240

// Chart size, in SVG units (the page scales it to its width).
const (
	chartW, chartH = 960, 380
	chartFont      = 11
	marginLeft     = 56
	// minMarginRight leaves room right of the plot for the last x tick's
	// label; the lines' labels may take more (labelMargin).
	minMarginRight = 40
	// labelGap separates a line's end from its label, and the label from
	// the chart's edge.
	labelGap = 4
	// labelEm is a generous average width of a label's characters, in
	// ems, to size the room for the labels before the page can measure
	// them.
	labelEm      = 0.62
	marginTop    = 16
	marginBottom = 40
	// labelledLines is how many lines of the progression are named at
	// their end (the best by final rating); the others by hovering.
	labelledLines = 12
)

// newChart lays out a chart of x0..x1 by y0..y1 whose lines are labelled
// at their ends with labels (the room right of the plot is theirs).
func newChart(x0, x1, y0, y1 float64, xLabel, yLabel string, labels []string) (*chart, func(x, y float64) (float64, float64)) {
	right := labelMargin(labels)
	c := &chart{W: chartW, H: chartH, Left: marginLeft, Right: chartW - right, Top: marginTop, Bottom: chartH - marginBottom,
		Font: chartFont, LabelRoom: right - 2*labelGap, XLabel: xLabel, YLabel: yLabel}
	if x1 <= x0 {
		x1 = x0 + 1
	}
	if y1 <= y0 {
		y0, y1 = y0-1, y1+1
	}
	at := func(x, y float64) (float64, float64) {
		return c.Left + (c.Right-c.Left)*(x-x0)/(x1-x0), c.Bottom - (c.Bottom-c.Top)*(y-y0)/(y1-y0)
	}
	for _, t := range ticks(x0, x1, 8) {
		px, _ := at(t, y0)
		c.XTicks = append(c.XTicks, tick{Pos: px, Label: tickLabel(t)})
	}
	for _, t := range ticks(y0, y1, 6) {
		_, py := at(x0, t)
		c.YTicks = append(c.YTicks, tick{Pos: py, Label: tickLabel(t)})
	}
	return c, at
}

// labelMargin is the room right of a chart's plot for labels at the
// lines' ends: the widest label's estimated width, at most MaxLabelWidth.
func labelMargin(labels []string) float64 {
	runes := 0
	for _, l := range labels {
		runes = max(runes, utf8.RuneCountInString(l))
	}
	return max(minMarginRight, min(MaxLabelWidth, math.Ceil(labelEm*chartFont*float64(runes)))+2*labelGap)
}

// ticks are round values in [lo, hi], about n of them.
func ticks(lo, hi float64, n int) []float64 {
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	// Each tick a multiple of step, not a sum of steps: no rounding
	// error piles up.
	var out []float64
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		out = append(out, k*step)
	}
	return out
}

// tickLabel is t as an axis shows it: at most two decimals, no trailing
// zeros, and zero as "0" (never "-0": fixed).
func tickLabel(t float64) string {
	if math.Abs(t-math.Round(t)) < 1e-9 {
		return fixed(t, 0)
	}
	return strings.TrimRight(strings.TrimRight(fixed(t, 2), "0"), ".")
}

// color is bot i's line color: hues spread by the golden angle, so
// neighbours in the standings differ.
func color(i int) string {
	return fmt.Sprintf("hsl(%.0f,65%%,42%%)", math.Mod(float64(i)*137.508, 360))
}

// progressionChart draws each bot's rating over the games, in standings
// order; nil with fewer than two points.
func progressionChart(p Progression, st *tournament.Standings) *chart {
	if len(p.Games) < 2 {
		return nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, rs := range p.Ratings {
		for _, r := range rs {
			if !math.IsNaN(r) {
				lo, hi = min(lo, r), max(hi, r)
			}
		}
	}
	if math.IsInf(lo, 0) {
		return nil
	}
	label := "Elo (Bradley-Terry, field mean 0)"
	if st.Seats > 2 {
		label = "Plackett-Luce ordinal"
	}
	names := make([]string, len(st.Standings))
	for k, row := range st.Standings {
		names[k] = row.Name
	}
	c, at := newChart(0, float64(p.Games[len(p.Games)-1]), lo, hi, "games", label, names)
	idx := map[string]int{}
	for i, b := range p.Bots {
		idx[b] = i
	}
	last := p.Ratings[len(p.Ratings)-1]
	for k, row := range st.Standings {
		i := idx[row.Name]
		var pts []string
		l := line{Name: row.Name, Color: color(k)}
		for g, games := range p.Games {
			if r := p.Ratings[g][i]; !math.IsNaN(r) {
				x, y := at(float64(games), r)
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
				l.LabelX, l.LabelY = x+labelGap, y+4
			}
		}
		l.Points = strings.Join(pts, " ")
		c.Lines = append(c.Lines, l)
	}
	// Name the best lines by where they end, skipping any that would
	// print over a label already placed.
	order := make([]int, len(c.Lines))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return last[idx[c.Lines[order[a]].Name]] > last[idx[c.Lines[order[b]].Name]] })
	var placed []float64
	for _, i := range order {
		if len(placed) == labelledLines {
			break
		}
		y := c.Lines[i].LabelY
		if !nearAny(y, placed, 11) {
			c.Lines[i].Label = true
			placed = append(placed, y)
		}
	}
	return c
}

func nearAny(y float64, ys []float64, d float64) bool {
	for _, o := range ys {
		if math.Abs(o-y) < d {
			return true
		}
	}
	return false
}

// llrChart draws an SPRT's LLR over the games counted, with its bounds.
func llrChart(t *Trajectory) *chart {
	lo, hi := min(t.Lower, 0), max(t.Upper, 0)
	for _, p := range t.Points {
		lo, hi = min(lo, p.LLR), max(hi, p.LLR)
	}
	end := t.Points[len(t.Points)-1].Games
	l := line{Name: "LLR", Color: "#1f5fa8", Label: true}
	c, at := newChart(0, float64(end), lo, hi, "games counted", "LLR", []string{l.Name})
	var pts []string
	for _, p := range t.Points {
		x, y := at(float64(p.Games), p.LLR)
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
	}
	l.Points = strings.Join(pts, " ")
	l.LabelX, l.LabelY = at(float64(end), t.Points[len(t.Points)-1].LLR)
	l.LabelX += labelGap
	c.Lines = []line{l}
	_, up := at(0, t.Upper)
	_, down := at(0, t.Lower)
	_, zero := at(0, 0)
	c.HLines = []hline{
		{Y: up, Label: fmt.Sprintf("H1 %.2f (nElo ≥ %g)", t.Upper, t.Elo1), Class: "bound upper"},
		{Y: zero, Label: "0", Class: "zero"},
		{Y: down, Label: fmt.Sprintf("H0 %.2f (nElo ≤ %g)", t.Lower, t.Elo0), Class: "bound lower"},
	}
	return c
}
