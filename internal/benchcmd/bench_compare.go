package benchcmd

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
)

// bench compare: two reports side by side (two machines, or two runs),
// their rooflines and their common cases, with the ratios B/A.

// runBenchCompare reads two reports and prints their rooflines and common
// cases side by side with the ratio B/A of the rates.
func runBenchCompare(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("bench compare", stderr)
	plotFile := fs.String("plot", "", "not drawn here any more: draw the two reports with "+roofplotCommand)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt bench compare A.json B.json\n\n")
		fmt.Fprintf(stderr, "Prints two bench reports side by side: their measured rooflines, and their cases\n")
		fmt.Fprintf(stderr, "with the ratio B/A of their GFLOP/s (above 1: B is faster) and each one's %% of\n")
		fmt.Fprintf(stderr, "its roof. Cases are matched by kernel, type, working set and path (\"auto\" is\n")
		fmt.Fprintf(stderr, "each machine's best implementation). Reads reports of schema %s and\n", benchSchema)
		fmt.Fprintf(stderr, "%s (rates only: those had no measured roofline). To draw the two rooflines\n", benchSchemaV1)
		fmt.Fprintf(stderr, "side by side, run from a clone: %s\n\nflags:\n", roofplotCommand)
		fs.PrintDefaults()
	}
	var files []string
	for {
		if err := cli.ParseOnce(fs, args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(files) != 2 {
		return fmt.Errorf("%w: bench compare needs two report files, got %d arguments", cli.ErrUsage, len(files))
	}
	if *plotFile != "" {
		return errPlotMoved("-plot")
	}
	std := cli.Stdio{Out: stdout, Err: stderr}
	if err := std.NotAnInput(files...); err != nil {
		return err
	}
	a, err := readBenchReport(files[0])
	if err != nil {
		return err
	}
	b, err := readBenchReport(files[1])
	if err != nil {
		return err
	}
	printCompare(stdout, files[0], a, files[1], b)
	return nil
}

// CheckReport reads and validates the bench report name, as "bench
// compare" does (see readBenchReport).
func CheckReport(name string) error {
	_, err := readBenchReport(name)
	return err
}

// readBenchReport reads and validates a -json report. Every content error
// wraps cli.ErrMalformed and names the file (with line and column for JSON
// errors). A report begins with {"schema" as bench -json writes it: a file
// that does not is refused from its first bytes, before the rest is read.
// A schema 1 report is read too: its results get their case names, and it
// has no roofline.
func readBenchReport(name string) (*benchReport, error) {
	var rep benchReport
	if err := cli.DecodeJSONFile(name, MaxReport, "schema", "a rosenblatt bench report", &rep); err != nil {
		return nil, err
	}
	if rep.Schema == benchSchemaV1 {
		rep.Roofline = nil
		for i := range rep.Results {
			r := &rep.Results[i]
			r.Case = caseName(r.Kernel, r.Type, r.Set)
			r.Intensity, r.RoofLevel, r.Roof, r.Bound, r.RoofPercent = 0, "", 0, "", 0
		}
	}
	if err := rep.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, cli.ErrMalformed, err)
	}
	return &rep, nil
}

// namedValue is a figure of a report, for finite.
type namedValue struct {
	name string
	x    float64
}

// finite checks that every named value is finite and ≥ 0.
func finite(vals ...namedValue) error {
	for _, v := range vals {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
			return fmt.Errorf("%s = %v, want a finite value ≥ 0", v.name, v.x)
		}
	}
	return nil
}

// validate checks a decoded report: the schema, the roofline (schema 2),
// and every result having its identifying fields and positive, finite
// timings and rates.
func (rep *benchReport) validate() error {
	switch rep.Schema {
	case benchSchema:
		if rep.Roofline == nil {
			return fmt.Errorf("no roofline")
		}
		if err := rep.Roofline.validate(); err != nil {
			return fmt.Errorf("roofline: %v", err)
		}
	case benchSchemaV1:
	case "":
		return fmt.Errorf("not a rosenblatt bench report (no \"schema\" field)")
	default:
		return fmt.Errorf("schema %q: this rosenblatt reads %q and %q", rep.Schema, benchSchema, benchSchemaV1)
	}
	if len(rep.Results) == 0 {
		return fmt.Errorf("no results")
	}
	seen := map[string]int{}
	for i := range rep.Results {
		r := &rep.Results[i]
		bad := func(f string, a ...any) error {
			return fmt.Errorf("result %d (%s): %s", i+1, r.key(), fmt.Sprintf(f, a...))
		}
		if r.Kernel == "" || r.Type == "" || r.Path == "" || r.Set == "" {
			return bad("kernel, type, path and set must all be set")
		}
		if r.Type != "float32" && r.Type != "float64" {
			return bad("type %q, want float32 or float64", r.Type)
		}
		if want := caseName(r.Kernel, r.Type, r.Set); r.Case != want {
			return bad("case %q, want %q (kernel/type/set)", r.Case, want)
		}
		if err := finite(namedValue{"ns_per_op", r.NsPerOp}, namedValue{"gflops", r.GFLOPS}, namedValue{"gbps", r.GBps},
			namedValue{"flops_per_byte", r.Intensity}, namedValue{"roof_gflops", r.Roof}, namedValue{"roof_percent", r.RoofPercent}); err != nil {
			return bad("%v", err)
		}
		if !(r.NsPerOp > 0) {
			return bad("ns_per_op = %v, want > 0", r.NsPerOp)
		}
		if j, dup := seen[r.key()]; dup {
			return bad("same case as result %d", j+1)
		}
		seen[r.key()] = i
	}
	return nil
}

// validate checks a roofline's figures: named levels and implementations,
// finite non-negative rates.
func (rf *rooflineReport) validate() error {
	if err := finite(namedValue{"clock_hz", rf.ClockHz}); err != nil {
		return err
	}
	if len(rf.Levels) == 0 || len(rf.Impls) == 0 {
		return fmt.Errorf("no levels or no implementations")
	}
	for _, l := range rf.Levels {
		if l.Name == "" || l.Bytes <= 0 {
			return fmt.Errorf("level %q of %d bytes", l.Name, l.Bytes)
		}
	}
	for _, im := range rf.Impls {
		if im.Impl == "" {
			return fmt.Errorf("an implementation without a name")
		}
		vals := []namedValue{{"peak_gflops_float32", im.Peak32}, {"peak_gflops_float64", im.Peak64}, {"peak_gflops_float32_all_cores", im.PeakAll32}}
		for _, r := range im.Read {
			vals = append(vals, namedValue{r.Level + " gbps", r.GBps})
		}
		for _, r := range im.ReadFirst {
			vals = append(vals, namedValue{r.Level + " first gbps", r.GBps})
		}
		if err := finite(vals...); err != nil {
			return fmt.Errorf("%s: %v", im.Impl, err)
		}
	}
	return nil
}

// rate is the figure compared: GFLOP/s, or GB/s for a case without flops.
func (r *benchResult) rate() (float64, string) {
	if r.GFLOPS > 0 {
		return r.GFLOPS, "GFLOP/s"
	}
	return r.GBps, "GB/s"
}

func describeReport(rep *benchReport) string {
	m := &rep.Machine
	s := fmt.Sprintf("%s, %s/%s, %s, kernels %s (auto=%s), %s, schema %s",
		cli.OrUnknown(m.Brand), m.GOOS, m.GOARCH, m.GoVersion, strings.Join(m.Kernels, ","), m.ActiveKernel, rep.Created, rep.Schema)
	if rep.Quick {
		s += ", QUICK"
	}
	if m.Emulated {
		s += ", EMULATED"
	}
	return s
}

func printCompare(w io.Writer, nameA string, a *benchReport, nameB string, b *benchReport) {
	var out strings.Builder
	fmt.Fprintf(&out, "A: %s\n   %s\n", nameA, describeReport(a))
	fmt.Fprintf(&out, "B: %s\n   %s\n", nameB, describeReport(b))
	for _, r := range []struct {
		name string
		rep  *benchReport
	}{{"A", a}, {"B", b}} {
		switch {
		case r.rep.Roofline == nil:
			fmt.Fprintf(&out, "note: %s is a schema %s report: its rates compare, but it has no measured roofline (no %%roof)\n", r.name, benchSchemaV1)
		case r.rep.Machine.Emulated:
			fmt.Fprintf(&out, "note: %s was measured under an emulator: its figures describe the emulator, not a CPU\n", r.name)
		}
		if r.rep.Quick {
			fmt.Fprintf(&out, "note: %s is a quick report: its figures are rougher\n", r.name)
		}
	}
	if a.Roofline != nil && b.Roofline != nil {
		out.WriteString("\n")
		compareRooflines(&out, a, b)
	}
	out.WriteString("\nB/A is the ratio of the rates (GFLOP/s; GB/s where a case has no flops): above 1, B is faster.\n")
	out.WriteString("A impl and B impl are the implementations that ran (auto: each machine's best).\n\n")

	inB := map[string]*benchResult{}
	for i := range b.Results {
		inB[b.Results[i].key()] = &b.Results[i]
	}
	inA := map[string]bool{}
	fmt.Fprintf(&out, "%-6s  %-7s  %-4s  %-7s  %-7s  %-7s  %10s  %10s  %10s  %10s  %7s  %7s  %7s\n",
		"kernel", "type", "set", "path", "A impl", "B impl", "A bytes", "B bytes", "A rate", "B rate", "B/A", "A %roof", "B %roof")
	var onlyA, onlyB []string
	common := 0
	pct := func(r *benchResult) string {
		if r.Roof <= 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", r.RoofPercent)
	}
	for i := range a.Results {
		ra := &a.Results[i]
		inA[ra.key()] = true
		rb, ok := inB[ra.key()]
		if !ok {
			onlyA = append(onlyA, describeCase(ra))
			continue
		}
		common++
		va, unit := ra.rate()
		vb, _ := rb.rate()
		ratio := "-"
		if va > 0 {
			ratio = fmt.Sprintf("%.2f", vb/va)
		}
		fmt.Fprintf(&out, "%-6s  %-7s  %-4s  %-7s  %-7s  %-7s  %10s  %10s  %10.2f  %10.2f  %7s  %7s  %7s  %s\n",
			ra.Kernel, ra.Type, ra.Set, ra.Path, ra.Impl, rb.Impl, fmtBytes(ra.Bytes), fmtBytes(rb.Bytes), va, vb, ratio, pct(ra), pct(rb), unit)
	}
	for i := range b.Results {
		if rb := &b.Results[i]; !inA[rb.key()] {
			onlyB = append(onlyB, describeCase(rb))
		}
	}
	if common == 0 {
		out.WriteString("(no case in common)\n")
	}
	for _, l := range []struct {
		name  string
		cases []string
	}{{"A", onlyA}, {"B", onlyB}} {
		if len(l.cases) > 0 {
			fmt.Fprintf(&out, "\nonly in %s (%d):\n", l.name, len(l.cases))
			for _, c := range l.cases {
				fmt.Fprintf(&out, "  %s\n", c)
			}
		}
	}
	io.WriteString(w, out.String())
}

// compareRooflines writes the two rooflines' figures side by side: the
// clock, then the peaks and bandwidths of each machine's best
// implementation (auto), then of every implementation of either, with
// B/A.
func compareRooflines(out *strings.Builder, repA, repB *benchReport) {
	a, b := repA.Roofline, repB.Roofline
	fmt.Fprintf(out, "roofline        %12s  %12s  %6s\n", "A", "B", "B/A")
	row := func(name string, va, vb float64, unit string) {
		ratio := "-"
		if va > 0 && vb > 0 {
			ratio = fmt.Sprintf("%.2f", vb/va)
		}
		f := func(v float64) string {
			if v <= 0 {
				return "-"
			}
			return fmt.Sprintf("%.1f", v)
		}
		fmt.Fprintf(out, "%-14s  %12s  %12s  %6s  %s\n", name, f(va), f(vb), ratio, unit)
	}
	row("clock", a.ClockHz/1e9, b.ClockHz/1e9, "GHz")
	names := []string{autoPath}
	for _, rf := range []*rooflineReport{a, b} {
		for _, im := range rf.Impls {
			if !containsString(names, im.Impl) {
				names = append(names, im.Impl)
			}
		}
	}
	for _, n := range names {
		ia, ib := a.impl(n), b.impl(n)
		if n == autoPath {
			ia, ib = a.impl(repA.Machine.ActiveKernel), b.impl(repB.Machine.ActiveKernel)
			if ia == nil || ib == nil {
				continue
			}
		}
		get := func(im *implRoof, f func(*implRoof) float64) float64 {
			if im == nil {
				return 0
			}
			return f(im)
		}
		isa := func(im *implRoof) string {
			if im == nil {
				return "-"
			}
			return im.ISA
		}
		if n == autoPath {
			fmt.Fprintf(out, "auto, each one's best (A %s: %s, B %s: %s)\n", ia.Impl, ia.ISA, ib.Impl, ib.ISA)
		} else {
			fmt.Fprintf(out, "%s (A %s, B %s)\n", n, isa(ia), isa(ib))
		}
		row("  peak f32", get(ia, func(i *implRoof) float64 { return i.Peak32 }), get(ib, func(i *implRoof) float64 { return i.Peak32 }), "GFLOP/s, 1 core")
		row("  peak f64", get(ia, func(i *implRoof) float64 { return i.Peak64 }), get(ib, func(i *implRoof) float64 { return i.Peak64 }), "GFLOP/s, 1 core")
		cores := func(im *implRoof) string {
			if im == nil || im.AllCores < 2 {
				return "-"
			}
			return fmt.Sprint(im.AllCores)
		}
		row("  f32 all", get(ia, func(i *implRoof) float64 { return i.PeakAll32 }), get(ib, func(i *implRoof) float64 { return i.PeakAll32 }),
			fmt.Sprintf("GFLOP/s, all usable cores (A %s, B %s)", cores(ia), cores(ib)))
		for _, l := range []string{"L1", "L2", "L3", "DRAM"} {
			row("  read "+l, get(ia, func(i *implRoof) float64 { return i.read(l) }), get(ib, func(i *implRoof) float64 { return i.read(l) }), "GB/s, 1 core")
		}
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func describeCase(r *benchResult) string {
	v, unit := r.rate()
	return fmt.Sprintf("%-6s  %-7s  %-4s  %-9s  %10s  %.2f %s", r.Kernel, r.Type, r.Set, r.Path, fmtBytes(r.Bytes), v, unit)
}
