package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The roofline pictures of bench -plot and bench compare -plot, drawn with
// gonum's plot package: log-log, arithmetic intensity (flops per byte
// read) across, GFLOP/s up; per implementation, one diagonal per memory
// level (its read bandwidth × intensity) up to the compute peak, and the
// kernels' cases as points, coloured by the level whose roof applies and
// shaped by kernel.

// plotFormat returns the image format for a -plot file name: "svg" or
// "png", from its extension.
func plotFormat(name string) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".svg":
		return "svg", nil
	case ".png":
		return "png", nil
	}
	return "", fmt.Errorf("%w: -plot %s: the file name must end in .svg or .png", errUsage, name)
}

// plotSource is one report to draw, with a label ("A: file") for compare.
type plotSource struct {
	label string
	rep   *benchReport
}

// levelColors are the colours of the memory levels (the Okabe–Ito
// palette, distinguishable with every common colour blindness).
var levelColors = map[string]color.Color{
	"L1":   color.RGBA{0, 114, 178, 255},   // blue
	"L2":   color.RGBA{0, 158, 115, 255},   // green
	"L3":   color.RGBA{230, 159, 0, 255},   // orange
	"DRAM": color.RGBA{213, 94, 0, 255},    // vermilion
	"":     color.RGBA{80, 80, 80, 255},    // no level
	"peak": color.RGBA{0, 0, 0, 255},       // compute roofs
	"grid": color.RGBA{225, 225, 225, 255}, // grid lines
}

// kernelGlyph is the point shape of a kernel and type: filled for
// float32, hollow for float64.
func kernelGlyph(kernel, typ string) draw.GlyphDrawer {
	f64 := typ == "float64"
	switch kernel {
	case "dot":
		if f64 {
			return draw.RingGlyph{}
		}
		return draw.CircleGlyph{}
	case "axpy":
		if f64 {
			return draw.PyramidGlyph{}
		}
		return draw.TriangleGlyph{}
	case "matvec":
		if f64 {
			return draw.BoxGlyph{}
		}
		return draw.SquareGlyph{}
	case "gram":
		return draw.CrossGlyph{}
	}
	return draw.PlusGlyph{}
}

// panel is one plot: an implementation's roofline and its cases.
type panel struct {
	title  string
	im     *implRoof
	levels []levelSize // the report's working sets
	cases  []*benchResult
}

// panelsOf returns the panels of a report: one per measured
// implementation with cases; with best, only the auto path's (the
// machine's best) implementation. A case of the auto path is drawn only
// when the implementation's own path lacks it (the training run).
func panelsOf(src plotSource, best bool) []panel {
	rep := src.rep
	var out []panel
	for i := range rep.Roofline.Impls {
		im := &rep.Roofline.Impls[i]
		if best && im.Impl != rep.Machine.ActiveKernel {
			continue
		}
		own := map[string]bool{} // the cases run on the implementation's own path
		for j := range rep.Results {
			if r := &rep.Results[j]; r.Path == im.Impl {
				own[r.Case] = true
			}
		}
		var cases []*benchResult
		for j := range rep.Results {
			r := &rep.Results[j]
			if r.Impl != im.Impl || r.Intensity <= 0 || r.GFLOPS <= 0 || (r.Path == autoPath && own[r.Case]) {
				continue
			}
			cases = append(cases, r)
		}
		if len(cases) == 0 && !best {
			continue
		}
		title := fmt.Sprintf("%s (%s)", im.Impl, im.ISA)
		if im.VectorBits > 0 {
			title = fmt.Sprintf("%s (%s, %d-bit)", im.Impl, im.ISA, im.VectorBits)
		}
		if src.label != "" {
			title = src.label + "\n" + title
		}
		title += "\n" + orUnknown(rep.Machine.Brand) + fmt.Sprintf(", %.2f GHz", rep.Roofline.ClockHz/1e9)
		if rep.Machine.Emulated {
			title += " (EMULATED)"
		}
		if rep.Quick {
			title += " (quick)"
		}
		out = append(out, panel{title, im, rep.Roofline.Levels, cases})
	}
	return out
}

// plotRange is the axes' common range, so that panels compare by eye.
type plotRange struct{ xmin, xmax, ymin, ymax float64 }

func rangeOf(panels []panel) plotRange {
	r := plotRange{xmin: math.Inf(1), xmax: math.Inf(-1), ymin: math.Inf(1), ymax: math.Inf(-1)}
	for _, p := range panels {
		peak := max(p.im.Peak32, p.im.PeakAll32)
		r.ymax = max(r.ymax, peak)
		r.ymin = min(r.ymin, p.im.Peak64)
		for _, l := range p.levels {
			if bw := p.im.read(l.Name); bw > 0 && p.im.Peak32 > 0 {
				r.xmax = max(r.xmax, p.im.Peak32/bw) // the knees
				r.xmin = min(r.xmin, p.im.Peak32/bw)
			}
		}
		for _, c := range p.cases {
			r.xmin, r.xmax = min(r.xmin, c.Intensity), max(r.xmax, c.Intensity)
			r.ymin, r.ymax = min(r.ymin, c.GFLOPS), max(r.ymax, c.GFLOPS)
		}
	}
	if math.IsInf(r.xmin, 0) || math.IsInf(r.ymin, 0) || !(r.ymin > 0) || !(r.xmin > 0) {
		return plotRange{0.01, 1000, 0.1, 1000}
	}
	// Whole decades, with room around the points.
	dec := func(v float64, up bool) float64 {
		if up {
			return math.Pow(10, math.Ceil(math.Log10(v*1.5)))
		}
		return math.Pow(10, math.Floor(math.Log10(v/1.5)))
	}
	return plotRange{dec(r.xmin, false), dec(r.xmax, true), dec(r.ymin, false), dec(r.ymax, true)}
}

// plotReports draws the panels of the sources side by side in format
// ("svg" or "png") to w: every implementation of a lone report; each
// report's best implementation when there are several.
func plotReports(w io.Writer, format string, srcs []plotSource) error {
	var panels []panel
	for _, s := range srcs {
		panels = append(panels, panelsOf(s, len(srcs) > 1)...)
	}
	if len(panels) == 0 {
		return fmt.Errorf("nothing to plot: no implementation with a roofline and cases")
	}
	rg := rangeOf(panels)
	var row []*plot.Plot
	var legends [][2]plot.Legend
	for _, p := range panels {
		pl, roofs, kernels, err := drawPanel(p, rg)
		if err != nil {
			return err
		}
		row = append(row, pl)
		legends = append(legends, [2]plot.Legend{roofs, kernels})
	}
	// Each panel over its two legends (roofs, then kernels).
	const legendH = 40 * vg.Millimeter
	width, height := vg.Length(len(row))*17*vg.Centimeter, 13*vg.Centimeter+legendH
	var canvas vg.CanvasWriterTo
	var dc draw.Canvas
	switch format {
	case "png":
		c := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(120))
		canvas, dc = vgimg.PngCanvas{Canvas: c}, draw.New(c)
	default:
		c := vgsvg.New(width, height)
		canvas, dc = c, draw.New(c)
	}
	top, bottom := dc, dc
	top.Min.Y += legendH
	bottom.Max.Y = bottom.Min.Y + legendH
	tiles := draw.Tiles{Rows: 1, Cols: len(row), PadX: 12 * vg.Millimeter, PadTop: 3 * vg.Millimeter,
		PadLeft: 3 * vg.Millimeter, PadRight: 6 * vg.Millimeter}
	cs := plot.Align([][]*plot.Plot{row}, tiles, top)
	for i, pl := range row {
		pl.Draw(cs[0][i])
		// The legends start under the plot's data area (right of the
		// y axis), side by side.
		under := tiles.At(bottom, i, 0)
		under.Min.X += 15 * vg.Millimeter
		mid := under.Min.X + (under.Max.X-under.Min.X)*11/20
		left, right := under, under
		left.Max.X, right.Min.X = mid, mid
		legends[i][0].Draw(left)
		legends[i][1].Draw(right)
	}
	_, err := canvas.WriteTo(w)
	return err
}

// sans sets a text style's font to Liberation Sans of the given size.
func sans(s *text.Style, size vg.Length) {
	s.Font = font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size)
}

// newLegend returns a legend in the plots' style, for a strip under them.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	sans(&l.TextStyle, 10)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = 8 * vg.Millimeter
	l.Padding = 0.8 * vg.Millimeter
	return l
}

// drawPanel builds one implementation's plot, and its two legends: the
// roofs, and the kernels' points.
func drawPanel(p panel, rg plotRange) (pl *plot.Plot, roofLegend, kernelLegend plot.Legend, err error) {
	pl = plot.New()
	roofLegend, kernelLegend = newLegend(), newLegend()
	pl.Title.Text = p.title
	sans(&pl.Title.TextStyle, 12)
	pl.Title.Padding = 3 * vg.Millimeter
	pl.X.Label.Text = "arithmetic intensity (flops per byte read)"
	pl.Y.Label.Text = "GFLOP/s"
	for _, ax := range []*plot.Axis{&pl.X, &pl.Y} {
		sans(&ax.Label.TextStyle, 12)
		sans(&ax.Tick.Label, 11)
		ax.Scale = plot.LogScale{}
		ax.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	pl.X.Min, pl.X.Max, pl.Y.Min, pl.Y.Max = rg.xmin, rg.xmax, rg.ymin, rg.ymax

	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = levelColors["grid"], levelColors["grid"]
	grid.Vertical.Width, grid.Horizontal.Width = 0.5, 0.5
	pl.Add(grid)

	line := func(xys plotter.XYs, c color.Color, width vg.Length, dashes ...vg.Length) (*plotter.Line, error) {
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.LineStyle.Color, l.LineStyle.Width, l.LineStyle.Dashes = c, width, dashes
		return l, nil
	}
	im := p.im
	// Memory roofs: intensity × bandwidth up to the float32 peak.
	for _, lv := range p.levels {
		bw := im.read(lv.Name)
		if bw <= 0 || im.Peak32 <= 0 {
			continue
		}
		knee := im.Peak32 / bw
		l, err := line(plotter.XYs{{X: rg.xmin, Y: rg.xmin * bw}, {X: knee, Y: im.Peak32}}, levelColors[lv.Name], 2)
		if err != nil {
			return nil, roofLegend, kernelLegend, err
		}
		pl.Add(l)
		roofLegend.Add(fmt.Sprintf("%s read, %s: %.0f GB/s", lv.Name, fmtBytes(lv.Bytes), bw), l)
	}
	// Compute roofs, from the L1 knee (float32) or across (the others).
	firstKnee := rg.xmin
	if bw := im.read("L1"); bw > 0 {
		firstKnee = im.Peak32 / bw
	}
	type roof struct {
		label string
		y     float64
		dash  []vg.Length
	}
	roofs := []roof{
		{fmt.Sprintf("peak float32: %.1f GFLOP/s", im.Peak32), im.Peak32, nil},
		{fmt.Sprintf("peak float64: %.1f GFLOP/s", im.Peak64), im.Peak64, []vg.Length{6, 3}},
	}
	if im.AllCores > 1 && im.PeakAll32 > 0 {
		roofs = append(roofs, roof{fmt.Sprintf("peak float32, %d cores: %.1f GFLOP/s", im.AllCores, im.PeakAll32), im.PeakAll32, []vg.Length{1.5, 2.5}})
	}
	for _, r := range roofs {
		if r.y <= 0 {
			continue
		}
		x0 := firstKnee
		if r.y != im.Peak32 {
			x0 = rg.xmin
		}
		l, err := line(plotter.XYs{{X: x0, Y: r.y}, {X: rg.xmax, Y: r.y}}, levelColors["peak"], 1.5, r.dash...)
		if err != nil {
			return nil, roofLegend, kernelLegend, err
		}
		pl.Add(l)
		roofLegend.Add(r.label, l)
	}
	// The cases, one scatter per kernel and type (one legend entry each)
	// with a colour per point.
	type group struct {
		kernel, typ string
		xys         plotter.XYs
		colors      []color.Color
	}
	var groups []*group
	find := func(k, t string) *group {
		for _, g := range groups {
			if g.kernel == k && g.typ == t {
				return g
			}
		}
		g := &group{kernel: k, typ: t}
		groups = append(groups, g)
		return g
	}
	for _, c := range p.cases {
		g := find(c.Kernel, c.Type)
		g.xys = append(g.xys, plotter.XY{X: c.Intensity, Y: c.GFLOPS})
		col, ok := levelColors[c.RoofLevel]
		if !ok {
			col = levelColors[""]
		}
		g.colors = append(g.colors, col)
	}
	for _, g := range groups {
		sc, err := plotter.NewScatter(g.xys)
		if err != nil {
			return nil, roofLegend, kernelLegend, err
		}
		shape := kernelGlyph(g.kernel, g.typ)
		sc.GlyphStyle = draw.GlyphStyle{Shape: shape, Radius: 4, Color: levelColors[""]}
		colors := g.colors
		sc.GlyphStyleFunc = func(i int) draw.GlyphStyle {
			return draw.GlyphStyle{Shape: shape, Radius: 4, Color: colors[i]}
		}
		pl.Add(sc)
		label := g.kernel + " " + g.typ
		if t := threadsOf(p.cases, g.kernel); t > 1 {
			label += fmt.Sprintf(", %d threads", t)
		}
		kernelLegend.Add(label, sc)
	}
	kernelLegend.Add("(colour: the level of its roof)", noThumb{})
	return pl, roofLegend, kernelLegend, nil
}

// noThumb is a legend entry without a thumbnail.
type noThumb struct{}

func (noThumb) Thumbnail(*draw.Canvas) {}

// threadsOf returns the thread count of the first case of kernel.
func threadsOf(cases []*benchResult, kernel string) int {
	for _, c := range cases {
		if c.Kernel == kernel {
			return c.Threads
		}
	}
	return 0
}
