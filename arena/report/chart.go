package report

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/arena-dev/arena/arena/tournament"
)

// chart is a line chart laid out for an SVG of W x H: the plot area
// within the margins, the ticks, the lines (points in SVG coordinates),
// and horizontal reference lines (an SPRT's bounds).
type chart struct {
	W, H                     float64
	Left, Right, Top, Bottom float64
	XTicks, YTicks           []tick
	XLabel, YLabel           string
	Lines                    []line
	HLines                   []hline
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

// Chart size, in SVG units (the page scales it to its width).
const (
	chartW, chartH = 960, 380
	marginLeft     = 56
	marginRight    = 130 // room for the labels at the lines' ends
	marginTop      = 16
	marginBottom   = 40
	// labelledLines is how many lines of the progression are named at
	// their end (the best by final rating); the others by hovering.
	labelledLines = 12
)

func newChart(x0, x1, y0, y1 float64, xLabel, yLabel string) (*chart, func(x, y float64) (float64, float64)) {
	c := &chart{W: chartW, H: chartH, Left: marginLeft, Right: chartW - marginRight, Top: marginTop, Bottom: chartH - marginBottom,
		XLabel: xLabel, YLabel: yLabel}
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

// ticks are round values in [lo, hi], about n of them.
func ticks(lo, hi float64, n int) []float64 {
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for t := math.Ceil(lo/step) * step; t <= hi+step*1e-9; t += step {
		out = append(out, t)
	}
	return out
}

func tickLabel(t float64) string {
	if math.Abs(t-math.Round(t)) < 1e-9 {
		return fmt.Sprintf("%.0f", t)
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", t), "0"), ".")
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
	c, at := newChart(0, float64(p.Games[len(p.Games)-1]), lo, hi, "games", label)
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
				l.LabelX, l.LabelY = x+4, y+4
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
	c, at := newChart(0, float64(end), lo, hi, "games counted", "LLR")
	var pts []string
	for _, p := range t.Points {
		x, y := at(float64(p.Games), p.LLR)
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
	}
	l := line{Name: "LLR", Color: "#1f5fa8", Points: strings.Join(pts, " "), Label: true}
	l.LabelX, l.LabelY = at(float64(end), t.Points[len(t.Points)-1].LLR)
	l.LabelX += 4
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
