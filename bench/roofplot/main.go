// Command roofplot draws the roofline of `rosenblatt bench -json` reports
// (Williams, Waterman and Patterson, "Roofline: an insightful visual
// performance model for multicore architectures", CACM 2009) as an SVG or
// PNG picture: log-log, arithmetic intensity (flops per byte read) across,
// GFLOP/s up; per implementation, one diagonal per memory level (its read
// bandwidth × intensity) up to the compute peak, and the kernels' cases as
// points, coloured by the level whose roof applies and shaped by kernel.
//
// Usage, from a clone of the repository:
//
//	rosenblatt bench -json run.json
//	go -C bench run ./roofplot -o roofline.svg ../run.json
//	go -C bench run ./roofplot -o cross.png ../a.json ../b.json
//
// One report: a panel per implementation it measured. Several: each
// report's best implementation (its auto path), side by side, titled
// "A: file", "B: file"... The axes are common to the panels.
//
// It lives in the bench module, not in cmd/rosenblatt, so that the
// plotting stack (gonum.org/v1/plot, its fonts and LaTeX renderer) is
// neither downloaded nor compiled by a first `go run ./cmd/rosenblatt`, nor
// listed in the library's go.sum.
//
// The output is written atomically (a temporary file in its directory,
// then renamed); an existing file is replaced only with -f, and never when
// it is one of the reports. Exit status: 0, 1 for an unreadable or
// malformed report or a write error, 2 for a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
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

// autoPath is the bench path that ran the package-level kernels (each
// machine's best implementation).
const autoPath = "auto"

// errUsage marks the caller's misuse of the command line.
var errUsage = errors.New("usage error")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	err := plotFiles(args, stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "roofplot: %v\n", err)
		return 2
	}
	fmt.Fprintf(stderr, "roofplot: %v\n", err)
	return 1
}

func plotFiles(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("roofplot", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are returned, one line each; -h prints help
	out := fs.String("o", "", "write the picture to `FILE` (.svg or .png)")
	force := fs.Bool("f", false, "replace FILE if it exists")
	help := func() {
		fmt.Fprintf(stderr, "usage: roofplot -o FILE [-f] REPORT.json [REPORT.json...]\n\n")
		fmt.Fprintf(stderr, "Draws the rooflines of rosenblatt bench -json reports: every implementation of\n")
		fmt.Fprintf(stderr, "one report, or each report's best implementation side by side.\n\nflags:\n")
		fs.SetOutput(stderr)
		fs.PrintDefaults()
	}
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				help()
				return err
			}
			return fmt.Errorf("%w: %v (roofplot -h lists the flags)", errUsage, err)
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case *out == "":
		return fmt.Errorf("%w: -o FILE is required", errUsage)
	case len(files) == 0:
		return fmt.Errorf("%w: no report to plot (give one or more rosenblatt bench -json files)", errUsage)
	case len(files) > 26:
		return fmt.Errorf("%w: %d reports; at most 26 (A to Z) fit side by side", errUsage, len(files))
	}
	format, err := plotFormat(*out)
	if err != nil {
		return err
	}
	for _, f := range files {
		if samePath(f, *out) {
			return fmt.Errorf("%w: -o %s is one of the reports", errUsage, *out)
		}
	}
	if _, err := os.Stat(*out); err == nil && !*force {
		return fmt.Errorf("%s exists (use -f to replace it)", *out)
	}
	var srcs []plotSource
	for i, f := range files {
		rep, err := readReport(f)
		if err != nil {
			return err
		}
		label := ""
		if len(files) > 1 {
			label = fmt.Sprintf("%c: %s", 'A'+i, f)
		}
		srcs = append(srcs, plotSource{label, rep})
	}
	if err := writeAtomic(*out, func(w io.Writer) error { return plotReports(w, format, srcs) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "roofline plot saved to %s\n", *out)
	return nil
}

// samePath reports whether two file names name the same file: the same
// absolute path, or the same file by os.SameFile.
func samePath(a, b string) bool {
	ca, errA := filepath.Abs(a)
	cb, errB := filepath.Abs(b)
	if errA == nil && errB == nil && ca == cb {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// writeAtomic writes name through write: into a temporary file in name's
// directory, renamed over name once complete, so that a failed write
// leaves no partial picture and an existing file as it was.
func writeAtomic(name string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// plotFormat returns the image format of an output file name: "svg" or
// "png", from its extension.
func plotFormat(name string) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".svg":
		return "svg", nil
	case ".png":
		return "png", nil
	}
	return "", fmt.Errorf("%w: -o %s: the file name must end in .svg or .png", errUsage, name)
}

// plotSource is one report to draw, with a label ("A: file") when there
// are several.
type plotSource struct {
	label string
	rep   *report
}

// orUnknown returns s, or "unknown" when it is blank.
func orUnknown(s string) string {
	if strings.TrimSpace(s) == "" {
		return "unknown"
	}
	return s
}

// fmtBytes formats a byte count in B, KiB, MiB or GiB, with one decimal when
// it is not a whole number of the unit.
func fmtBytes(b int64) string {
	f := func(v float64, unit string) string {
		if v == math.Trunc(v) {
			return fmt.Sprintf("%.0f %s", v, unit)
		}
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	switch {
	case b >= 1<<30:
		return f(float64(b)/(1<<30), "GiB")
	case b >= 1<<20:
		return f(float64(b)/(1<<20), "MiB")
	case b >= 1<<10:
		return f(float64(b)/(1<<10), "KiB")
	}
	return fmt.Sprintf("%d B", b)
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
	levels []level // the report's working sets
	cases  []*result
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
		var cases []*result
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
func threadsOf(cases []*result, kernel string) int {
	for _, c := range cases {
		if c.Kernel == kernel {
			return c.Threads
		}
	}
	return 0
}
