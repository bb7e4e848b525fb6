package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The bench subcommand: the kernel suite on every implementation, timed in
// process, with the machine's estimated peak next to the measured rates.
//
//	rosenblatt bench [-json FILE [-f]] [-quick] [-paths generic,avx2,auto] [-q] [-time D] [-runs N]
//	rosenblatt bench compare A.json B.json

// benchSchema identifies the JSON report format; bench compare refuses
// anything else.
const benchSchema = "rosenblatt-bench/1"

// autoPath is the pseudo-path that runs the package-level functions, i.e.
// whatever implementation the kernel package chose at start-up (including
// the ROSENBLATT_KERNEL cap), through its dispatch.
const autoPath = "auto"

// benchReport is the -json report.
type benchReport struct {
	Schema  string        `json:"schema"`
	Created string        `json:"created"` // RFC 3339, UTC
	Quick   bool          `json:"quick"`
	MinTime string        `json:"min_time_per_run"`
	Runs    int           `json:"runs"`
	Machine machineInfo   `json:"machine"`
	Peak    peakEstimate  `json:"peak"`
	Results []benchResult `json:"results"`
	Notes   []string      `json:"notes,omitempty"`
}

// benchResult is one timed case.
type benchResult struct {
	Kernel string `json:"kernel"` // dot, axpy, matvec, gram, train
	Type   string `json:"type"`   // float32, float64
	Path   string `json:"path"`   // an implementation name, or "auto"
	Impl   string `json:"impl"`   // the implementation that ran ("auto" resolved)
	Set    string `json:"set"`    // working-set class: L1, L2, L3, DRAM, or "-" (gram, train)
	Shape  string `json:"shape"`  // e.g. "n=2048", "rows=15 cols=256", "N=1024 D=256"
	Bytes  int64  `json:"working_set_bytes"`
	// Threads is the number of goroutines the case runs on.
	Threads int `json:"threads"`
	// FlopsPerOp and BytesPerOp are the floating-point operations and the
	// memory traffic (reads plus writes of the operands, once each) of one
	// call, from which GFLOPS and GBps are computed.
	FlopsPerOp int64 `json:"flops_per_op"`
	BytesPerOp int64 `json:"bytes_per_op"`
	Iterations int64 `json:"iterations_per_run"`
	// NsPerOp is the best (lowest) run; MedianNsPerOp the median of the
	// runs.
	NsPerOp       float64 `json:"ns_per_op"`
	MedianNsPerOp float64 `json:"median_ns_per_op"`
	GFLOPS        float64 `json:"gflops"`
	GBps          float64 `json:"gbps"`
	// PeakPercent is GFLOPS against the estimated peak of Threads cores
	// (at most the machine's), 0 when the peak is unknown.
	PeakPercent float64 `json:"peak_percent,omitempty"`
}

// key identifies a result across reports.
func (r *benchResult) key() string {
	return r.Kernel + "/" + r.Type + "/" + r.Path + "/" + r.Set
}

// benchPath is one implementation to run, or auto (im == nil).
type benchPath struct {
	name string
	im   *kernel.Impl
}

// implName is the implementation that runs on this path.
func (p benchPath) implName() string {
	if p.im == nil {
		return kernel.Active()
	}
	return p.im.Name()
}

// benchConfig is what the flags select.
type benchConfig struct {
	quick   bool
	minTime time.Duration
	runs    int
	paths   []benchPath
}

// workingSet is one cache level's working-set size.
type workingSet struct {
	name  string // L1, L2, L3, DRAM
	bytes int64
}

// Fallback cache sizes when cpuid does not know them, and the bounds of the
// DRAM working set.
const (
	fallbackL1D = 32 << 10
	fallbackL2  = 256 << 10
	fallbackL3  = 8 << 20
	minDRAM     = 64 << 20
	maxDRAM     = 256 << 20
)

// workingSets derives the four working-set sizes from the cache sizes: half
// of L1D, half of L2, half of L3, and 4×L3 (clamped to [64 MiB, 256 MiB])
// for memory. Unknown (≤ 0) sizes fall back to 32 KiB, 256 KiB and 8 MiB.
// Quick mode uses tiny fixed sizes instead.
func workingSets(l1d, l2, l3 int, quick bool) []workingSet {
	if quick {
		return []workingSet{{"L1", 4 << 10}, {"L2", 16 << 10}, {"L3", 64 << 10}, {"DRAM", 256 << 10}}
	}
	if l1d <= 0 {
		l1d = fallbackL1D
	}
	if l2 <= 0 {
		l2 = fallbackL2
	}
	if l3 <= 0 {
		l3 = fallbackL3
	}
	dram := min(max(4*int64(l3), minDRAM), maxDRAM)
	return []workingSet{{"L1", int64(l1d) / 2}, {"L2", int64(l2) / 2}, {"L3", int64(l3) / 2}, {"DRAM", dram}}
}

// gramShape returns the N×D of the Gram case: big enough to be a matrix
// product rather than a loop of dot products, small enough to take well
// under a second per call on the portable path.
func gramShape(quick bool) (n, d int) {
	if quick {
		return 48, 16
	}
	return 1024, 256
}

// matvecCols is the row length of the MatVec cases.
func matvecCols(quick bool) int {
	if quick {
		return 64
	}
	return 256
}

func runBench(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "compare" {
		return runBenchCompare(args[1:], stdout, stderr)
	}
	fs := newFlagSet("bench", stderr)
	jsonFile := fs.String("json", "", "save the full report as JSON to `FILE` (\"-\": standard output, the table then goes to stderr)")
	force := fs.Bool("f", false, "overwrite the -json file if it exists")
	quick := fs.Bool("quick", false, "tiny sizes and short times (a smoke test; the numbers mean little)")
	pathsFlag := fs.String("paths", "", "comma-separated `list` of implementations to run (default: every available one, and auto)")
	quiet := fs.Bool("q", false, "no progress bar")
	minTime := fs.Duration("time", 0, "minimum time of one timed run (default 100ms, 2ms with -quick)")
	runs := fs.Int("runs", 0, "timed runs per case; the best is reported (default 3, 2 with -quick)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt bench [flags]\n       rosenblatt bench compare A.json B.json\n\n")
		fmt.Fprintf(stderr, "Times Dot, Axpy and MatVec at L1/L2/L3/DRAM working sets, a Gram matrix and a\n")
		fmt.Fprintf(stderr, "training run on every kernel implementation, with the estimated peak.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	cfg := benchConfig{quick: *quick, minTime: *minTime, runs: *runs}
	if cfg.minTime < 0 || cfg.runs < 0 {
		return fmt.Errorf("%w: -time and -runs must not be negative", errUsage)
	}
	if cfg.minTime == 0 {
		cfg.minTime = 100 * time.Millisecond
		if cfg.quick {
			cfg.minTime = 2 * time.Millisecond
		}
	}
	if cfg.runs == 0 {
		cfg.runs = 3
		if cfg.quick {
			cfg.runs = 2
		}
	}
	var err error
	if cfg.paths, err = parsePaths(*pathsFlag); err != nil {
		return err
	}
	std := stdio{stdout, stderr}
	if *jsonFile != "" {
		if err := std.checkWritable(*jsonFile, *force); err != nil {
			return err
		}
		if fd, ok := descriptorOf(*jsonFile); ok && fd == 1 {
			stdout = stderr // the JSON goes to standard output alone
		}
	}

	rep, err := runSuite(cfg, newSuiteProgress(cfg, *quiet, stderr))
	if err != nil {
		return err
	}
	printReport(stdout, rep)
	if *jsonFile != "" {
		err := std.writeOutput(*jsonFile, *force, nil, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "\nreport saved to %s\n", *jsonFile)
	}
	return nil
}

// knownImplNames are the kernel implementations of every build, to tell a
// name of another architecture from a typo.
var knownImplNames = []string{"generic", "avx2", "avx512", "neon"}

// parsePaths turns the -paths list into implementations. Empty means every
// available implementation and auto. An unknown name, or one this CPU
// cannot run, is a usage error naming the valid ones.
func parsePaths(list string) ([]benchPath, error) {
	var avail []string
	for _, im := range kernel.Impls() {
		if im.Available() {
			avail = append(avail, im.Name())
		}
	}
	valid := strings.Join(append(slices.Clone(avail), autoPath), ", ")
	if strings.TrimSpace(list) == "" {
		var ps []benchPath
		for _, im := range kernel.Impls() {
			if im.Available() {
				ps = append(ps, benchPath{im.Name(), im})
			}
		}
		return append(ps, benchPath{name: autoPath}), nil
	}
	var ps []benchPath
	seen := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		if name == autoPath {
			ps = append(ps, benchPath{name: autoPath})
			continue
		}
		var found *kernel.Impl
		for _, im := range kernel.Impls() {
			if im.Name() == name {
				found = im
			}
		}
		switch {
		case found == nil && slices.Contains(knownImplNames, name):
			return nil, fmt.Errorf("%w: -paths: %q is not an implementation of this build (%s/%s%s; it can run %s)",
				errUsage, name, runtime.GOOS, runtime.GOARCH, purego, valid)
		case found == nil:
			return nil, fmt.Errorf("%w: -paths: unknown implementation %q (this CPU and build can run %s)", errUsage, name, valid)
		case !found.Available():
			return nil, fmt.Errorf("%w: -paths: this CPU cannot run %q (it can run %s)", errUsage, name, valid)
		}
		ps = append(ps, benchPath{name, found})
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%w: -paths: empty list (this CPU and build can run %s)", errUsage, valid)
	}
	return ps, nil
}

// benchCase is one case of the suite, ready to time.
type benchCase struct {
	res benchResult
	fn  func() // one operation
}

// runSuite runs every case and returns the report.
func runSuite(cfg benchConfig, prog progress) (*benchReport, error) {
	defer prog.Finish()
	m := currentMachine()
	hz, src := currentFrequency()
	rep := &benchReport{
		Schema:  benchSchema,
		Created: time.Now().UTC().Format(time.RFC3339),
		Quick:   cfg.quick,
		MinTime: cfg.minTime.String(),
		Runs:    cfg.runs,
		Machine: m,
		Peak:    estimatePeak(currentSIMD(), hz, src),
	}
	if cfg.quick {
		rep.Notes = append(rep.Notes, "quick mode: tiny sizes and short runs; the numbers are a smoke test, not a measurement")
	}
	add := func(c benchCase) {
		prog.Describe(fmt.Sprintf("%-6s %-7s %-4s %-7s", c.res.Kernel, c.res.Type, c.res.Set, c.res.Path))
		t := measure(c.fn, cfg.minTime, cfg.runs)
		r := c.res
		r.Iterations, r.NsPerOp, r.MedianNsPerOp = t.iters, t.best, t.median
		r.GFLOPS = float64(r.FlopsPerOp) / t.best
		r.GBps = float64(r.BytesPerOp) / t.best
		if peak := rep.Peak.perCore(elemSize(r.Type)); peak > 0 {
			cores := min(max(r.Threads, 1), max(rep.Peak.Cores, 1))
			r.PeakPercent = 100 * r.GFLOPS / (peak * float64(cores))
		}
		rep.Results = append(rep.Results, r)
		prog.Add(1)
	}

	// Vector kernels, one working set at a time so that only one set's
	// buffers are alive.
	for _, ws := range workingSets(m.L1D, m.L2, m.L3, cfg.quick) {
		vectorCases32(ws, cfg, add)
		runtime.GC()
		vectorCases64(ws, cfg, add)
		runtime.GC()
	}
	if err := gramCases(cfg, add); err != nil {
		return nil, err
	}
	runtime.GC()
	note, err := trainCases(cfg, add)
	if err != nil {
		return nil, err
	}
	if note != "" {
		rep.Notes = append(rep.Notes, note)
	}
	return rep, nil
}

// suiteSize is the number of cases runSuite runs, for the progress bar.
func suiteSize(cfg benchConfig) int {
	perPath := 4*4 + 1 // (dot32, axpy32, matvec32, dot64) × 4 sets + gram
	return perPath*len(cfg.paths) + trainCaseCount(cfg)
}

func newSuiteProgress(cfg benchConfig, quiet bool, w io.Writer) progress {
	return newProgress(suiteSize(cfg), "bench", quiet, w)
}

func elemSize(typ string) int {
	if typ == "float64" {
		return 8
	}
	return 4
}

// randomVec returns n pseudo-random values in [-1, 1) (deterministic).
func randomVec[T kernel.Float](n int, seed uint64) []T {
	r := rand.New(rand.NewPCG(seed, 0x726f73656e626c61))
	v := make([]T, n)
	for i := range v {
		v[i] = T(2*r.Float64() - 1)
	}
	return v
}

// vectorCases32 adds the float32 Dot, Axpy and MatVec cases of one working
// set for every path.
func vectorCases32(ws workingSet, cfg benchConfig, add func(benchCase)) {
	const s = 4
	n := max(int(ws.bytes/(2*s)), 16) // two vectors
	buf := randomVec[float32](2*n, 1)
	x, y := buf[:n:n], buf[n:]
	cols := matvecCols(cfg.quick)
	rows := max((2*n-cols)/cols, 1) // X and w fill the working set
	X := buf[:rows*cols]
	w := randomVec[float32](cols, 2)
	dst := make([]float32, rows)
	results := func(p benchPath) benchResult {
		return benchResult{Type: "float32", Path: p.name, Impl: p.implName(), Set: ws.name, Threads: 1}
	}
	for _, p := range cfg.paths {
		r := results(p)
		r.Kernel, r.Shape, r.Bytes = "dot", fmt.Sprintf("n=%d", n), int64(2*n*s)
		r.FlopsPerOp, r.BytesPerOp = int64(2*n), int64(2*n*s)
		var acc float32
		fn := func() { acc += kernel.Dot(x, y) }
		if p.im != nil {
			k := kernel.On[float32](p.im)
			fn = func() { acc += k.Dot(x, y) }
		}
		add(benchCase{r, fn})
		keep(float64(acc))
	}
	// Axpy alternates the sign of a so that y stays bounded (and clear of
	// subnormals) however many times it runs.
	for _, p := range cfg.paths {
		r := results(p)
		r.Kernel, r.Shape, r.Bytes = "axpy", fmt.Sprintf("n=%d", n), int64(2*n*s)
		r.FlopsPerOp, r.BytesPerOp = int64(2*n), int64(3*n*s) // read x and y, write y
		a := float32(1.0 / 1024)
		fn := func() { kernel.Axpy(a, x, y); a = -a }
		if p.im != nil {
			k := kernel.On[float32](p.im)
			fn = func() { k.Axpy(a, x, y); a = -a }
		}
		add(benchCase{r, fn})
	}
	for _, p := range cfg.paths {
		r := results(p)
		r.Kernel, r.Shape, r.Bytes = "matvec", fmt.Sprintf("rows=%d cols=%d", rows, cols), int64((rows*cols+cols+rows)*s)
		r.FlopsPerOp, r.BytesPerOp = int64(2*rows*cols), int64((rows*cols+cols+rows)*s)
		fn := func() { kernel.MatVec(dst, X, w) }
		if p.im != nil {
			k := kernel.On[float32](p.im)
			fn = func() { k.MatVec(dst, X, w) }
		}
		add(benchCase{r, fn})
	}
}

// vectorCases64 adds the float64 Dot case of one working set for every
// path.
func vectorCases64(ws workingSet, cfg benchConfig, add func(benchCase)) {
	const s = 8
	n := max(int(ws.bytes/(2*s)), 16)
	buf := randomVec[float64](2*n, 3)
	x, y := buf[:n:n], buf[n:]
	for _, p := range cfg.paths {
		r := benchResult{Kernel: "dot", Type: "float64", Path: p.name, Impl: p.implName(), Set: ws.name, Threads: 1,
			Shape: fmt.Sprintf("n=%d", n), Bytes: int64(2 * n * s), FlopsPerOp: int64(2 * n), BytesPerOp: int64(2 * n * s)}
		var acc float64
		fn := func() { acc += kernel.Dot(x, y) }
		if p.im != nil {
			k := kernel.On[float64](p.im)
			fn = func() { acc += k.Dot(x, y) }
		}
		add(benchCase{r, fn})
		keep(acc)
	}
}

// gramCases adds a float32 linear Gram matrix per path. Compute evaluates
// the lower triangle, N(N+1)/2 dot products of length D, on GOMAXPROCS
// goroutines; its traffic is reading X once and writing the N×N result.
func gramCases(cfg benchConfig, add func(benchCase)) error {
	n, d := gramShape(cfg.quick)
	X := randomVec[float32](n*d, 4)
	threads := runtime.GOMAXPROCS(0)
	for _, p := range cfg.paths {
		opts := &gram.Options{Impl: p.im, Threads: threads}
		r := benchResult{Kernel: "gram", Type: "float32", Path: p.name, Impl: p.implName(), Set: "-", Threads: threads,
			Shape: fmt.Sprintf("N=%d D=%d", n, d), Bytes: int64((n*d + n*n) * 4),
			FlopsPerOp: int64(n) * int64(n+1) * int64(d), BytesPerOp: int64((n*d + n*n) * 4)}
		var failed error
		fn := func() {
			if _, err := gram.Compute(X, d, gram.Linear{}, opts); err != nil && failed == nil {
				failed = err
			}
		}
		add(benchCase{r, fn})
		if failed != nil {
			// Not expected: the data are finite, the shape is right and
			// the implementation is available.
			return fmt.Errorf("gram.Compute on path %s: %w", p.name, failed)
		}
	}
	return nil
}

// sink keeps results alive so that no call can be optimised away.
var sink float64

func keep(v float64) { sink += v }

// timing is the result of measure.
type timing struct {
	iters        int64   // calls per run
	best, median float64 // ns per call
}

// measure times fn: it first finds how many calls take about minTime, then
// times runs runs of that many calls and returns the best and the median
// time per call. fn is called at least once per run.
func measure(fn func(), minTime time.Duration, runs int) timing {
	timeN := func(n int64) time.Duration {
		start := time.Now()
		for range n {
			fn()
		}
		return time.Since(start)
	}
	// Calibrate on a fifth of minTime; this also warms caches and pages.
	n := int64(1)
	d := timeN(n)
	for d < minTime/5 && n < 1<<40 {
		next := n * 10
		if d > 0 {
			next = int64(float64(n) * 1.2 * float64(minTime/5) / float64(d))
		}
		n = min(max(next, n+1), n*100)
		d = timeN(n)
	}
	iters := max(int64(math.Ceil(float64(n)*float64(minTime)/float64(max(d, 1)))), 1)
	per := make([]float64, runs)
	for i := range per {
		per[i] = float64(timeN(iters).Nanoseconds()) / float64(iters)
	}
	sort.Float64s(per)
	med := per[len(per)/2]
	if len(per)%2 == 0 {
		med = (per[len(per)/2-1] + per[len(per)/2]) / 2
	}
	// A clock too coarse for the run would give 0: report at least 1 ns
	// over the whole run rather than an infinite rate.
	floor := 1 / float64(iters)
	return timing{iters: iters, best: max(per[0], floor), median: max(med, floor)}
}

// printReport writes the human-readable report.
func printReport(w io.Writer, rep *benchReport) {
	var b strings.Builder
	m := &rep.Machine
	fmt.Fprintf(&b, "rosenblatt bench: %s (%s/%s, %s, GOMAXPROCS %d)\n",
		orUnknown(m.Brand), m.GOOS, m.GOARCH, m.GoVersion, m.GOMAXPROCS)
	fmt.Fprintf(&b, "kernels:        %s available; auto = %s\n", strings.Join(m.Kernels, ", "), m.ActiveKernel)
	fmt.Fprintf(&b, "caches:         L1D %s, L2 %s, L3 %s\n", size(m.L1D), size(m.L2), size(m.L3))
	describePeak(&b, &rep.Peak)
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	fmt.Fprintf(&b, "timing: best of %d runs of at least %s each\n\n", rep.Runs, rep.MinTime)

	showPeak := rep.Peak.Known
	hdr := fmt.Sprintf("%-6s  %-7s  %-4s  %-10s  %-22s  %-9s  %12s  %9s  %8s", "kernel", "type", "set", "bytes", "shape", "path", "ns/op", "GFLOP/s", "GB/s")
	if showPeak {
		hdr += fmt.Sprintf("  %6s", "%peak")
	}
	b.WriteString(hdr + "\n")
	prev := ""
	for i := range rep.Results {
		r := &rep.Results[i]
		group := r.Kernel + r.Type + r.Set
		if prev != "" && group != prev {
			b.WriteByte('\n')
		}
		prev = group
		path := r.Path
		if r.Path == autoPath {
			path = autoPath + "=" + r.Impl
		}
		fmt.Fprintf(&b, "%-6s  %-7s  %-4s  %-10s  %-22s  %-9s  %12s  %9.2f  %8.2f",
			r.Kernel, r.Type, r.Set, fmtBytes(r.Bytes), r.Shape, path, fmtNs(r.NsPerOp), r.GFLOPS, r.GBps)
		if showPeak {
			if r.PeakPercent > 0 {
				fmt.Fprintf(&b, "  %5.1f%%", r.PeakPercent)
			} else {
				fmt.Fprintf(&b, "  %6s", "-")
			}
		}
		if r.Threads > 1 {
			fmt.Fprintf(&b, "  (%d threads)", r.Threads)
		}
		b.WriteByte('\n')
	}
	if showPeak {
		b.WriteString("\n%peak is GFLOP/s against the estimated peak of the cores the case runs on (1 for the vector kernels).\n")
	}
	io.WriteString(w, b.String())
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

// fmtNs formats a time per operation with a sensible number of digits.
func fmtNs(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.0f", ns)
	case ns >= 100:
		return fmt.Sprintf("%.1f", ns)
	}
	return fmt.Sprintf("%.2f", ns)
}

// ---- bench compare ----

// runBenchCompare reads two reports and prints their common cases side by
// side with the ratio B/A of the rates.
func runBenchCompare(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench compare", stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt bench compare A.json B.json\n\n")
		fmt.Fprintf(stderr, "Prints the cases of two bench reports side by side with the ratio B/A of their\n")
		fmt.Fprintf(stderr, "GFLOP/s (above 1: B is faster). Cases are matched by kernel, type, path and set.\n")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 2 {
		return fmt.Errorf("%w: bench compare needs two report files, got %d arguments", errUsage, fs.NArg())
	}
	if err := (stdio{stdout, stderr}).notAnInput(fs.Arg(0), fs.Arg(1)); err != nil {
		return err
	}
	a, err := readBenchReport(fs.Arg(0))
	if err != nil {
		return err
	}
	b, err := readBenchReport(fs.Arg(1))
	if err != nil {
		return err
	}
	printCompare(stdout, fs.Arg(0), a, fs.Arg(1), b)
	return nil
}

// readBenchReport reads and validates a -json report. Every content error
// wraps errMalformed and names the file (with line and column for JSON
// errors). A report begins with {"schema" as bench -json writes it: a file
// that does not is refused from its first bytes, before the rest is read.
func readBenchReport(name string) (*benchReport, error) {
	var rep benchReport
	start := &jsonStart{key: "schema", what: "a rosenblatt bench report"}
	if err := decodeJSONFile(name, maxReport, start, &rep); err != nil {
		return nil, err
	}
	if err := rep.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, errMalformed, err)
	}
	return &rep, nil
}

// validate checks a decoded report: the schema, and every result having
// its identifying fields and positive, finite timings and rates.
func (rep *benchReport) validate() error {
	if rep.Schema != benchSchema {
		if rep.Schema == "" {
			return fmt.Errorf("not a rosenblatt bench report (no \"schema\" field)")
		}
		return fmt.Errorf("schema %q, want %q", rep.Schema, benchSchema)
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
		for _, v := range []struct {
			name string
			x    float64
		}{{"ns_per_op", r.NsPerOp}, {"gflops", r.GFLOPS}, {"gbps", r.GBps}} {
			if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 {
				return bad("%s = %v, want a finite value ≥ 0", v.name, v.x)
			}
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

// rate is the figure compared: GFLOP/s, or GB/s for a case without flops.
func (r *benchResult) rate() (float64, string) {
	if r.GFLOPS > 0 {
		return r.GFLOPS, "GFLOP/s"
	}
	return r.GBps, "GB/s"
}

func describeReport(rep *benchReport) string {
	m := &rep.Machine
	s := fmt.Sprintf("%s, %s/%s, %s, kernels %s (auto=%s), %s",
		orUnknown(m.Brand), m.GOOS, m.GOARCH, m.GoVersion, strings.Join(m.Kernels, ","), m.ActiveKernel, rep.Created)
	if rep.Quick {
		s += ", QUICK"
	}
	return s
}

func printCompare(w io.Writer, nameA string, a *benchReport, nameB string, b *benchReport) {
	var out strings.Builder
	fmt.Fprintf(&out, "A: %s\n   %s\n", nameA, describeReport(a))
	fmt.Fprintf(&out, "B: %s\n   %s\n", nameB, describeReport(b))
	if a.Quick || b.Quick {
		out.WriteString("note: a quick report's numbers are a smoke test, not a measurement\n")
	}
	out.WriteString("B/A is the ratio of the rates (GFLOP/s; GB/s where a case has no flops): above 1, B is faster.\n\n")

	inB := map[string]*benchResult{}
	for i := range b.Results {
		inB[b.Results[i].key()] = &b.Results[i]
	}
	inA := map[string]bool{}
	fmt.Fprintf(&out, "%-6s  %-7s  %-4s  %-9s  %10s  %10s  %10s  %10s  %7s\n",
		"kernel", "type", "set", "path", "A bytes", "B bytes", "A rate", "B rate", "B/A")
	var onlyA, onlyB []string
	common := 0
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
		fmt.Fprintf(&out, "%-6s  %-7s  %-4s  %-9s  %10s  %10s  %10.2f  %10.2f  %7s  %s\n",
			ra.Kernel, ra.Type, ra.Set, ra.Path, fmtBytes(ra.Bytes), fmtBytes(rb.Bytes), va, vb, ratio, unit)
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

func describeCase(r *benchResult) string {
	v, unit := r.rate()
	return fmt.Sprintf("%-6s  %-7s  %-4s  %-9s  %10s  %.2f %s", r.Kernel, r.Type, r.Set, r.Path, fmtBytes(r.Bytes), v, unit)
}
