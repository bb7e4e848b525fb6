package benchcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// runCmd runs "rosenblatt bench ..." through Run as the command does (see
// cmd/rosenblatt's run): exit status 0 on success or -h, 2 for a usage
// error, 1 for any other, and the error on stderr after the command's name.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if len(args) == 0 || args[0] != "bench" {
		t.Fatalf("runCmd %q: not a bench command", args)
	}
	var out, errb bytes.Buffer
	err := Run(args[1:], &out, &errb)
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
	case errors.Is(err, cli.ErrUsage):
		code = exitUsage
	default:
		code = exitFail
	}
	if code != exitOK {
		fmt.Fprintf(&errb, "rosenblatt bench: %v\n", err)
	}
	return code, out.String(), errb.String()
}

// Every bench run of the tests is tiny (Tiny): the same code on small
// working sets and few trials.
func init() { Tiny = true }

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// availablePaths is every path a default bench run covers.
func availablePaths() []string {
	var ps []string
	for _, im := range kernel.Impls() {
		if im.Available() {
			ps = append(ps, im.Name())
		}
	}
	return append(ps, autoPath)
}

func readReport(t *testing.T, name string) *benchReport {
	t.Helper()
	rep, err := readBenchReport(name)
	if err != nil {
		t.Fatalf("reading back %s: %v", name, err)
	}
	return rep
}

var levelNames = []string{"L1", "L2", "L3", "DRAM"}

func TestBenchQuickReport(t *testing.T) {
	file, out := sharedQuickReport(t)
	for _, s := range []string{
		"rosenblatt bench:", "cores:", "usable", "caches:", "clock:", "GHz, measured by", "roofline", "peak f32",
		"quick mode", "tiny", "kernel  type", "GFLOP/s", "flop/B", "%roof", "auto=" + kernel.ActiveImpl().Name(), "report saved to " + file,
	} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "ESTIMATE") || strings.Contains(out, "estimated") {
		t.Errorf("the report still estimates:\n%s", out)
	}

	rep := readReport(t, file)
	if rep.Schema != benchSchema || !rep.Quick || rep.Runs != 2 {
		t.Errorf("schema %q quick %v runs %d, want %q true 2", rep.Schema, rep.Quick, rep.Runs, benchSchema)
	}
	m := rep.Machine
	if m.GOARCH != runtime.GOARCH || m.GOOS != runtime.GOOS || m.GoVersion != runtime.Version() || m.ActiveKernel != kernel.ActiveImpl().Name() {
		t.Errorf("machine %+v does not describe this process", m)
	}
	if len(m.Features) == 0 && runtime.GOARCH == "amd64" {
		t.Errorf("no cpuid features recorded")
	}
	// The usable cores are what the process may run on: at most
	// GOMAXPROCS and the affinity mask, never the host's count.
	if m.Cores < 1 || m.Cores > runtime.GOMAXPROCS(0) || m.Cores > m.AffinityCPUs || m.CoresSource == "" {
		t.Errorf("usable cores %d (%s), GOMAXPROCS %d, affinity %d", m.Cores, m.CoresSource, runtime.GOMAXPROCS(0), m.AffinityCPUs)
	}
	for _, src := range []string{m.L1DSource, m.L2Source, m.L3Source} {
		if src == "" {
			t.Errorf("a cache size without its source: %+v", m)
		}
	}

	// The roofline: every implementation of a path measured, with
	// positive, finite figures at every level.
	rf := rep.Roofline
	if rf == nil {
		t.Fatal("no roofline")
	}
	if !(rf.ClockHz > 0) || math.IsInf(rf.ClockHz, 0) || rf.Trials < 1 || len(rf.Method) == 0 {
		t.Errorf("clock %v Hz, %d trials, method %q", rf.ClockHz, rf.Trials, rf.Method)
	}
	if len(rf.Levels) != 4 {
		t.Fatalf("%d levels, want 4", len(rf.Levels))
	}
	for i, l := range rf.Levels {
		if l.Name != levelNames[i] || l.Bytes <= 0 || (i > 0 && l.Bytes <= rf.Levels[i-1].Bytes) {
			t.Errorf("levels %+v: want L1 < L2 < L3 < DRAM", rf.Levels)
		}
	}
	var impls []string
	for _, im := range rf.Impls {
		impls = append(impls, im.Impl)
		ok := func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
		if !ok(im.Peak32) || !ok(im.Peak64) || im.ISA == "" || im.FMAChains < 1 {
			t.Errorf("%s: peaks %v %v, ISA %q, %d chains", im.Impl, im.Peak32, im.Peak64, im.ISA, im.FMAChains)
		}
		if (m.Cores > 1) != (im.AllCores == m.Cores && ok(im.PeakAll32)) {
			t.Errorf("%s: all-cores peak %v on %d cores, usable %d", im.Impl, im.PeakAll32, im.AllCores, m.Cores)
		}
		if len(im.Read) != 4 {
			t.Errorf("%s: %d bandwidths", im.Impl, len(im.Read))
		}
		for i, l := range levelNames {
			if !ok(im.read(l)) {
				t.Errorf("%s: %s bandwidth %v", im.Impl, l, im.read(l))
			}
			// The roof is the maximum of every measurement, the first
			// one included.
			if len(im.ReadFirst) != 4 || im.ReadFirst[i].Level != l || !ok(im.ReadFirst[i].GBps) || im.ReadFirst[i].GBps > im.read(l) {
				t.Errorf("%s: first bandwidths %+v, roofs %+v", im.Impl, im.ReadFirst, im.Read)
			}
		}
	}
	if want := strings.Join(m.Kernels, ","); strings.Join(impls, ",") != want {
		t.Errorf("roofline of %v, want every available implementation %s", impls, want)
	}

	// Every path has every vector case at every set, and a Gram row.
	want := map[string]bool{}
	for _, p := range availablePaths() {
		for _, set := range levelNames {
			for _, k := range []string{"dot/float32", "axpy/float32", "matvec/float32", "dot/float64"} {
				want[k+"/"+set+"/"+p] = true
			}
		}
		want["gram/float32/-/"+p] = true
	}
	want["train/float32/-/auto"] = true
	got := map[string]bool{}
	over := 0
	for i := range rep.Results {
		r := &rep.Results[i]
		got[r.key()] = true
		if !want[r.key()] {
			t.Errorf("unexpected result %s", r.key())
		}
		if !(r.GFLOPS > 0) || !(r.GBps > 0) || !(r.NsPerOp > 0) || r.MedianNsPerOp < r.NsPerOp || r.Iterations < 1 {
			t.Errorf("%s: gflops %v gbps %v ns/op %v median %v iterations %d; want positive rates, median ≥ best",
				r.key(), r.GFLOPS, r.GBps, r.NsPerOp, r.MedianNsPerOp, r.Iterations)
		}
		// The rates are the per-op counts over the time.
		if g := float64(r.FlopsPerOp) / r.NsPerOp; math.Abs(g-r.GFLOPS) > 1e-9*g {
			t.Errorf("%s: gflops %v, flops/ns %v", r.key(), r.GFLOPS, g)
		}
		wantImpl := r.Path
		if r.Path == autoPath {
			wantImpl = kernel.ActiveImpl().Name()
		}
		if r.Impl != wantImpl {
			t.Errorf("%s: impl %q, want %q", r.key(), r.Impl, wantImpl)
		}
		im := rf.impl(r.Impl)
		if im == nil || r.ISA != im.ISA || r.VectorBits != im.VectorBits {
			t.Errorf("%s: ISA %q %d bits, implementation %+v", r.key(), r.ISA, r.VectorBits, im)
			continue
		}
		checkPlacement(t, r, im, rf)
		if r.RoofPercent > 100+roofNoise {
			over++
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("missing result %s", k)
		}
	}
	// Each case further above its roof than noise has its note, and no
	// other case (under an emulator, one note says why they all are).
	notes := strings.Join(rep.Notes, "\n")
	if n := strings.Count(notes, "MEASUREMENT ERROR"); !m.Emulated && n != over {
		t.Errorf("%d cases above their roof, %d notes", over, n)
	}
	if m.Emulated && over > 0 && !strings.Contains(notes, "cases run above their roof") {
		t.Errorf("emulated, %d cases above their roof, notes %q", over, notes)
	}
}

// checkPlacement checks that a result's roof is what place computes from
// the roofline: the lower of the peak for its threads and its intensity ×
// the bandwidth of its level, and its percentage the rate over the roof.
func checkPlacement(t *testing.T, r *benchResult, im *implRoof, rf *rooflineReport) {
	t.Helper()
	if r.ReadBytesPerOp <= 0 || r.ReadBytesPerOp > r.BytesPerOp {
		t.Errorf("%s: %d bytes read of %d", r.key(), r.ReadBytesPerOp, r.BytesPerOp)
	}
	if ai := float64(r.FlopsPerOp) / float64(r.ReadBytesPerOp); math.Abs(r.Intensity-ai) > 1e-12*ai {
		t.Errorf("%s: intensity %v, want %v", r.key(), r.Intensity, ai)
	}
	if r.Set != "-" && r.RoofLevel != r.Set {
		t.Errorf("%s: roof level %q, want its set", r.key(), r.RoofLevel)
	}
	threads := float64(max(r.Threads, 1))
	peak := im.peak(r.Type) * threads
	if r.Threads > 1 && r.Type == "float32" && im.AllCores == r.Threads {
		peak = im.PeakAll32
	}
	mem := r.Intensity * im.read(r.RoofLevel) * threads
	if want := min(peak, mem); !(r.Roof > 0) || math.Abs(r.Roof-want) > 1e-9*want {
		t.Errorf("%s: roof %v, want min(peak %v, memory %v)", r.key(), r.Roof, peak, mem)
	}
	if (r.Bound == "compute") != (peak <= mem) || (r.Bound != "compute" && r.Bound != r.RoofLevel+" read") {
		t.Errorf("%s: bound %q with peak %v, memory %v", r.key(), r.Bound, peak, mem)
	}
	if p := 100 * r.GFLOPS / r.Roof; math.Abs(r.RoofPercent-p) > 1e-9*p {
		t.Errorf("%s: %v%% of the roof, want %v (not clamped)", r.key(), r.RoofPercent, p)
	}
}

// TestBenchProgressSteps: the progress bar's total is the number of steps
// the suite takes (a counting progress), whatever the paths.
func TestBenchProgressSteps(t *testing.T) {
	for _, list := range []string{"generic", "auto", ""} {
		paths, err := parsePaths(list)
		if err != nil {
			t.Fatal(err)
		}
		cfg := benchConfig{quick: true, tiny: true, minTime: 10 * time.Microsecond, runs: 1, paths: paths}
		var c countingProgress
		if _, err := runSuite(cfg, &c); err != nil {
			t.Fatal(err)
		}
		if want := suiteSize(cfg, currentMachine().Cores); c.steps != want || !c.finished {
			t.Errorf("paths %q: %d steps (finished %v), the bar counts %d", list, c.steps, c.finished, want)
		}
	}
}

type countingProgress struct {
	steps    int
	finished bool
}

func (c *countingProgress) Add(n int)       { c.steps += n }
func (c *countingProgress) Describe(string) {}
func (c *countingProgress) Finish()         { c.finished = true }

func TestBenchRefusesOverwrite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.json")
	const old = "do not overwrite me\n"
	if err := os.WriteFile(file, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "bench", "-quick", "-q", "-json", file)
	if code != exitFail || !strings.Contains(errOut, file) || !strings.Contains(errOut, "use -f") {
		t.Errorf("exit %d, stderr %q; want %d and a message naming the file and -f", code, errOut, exitFail)
	}
	if out != "" {
		t.Errorf("the suite ran before the refusal (stdout %q)", out)
	}
	if b, _ := os.ReadFile(file); string(b) != old {
		t.Errorf("file overwritten: %q", b)
	}

	code, _, errOut = runCmd(t, "bench", "-quick", "-q", "-runs", "1", "-paths", "generic", "-json", file, "-f")
	if code != exitOK {
		t.Fatalf("with -f: exit %d, stderr %s", code, errOut)
	}
	if rep := readReport(t, file); len(rep.Results) == 0 || rep.Runs != 1 {
		t.Errorf("with -f: %d results, runs %d", len(rep.Results), rep.Runs)
	}
}

func TestBenchPathsFlag(t *testing.T) {
	file := filepath.Join(t.TempDir(), "g.json")
	code, out, errOut := runCmd(t, "bench", "-quick", "-runs", "1", "-paths", "generic", "-json", file)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if !strings.Contains(out, "no training run") {
		t.Errorf("without auto the report should say why there is no training run:\n%s", out)
	}
	rep := readReport(t, file)
	for _, r := range rep.Results {
		if r.Path != "generic" || r.Impl != "generic" || r.ISA != "Go, scalar" || r.VectorBits != 0 {
			t.Errorf("-paths generic ran %s (impl %s, ISA %q, %d bits)", r.key(), r.Impl, r.ISA, r.VectorBits)
		}
	}
	// Only the implementations that run are measured.
	if len(rep.Roofline.Impls) != 1 || rep.Roofline.Impls[0].Impl != "generic" {
		t.Errorf("roofline of %+v, want generic only", rep.Roofline.Impls)
	}
}

func TestBenchCompare(t *testing.T) {
	fileA, _ := sharedQuickReport(t)
	dir := t.TempDir()

	// A real second run restricted to one path: its rows are in A too,
	// and A's other paths (at least auto, and the training run) are only
	// in A.
	fileB := filepath.Join(dir, "b.json")
	if code, _, errOut := runCmd(t, "bench", "-quick", "-q", "-runs", "1", "-paths", "generic", "-json", fileB); code != exitOK {
		t.Fatalf("bench B: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCmd(t, "bench", "compare", fileA, fileB)
	if code != exitOK {
		t.Fatalf("compare: exit %d, stderr %s", code, errOut)
	}
	b := readReport(t, fileB)
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, "GFLOP/s") && strings.Contains(line, " generic ") && strings.Contains(line, "%") {
			rows++
		}
	}
	if rows != len(b.Results) {
		t.Errorf("%d compared generic rows, want %d:\n%s", rows, len(b.Results), out)
	}
	onlyA := len(readReport(t, fileA).Results) - len(b.Results)
	if !strings.Contains(out, fmt.Sprintf("only in A (%d):", onlyA)) || strings.Contains(out, "only in B") {
		t.Errorf("want %d rows only in A and none only in B:\n%s", onlyA, out)
	}
	for _, s := range []string{"A: " + fileA, "B: " + fileB, "B/A", "train ", "roofline", "peak f32", "read DRAM", "A %roof"} {
		if !strings.Contains(out, s) {
			t.Errorf("compare output lacks %q:\n%s", s, out)
		}
	}
}

// TestBenchCompareRatio compares a report with a copy whose rates are
// doubled and which lacks its first row and has an extra one.
func TestBenchCompareRatio(t *testing.T) {
	fileA, _ := sharedQuickReport(t)
	rep := readReport(t, fileA)
	dropped := rep.Results[0]
	rep.Results = rep.Results[1:]
	for i := range rep.Results {
		rep.Results[i].GFLOPS *= 2
		rep.Results[i].GBps *= 2
		rep.Results[i].NsPerOp /= 2
	}
	rep.Roofline.Impls[0].Peak32 *= 3
	extra := dropped
	extra.Path = "avx1024"
	rep.Results = append(rep.Results, extra)
	fileB := filepath.Join(t.TempDir(), "b.json")
	data, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(fileB, data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "bench", "compare", fileA, fileB)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	ratio := regexp.MustCompile(`\s(\S+)\s+\S+\s+\S+\s+GFLOP/s$`)
	n := 0
	for _, line := range strings.Split(out, "\n") {
		m := ratio.FindStringSubmatch(line)
		if m == nil || strings.HasPrefix(line, "  ") {
			continue
		}
		n++
		if m[1] != "2.00" {
			t.Errorf("ratio %s, want 2.00: %s", m[1], line)
		}
	}
	if n != len(rep.Results)-1 {
		t.Errorf("%d ratio rows, want %d:\n%s", n, len(rep.Results)-1, out)
	}
	peak := regexp.MustCompile(`(?m)^  peak f32 .* 3\.00  GFLOP/s, 1 core$`)
	for _, s := range []string{"only in A (1):", "only in B (1):", "avx1024"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if !peak.MatchString(out) {
		t.Errorf("no peak row with B/A 3.00:\n%s", out)
	}
}

// TestBenchCompareV1 reads a report of the previous schema (no measured
// roofline) next to a current one: its rates compare, it has no %roof.
func TestBenchCompareV1(t *testing.T) {
	v1 := filepath.Join("testdata", "bench-v1.json")
	old := readReport(t, v1)
	if old.Schema != benchSchemaV1 || old.Roofline != nil || len(old.Results) == 0 {
		t.Fatalf("schema %q, roofline %v, %d results", old.Schema, old.Roofline, len(old.Results))
	}
	for _, r := range old.Results {
		if r.Case != caseName(r.Kernel, r.Type, r.Set) || r.Roof != 0 || r.RoofPercent != 0 {
			t.Errorf("%s: case %q, roof %v, %v%%", r.key(), r.Case, r.Roof, r.RoofPercent)
		}
	}
	fileA, _ := sharedQuickReport(t)
	code, out, errOut := runCmd(t, "bench", "compare", v1, fileA)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "A is a schema rosenblatt-bench/1 report") || !strings.Contains(out, "schema rosenblatt-bench/1") {
		t.Errorf("the output does not say A is an old report:\n%s", out)
	}
	common := 0
	for _, line := range strings.Split(out, "\n") {
		// ... B/A, A %roof, B %roof, unit: A's %roof is "-", B's a percentage
		if f := strings.Fields(line); len(f) > 4 && f[0] == "dot" && f[len(f)-3] == "-" && strings.HasSuffix(f[len(f)-2], "%") {
			common++
		}
	}
	if common == 0 {
		t.Errorf("no dot row with A's %%roof \"-\":\n%s", out)
	}
}

// TestBenchCompareArchitectures compares this machine's report with one
// made for arm64 under qemu-aarch64 (testdata): the two name their cases
// the same on their common paths (generic, and auto: each one's best), so
// every such case of the arm64 report is a compared row; each row and
// roofline says which implementation, ISA and vector width ran; the
// emulated report is marked.
func TestBenchCompareArchitectures(t *testing.T) {
	arm := filepath.Join("testdata", "bench-arm64-qemu.json")
	b := readReport(t, arm)
	if b.Schema != benchSchema || b.Machine.GOARCH != "arm64" || !b.Machine.Emulated || b.Roofline == nil {
		t.Fatalf("schema %q, GOARCH %q, emulated %v", b.Schema, b.Machine.GOARCH, b.Machine.Emulated)
	}
	neon := b.Roofline.impl("neon")
	if neon == nil || neon.ISA != "NEON" || neon.VectorBits != 128 {
		t.Fatalf("the arm64 roofline's neon implementation: %+v", neon)
	}
	fileA, _ := sharedQuickReport(t)
	a := readReport(t, fileA)

	// The same case names on the paths both have.
	casesOn := func(r *benchReport) map[string][]string {
		m := map[string][]string{}
		for _, x := range r.Results {
			if x.Case != caseName(x.Kernel, x.Type, x.Set) {
				t.Errorf("%s: case %q", x.key(), x.Case)
			}
			if im := r.Roofline.impl(x.Impl); im == nil || x.ISA != im.ISA || x.VectorBits != im.VectorBits {
				t.Errorf("%s: impl %q ISA %q %d bits, roofline %+v", x.key(), x.Impl, x.ISA, x.VectorBits, im)
			}
			m[x.Path] = append(m[x.Path], x.Case)
		}
		return m
	}
	ca, cb := casesOn(a), casesOn(b)
	common := 0
	for _, p := range []string{"generic", autoPath} {
		if !slices.Equal(ca[p], cb[p]) {
			t.Errorf("path %s: cases %v here, %v on arm64", p, ca[p], cb[p])
		}
	}
	for p, cs := range cb {
		if _, ok := ca[p]; ok {
			common += len(cs)
		}
	}
	if common < 2*17 {
		t.Errorf("%d common cases, want at least generic's and auto's 17 each", common)
	}

	code, out, errOut := runCmd(t, "bench", "compare", fileA, arm)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) > 6 && slices.Contains([]string{"dot", "axpy", "matvec", "gram", "train"}, f[0]) && strings.HasSuffix(line, "GFLOP/s") && !strings.HasPrefix(line, " ") {
			rows++
			if f[3] == autoPath && (f[4] != a.Machine.ActiveKernel || f[5] != "neon") {
				t.Errorf("auto row without each machine's implementation: %s", line)
			}
		}
	}
	if rows != common {
		t.Errorf("%d compared rows, want %d:\n%s", rows, common, out)
	}
	for _, s := range []string{"linux/arm64", "EMULATED", "B was measured under an emulator", "B neon: NEON"} {
		if !strings.Contains(out, s) {
			t.Errorf("the comparison lacks %q:\n%s", s, out)
		}
	}
}

func TestBenchCompareMalformed(t *testing.T) {
	good, _ := sharedQuickReport(t)
	dir := t.TempDir()
	goodData, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	valid := func(edit func(*benchReport)) string {
		var rep benchReport
		if err := json.Unmarshal(goodData, &rep); err != nil {
			t.Fatal(err)
		}
		edit(&rep)
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		name, content string
		want          []string // in stderr, after the file name
	}{
		{"syntax", "{\n  \"schema\": \"rosenblatt-bench/2\",\n  \"results\": [}\n", []string{":3:15:", "invalid character '}'"}},
		{"truncated", "{\n  \"schema\": \"rosenblatt-bench/2\",\n  \"res", []string{":3:7:", "unexpected end"}},
		{"type", "{\n  \"schema\": 7\n}\n", []string{":2:13:", "cannot unmarshal number"}},
		{"trailing", "{\"schema\": \"x\"}\n}\n", []string{":2:1:", "after the JSON value"}},
		{"empty", "  \n", []string{"empty file"}},
		{"not a report", `{"weights": [1, 2]}`, []string{"not a rosenblatt bench report"}},
		{"schema", `{"schema": "rosenblatt-bench/99", "results": []}`, []string{`schema "rosenblatt-bench/99"`, `reads "rosenblatt-bench/2" and "rosenblatt-bench/1"`}},
		{"no results", valid(func(r *benchReport) { r.Results = nil }), []string{"no results"}},
		{"no roofline", valid(func(r *benchReport) { r.Roofline = nil }), []string{"no roofline"}},
		{"negative peak", valid(func(r *benchReport) { r.Roofline.Impls[0].Peak64 = -1 }), []string{"roofline", "peak_gflops_float64 = -1"}},
		{"negative bandwidth", valid(func(r *benchReport) { r.Roofline.Impls[0].Read[3].GBps = -2 }), []string{"roofline", "DRAM gbps = -2"}},
		{"no levels", valid(func(r *benchReport) { r.Roofline.Levels = nil }), []string{"roofline", "no levels"}},
		{"negative time", valid(func(r *benchReport) { r.Results[2].NsPerOp = -1 }), []string{"result 3", "ns_per_op"}},
		{"zero time", valid(func(r *benchReport) { r.Results[0].NsPerOp = 0 }), []string{"result 1", "want > 0"}},
		{"negative roof", valid(func(r *benchReport) { r.Results[0].Roof = -5 }), []string{"result 1", "roof_gflops = -5"}},
		{"bad type", valid(func(r *benchReport) { r.Results[1].Type = "int8" }), []string{"result 2", `"int8"`}},
		{"missing kernel", valid(func(r *benchReport) { r.Results[0].Kernel = "" }), []string{"result 1", "must all be set"}},
		{"wrong case", valid(func(r *benchReport) { r.Results[1].Case = "dot/float32/L9" }), []string{"result 2", `case "dot/float32/L9"`}},
		{"duplicate", valid(func(r *benchReport) { r.Results = append(r.Results, r.Results[4]) }), []string{"same case as result 5"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".json")
			if err := os.WriteFile(bad, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{good, bad}, {bad, good}} {
				code, out, errOut := runCmd(t, append([]string{"bench", "compare"}, args...)...)
				if code != exitFail {
					t.Errorf("%v: exit %d, want %d", args, code, exitFail)
				}
				if out != "" {
					t.Errorf("%v: printed a comparison despite the error:\n%s", args, out)
				}
				if !strings.Contains(errOut, bad) {
					t.Errorf("%v: stderr does not name %s: %s", args, bad, errOut)
				}
				for _, w := range c.want {
					if !strings.Contains(errOut, w) {
						t.Errorf("%v: stderr lacks %q: %s", args, w, errOut)
					}
				}
			}
			_, err := readBenchReport(bad)
			if !errors.Is(err, cli.ErrMalformed) {
				t.Errorf("error %v does not wrap cli.ErrMalformed", err)
			}
		})
	}

	// A missing file is an error naming it, not a malformed one.
	missing := filepath.Join(dir, "missing.json")
	code, _, errOut := runCmd(t, "bench", "compare", good, missing)
	if code != exitFail || !strings.Contains(errOut, missing) {
		t.Errorf("missing file: exit %d, stderr %s", code, errOut)
	}
	if _, err := readBenchReport(missing); !errors.Is(err, os.ErrNotExist) || errors.Is(err, cli.ErrMalformed) {
		t.Errorf("missing file: error %v", err)
	}
}

func TestWorkingSets(t *testing.T) {
	cases := []struct {
		name        string
		l1d, l2, l3 int
		tiny        bool
		want        [4]int64
	}{
		{"zen3", 32 << 10, 512 << 10, 32 << 20, false, [4]int64{16 << 10, 256 << 10, 16 << 20, 128 << 20}},
		{"zen5 48 KiB L1D", 48 << 10, 1 << 20, 32 << 20, false, [4]int64{24 << 10, 512 << 10, 16 << 20, 128 << 20}},
		{"unknown caches", 0, -1, 0, false, [4]int64{16 << 10, 128 << 10, 1 << 20, 256 << 20}},
		{"unknown L3: 4×L2, memory at most", 48 << 10, 2 << 20, 0, false, [4]int64{24 << 10, 1 << 20, 8 << 20, 256 << 20}},
		{"small L3 clamps DRAM up", 48 << 10, 1 << 20, 4 << 20, false, [4]int64{24 << 10, 512 << 10, 2 << 20, 64 << 20}},
		{"huge L3 clamps DRAM down", 48 << 10, 2 << 20, 256 << 20, false, [4]int64{24 << 10, 1 << 20, 128 << 20, 256 << 20}},
		{"odd sizes round to 512-byte blocks", 40000, 300000, 3000000, false, [4]int64{19968, 149504, 1499648, 64 << 20}},
		{"tiny ignores caches", 32 << 10, 512 << 10, 32 << 20, true, [4]int64{4 << 10, 16 << 10, 64 << 10, 256 << 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := workingSets(c.l1d, c.l2, c.l3, c.tiny)
			if len(ws) != 4 {
				t.Fatalf("%d sets", len(ws))
			}
			for i, w := range ws {
				if w.name != levelNames[i] || w.bytes != c.want[i] || w.bytes%512 != 0 {
					t.Errorf("set %d = %s %d, want %s %d", i, w.name, w.bytes, levelNames[i], c.want[i])
				}
			}
		})
	}
}

// TestDetectCaches: cpuid's sizes first, then sysfs's (data or unified
// caches of levels 1 to 3 only), else unknown.
func TestDetectCaches(t *testing.T) {
	sysfs := map[string]string{
		sysfsCache + "/index0/level": "1", sysfsCache + "/index0/type": "Data", sysfsCache + "/index0/size": "48K",
		sysfsCache + "/index1/level": "1", sysfsCache + "/index1/type": "Instruction", sysfsCache + "/index1/size": "32K",
		sysfsCache + "/index2/level": "2", sysfsCache + "/index2/type": "Unified", sysfsCache + "/index2/size": "1024K",
		sysfsCache + "/index3/level": "3", sysfsCache + "/index3/type": "Unified", sysfsCache + "/index3/size": "32768K",
	}
	files := func(m map[string]string) (func(string) ([]byte, error), func(string) ([]string, error)) {
		read := func(name string) ([]byte, error) {
			if s, ok := m[name]; ok {
				return []byte(s + "\n"), nil
			}
			return nil, os.ErrNotExist
		}
		glob := func(pattern string) ([]string, error) {
			seen := map[string]bool{}
			var dirs []string
			for k := range m {
				if d := filepath.Dir(k); !seen[d] {
					if ok, _ := filepath.Match(pattern, d); ok {
						seen[d] = true
						dirs = append(dirs, d)
					}
				}
			}
			return dirs, nil
		}
		return read, glob
	}
	noL3 := map[string]string{}
	for k, v := range sysfs {
		if !strings.Contains(k, "index3") {
			noL3[k] = v
		}
	}
	cases := []struct {
		name  string
		cpuid cpuidCaches
		fs    map[string]string
		want  [3]cacheLevel
	}{
		{"cpuid knows all", cpuidCaches{32 << 10, 512 << 10, 16 << 20}, sysfs,
			[3]cacheLevel{{32 << 10, "cpuid"}, {512 << 10, "cpuid"}, {16 << 20, "cpuid"}}},
		{"L3 from sysfs (this Zen 5 guest's cpuid lacks it)", cpuidCaches{48 << 10, 1 << 20, 0}, sysfs,
			[3]cacheLevel{{48 << 10, "cpuid"}, {1 << 20, "cpuid"}, {32 << 20, "sysfs"}}},
		{"all from sysfs, the instruction cache ignored", cpuidCaches{}, sysfs,
			[3]cacheLevel{{48 << 10, "sysfs"}, {1 << 20, "sysfs"}, {32 << 20, "sysfs"}}},
		{"neither", cpuidCaches{48 << 10, 1 << 20, -1}, noL3,
			[3]cacheLevel{{48 << 10, "cpuid"}, {1 << 20, "cpuid"}, {0, "unknown"}}},
		{"no sysfs at all", cpuidCaches{}, nil,
			[3]cacheLevel{{0, "unknown"}, {0, "unknown"}, {0, "unknown"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read, glob := files(c.fs)
			if got := detectCaches(c.cpuid, read, glob); got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestParseCacheSize(t *testing.T) {
	cases := map[string]int{"48K": 48 << 10, "1024K": 1 << 20, "32M": 32 << 20, "1G": 1 << 30, "4096": 4096,
		"": 0, "K": 0, "-4K": 0, "12X": 0, "0K": 0, "2G": 0, "99999999999999G": 0}
	for s, want := range cases {
		if got := parseCacheSize(s); got != want {
			t.Errorf("parseCacheSize(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestUsableCores(t *testing.T) {
	cases := []struct {
		affinity, gomaxprocs, want int
		source                     string
	}{
		{2, 2, 2, "sched_getaffinity (GOMAXPROCS 2)"},
		{8, 2, 2, "GOMAXPROCS (sched_getaffinity: 8 CPUs)"},
		{2, 8, 2, "sched_getaffinity (GOMAXPROCS 8)"},
		{0, 4, 4, "GOMAXPROCS (affinity unknown)"},
	}
	for _, c := range cases {
		n, src := usableCores(c.affinity, "sched_getaffinity", c.gomaxprocs)
		if n != c.want || src != c.source {
			t.Errorf("usableCores(%d, %d) = %d, %q; want %d, %q", c.affinity, c.gomaxprocs, n, src, c.want, c.source)
		}
	}
}

// TestEmulatedFromCPUInfo: a /proc/cpuinfo of another architecture than
// the program's is an emulator's.
func TestEmulatedFromCPUInfo(t *testing.T) {
	x86 := "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nflags\t\t: fpu sse sse2 avx512f\n"
	arm := "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n"
	cases := []struct {
		goarch, cpuinfo string
		want            bool
		why             string
	}{
		{"arm64", x86, true, "x86 CPU (vendor_id AuthenticAMD), but this program runs as arm64"},
		{"amd64", arm, true, "Arm CPU (CPU implementer 0x41), but this program runs as amd64"},
		{"amd64", x86, false, ""},
		{"arm64", arm, false, ""},
		{"arm64", "", false, ""},
		{"riscv64", "processor\t: 0\nisa\t\t: rv64imafdc\n", false, ""},
	}
	for _, c := range cases {
		got, why := emulatedFromCPUInfo(c.goarch, []byte(c.cpuinfo))
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%s on %.20q: %v %q, want %v %q", c.goarch, c.cpuinfo, got, why, c.want, c.why)
		}
	}
}

// TestEmulatedReport: under qemu-user (CI runs this package's tests under
// qemu-aarch64), the report says its figures are emulated; natively, it
// does not, unless its rates are implausible for hardware.
func TestEmulatedReport(t *testing.T) {
	file, out := sharedQuickReport(t)
	rep := readReport(t, file)
	cpuinfo, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	foreign, _ := emulatedFromCPUInfo(runtime.GOARCH, cpuinfo)
	if foreign && (!rep.Machine.Emulated || !strings.Contains(out, "EMULATED") || !strings.Contains(strings.Join(rep.Notes, " "), "emulated")) {
		t.Errorf("/proc/cpuinfo is another architecture's, but the report is not marked emulated:\n%s", out)
	}
	ratesSay, _ := emulatedFromRates(rep.Roofline)
	if !foreign && rep.Machine.Emulated != ratesSay {
		t.Errorf("emulated %v (%s), but the rates say %v", rep.Machine.Emulated, rep.Machine.EmulatedWhy, ratesSay)
	}
	t.Logf("emulated: %v (%s)", rep.Machine.Emulated, rep.Machine.EmulatedWhy)
}

func TestEmulatedFromRates(t *testing.T) {
	rf := &rooflineReport{ClockHz: 3e9, Impls: []implRoof{
		{Impl: "generic", Peak32: 0.5},                   // scalar: not judged
		{Impl: "neon", VectorBits: 128, Peak32: 24},      // 8 flops per cycle
		{Impl: "avx512", VectorBits: 512, Peak32: 0.006}, // 0.002 per cycle
	}}
	if got, why := emulatedFromRates(rf); !got || !strings.Contains(why, "avx512 FMA loop ran 0.00 float32 flops per cycle") {
		t.Errorf("got %v %q", got, why)
	}
	rf.Impls = rf.Impls[:2]
	if got, why := emulatedFromRates(rf); got {
		t.Errorf("plausible rates judged emulated: %q", why)
	}
	if got, _ := emulatedFromRates(&rooflineReport{}); got {
		t.Errorf("no clock judged emulated")
	}
}

// TestL3FromSweep: the L3 is the largest working set read faster than the
// geometric mean of the first and last sizes' bandwidths, dips included;
// none when the sweep is flat.
func TestL3FromSweep(t *testing.T) {
	const M = 1 << 20
	sizes := []int64{2 * M, 4 * M, 8 * M, 16 * M, 32 * M, 64 * M, 128 * M, 256 * M}
	gb := func(v ...float64) []float64 {
		for i := range v {
			v[i] *= 1e9
		}
		return v
	}
	cases := []struct {
		name string
		bw   []float64
		want int
		desc string
	}{
		// The sweeps of this Zen 5 guest (32 MiB of L3): √(100·32) ≈ 57.
		{"zen5", gb(100, 102, 100, 77, 59, 50, 32, 31), 32 * M, "over 57 GB/s"},
		{"a dip is noise", gb(103, 100, 105, 38, 65, 42, 36, 31), 32 * M, "2 MiB 103"},
		// Under a load of 14 the 256 MiB reads came out at 15 GB/s: the
		// cut at √(95·15) ≈ 38 would have made the L3 128 MiB.
		{"memory slowed by others", gb(95, 90, 97, 94, 67, 47, 42, 15), 32 * M, "over 63 GB/s"},
		{"flat: no L3", gb(40, 40, 39, 40, 38, 39, 38, 37), 0, "no level between L2 and memory"},
		{"only the first", gb(100, 20, 20, 20, 20, 20, 20, 20), 2 * M, "measured"},
	}
	for _, c := range cases {
		got, desc := l3FromSweep(sizes, c.bw)
		if got != c.want || !strings.Contains(desc, c.desc) {
			t.Errorf("%s: %d %q, want %d and %q", c.name, got, desc, c.want, c.desc)
		}
	}
}

// TestPlace puts synthetic cases on a synthetic roofline.
func TestPlace(t *testing.T) {
	rf := &rooflineReport{
		Levels: []levelSize{{"L1", 24 << 10}, {"L2", 512 << 10}, {"L3", 16 << 20}, {"DRAM", 128 << 20}},
		Impls: []implRoof{{Impl: "avx512", ISA: "AVX-512F", VectorBits: 512, Peak32: 200, Peak64: 100, AllCores: 2, PeakAll32: 380,
			Read: []levelRate{{"L1", 400}, {"L2", 200}, {"L3", 100}, {"DRAM", 40}}}},
	}
	m := &machineInfo{L1D: 48 << 10, L2: 1 << 20, L3: 32 << 20}
	cases := []struct {
		name  string
		r     benchResult
		roof  float64
		bound string
		level string
	}{
		{"dot at L1 is bandwidth-bound", benchResult{Kernel: "dot", Type: "float32", Impl: "avx512", Set: "L1", Threads: 1, FlopsPerOp: 2, ReadBytesPerOp: 8, GFLOPS: 50}, 100, "L1 read", "L1"},
		{"dot float64 at DRAM", benchResult{Kernel: "dot", Type: "float64", Impl: "avx512", Set: "DRAM", Threads: 1, FlopsPerOp: 2, ReadBytesPerOp: 16, GFLOPS: 4}, 5, "DRAM read", "DRAM"},
		{"gram on 2 threads: the all-cores peak", benchResult{Kernel: "gram", Type: "float32", Impl: "avx512", Set: "-", Threads: 2, Bytes: 5 << 20, FlopsPerOp: 1000, ReadBytesPerOp: 4, GFLOPS: 95}, 380, "compute", "L3"},
		{"float64 on 2 threads: twice one core's peak", benchResult{Kernel: "gram", Type: "float64", Impl: "avx512", Set: "-", Threads: 2, Bytes: 5 << 20, FlopsPerOp: 1000, ReadBytesPerOp: 4, GFLOPS: 20}, 200, "compute", "L3"},
		{"train in L2 by its bytes", benchResult{Kernel: "train", Type: "float32", Impl: "avx512", Set: "-", Threads: 1, Bytes: 900 << 10, FlopsPerOp: 1, ReadBytesPerOp: 2, GFLOPS: 10}, 100, "L2 read", "L2"},
		{"past L3 is DRAM", benchResult{Kernel: "train", Type: "float32", Impl: "avx512", Set: "-", Threads: 1, Bytes: 64 << 20, FlopsPerOp: 1, ReadBytesPerOp: 4, GFLOPS: 11}, 10, "DRAM read", "DRAM"},
		{"above the roof: not clamped", benchResult{Kernel: "dot", Type: "float32", Impl: "avx512", Set: "L3", Threads: 1, FlopsPerOp: 2, ReadBytesPerOp: 8, GFLOPS: 26}, 25, "L3 read", "L3"},
		{"unknown implementation: no roof", benchResult{Kernel: "dot", Type: "float32", Impl: "sve", Set: "L1", Threads: 1, FlopsPerOp: 2, ReadBytesPerOp: 8, GFLOPS: 1}, 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.r
			rf.place(&r, m)
			if math.Abs(r.Roof-c.roof) > 1e-9 || r.Bound != c.bound || r.RoofLevel != c.level {
				t.Errorf("roof %v %q level %q, want %v %q %q", r.Roof, r.Bound, r.RoofLevel, c.roof, c.bound, c.level)
			}
			if c.roof > 0 && math.Abs(r.RoofPercent-100*r.GFLOPS/c.roof) > 1e-9 {
				t.Errorf("%v%%, want %v", r.RoofPercent, 100*r.GFLOPS/c.roof)
			}
		})
	}
	// Unknown cache sizes: twice each level's working set.
	unknown := &machineInfo{}
	r := benchResult{Kernel: "train", Type: "float32", Impl: "avx512", Set: "-", Threads: 1, Bytes: 30 << 20, FlopsPerOp: 1, ReadBytesPerOp: 4, GFLOPS: 1}
	if rf.place(&r, unknown); r.RoofLevel != "L3" {
		t.Errorf("30 MiB with unknown caches: level %q, want L3 (under 2 × 16 MiB)", r.RoofLevel)
	}

	// A case above its roof gets a note naming it and its percentage.
	rep := &benchReport{Roofline: rf, Results: []benchResult{cases[6].r, cases[0].r}}
	for i := range rep.Results {
		rep.Results[i].Case = caseName(rep.Results[i].Kernel, rep.Results[i].Type, rep.Results[i].Set)
		rep.Results[i].Path = "avx512"
		rf.place(&rep.Results[i], m)
	}
	notes := overRoof(rep)
	if len(notes) != 1 || !strings.Contains(notes[0], "MEASUREMENT ERROR: dot/float32/L3/avx512") || !strings.Contains(notes[0], "104.0%") {
		t.Errorf("notes %q", notes)
	}
	var b bytes.Buffer
	printReport(&b, &benchReport{Machine: *m, Roofline: rf, Results: rep.Results, Runs: 1, MinTime: "1s"})
	if !strings.Contains(b.String(), "104.0% !") {
		t.Errorf("the table does not flag the case above its roof:\n%s", b.String())
	}

	// Within roofNoise above the roof: at the roof, one note for all such
	// cases, no measurement error.
	at := rep.Results[0]
	at.GFLOPS = 25 * (1 + (roofNoise-0.5)/100) // roof 25
	at2 := at
	at2.Kernel, at2.Type, at2.Case, at2.FlopsPerOp, at2.ReadBytesPerOp = "axpy", "float32", "axpy/float32/L3", 2, 8
	rep = &benchReport{Roofline: rf, Results: []benchResult{at, at2, cases[0].r}}
	for i := range rep.Results {
		rf.place(&rep.Results[i], m)
	}
	notes = overRoof(rep)
	if len(notes) != 1 || strings.Contains(notes[0], "MEASUREMENT ERROR") || !strings.Contains(notes[0], "at the roof") ||
		!strings.Contains(notes[0], "dot/float32/L3/avx512 102.5%") || !strings.Contains(notes[0], "axpy/float32/L3/avx512 102.5%") {
		t.Errorf("cases %.1f%% of their roof: notes %q", rep.Results[0].RoofPercent, notes)
	}
	b.Reset()
	printReport(&b, &benchReport{Machine: *m, Roofline: rf, Results: rep.Results, Runs: 1, MinTime: "1s"})
	if !strings.Contains(b.String(), "102.5% ~") || strings.Contains(b.String(), "% !") {
		t.Errorf("the table does not mark the cases at their roof with ~ alone:\n%s", b.String())
	}
}

func TestMeasure(t *testing.T) {
	calls := int64(0)
	tm := measure(func() { calls++ }, time.Millisecond, 3)
	if tm.iters < 1 || calls < 3*tm.iters {
		t.Errorf("iters %d, calls %d: want ≥ 3 runs of iters calls", tm.iters, calls)
	}
	if !(tm.best > 0) || tm.median < tm.best {
		t.Errorf("best %v median %v", tm.best, tm.median)
	}
	// A slow function is still called at least once per run.
	calls = 0
	tm = measure(func() { calls++; time.Sleep(2 * time.Millisecond) }, time.Millisecond, 2)
	if tm.iters != 1 || calls != 3 || tm.best < 2e6 {
		t.Errorf("slow fn: iters %d calls %d best %v ns; want 1, 3 (calibration and 2 runs), ≥ 2e6", tm.iters, calls, tm.best)
	}
}

func TestFmtBytes(t *testing.T) {
	cases := []struct {
		b    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {16 << 10, "16 KiB"}, {16447 << 10, "16.1 MiB"}, {128 << 20, "128 MiB"}, {3 << 29, "1.5 GiB"}}
	for _, c := range cases {
		if got := fmtBytes(c.b); got != c.want {
			t.Errorf("fmtBytes(%d) = %q, want %q", c.b, got, c.want)
		}
	}
}

// TestBenchProgressBar checks that bench draws its bar on a terminal, with
// one step per measurement, and nothing with -q; elsewhere (a pipe, a
// log) only with -progress.
func TestBenchProgressBar(t *testing.T) {
	args := []string{"bench", "-quick", "-runs", "1", "-time", "1ms", "-paths", "generic"}
	// stderr is a buffer here: no bar unless -progress asks for one.
	code, _, errOut := runCmd(t, args...)
	if code != exitOK || errOut != "" {
		t.Errorf("not a terminal: exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
	code, _, errOut = runCmd(t, append(args, "-progress")...)
	if code != exitOK || !strings.Contains(errOut, "bench") || !strings.Contains(errOut, "(0/") {
		t.Errorf("-progress on a non-terminal: exit %d, stderr %q; want the bar", code, errOut)
	}
	if code, _, errOut := runCmd(t, "bench", "-q", "-progress"); code != exitUsage || !strings.Contains(errOut, "contradict") {
		t.Errorf("-q -progress: exit %d, stderr %q", code, errOut)
	}

	forceTerminal(t)
	code, out, errOut := runCmd(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	cores := currentMachine().Cores
	total := suiteSize(benchConfig{paths: []benchPath{{name: "generic", im: kernel.Impls()[0]}}}, cores)
	// L3, clock, 2 peaks (and the all-cores one), 4 bandwidths; 4 kernels
	// × 4 sets + gram.
	want := 1 + 1 + 2 + 4 + 17
	if cores > 1 {
		want++
	}
	if total != want {
		t.Errorf("suite size %d for one path, want %d", total, want)
	}
	if want := fmt.Sprintf("(0/%d)", total); !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks the bar's %q: %q", want, errOut)
	}
	if strings.Contains(out, "\r") {
		t.Errorf("the bar went to stdout")
	}
	code, _, errOut = runCmd(t, append(args, "-q")...)
	if code != exitOK || errOut != "" {
		t.Errorf("-q: exit %d, stderr %q; want 0 and nothing", code, errOut)
	}
}

// TestFillRandom: the operands are deterministic, in [-1, 1], of both
// signs and about zero on average (so that Dot and Axpy stay clear of
// overflow and subnormals), and differ between seeds.
func TestFillRandom(t *testing.T) {
	check := func(t *testing.T, v []float64) {
		t.Helper()
		sum, neg := 0.0, 0
		for _, x := range v {
			if !(x >= -1 && x <= 1) {
				t.Fatalf("value %v outside [-1, 1]", x)
			}
			if x != 0 && math.Abs(x) < 1e-30 {
				t.Fatalf("value %v near the subnormals", x)
			}
			sum += x
			if x < 0 {
				neg++
			}
		}
		if mean := sum / float64(len(v)); math.Abs(mean) > 0.02 || neg < len(v)*45/100 || neg > len(v)*55/100 {
			t.Errorf("mean %v, %d of %d negative", mean, neg, len(v))
		}
	}
	a, b, c := randomVec[float64](10000, 1), randomVec[float64](10000, 1), randomVec[float64](10000, 2)
	check(t, a)
	check(t, c)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Errorf("same seed equal %v, different seeds equal %v", slices.Equal(a, b), slices.Equal(a, c))
	}
	f := randomVec[float32](10000, 1)
	for i := range f {
		if f[i] != float32(a[i]) {
			t.Fatalf("float32 value %d is %v, the float64 one %v", i, f[i], a[i])
		}
	}
}

// quickReport runs `bench -quick` once per test binary and returns the
// report file; the tests below share it to stay fast.
var quickReport = struct {
	file, stdout string
	done         bool
}{}

func sharedQuickReport(t *testing.T) (file, stdout string) {
	t.Helper()
	if !quickReport.done {
		dir, err := os.MkdirTemp("", "rosenblatt-bench-")
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "a.json")
		code, out, errOut := runCmd(t, "bench", "-quick", "-json", file)
		if code != exitOK {
			t.Fatalf("bench -quick: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
		}
		if errOut != "" {
			t.Errorf("bench wrote to stderr, which is not a terminal here (want no progress bar):\n%q", errOut)
		}
		quickReport.file, quickReport.stdout, quickReport.done = file, out, true
	}
	return quickReport.file, quickReport.stdout
}

func TestMain(m *testing.M) {
	wire()
	code := m.Run()
	if quickReport.file != "" {
		os.RemoveAll(filepath.Dir(quickReport.file))
	}
	os.Exit(code)
}

func TestBenchUsageErrors(t *testing.T) {
	unavailable := ""
	for _, im := range kernel.Impls() {
		if !im.Available() {
			unavailable = im.Name()
		}
	}
	type usageCase struct {
		name string
		args []string
		want string
	}
	cases := []usageCase{
		{"bad flag", []string{"bench", "-nope"}, "unknown flag -nope"},
		{"stray argument", []string{"bench", "-quick", "extra"}, `unexpected argument "extra"`},
		{"unknown path", []string{"bench", "-paths", "generic,sse9"}, `unknown implementation "sse9"`},
		{"empty paths", []string{"bench", "-paths", ","}, "empty list"},
		{"negative runs", []string{"bench", "-runs", "-1"}, "must not be negative"},
		{"bad duration", []string{"bench", "-time", "soon"}, "invalid value"},
		{"compare one file", []string{"bench", "compare", "a.json"}, "needs two report files, got 1"},
		{"compare three files", []string{"bench", "compare", "a", "b", "c"}, "got 3"},
		{"compare bad flag", []string{"bench", "compare", "-x", "a", "b"}, "unknown flag -x"},
	}
	otherBuild := ""
	for _, n := range knownImplNames {
		found := false
		for _, im := range kernel.Impls() {
			found = found || im.Name() == n
		}
		if !found {
			otherBuild = n
		}
	}
	if otherBuild != "" {
		cases = append(cases, usageCase{"path of another build", []string{"bench", "-paths", otherBuild}, "not an implementation of this build"})
	}
	if unavailable != "" {
		cases = append(cases, usageCase{"unavailable path", []string{"bench", "-paths", unavailable}, "this CPU cannot run"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(t.TempDir())
			code, out, errOut := runCmd(t, c.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr %s", code, exitUsage, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errOut, c.want) {
				t.Errorf("stderr lacks %q: %s", c.want, errOut)
			}
		})
	}
	for _, args := range [][]string{{"bench", "-h"}, {"bench", "compare", "-h"}} {
		if code, _, errOut := runCmd(t, args...); code != exitOK || !strings.Contains(errOut, "usage: rosenblatt bench") {
			t.Errorf("%v: exit %d, stderr %s", args, code, errOut)
		}
	}
}

// forceTerminal makes every writer pass for a terminal during the test.
func forceTerminal(t *testing.T) {
	t.Helper()
	old := cli.IsTerminal
	cli.IsTerminal = func(io.Writer) bool { return true }
	t.Cleanup(func() { cli.IsTerminal = old })
}

// TestSettleRoof: a case that caught a quieter moment than its roof's
// trials is settled by measuring the roof again; a roof that the case
// beats systematically stays beaten, and the report still says so.
func TestSettleRoof(t *testing.T) {
	m := &machineInfo{L1D: 48 << 10, L2: 1 << 20, L3: 32 << 20}
	newRoof := func() *rooflineReport {
		return &rooflineReport{
			Levels: []levelSize{{"L1", 24 << 10}, {"L2", 512 << 10}, {"L3", 16 << 20}, {"DRAM", 128 << 20}},
			Impls: []implRoof{{Impl: "avx2", ISA: "AVX2+FMA", VectorBits: 256, Peak32: 100, Peak64: 50,
				Read: []levelRate{{"L1", 200}, {"L2", 177}, {"L3", 80}, {"DRAM", 40}}}},
		}
	}
	// The quiet run's case: the AVX2 float32 Dot at L2 read 185 GB/s
	// (46.3 GFLOP/s at 2 flops per 8 bytes) over a roof of 177.
	r := benchResult{Kernel: "dot", Type: "float32", Path: "avx2", Impl: "avx2", Set: "L2", Threads: 1, FlopsPerOp: 2, ReadBytesPerOp: 8, GFLOPS: 46.3}
	r.Case = caseName(r.Kernel, r.Type, r.Set)

	// Noise: the trials measured again come out at 178, 176, 181 GB/s
	// (the maximum is kept): the third brings the case within roofNoise
	// (185.2 / 181 = 102.3%), no fourth is made.
	rf := newRoof()
	again := []float64{178, 176, 181, 230}
	calls := 0
	n := settleRoof(rf, r, m, 16, func(bound string) {
		if bound != "L2 read" {
			t.Errorf("measured again %q, want the L2 read bandwidth", bound)
		}
		rf.Impls[0].Read[1].GBps = max(rf.Impls[0].Read[1].GBps, again[calls])
		calls++
	})
	if n != 3 || calls != 3 {
		t.Errorf("noisy roof: %d rechecks (%d measurements), want 3", n, calls)
	}
	r.RoofRechecks = n
	rep := &benchReport{Roofline: rf, Results: []benchResult{r}}
	rf.place(&rep.Results[0], m)
	if notes := strings.Join(overRoof(rep), "\n"); strings.Contains(notes, "MEASUREMENT ERROR") {
		t.Errorf("a roof settled at 181 GB/s for a case at 185: %q", notes)
	}

	// Within roofNoise at the start: no recheck.
	rf = newRoof()
	within := r
	within.GFLOPS = 177.0 / 4 * (1 + (roofNoise-0.5)/100)
	if n := settleRoof(rf, within, m, 16, func(string) { t.Error("measured again a case within the noise margin") }); n != 0 {
		t.Errorf("%d rechecks of a case within the noise margin", n)
	}

	// A peak measured while the core was taken by other work (AVX2's
	// float64 peak at 11.5 GFLOP/s under a load of 18): the case is
	// compute-bound under it, and the peak is what is measured again.
	rf = newRoof()
	rf.Impls[0].Peak64 = 11.5
	dot64 := r
	dot64.Type, dot64.ReadBytesPerOp, dot64.GFLOPS = "float64", 16, 21.9 // 175 GB/s, under the L2 roof
	var bounds []string
	n = settleRoof(rf, dot64, m, 16, func(bound string) {
		bounds = append(bounds, bound)
		rf.Impls[0].Peak64 = 56
	})
	if n != 1 || len(bounds) != 1 || bounds[0] != "compute" {
		t.Errorf("peak measured low: %d rechecks of %q, want 1 of the compute peak", n, bounds)
	}

	// A systematically wrong roof: measured again it stays at 177, every
	// recheck is spent and the case is still a measurement error, with
	// the count of rechecks in the note.
	rf = newRoof()
	calls = 0
	n = settleRoof(rf, r, m, 16, func(string) { calls++ })
	if n != 16 || calls != 16 {
		t.Errorf("wrong roof: %d rechecks (%d measurements), want 16", n, calls)
	}
	r.RoofRechecks = n
	rep = &benchReport{Roofline: rf, Results: []benchResult{r}}
	rf.place(&rep.Results[0], m)
	if notes := strings.Join(overRoof(rep), "\n"); !strings.Contains(notes, "MEASUREMENT ERROR: dot/float32/L2/avx2") || !strings.Contains(notes, "measured again 16 times") {
		t.Errorf("a case at 104.6%% of a roof that stays wrong: %q", notes)
	}
}

// wire sets Fit and Gram as the command does.
func wire() {
	Fit = func(ctx context.Context, X *dataset.Data[float32], opt perceptron.Options) (*fit.Report, error) {
		_, rep, err := perceptron.Fit(ctx, X, X.Y, opt)
		return rep, err
	}
	Gram = func(X []float32, d int, opts *gram.Options) error {
		_, err := gram.Compute(X, d, gram.Linear{}, opts)
		return err
	}
}

func TestRunNotWired(t *testing.T) {
	f, g := Fit, Gram
	defer func() { Fit, Gram = f, g }()
	Fit = nil
	if err := Run([]string{"-quick", "-q"}, io.Discard, io.Discard); !errors.Is(err, ErrNotWired) {
		t.Fatalf("Run with Fit unset: %v, want ErrNotWired", err)
	}
}
