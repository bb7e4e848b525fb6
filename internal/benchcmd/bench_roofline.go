package benchcmd

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/internal/roofline"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// The measured roofline: per implementation, the floating-point peak and
// the read bandwidth at each working set; for the machine, the clock. Each
// figure is the maximum over many short trials (roofline.Best), since on a
// shared machine a trial can only be slowed down.

// rooflineReport is the roofline part of a report.
type rooflineReport struct {
	// ClockHz is the clock the core ran the dependent chain at.
	ClockHz     float64 `json:"clock_hz"`
	ClockMethod string  `json:"clock_method"`
	// Levels are the working sets of the bandwidth figures (and of the
	// vector kernels' cases), smallest first.
	Levels []levelSize `json:"levels"`
	// Trials and TrialMin: each figure is the maximum over Trials trials
	// of at least TrialMin (and of at least one pass over the working
	// set).
	Trials   int    `json:"trials"`
	TrialMin string `json:"trial_min"`
	// Method says how the figures were obtained.
	Method []string   `json:"method"`
	Impls  []implRoof `json:"impls"`
}

// levelSize is one working set.
type levelSize struct {
	Name  string `json:"name"` // L1, L2, L3, DRAM
	Bytes int64  `json:"bytes"`
}

// implRoof is the roofline of one kernel implementation.
type implRoof struct {
	Impl       string `json:"impl"`
	ISA        string `json:"isa"`
	VectorBits int    `json:"vector_bits"` // 0: scalar Go
	FMAChains  int    `json:"fma_chains"`
	// Peak32 and Peak64 are the FMA loop's GFLOP/s on one core.
	Peak32 float64 `json:"peak_gflops_float32"`
	Peak64 float64 `json:"peak_gflops_float64"`
	// PeakAll32 is the float32 FMA loop on AllCores threads at once
	// (absent when only one core is usable).
	AllCores  int     `json:"all_cores,omitempty"`
	PeakAll32 float64 `json:"peak_gflops_float32_all_cores,omitempty"`
	// Read is the read bandwidth of one core at each level, in GB/s: the
	// roof, the maximum of every measurement of the run. ReadFirst is
	// the first measurement alone (the dedicated loop's trials before any
	// case), for comparing with another tool that makes only that one.
	Read      []levelRate `json:"read_gbps"`
	ReadFirst []levelRate `json:"read_gbps_first"`
}

// levelRate is a bandwidth at one level.
type levelRate struct {
	Level string  `json:"level"`
	GBps  float64 `json:"gbps"`
}

func (im *implRoof) peak(typ string) float64 {
	if typ == "float64" {
		return im.Peak64
	}
	return im.Peak32
}

func (im *implRoof) read(level string) float64 {
	for _, r := range im.Read {
		if r.Level == level {
			return r.GBps
		}
	}
	return 0
}

// impl returns the roofline of implementation name, or nil.
func (rf *rooflineReport) impl(name string) *implRoof {
	for i := range rf.Impls {
		if rf.Impls[i].Impl == name {
			return &rf.Impls[i]
		}
	}
	return nil
}

// level returns the working set named name, or nil.
func (rf *rooflineReport) level(name string) *levelSize {
	for i := range rf.Levels {
		if rf.Levels[i].Name == name {
			return &rf.Levels[i]
		}
	}
	return nil
}

// probePlan is how long the roofline's measurements run: trials per
// figure, refresh trials before and after each case, and up to rechecks
// more refreshes after a case that passed its roof (settleRoof).
type probePlan struct {
	trials, refresh, rechecks int
	min                       time.Duration
}

// The rechecks: -quick's two refreshes of 2 trials around a case give its
// roof 8 trials of 2 ms within 10 ms of the case's own 2 runs of 5 ms.
// Under load the case's longer window may catch a quieter stretch than
// any of those trials (on the Zen 5 guest this was written on, the AVX2
// read bandwidth at L2 measured 177 GB/s in one quiet run where the AVX2
// Dot read 185, and 176 to 214 across five runs; the first measurement of
// the roof and its last differ by up to 25% at load 8 to 14). Up to
// sixteen rechecks of plan.trials trials each (8 under -quick: up to 128
// more trials) right after that case, at most about 0.2 s at L2 and 2 s in
// memory, are spent only where a case passed its roof. A recheck only
// raises a roof, so it leans towards passing a case: one is flagged only
// if it beats the best of all those trials.
func planFor(cfg benchConfig) probePlan {
	switch {
	case cfg.tiny:
		return probePlan{trials: 2, refresh: 1, rechecks: 2, min: 200 * time.Microsecond}
	case cfg.quick:
		return probePlan{trials: 8, refresh: 2, rechecks: 16, min: 2 * time.Millisecond}
	}
	return probePlan{trials: 30, refresh: 6, rechecks: 16, min: 2 * time.Millisecond}
}

// settleRoof measures the roof of result r again (again, given what
// bounds it: "compute" for the peak, else the bandwidth of its level on
// r's operands) while r runs above it by more than roofNoise, at most
// rounds times, and returns how many times it did. Each figure of
// the roofline is the maximum of its trials, and a trial can only be
// slowed down, so more trials of the roof outrun a case that caught a
// quieter moment than the roof's trials did; a roof that its kernels
// beat systematically (a loop slower than the kernels' way of reading)
// stays beaten after every recheck, and the case is still reported as a
// measurement error.
func settleRoof(rf *rooflineReport, r benchResult, m *machineInfo, rounds int, again func(bound string)) int {
	for i := range rounds {
		rf.place(&r, m)
		if r.RoofPercent <= 100+roofNoise {
			return i
		}
		again(r.Bound)
	}
	return rounds
}

// readRate is the read bandwidth of l over buf in GB/s: the maximum over
// the trials t of its read loop, and of its float64 read loop if it has
// one (the generic implementation's: see roofline.Loops.ReadFloat).
func readRate(l *roofline.Loops, buf []uint64, t roofline.Trials) float64 {
	var sink uint64
	var fsink float64
	bytes := float64(len(buf) / (roofline.ReadBlock / 8) * roofline.ReadBlock)
	gbps := roofline.Best(func(n int) { sink += l.Read(buf, n) }, bytes, t) / 1e9
	if _, ok := l.ReadFloat(nil, 0); ok {
		gbps = max(gbps, roofline.Best(func(n int) { f, _ := l.ReadFloat(buf, n); fsink += f }, bytes, t)/1e9)
	}
	keep(float64(sink) + fsink)
	return gbps
}

// refresh measures the read bandwidth of implementation impl at level
// again, over buf (a case's operands), and raises the roofline's figure
// if this one is higher.
func (rf *rooflineReport) refresh(impl *kernel.Impl, level string, buf []uint64, t roofline.Trials) {
	im, l := rf.impl(impl.Name()), roofline.For(impl)
	if im == nil || l == nil || len(buf) == 0 {
		return
	}
	for i := range im.Read {
		if im.Read[i].Level == level {
			gbps := readRate(l, buf, t)
			im.Read[i].GBps = max(im.Read[i].GBps, gbps)
		}
	}
}

// refreshPeak measures the floating-point peak of implementation impl
// for elements of type typ on threads threads again, and raises the
// roofline's figure if this one is higher: the float32 peak on all
// cores when threads is the all-cores count, else one core's.
func (rf *rooflineReport) refreshPeak(impl *kernel.Impl, typ string, threads int, t roofline.Trials) {
	im, l := rf.impl(impl.Name()), roofline.For(impl)
	if im == nil || l == nil {
		return
	}
	switch {
	case typ == "float32" && threads > 1 && threads == im.AllCores:
		peak := roofline.BestParallel(threads, func(n int) { keepShared(float64(l.FMA32(n, 1))) }, float64(l.FMAFlops(4)), t) / 1e9
		im.PeakAll32 = max(im.PeakAll32, peak)
	case typ == "float32":
		var sink float32
		peak := roofline.Best(func(n int) { sink += l.FMA32(n, 1) }, float64(l.FMAFlops(4)), t) / 1e9
		keep(float64(sink))
		im.Peak32 = max(im.Peak32, peak)
	case typ == "float64":
		var sink float64
		peak := roofline.Best(func(n int) { sink += l.FMA64(n, 1) }, float64(l.FMAFlops(8)), t) / 1e9
		keep(sink)
		im.Peak64 = max(im.Peak64, peak)
	}
}

// rooflineSteps is the number of progress steps measureRoofline takes
// for n implementations: the clock, and per implementation two peaks, the
// all-cores peak and one bandwidth per level.
func rooflineSteps(n, cores, levels int) int {
	per := 2 + levels
	if cores > 1 {
		per++
	}
	return 1 + n*per
}

// measureRoofline measures the clock, and the peaks and bandwidths of
// every implementation in ims on the working sets sets, reading a prefix
// of buf (which holds at least the largest set).
func measureRoofline(ims []*kernel.Impl, sets []workingSet, cores int, plan probePlan, prog cli.Progress, buf []uint64) *rooflineReport {
	rf := &rooflineReport{
		Trials: plan.trials, TrialMin: plan.min.String(),
		ClockMethod: fmt.Sprintf("a chain of dependent single-cycle integer operations (%s)", roofline.ChainSource),
	}
	for _, ws := range sets {
		rf.Levels = append(rf.Levels, levelSize{ws.name, ws.bytes})
	}
	tr := roofline.Trials{Count: plan.trials, Min: plan.min}
	var sink uint64
	var fsink float64
	prog.Describe("roofline: clock")
	rf.ClockHz = roofline.Best(func(n int) { sink += roofline.Chain(n) }, roofline.ChainSteps, tr)
	prog.Add(1)

	for _, im := range ims {
		l := roofline.For(im)
		if l == nil {
			continue
		}
		ir := implRoof{Impl: l.Impl, ISA: l.ISA, VectorBits: l.VectorBits, FMAChains: l.FMAChains}
		prog.Describe(fmt.Sprintf("roofline: %s peak", l.Impl))
		ir.Peak32 = roofline.Best(func(n int) { fsink += float64(l.FMA32(n, 1)) }, float64(l.FMAFlops(4)), tr) / 1e9
		prog.Add(1)
		ir.Peak64 = roofline.Best(func(n int) { fsink += l.FMA64(n, 1) }, float64(l.FMAFlops(8)), tr) / 1e9
		prog.Add(1)
		if cores > 1 {
			prog.Describe(fmt.Sprintf("roofline: %s peak, %d cores", l.Impl, cores))
			ir.AllCores = cores
			// each goroutine keeps its own result (a shared sink would be a data race)
			ir.PeakAll32 = roofline.BestParallel(cores, func(n int) { keepShared(float64(l.FMA32(n, 1))) }, float64(l.FMAFlops(4)), tr) / 1e9
			prog.Add(1)
		}
		for _, ws := range sets {
			prog.Describe(fmt.Sprintf("roofline: %s %s read", l.Impl, ws.name))
			ir.Read = append(ir.Read, levelRate{ws.name, readRate(l, buf[:ws.bytes/8], tr)})
			prog.Add(1)
		}
		ir.ReadFirst = append([]levelRate(nil), ir.Read...)
		rf.Impls = append(rf.Impls, ir)
	}
	keep(float64(sink) + fsink)
	rf.Method = []string{
		fmt.Sprintf("every figure is the maximum over %d trials of at least %s (and one pass over the working set): on a shared machine a trial can only be slowed down", plan.trials, plan.min),
		fmt.Sprintf("each bandwidth is measured again (%d trials) on the bytes of every case of its level, just before and just after the case: the roof is the maximum of all these trials, so that a quieter moment during a case also raises its roof", plan.refresh),
		fmt.Sprintf("a case that runs more than %.0f%% above its roof has that roof (the peak or the bandwidth that bounds it) measured again right after it, %d trials at a time, up to %d times, until the case is within %.0f%%: a moment quieter for the case than for the roof's trials is outrun, a roof that the case beats systematically is not", roofNoise, plan.trials, plan.rechecks, roofNoise),
		"clock: " + rf.ClockMethod,
		"peak: an FMA-throughput loop per implementation (internal/roofline): independent accumulators on registers only, enough to hide the FMA latency; 2 flops per FMA lane (the generic implementation's loop is scalar Go, s = s·a + a)",
		fmt.Sprintf("all-cores peak: the float32 loop on %d threads at once", cores),
		"read bandwidth: a streaming read loop per implementation with its widest loads into 8 accumulators, one core, reading the two halves of each working set at once (two streams, as Dot and Axpy read x and y); the generic implementation's is the faster of two scalar Go loops, one call per pass over the working set and no register spilled: integer loads and adds into 8 sums, and float64 loads, multiplies and adds (its Dot's own instructions) into 4 sums of two products each, where its Dot's 4 sums take one",
	}
	return rf
}

// measureL3 estimates the L3 size when neither cpuid nor sysfs gives it,
// from the read bandwidth of l at working sets doubling from 2·L2 to
// maxDRAM: the L3 is the largest size whose bandwidth stays above the
// geometric mean of the first size's and memory's, whatever a size in
// between does (a dip is another program's moment). Memory's is the
// higher of the last two sizes': the largest, whose trials each take a
// pass of 10 ms or more, is the likeliest to be slowed by other programs,
// and a memory figure too low puts the cut too low and the L3 too large
// (128 MiB for this Zen 5 guest's 32 MiB under a load of 14). It returns
// 0 when the first size is not clearly faster than memory (no level
// between L2 and memory shows), and a description of the measurement.
// buf holds at least maxDRAM bytes.
func measureL3(l *roofline.Loops, l2 int, plan probePlan, buf []uint64) (int, string) {
	first := max(2*int64(l2), 1<<20)
	var sizes []int64
	for s := first; s <= int64(len(buf))*8; s *= 2 {
		sizes = append(sizes, s)
	}
	if len(sizes) < 3 {
		return 0, "unknown"
	}
	bw := make([]float64, len(sizes))
	for i, s := range sizes {
		bw[i] = readRate(l, buf[:s/8], roofline.Trials{Count: plan.trials, Min: plan.min}) * 1e9
	}
	return l3FromSweep(sizes, bw)
}

// l3FromSweep is measureL3's rule, separated for the tests.
func l3FromSweep(sizes []int64, bw []float64) (int, string) {
	top, mem := bw[0], max(bw[len(bw)-1], bw[len(bw)-2])
	var steps []string
	for i := range sizes {
		steps = append(steps, fmt.Sprintf("%s %.0f", fmtBytes(sizes[i]), bw[i]/1e9))
	}
	sweep := "read GB/s by working set: " + strings.Join(steps, ", ")
	if !(top >= 1.5*mem) {
		return 0, "unknown (no level between L2 and memory shows in a read sweep: " + sweep + ")"
	}
	cut := math.Sqrt(top * mem)
	l3 := sizes[0]
	for i := len(sizes) - 1; i >= 0; i-- {
		if bw[i] >= cut {
			l3 = sizes[i]
			break
		}
	}
	return int(l3), fmt.Sprintf("measured: the largest working set read at over %.0f GB/s, the geometric mean of %s's bandwidth and memory's (the higher of %s's and %s's); cpuid and sysfs report none; %s",
		cut/1e9, fmtBytes(sizes[0]), fmtBytes(sizes[len(sizes)-2]), fmtBytes(sizes[len(sizes)-1]), sweep)
}

// emulatedFromRates reports whether the measured figures are implausible
// for hardware: a SIMD FMA loop running under one flop per cycle of the
// measured clock (a real vector unit does at least 2), as under a
// binary translator such as qemu's.
func emulatedFromRates(rf *rooflineReport) (bool, string) {
	if rf.ClockHz <= 0 {
		return false, ""
	}
	for _, im := range rf.Impls {
		if im.VectorBits == 0 || im.Peak32 <= 0 {
			continue
		}
		if perCycle := im.Peak32 * 1e9 / rf.ClockHz; perCycle < 1 {
			return true, fmt.Sprintf("the %s FMA loop ran %.2f float32 flops per cycle of the measured %.2f GHz clock, where a %d-bit vector unit does at least 2: the CPU is emulated",
				im.Impl, perCycle, rf.ClockHz/1e9, im.VectorBits)
		}
	}
	return false, ""
}

// levelOf returns the level whose working set a case of the given bytes
// falls in: the first cache it fits (with unknown sizes taken as twice
// the level's working set), else DRAM.
func levelOf(bytes int64, m *machineInfo, rf *rooflineReport) string {
	for _, c := range []struct {
		name string
		size int
	}{{"L1", m.L1D}, {"L2", m.L2}, {"L3", m.L3}} {
		s := int64(c.size)
		if s <= 0 {
			if l := rf.level(c.name); l != nil {
				s = 2 * l.Bytes
			}
		}
		if bytes <= s {
			return c.name
		}
	}
	return "DRAM"
}

// place puts result r on the roofline: its arithmetic intensity (flops
// per byte read), the level whose bandwidth bounds it, its roof (the
// lower of the compute peak and intensity × bandwidth, for its thread
// count) and its rate as a percentage of the roof.
//
// The memory roofs are read bandwidths and the intensity counts the bytes
// a case reads once (not what it writes, not re-reads of data in
// registers or L1): both make the memory roof an upper bound on what the
// case can reach. With threads > 1, the roofs are the all-cores peak
// (measured) and threads × one core's bandwidth (an upper bound for the
// shared levels).
func (rf *rooflineReport) place(r *benchResult, m *machineInfo) {
	im := rf.impl(r.Impl)
	if im == nil || r.ReadBytesPerOp <= 0 {
		return
	}
	r.ISA, r.VectorBits = im.ISA, im.VectorBits
	r.Intensity = float64(r.FlopsPerOp) / float64(r.ReadBytesPerOp)
	r.RoofLevel = r.Set
	if rf.level(r.Set) == nil {
		r.RoofLevel = levelOf(r.Bytes, m, rf)
	}
	threads := max(r.Threads, 1)
	peak := im.peak(r.Type)
	if threads > 1 {
		if r.Type == "float32" && threads == im.AllCores && im.PeakAll32 > 0 {
			peak = im.PeakAll32
		} else {
			peak *= float64(threads)
		}
	}
	mem := r.Intensity * im.read(r.RoofLevel) * float64(threads)
	if peak <= 0 || mem <= 0 {
		return
	}
	if peak <= mem {
		r.Roof, r.Bound = peak, "compute"
	} else {
		r.Roof, r.Bound = mem, r.RoofLevel+" read"
	}
	r.RoofPercent = 100 * r.GFLOPS / r.Roof
}

// roofNoise is the margin, in percent of the roof, by which a case may
// exceed its roof as noise rather than error: a memory-bound kernel reads
// as fast as the roof's loop, and the case and its roof are each the
// maximum of a few noisy measurements of that one bandwidth, so either may
// come out ahead.
const roofNoise = 3.0

// overRoof returns the remarks on results above their roof. The roof's
// loops do at least what any kernel can (nothing but the operation, from
// registers or as the kernels read), and each roof figure is the maximum
// over its trials, so an excess beyond roofNoise is a measurement error:
// the clock or the machine's load differed between the two measurements.
// An excess within roofNoise is one note for all such cases. Both are
// reported as measured, not clamped.
func overRoof(rep *benchReport) []string {
	var notes []string
	if rep.Machine.Emulated {
		n := 0
		for i := range rep.Results {
			if rep.Results[i].RoofPercent > 100 {
				n++
			}
		}
		if n > 0 {
			notes = append(notes, fmt.Sprintf("%d cases run above their roof (marked ! or ~): under an emulator, which spends its own time per instruction, the roofline's loops bound nothing", n))
		}
		return notes
	}
	var atRoof []string
	for i := range rep.Results {
		r := &rep.Results[i]
		switch {
		case r.RoofPercent > 100+roofNoise:
			notes = append(notes, fmt.Sprintf("MEASUREMENT ERROR: %s on %s runs at %.1f%% of its roof (%s, %.1f GFLOP/s), which was measured again %d times right after the case; the roof is the maximum over its trials of a loop that does at least as well, so either the machine's clock or load changed between the measurements, or the roof's loop is slower than the kernel's way of doing the work (if every run reports this, the roof is wrong). Shown as measured, not clamped.",
				r.key(), r.Impl, r.RoofPercent, r.Bound, r.Roof, r.RoofRechecks))
		case r.RoofPercent > 100:
			atRoof = append(atRoof, fmt.Sprintf("%s %.1f%%", r.key(), r.RoofPercent))
		}
	}
	if len(atRoof) > 0 {
		notes = append(notes, fmt.Sprintf("at the roof (marked ~, up to %.0f%% above it, the noise of two maxima of one bandwidth): %s", roofNoise, strings.Join(atRoof, ", ")))
	}
	return notes
}

// describeRoofline writes the roofline table.
func describeRoofline(b *strings.Builder, rf *rooflineReport, emulated bool) {
	mark := ""
	if emulated {
		mark = " (EMULATED)"
	}
	fmt.Fprintf(b, "clock:     %.2f GHz, measured by %s%s\n", rf.ClockHz/1e9, rf.ClockMethod, mark)
	fmt.Fprintf(b, "\nroofline%s: measured, each figure the maximum over %d trials of at least %s\n", mark, rf.Trials, rf.TrialMin)
	fmt.Fprintf(b, "%-8s  %-12s  %4s  %9s  %9s  %11s", "impl", "ISA", "bits", "peak f32", "peak f64", "f32 all")
	for _, l := range rf.Levels {
		fmt.Fprintf(b, "  %12s", fmt.Sprintf("%s %s", l.Name, fmtBytes(l.Bytes)))
	}
	b.WriteString("\n")
	for _, im := range rf.Impls {
		bits := "-"
		if im.VectorBits > 0 {
			bits = fmt.Sprint(im.VectorBits)
		}
		all := "-"
		if im.AllCores > 1 {
			all = fmt.Sprintf("%.1f (%d)", im.PeakAll32, im.AllCores)
		}
		fmt.Fprintf(b, "%-8s  %-12s  %4s  %9.1f  %9.1f  %11s", im.Impl, im.ISA, bits, im.Peak32, im.Peak64, all)
		for _, l := range rf.Levels {
			fmt.Fprintf(b, "  %12.1f", im.read(l.Name))
		}
		b.WriteString("\n")
	}
	b.WriteString("(peaks in GFLOP/s on one core, \"all\" on all usable cores at once; reads in GB/s on one core)\n")
	for _, m := range rf.Method {
		fmt.Fprintf(b, "  - %s\n", m)
	}
}

// usableImpls returns the implementations the roofline measures: every
// available one (auto runs one of them).
func usableImpls() []*kernel.Impl {
	var ims []*kernel.Impl
	for _, im := range kernel.Impls() {
		if im.Available() {
			ims = append(ims, im)
		}
	}
	return ims
}

// gramThreads is the Gram case's thread count: the usable cores.
func gramThreads(m *machineInfo) int { return max(min(m.Cores, runtime.GOMAXPROCS(0)), 1) }
