package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// runCmd runs the command line in process and returns its exit code and
// outputs.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

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
	code := m.Run()
	if quickReport.file != "" {
		os.RemoveAll(filepath.Dir(quickReport.file))
	}
	os.Exit(code)
}

func TestBenchQuickReport(t *testing.T) {
	file, out := sharedQuickReport(t)
	for _, s := range []string{
		"rosenblatt bench:", "clock:", "estimated peak:", "ESTIMATE", "quick mode",
		"kernel  type", "GFLOP/s", "GB/s", "auto=" + kernel.Active(), "report saved to " + file,
	} {
		if !strings.Contains(out, s) {
			t.Errorf("table lacks %q:\n%s", s, out)
		}
	}

	rep := readReport(t, file)
	if rep.Schema != benchSchema || !rep.Quick || rep.Runs != 2 {
		t.Errorf("schema %q quick %v runs %d, want %q true 2", rep.Schema, rep.Quick, rep.Runs, benchSchema)
	}
	m := rep.Machine
	if m.GOARCH != runtime.GOARCH || m.GOOS != runtime.GOOS || m.GoVersion != runtime.Version() || m.ActiveKernel != kernel.Active() {
		t.Errorf("machine %+v does not describe this process", m)
	}
	if len(m.Features) == 0 && runtime.GOARCH == "amd64" {
		t.Errorf("no cpuid features recorded")
	}

	// Every path has every vector case at every set, and a Gram row.
	want := map[string]bool{}
	for _, p := range availablePaths() {
		for _, set := range []string{"L1", "L2", "L3", "DRAM"} {
			for _, k := range []string{"dot/float32", "axpy/float32", "matvec/float32", "dot/float64"} {
				want[k+"/"+p+"/"+set] = true
			}
		}
		want["gram/float32/"+p+"/-"] = true
	}
	want["train/float32/auto/-"] = true
	got := map[string]bool{}
	for _, r := range rep.Results {
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
			wantImpl = kernel.Active()
		}
		if r.Impl != wantImpl {
			t.Errorf("%s: impl %q, want %q", r.key(), r.Impl, wantImpl)
		}
		if rep.Peak.Known != (r.PeakPercent > 0) {
			t.Errorf("%s: peak known %v but peak_percent %v", r.key(), rep.Peak.Known, r.PeakPercent)
		}
	}
	paths, err := parsePaths("")
	if err != nil {
		t.Fatal(err)
	}
	if n := suiteSize(benchConfig{paths: paths}); len(rep.Results) != n {
		t.Errorf("%d results, but the progress bar counts %d cases", len(rep.Results), n)
	}
	for k := range want {
		if !got[k] {
			t.Errorf("missing result %s", k)
		}
	}
}

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
	for _, r := range readReport(t, file).Results {
		if r.Path != "generic" || r.Impl != "generic" {
			t.Errorf("-paths generic ran %s (impl %s)", r.key(), r.Impl)
		}
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
		if strings.HasSuffix(line, "GFLOP/s") && strings.Contains(line, " generic ") {
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
	for _, s := range []string{"A: " + fileA, "B: " + fileB, "B/A", "train "} {
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
	ratio := regexp.MustCompile(`\s(\S+)\s+GFLOP/s$`)
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
	for _, s := range []string{"only in A (1):", "only in B (1):", "avx1024"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
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
		{"syntax", "{\n  \"schema\": \"rosenblatt-bench/1\",\n  \"results\": [}\n", []string{":3:15:", "invalid character '}'"}},
		{"truncated", "{\n  \"schema\": \"rosenblatt-bench/1\",\n  \"res", []string{":3:7:", "unexpected end"}},
		{"type", "{\n  \"schema\": 7\n}\n", []string{":2:13:", "cannot unmarshal number"}},
		{"trailing", "{\"schema\": \"x\"}\n}\n", []string{":2:1:", "after the JSON value"}},
		{"empty", "  \n", []string{"empty file"}},
		{"not a report", `{"weights": [1, 2]}`, []string{"not a rosenblatt bench report"}},
		{"schema", `{"schema": "rosenblatt-bench/99", "results": []}`, []string{`schema "rosenblatt-bench/99"`}},
		{"no results", valid(func(r *benchReport) { r.Results = nil }), []string{"no results"}},
		{"negative time", valid(func(r *benchReport) { r.Results[2].NsPerOp = -1 }), []string{"result 3", "ns_per_op"}},
		{"zero time", valid(func(r *benchReport) { r.Results[0].NsPerOp = 0 }), []string{"result 1", "want > 0"}},
		{"bad type", valid(func(r *benchReport) { r.Results[1].Type = "int8" }), []string{"result 2", `"int8"`}},
		{"missing kernel", valid(func(r *benchReport) { r.Results[0].Kernel = "" }), []string{"result 1", "must all be set"}},
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
			if !errors.Is(err, errMalformed) {
				t.Errorf("error %v does not wrap errMalformed", err)
			}
		})
	}

	// A missing file is an error naming it, not a malformed one.
	missing := filepath.Join(dir, "missing.json")
	code, _, errOut := runCmd(t, "bench", "compare", good, missing)
	if code != exitFail || !strings.Contains(errOut, missing) {
		t.Errorf("missing file: exit %d, stderr %s", code, errOut)
	}
	if _, err := readBenchReport(missing); !errors.Is(err, os.ErrNotExist) || errors.Is(err, errMalformed) {
		t.Errorf("missing file: error %v", err)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	unavailable := ""
	for _, im := range kernel.Impls() {
		if !im.Available() {
			unavailable = im.Name()
		}
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"bad flag", []string{"bench", "-nope"}, "flag provided but not defined: -nope"},
		{"stray argument", []string{"bench", "-quick", "extra"}, `unexpected argument "extra"`},
		{"unknown path", []string{"bench", "-paths", "generic,sse9"}, `unknown implementation "sse9"`},
		{"empty paths", []string{"bench", "-paths", ","}, "empty list"},
		{"negative runs", []string{"bench", "-runs", "-1"}, "must not be negative"},
		{"bad duration", []string{"bench", "-time", "soon"}, "invalid value"},
		{"compare one file", []string{"bench", "compare", "a.json"}, "needs two report files, got 1"},
		{"compare three files", []string{"bench", "compare", "a", "b", "c"}, "got 3"},
		{"compare bad flag", []string{"bench", "compare", "-x", "a", "b"}, "flag provided but not defined: -x"},
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
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"path of another build", []string{"bench", "-paths", otherBuild}, "not an implementation of this build"})
	}
	if unavailable != "" {
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"unavailable path", []string{"bench", "-paths", unavailable}, "this CPU cannot run"})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
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

func TestWorkingSets(t *testing.T) {
	cases := []struct {
		name         string
		l1d, l2, l3  int
		quick        bool
		want         [4]int64
		wantAtLeast2 bool
	}{
		{"zen3", 32 << 10, 512 << 10, 32 << 20, false, [4]int64{16 << 10, 256 << 10, 16 << 20, 128 << 20}, false},
		{"unknown", 0, -1, 0, false, [4]int64{16 << 10, 128 << 10, 4 << 20, 64 << 20}, false},
		{"small L3 clamps DRAM up", 48 << 10, 1 << 20, 4 << 20, false, [4]int64{24 << 10, 512 << 10, 2 << 20, 64 << 20}, false},
		{"huge L3 clamps DRAM down", 48 << 10, 2 << 20, 256 << 20, false, [4]int64{24 << 10, 1 << 20, 128 << 20, 256 << 20}, false},
		{"quick ignores caches", 32 << 10, 512 << 10, 32 << 20, true, [4]int64{4 << 10, 16 << 10, 64 << 10, 256 << 10}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := workingSets(c.l1d, c.l2, c.l3, c.quick)
			names := [4]string{"L1", "L2", "L3", "DRAM"}
			if len(ws) != 4 {
				t.Fatalf("%d sets", len(ws))
			}
			for i, w := range ws {
				if w.name != names[i] || w.bytes != c.want[i] {
					t.Errorf("set %d = %s %d, want %s %d", i, w.name, w.bytes, names[i], c.want[i])
				}
			}
		})
	}
}

func TestEstimatePeak(t *testing.T) {
	cases := []struct {
		name      string
		in        simdInput
		hz        float64
		known     bool
		perCore32 float64
		machine32 float64
		lanes     int
	}{
		{"avx2 2.45 GHz 2 cores", simdInput{goarch: "amd64", avx2: true, fma3: true, physicalCores: 2}, 2.45e9, true, 78.4, 156.8, 8},
		{"avx512 3 GHz 8 cores", simdInput{goarch: "amd64", avx512f: true, avx2: true, fma3: true, physicalCores: 8}, 3e9, true, 192, 1536, 16},
		{"neon 2 GHz 4 cores", simdInput{goarch: "arm64", asimd: true, physicalCores: 4}, 2e9, true, 32, 128, 4},
		{"avx2 without fma", simdInput{goarch: "amd64", avx2: true, physicalCores: 4}, 3e9, false, 0, 0, 0},
		{"unknown clock", simdInput{goarch: "amd64", avx2: true, fma3: true, physicalCores: 4}, 0, false, 0, 0, 8},
		{"unknown core count uses logical", simdInput{goarch: "arm64", logicalCores: 3}, 1e9, true, 16, 48, 4},
		{"other architecture", simdInput{goarch: "riscv64", physicalCores: 4}, 1e9, false, 0, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := estimatePeak(c.in, c.hz, "test")
			if p.Known != c.known || p.Lanes32 != c.lanes {
				t.Fatalf("known %v lanes %d, want %v %d", p.Known, p.Lanes32, c.known, c.lanes)
			}
			if math.Abs(p.PerCore32-c.perCore32) > 1e-9*c.perCore32 || math.Abs(p.Machine32-c.machine32) > 1e-9*c.machine32 {
				t.Errorf("per core %v machine %v, want %v %v", p.PerCore32, p.Machine32, c.perCore32, c.machine32)
			}
			if got := p.perCore(8); math.Abs(got-c.perCore32/2) > 1e-9*c.perCore32 {
				t.Errorf("float64 per core %v, want %v", got, c.perCore32/2)
			}
			if len(p.Assumptions) == 0 {
				t.Errorf("no assumptions listed")
			}
			if !c.known && !strings.Contains(strings.Join(p.Assumptions, "\n"), "no peak estimate") {
				t.Errorf("unknown peak does not say why: %q", p.Assumptions)
			}
		})
	}
}

func TestCPUFrequency(t *testing.T) {
	const maxFreq = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"
	cpuinfo := "processor\t: 0\ncpu MHz\t\t: 2445.422\n\nprocessor\t: 1\ncpu MHz\t\t: 3100.5\nflags: x\n"
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(name string) ([]byte, error) {
			if s, ok := m[name]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		}
	}
	cases := []struct {
		name   string
		src    freqSources
		hz     float64
		source string
	}{
		{"cpuid boost wins", freqSources{baseHz: 2e9, boostHz: 3.5e9, readFile: files(map[string]string{maxFreq: "9\n"})}, 3.5e9, "cpuid boost"},
		{"cpuid base", freqSources{baseHz: 2e9, readFile: files(nil)}, 2e9, "cpuid base"},
		{"cpufreq max in kHz", freqSources{readFile: files(map[string]string{maxFreq: "3600000\n", "/proc/cpuinfo": cpuinfo})}, 3.6e9, "cpuinfo_max_freq"},
		{"cpuinfo highest MHz", freqSources{readFile: files(map[string]string{"/proc/cpuinfo": cpuinfo})}, 3100.5e6, "cpu MHz"},
		{"garbage cpufreq falls through", freqSources{readFile: files(map[string]string{maxFreq: "fast", "/proc/cpuinfo": cpuinfo})}, 3100.5e6, "cpu MHz"},
		{"nothing", freqSources{readFile: files(map[string]string{"/proc/cpuinfo": "processor: 0\nBogoMIPS: 50\n"})}, 0, "unknown"},
		{"no reader", freqSources{}, 0, "unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hz, src := cpuFrequency(c.src)
			if math.Abs(hz-c.hz) > 1e-6*c.hz || !strings.Contains(src, c.source) {
				t.Errorf("got %v Hz from %q, want %v from %q", hz, src, c.hz, c.source)
			}
		})
	}
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\ncd\n\nef")
	cases := []struct {
		off       int64
		line, col int
	}{{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 3, 1}, {7, 4, 1}, {8, 4, 2}, {9, 4, 3}, {99, 4, 3}, {-1, 1, 1}}
	for _, c := range cases {
		if l, col := lineCol(data, c.off); l != c.line || col != c.col {
			t.Errorf("offset %d: %d:%d, want %d:%d", c.off, l, col, c.line, c.col)
		}
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

func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "out.txt")
	write := func(s string) func(w io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := writeOutput(file, false, nil, write("one")); err != nil {
		t.Fatal(err)
	}
	if err := writeOutput(file, false, nil, write("two")); !errors.Is(err, errExists) {
		t.Errorf("second write without force: %v, want errExists", err)
	}
	if err := checkWritable(file, false); !errors.Is(err, errExists) {
		t.Errorf("checkWritable: %v, want errExists", err)
	}
	if err := checkWritable(file, true); err != nil {
		t.Errorf("checkWritable with force: %v", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "one" {
		t.Errorf("content %q after refused write", b)
	}
	if err := writeOutput(file, true, nil, write("three")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(file); string(b) != "three" {
		t.Errorf("content %q after forced write", b)
	}
	// A failing writer leaves no partial file behind.
	fail := filepath.Join(dir, "fail.txt")
	boom := errors.New("boom")
	if err := writeOutput(fail, false, nil, func(io.Writer) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("failing writer: %v", err)
	}
	if _, err := os.Stat(fail); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("partial file left: %v", err)
	}
	// A directory that does not exist is an error.
	if err := writeOutput(filepath.Join(dir, "no", "such.txt"), false, nil, write("x")); err == nil {
		t.Errorf("write into a missing directory succeeded")
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
// one step per case, and nothing with -q.
func TestBenchProgressBar(t *testing.T) {
	forceTerminal(t)
	args := []string{"bench", "-quick", "-runs", "1", "-time", "1ms", "-paths", "generic"}
	code, out, errOut := runCmd(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	total := suiteSize(benchConfig{paths: []benchPath{{name: "generic"}}})
	if total != 17 {
		t.Errorf("suite size %d for one path, want 4 kernels × 4 sets + gram = 17", total)
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
