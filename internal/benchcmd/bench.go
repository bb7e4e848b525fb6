// Package benchcmd is the bench subcommand of the rosenblatt command: the
// machine's roofline, measured, and the kernel suite timed against it on
// every implementation; "bench compare" puts two of its reports side by
// side.
package benchcmd

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/bounded"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/internal/roofline"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The bench subcommand: the machine's roofline, measured (the clock, and
// per implementation the floating-point peak and the read bandwidth of
// each cache level and of memory), then the kernel suite on every
// implementation, each case placed on that roofline.
//
//	rosenblatt bench [-json FILE [-f]] [-quick] [-paths generic,avx2,auto] [-q] [-time D] [-runs N]
//	rosenblatt bench compare A.json B.json
//
// The roofline pictures are drawn from the -json reports by a command of
// the bench module (bench/roofplot), so that the plotting stack stays out
// of this command's build and of the library's go.sum.

// benchSchema identifies the JSON report format. bench compare also reads
// reports of benchSchemaV1 (their rates, without a roofline) and refuses
// anything else.
const (
	benchSchema   = "rosenblatt-bench/2"
	benchSchemaV1 = "rosenblatt-bench/1"
)

// autoPath is the pseudo-path that runs the package-level functions, i.e.
// whatever implementation the kernel package chose at start-up (including
// the ROSENBLATT_KERNEL cap), through its dispatch.
const autoPath = "auto"

// benchReport is the -json report.
type benchReport struct {
	Schema   string          `json:"schema"`
	Created  string          `json:"created"` // RFC 3339, UTC
	Quick    bool            `json:"quick"`
	MinTime  string          `json:"min_time_per_run"`
	Runs     int             `json:"runs"`
	Machine  machineInfo     `json:"machine"`
	Roofline *rooflineReport `json:"roofline,omitempty"` // nil in a schema 1 report
	Results  []benchResult   `json:"results"`
	Notes    []string        `json:"notes,omitempty"`
}

// benchResult is one timed case.
type benchResult struct {
	// Case names the case the same way on every machine and architecture:
	// kernel/type/set. With Path it identifies a result across reports.
	Case   string `json:"case"`
	Kernel string `json:"kernel"` // dot, axpy, matvec, gram, train
	Type   string `json:"type"`   // float32, float64
	Path   string `json:"path"`   // an implementation name, or "auto"
	Impl   string `json:"impl"`   // the implementation that ran ("auto" resolved)
	// ISA and VectorBits describe the implementation that ran (0 bits:
	// scalar Go).
	ISA        string `json:"isa,omitempty"`
	VectorBits int    `json:"vector_bits"`
	Set        string `json:"set"`   // working-set class: L1, L2, L3, DRAM, or "-" (gram, train)
	Shape      string `json:"shape"` // e.g. "n=2048", "rows=15 cols=256", "N=1024 D=256"
	Bytes      int64  `json:"working_set_bytes"`
	// Threads is the number of goroutines the case runs on.
	Threads int `json:"threads"`
	// FlopsPerOp and BytesPerOp are the floating-point operations and the
	// memory traffic (reads plus writes of the operands, once each) of one
	// call, from which GFLOPS and GBps are computed. ReadBytesPerOp is
	// the part read, the denominator of the arithmetic intensity.
	FlopsPerOp     int64 `json:"flops_per_op"`
	BytesPerOp     int64 `json:"bytes_per_op"`
	ReadBytesPerOp int64 `json:"read_bytes_per_op"`
	Iterations     int64 `json:"iterations_per_run"`
	// NsPerOp is the best (lowest) run; MedianNsPerOp the median of the
	// runs.
	NsPerOp       float64 `json:"ns_per_op"`
	MedianNsPerOp float64 `json:"median_ns_per_op"`
	GFLOPS        float64 `json:"gflops"`
	GBps          float64 `json:"gbps"`
	// The case on the roofline (see rooflineReport.place): flops per
	// byte read, the level whose bandwidth applies, the roof in GFLOP/s,
	// what bounds it ("compute" or "<level> read"), and GFLOPS as a
	// percentage of it. Zero when the report has no roofline.
	Intensity   float64 `json:"flops_per_byte,omitempty"`
	RoofLevel   string  `json:"roof_level,omitempty"`
	Roof        float64 `json:"roof_gflops,omitempty"`
	Bound       string  `json:"bound,omitempty"`
	RoofPercent float64 `json:"roof_percent,omitempty"`
	// RoofRechecks is the number of times the bandwidth of the case's
	// level was measured again right after it because the case ran
	// above its roof by more than roofNoise (see settleRoof).
	RoofRechecks int `json:"roof_rechecks,omitempty"`
}

// caseName is kernel/type/set.
func caseName(kernel, typ, set string) string { return kernel + "/" + typ + "/" + set }

// key identifies a result across reports: its case and path.
func (r *benchResult) key() string { return r.Case + "/" + r.Path }

// benchPath is one implementation to run, or auto (im == nil).
type benchPath struct {
	name string
	im   *kernel.Impl
}

// implName is the implementation that runs on this path.
func (p benchPath) implName() string {
	if p.im == nil {
		return kernel.ActiveImpl().Name()
	}
	return p.im.Name()
}

// impl is the implementation that runs on this path.
func (p benchPath) impl() *kernel.Impl {
	if p.im == nil {
		return kernel.ActiveImpl()
	}
	return p.im
}

// benchConfig is what the flags select.
type benchConfig struct {
	quick   bool
	minTime time.Duration
	runs    int
	paths   []benchPath
	// tiny shrinks every working set, shape and trial to a smoke test:
	// the package's tests set it (Tiny) so that they run in moments,
	// also under qemu.
	tiny bool
}

// Tiny makes every bench run tiny (see benchConfig.tiny); only tests
// set it.
var Tiny = false

// workingSet is one cache level's working-set size.
type workingSet struct {
	name  string // L1, L2, L3, DRAM
	bytes int64
}

// Bounds of the DRAM working set, and the L1D and L2 sizes assumed when
// neither cpuid nor sysfs gives them.
const (
	fallbackL1D = 32 << 10
	fallbackL2  = 256 << 10
	minDRAM     = 64 << 20
	maxDRAM     = 256 << 20
)

// workingSets derives the four working-set sizes from the cache sizes: half
// of L1D, half of L2, half of L3, and 4×L3 (clamped to [64 MiB, 256 MiB])
// for memory. Unknown (≤ 0) L1D and L2 sizes fall back to 32 KiB and 256
// KiB; an unknown L3 (bench measures it first, so only when that failed
// too) gives 4×L2 for the L3 set and 256 MiB for memory. Tiny (tests)
// uses tiny fixed sizes instead. Every size is a whole number of the read
// loops' 512-byte blocks.
func workingSets(l1d, l2, l3 int, tiny bool) []workingSet {
	if tiny {
		return []workingSet{{"L1", 4 << 10}, {"L2", 16 << 10}, {"L3", 64 << 10}, {"DRAM", 256 << 10}}
	}
	if l1d <= 0 {
		l1d = fallbackL1D
	}
	if l2 <= 0 {
		l2 = fallbackL2
	}
	l3set, dram := int64(l3)/2, min(max(4*int64(l3), minDRAM), maxDRAM)
	if l3 <= 0 {
		l3set, dram = 4*int64(l2), maxDRAM
	}
	block := func(b int64) int64 { return max(b/512*512, 512) }
	return []workingSet{{"L1", block(int64(l1d) / 2)}, {"L2", block(int64(l2) / 2)}, {"L3", block(l3set)}, {"DRAM", block(dram)}}
}

// gramShape returns the N×D of the Gram case: big enough to be a matrix
// product rather than a loop of dot products, small enough to take well
// under a second per call on the portable path.
func gramShape(tiny bool) (n, d int) {
	if tiny {
		return 48, 16
	}
	return 1024, 256
}

// matvecCols is the row length of the MatVec cases.
func matvecCols(tiny bool) int {
	if tiny {
		return 64
	}
	return 256
}

// Run is "rosenblatt bench" with args (the words after "bench"), writing
// its report to stdout and its progress bar to stderr. Usage errors wrap
// cli.ErrUsage; -h returns flag.ErrHelp.
func Run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "compare" {
		return runBenchCompare(args[1:], stdout, stderr)
	}
	if Fit == nil || Gram == nil {
		return ErrNotWired
	}
	fs := cli.NewFlagSet("bench", stderr)
	jsonFile := fs.String("json", "", "save the full report as JSON to `FILE` (\"-\": standard output, the table then goes to stderr)")
	plotFile := fs.String("plot", "", "not drawn here any more: save the report with -json and draw it with "+roofplotCommand)
	force := fs.Bool("f", false, "overwrite the -json file if it exists")
	quick := fs.Bool("quick", false, "fewer trials and shorter runs (under 10 s; the figures are rougher)")
	pathsFlag := fs.String("paths", "", "comma-separated `list` of implementations to run (default: every available one, and auto)")
	quiet := fs.Bool("q", false, "no progress bar")
	showProgress := fs.Bool("progress", false, "draw the progress bar on stderr even when it is not a terminal (a log, a CI job)")
	minTime := fs.Duration("time", 0, "minimum time of one timed run (default 20ms, 5ms with -quick)")
	runs := fs.Int("runs", 0, "timed runs per case; the best is reported (default 12, 2 with -quick)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: rosenblatt bench [flags]\n       rosenblatt bench compare A.json B.json\n\n")
		fmt.Fprintf(stderr, "Measures the machine's roofline (the clock, and per kernel implementation the\n")
		fmt.Fprintf(stderr, "FMA peak and the L1/L2/L3/DRAM read bandwidths), then times Dot, Axpy and\n")
		fmt.Fprintf(stderr, "MatVec at each working set, a Gram matrix and a training run on every\n")
		fmt.Fprintf(stderr, "implementation, each as a percentage of its roof. To draw the roofline, save\n")
		fmt.Fprintf(stderr, "the report with -json and run, from a clone: %s\n\nflags:\n", roofplotCommand)
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if *plotFile != "" {
		return errPlotMoved("-plot")
	}
	cfg := benchConfig{quick: *quick, minTime: *minTime, runs: *runs, tiny: Tiny}
	if cfg.minTime < 0 || cfg.runs < 0 {
		return fmt.Errorf("%w: -time and -runs must not be negative", cli.ErrUsage)
	}
	if *quiet && *showProgress {
		return fmt.Errorf("%w: -q and -progress contradict each other", cli.ErrUsage)
	}
	if cfg.minTime == 0 {
		switch {
		case cfg.tiny:
			cfg.minTime = time.Millisecond
		case cfg.quick:
			cfg.minTime = 5 * time.Millisecond
		default:
			// Many short runs rather than a few long ones, as the
			// roofline's trials: on a shared machine the best of them
			// is the likeliest to be undisturbed, like the roof's.
			cfg.minTime = 20 * time.Millisecond
		}
	}
	if cfg.runs == 0 {
		cfg.runs = 12
		if cfg.quick {
			cfg.runs = 2
		}
	}
	var err error
	if cfg.paths, err = parsePaths(*pathsFlag); err != nil {
		return err
	}
	std := cli.Stdio{Out: stdout, Err: stderr}
	if f := *jsonFile; f != "" {
		if err := std.CheckWritable(f, *force); err != nil {
			return err
		}
		if fd, ok := cli.DescriptorOf(f); ok && fd == 1 {
			stdout = stderr // the file goes to standard output alone
		}
	}

	rep, err := runSuite(cfg, newSuiteProgress(cfg, *quiet, *showProgress, stderr))
	if err != nil {
		return err
	}
	printReport(stdout, rep)
	if *jsonFile != "" {
		err := std.WriteOutput(*jsonFile, *force, nil, func(w io.Writer) error {
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

// roofplotCommand draws the rooflines of -json reports (bench/roofplot, in
// the bench module of the repository).
const roofplotCommand = "go -C bench run ./roofplot -o FILE.svg REPORT.json..."

// errPlotMoved is the usage error of the former -plot flags: one line
// saying where the pictures are drawn now.
func errPlotMoved(flag string) error {
	return fmt.Errorf("%w: %s: the roofline is no longer drawn by rosenblatt (its plotting library would be in every build); save the report with -json and run, from a clone: %s", cli.ErrUsage, flag, roofplotCommand)
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
				cli.ErrUsage, name, runtime.GOOS, runtime.GOARCH, cli.Purego, valid)
		case found == nil:
			return nil, fmt.Errorf("%w: -paths: unknown implementation %q (this CPU and build can run %s)", cli.ErrUsage, name, valid)
		case !found.Available():
			return nil, fmt.Errorf("%w: -paths: this CPU cannot run %q (it can run %s)", cli.ErrUsage, name, valid)
		}
		ps = append(ps, benchPath{name, found})
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%w: -paths: empty list (this CPU and build can run %s)", cli.ErrUsage, valid)
	}
	return ps, nil
}

// pathImpls returns the implementations the paths run, each once, in
// kernel.Impls order.
func pathImpls(paths []benchPath) []*kernel.Impl {
	var ims []*kernel.Impl
	for _, im := range usableImpls() {
		for _, p := range paths {
			if p.impl() == im {
				ims = append(ims, im)
				break
			}
		}
	}
	return ims
}

// benchCase is one case of the suite, ready to time.
type benchCase struct {
	res benchResult
	fn  func() // one operation
	// operands, if not nil, are the bytes the case reads (its working
	// set): the roofline's bandwidth of its level is measured on them
	// again after the case.
	operands []uint64
}

// runSuite measures the roofline, runs every case and returns the report.
func runSuite(cfg benchConfig, prog cli.Progress) (*benchReport, error) {
	defer prog.Finish()
	m := currentMachine()
	rep := &benchReport{
		Schema:  benchSchema,
		Created: time.Now().UTC().Format(time.RFC3339),
		Quick:   cfg.quick,
		MinTime: cfg.minTime.String(),
		Runs:    cfg.runs,
	}
	if cfg.quick {
		rep.Notes = append(rep.Notes, "quick mode: fewer trials and shorter runs than the default; the figures are rougher")
	}
	if m.Emulated {
		// The figures would describe the emulator: a smoke test will do,
		// at a fraction of the (emulated) time.
		rep.Notes = append(rep.Notes, "emulated: tiny working sets and shapes, since the figures describe the emulator anyway")
	} else if cfg.tiny {
		rep.Notes = append(rep.Notes, "tiny sizes (a test run): the figures are a smoke test, not a measurement")
	}
	cfg.tiny = cfg.tiny || m.Emulated
	plan := planFor(cfg)
	ims := pathImpls(cfg.paths)
	// One buffer for every read of the run, so that its pages are faulted
	// in once: the L3 sweep's, the roofline's and the vector cases'
	// operands (as float32 or float64).
	sweep := m.L3 <= 0 && !cfg.tiny && len(ims) > 0
	arenaBytes := workingSets(m.L1D, m.L2, max(m.L3, 0), cfg.tiny)[3].bytes
	if sweep {
		arenaBytes = maxDRAM
	}
	arena := make([]uint64, arenaBytes/8)
	adviseHugePages(arena)
	for i := range arena {
		// Normal float64s (the generic roof also reads them as such:
		// subnormals take a slow path on some cores), distinct words.
		arena[i] = math.Float64bits(float64(i) + 1)
	}
	if sweep {
		// No L3 size from cpuid or sysfs: measure it with the widest
		// loads, before the working sets are chosen.
		prog.Describe("roofline: L3 size")
		if l := roofline.For(ims[len(ims)-1]); l != nil {
			m.L3, m.L3Source = measureL3(l, m.L2, plan, arena)
		}
	}
	prog.Add(1)
	sets := workingSets(m.L1D, m.L2, m.L3, cfg.tiny)
	rf := measureRoofline(ims, sets, m.Cores, plan, prog, arena)
	if !m.Emulated {
		m.Emulated, m.EmulatedWhy = emulatedFromRates(rf)
	}
	rep.Machine, rep.Roofline = m, rf

	add := func(c benchCase) {
		prog.Describe(fmt.Sprintf("%-6s %-7s %-4s %-7s", c.res.Kernel, c.res.Type, c.res.Set, c.res.Path))
		// The roof of the case's level, measured again on its operands
		// just before and just after it: the machine's load changes.
		refresh := func() {
			for _, p := range cfg.paths {
				if c.operands != nil && p.name == c.res.Path {
					rf.refresh(p.impl(), c.res.Set, c.operands, roofline.Trials{Count: plan.refresh, Min: plan.min})
				}
			}
		}
		refresh()
		t := measure(c.fn, cfg.minTime, cfg.runs)
		refresh()
		r := c.res
		r.Case = caseName(r.Kernel, r.Type, r.Set)
		r.Iterations, r.NsPerOp, r.MedianNsPerOp = t.iters, t.best, t.median
		r.GFLOPS = float64(r.FlopsPerOp) / t.best
		r.GBps = float64(r.BytesPerOp) / t.best
		if !m.Emulated { // under an emulator the roofs bound nothing
			recheck := func(bound string) {
				t := roofline.Trials{Count: plan.trials, Min: plan.min}
				for _, p := range cfg.paths {
					switch {
					case p.name != c.res.Path:
					case bound == "compute":
						rf.refreshPeak(p.impl(), c.res.Type, c.res.Threads, t)
					case c.operands != nil:
						rf.refresh(p.impl(), c.res.Set, c.operands, t)
					}
				}
			}
			r.RoofRechecks = settleRoof(rf, r, &m, plan.rechecks, recheck)
		}
		rep.Results = append(rep.Results, r)
		prog.Add(1)
	}

	// Vector kernels, one working set at a time, on the arena.
	for _, ws := range sets {
		vectorCases32(ws, cfg, arena[:ws.bytes/8], add)
		vectorCases64(ws, cfg, arena[:ws.bytes/8], add)
	}
	arena = nil
	runtime.GC()
	if err := gramCases(cfg, gramThreads(&m), add); err != nil {
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
	// Every case on the roofline, now that the roofs have their last
	// measurements.
	for i := range rep.Results {
		rf.place(&rep.Results[i], &rep.Machine)
	}
	rep.Notes = append(rep.Notes, overRoof(rep)...)
	return rep, nil
}

// suiteSize is the number of progress steps runSuite takes: the L3 step,
// the roofline's, and one per case.
func suiteSize(cfg benchConfig, cores int) int {
	perPath := 4*4 + 1 // (dot32, axpy32, matvec32, dot64) × 4 sets + gram
	return 1 + rooflineSteps(len(pathImpls(cfg.paths)), cores, 4) + perPath*len(cfg.paths) + trainCaseCount(cfg)
}

// newSuiteProgress returns runSuite's progress bar on w: drawn when w is
// a terminal and quiet is false, or whatever w is when force is set
// (-progress).
func newSuiteProgress(cfg benchConfig, quiet, force bool, w io.Writer) cli.Progress {
	total := suiteSize(cfg, currentMachine().Cores)
	if force {
		return cli.NewProgressBar(total, "bench", w)
	}
	return cli.NewProgress(total, "bench", quiet, w)
}

// randomVec returns n pseudo-random values in [-1, 1] (deterministic).
func randomVec[T kernel.Float](n int, seed uint64) []T {
	v := make([]T, n)
	fillRandom(v, seed)
	return v
}

// fillRandom sets v to pseudo-random values in [-1, 1] (deterministic):
// SplitMix64's output as a signed 53-bit fraction. It fills the bench's
// operands, up to 256 MiB per working set, so it is kept a few times
// cheaper than math/rand/v2's generators behind their interface.
func fillRandom[T kernel.Float](v []T, seed uint64) {
	x := seed
	for i := range v {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		v[i] = T(float64(int64(z)>>11) * 0x1p-52)
	}
}

// vectorCases32 adds the float32 Dot, Axpy and MatVec cases of one working
// set for every path, on the words of operands (ws.bytes of them).
func vectorCases32(ws workingSet, cfg benchConfig, operands []uint64, add func(benchCase)) {
	const s = 4
	buf := roofline.Float32s(operands)
	fillRandom(buf, 1)
	n := len(buf) / 2 // two vectors
	x, y := buf[:n:n], buf[n:]
	cols := matvecCols(cfg.tiny)
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
		r.FlopsPerOp, r.BytesPerOp, r.ReadBytesPerOp = int64(2*n), int64(2*n*s), int64(2*n*s)
		var acc float32
		fn := func() { acc += kernel.Dot(x, y) }
		if p.im != nil {
			k := kernel.On[float32](p.im)
			fn = func() { acc += k.Dot(x, y) }
		}
		add(benchCase{r, fn, operands})
		keep(float64(acc))
	}
	// Axpy alternates the sign of a so that y stays bounded (and clear of
	// subnormals) however many times it runs.
	for _, p := range cfg.paths {
		r := results(p)
		r.Kernel, r.Shape, r.Bytes = "axpy", fmt.Sprintf("n=%d", n), int64(2*n*s)
		// read x and y, write y
		r.FlopsPerOp, r.BytesPerOp, r.ReadBytesPerOp = int64(2*n), int64(3*n*s), int64(2*n*s)
		a := float32(1.0 / 1024)
		fn := func() { kernel.Axpy(a, x, y); a = -a }
		if p.im != nil {
			k := kernel.On[float32](p.im)
			fn = func() { k.Axpy(a, x, y); a = -a }
		}
		add(benchCase{r, fn, operands})
	}
	for _, p := range cfg.paths {
		r := results(p)
		r.Kernel, r.Shape, r.Bytes = "matvec", fmt.Sprintf("rows=%d cols=%d", rows, cols), int64((rows*cols+cols+rows)*s)
		// read X and w, write dst
		r.FlopsPerOp, r.BytesPerOp, r.ReadBytesPerOp = int64(2*rows*cols), int64((rows*cols+cols+rows)*s), int64((rows*cols+cols)*s)
		fn := func() { kernel.MatVec(dst, X, w) }
		if p.im != nil {
			k := kernel.On[float32](p.im)
			fn = func() { k.MatVec(dst, X, w) }
		}
		add(benchCase{r, fn, operands})
	}
}

// vectorCases64 adds the float64 Dot case of one working set for every
// path, on the words of operands (ws.bytes of them).
func vectorCases64(ws workingSet, cfg benchConfig, operands []uint64, add func(benchCase)) {
	const s = 8
	buf := roofline.Float64s(operands)
	fillRandom(buf, 3)
	n := len(buf) / 2
	x, y := buf[:n:n], buf[n:]
	for _, p := range cfg.paths {
		r := benchResult{Kernel: "dot", Type: "float64", Path: p.name, Impl: p.implName(), Set: ws.name, Threads: 1,
			Shape: fmt.Sprintf("n=%d", n), Bytes: int64(2 * n * s), FlopsPerOp: int64(2 * n), BytesPerOp: int64(2 * n * s),
			ReadBytesPerOp: int64(2 * n * s)}
		var acc float64
		fn := func() { acc += kernel.Dot(x, y) }
		if p.im != nil {
			k := kernel.On[float64](p.im)
			fn = func() { acc += k.Dot(x, y) }
		}
		add(benchCase{r, fn, operands})
		keep(acc)
	}
}

// gramCases adds a float32 linear Gram matrix per path. Compute evaluates
// the lower triangle, N(N+1)/2 dot products of length D, on threads
// goroutines; its traffic is reading X once and writing the N×N result.
func gramCases(cfg benchConfig, threads int, add func(benchCase)) error {
	n, d := gramShape(cfg.tiny)
	X := randomVec[float32](n*d, 4)
	for _, p := range cfg.paths {
		opts := &gram.Options{Impl: p.im, Threads: threads}
		r := benchResult{Kernel: "gram", Type: "float32", Path: p.name, Impl: p.implName(), Set: "-", Threads: threads,
			Shape: fmt.Sprintf("N=%d D=%d", n, d), Bytes: int64((n*d + n*n) * 4),
			FlopsPerOp: int64(n) * int64(n+1) * int64(d), BytesPerOp: int64((n*d + n*n) * 4), ReadBytesPerOp: int64(n * d * 4)}
		var failed error
		fn := func() {
			if err := Gram(X, d, opts); err != nil && failed == nil {
				failed = err
			}
		}
		add(benchCase{r, fn, nil})
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

// sharedSink keeps the results of goroutines measured at once (sink is for
// one goroutine only).
var sharedSink atomic.Uint64

func keepShared(v float64) { sharedSink.Store(math.Float64bits(v)) }

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
	fmt.Fprintf(&b, "rosenblatt bench: %s (%s/%s, %s)\n", cli.OrUnknown(m.Brand), m.GOOS, m.GOARCH, m.GoVersion)
	describeMachine(&b, m)
	if rep.Roofline != nil {
		describeRoofline(&b, rep.Roofline, m.Emulated)
	}
	b.WriteByte('\n')
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	fmt.Fprintf(&b, "timing: best of %d runs of at least %s each\n\n", rep.Runs, rep.MinTime)

	fmt.Fprintf(&b, "%-6s  %-7s  %-4s  %-10s  %-20s  %-14s  %10s  %8s  %7s  %6s  %8s  %-9s  %6s\n",
		"kernel", "type", "set", "bytes", "shape", "path", "ns/op", "GFLOP/s", "GB/s", "flop/B", "roof", "bound", "%roof")
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
		fmt.Fprintf(&b, "%-6s  %-7s  %-4s  %-10s  %-20s  %-14s  %10s  %8.2f  %7.2f",
			r.Kernel, r.Type, r.Set, fmtBytes(r.Bytes), r.Shape, path, fmtNs(r.NsPerOp), r.GFLOPS, r.GBps)
		if r.Roof > 0 {
			flag := ""
			switch {
			case r.RoofPercent > 100+roofNoise:
				flag = " !"
			case r.RoofPercent > 100:
				flag = " ~"
			}
			fmt.Fprintf(&b, "  %6.3g  %8.1f  %-9s  %5.1f%%%s", r.Intensity, r.Roof, r.Bound, r.RoofPercent, flag)
		}
		if r.Threads > 1 {
			fmt.Fprintf(&b, "  (%d threads)", r.Threads)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\nflop/B is the flops per byte read; roof is the lower of the compute peak and flop/B × the read\n")
	b.WriteString("bandwidth of the case's level (for the case's implementation and thread count); %roof is GFLOP/s\n")
	fmt.Fprintf(&b, "against it. \"~\" marks a case at its roof, up to %.0f%% above it (noise); \"!\" one further above: a\n", roofNoise)
	b.WriteString("measurement error (explained after the table).\n")
	io.WriteString(w, b.String())
}

// fmtBytes formats a byte count in B, KiB, MiB or GiB (bounded.FormatBytes,
// as package model's refusals write it).
// MaxReport bounds a bench report, which is read whole (a variable so that
// tests can lower it): a full report is some 100 KB.
var MaxReport int64 = 64 << 20

func fmtBytes(b int64) string { return bounded.FormatBytes(b) }

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
