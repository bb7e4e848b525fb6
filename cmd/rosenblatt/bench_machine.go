package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// machineInfo describes the machine a bench report was made on.
type machineInfo struct {
	Brand          string   `json:"brand"`
	Vendor         string   `json:"vendor"`
	Family         int      `json:"family"`
	Model          int      `json:"model"`
	PhysicalCores  int      `json:"physical_cores"`
	LogicalCores   int      `json:"logical_cores"`
	ThreadsPerCore int      `json:"threads_per_core"`
	GOMAXPROCS     int      `json:"gomaxprocs"`
	BaseHz         int64    `json:"base_hz,omitempty"`
	BoostHz        int64    `json:"boost_hz,omitempty"`
	L1D            int      `json:"l1d_bytes"`
	L2             int      `json:"l2_bytes"`
	L3             int      `json:"l3_bytes"`
	Features       []string `json:"features"`
	GoVersion      string   `json:"go_version"`
	GOOS           string   `json:"goos"`
	GOARCH         string   `json:"goarch"`
	Kernels        []string `json:"kernels"` // implementations this CPU can run, worst first
	ActiveKernel   string   `json:"active_kernel"`
}

func currentMachine() machineInfo {
	c := &cpuid.CPU
	m := machineInfo{
		Brand:          strings.TrimSpace(c.BrandName),
		Vendor:         c.VendorString,
		Family:         c.Family,
		Model:          c.Model,
		PhysicalCores:  c.PhysicalCores,
		LogicalCores:   c.LogicalCores,
		ThreadsPerCore: c.ThreadsPerCore,
		GOMAXPROCS:     runtime.GOMAXPROCS(0),
		BaseHz:         c.Hz,
		BoostHz:        c.BoostFreq,
		L1D:            c.Cache.L1D,
		L2:             c.Cache.L2,
		L3:             c.Cache.L3,
		Features:       c.FeatureSet(),
		GoVersion:      runtime.Version(),
		GOOS:           runtime.GOOS,
		GOARCH:         runtime.GOARCH,
		ActiveKernel:   kernel.Active(),
	}
	for _, im := range kernel.Impls() {
		if im.Available() {
			m.Kernels = append(m.Kernels, im.Name())
		}
	}
	return m
}

// peakEstimate is the machine's estimated peak floating-point rate. It is
// an estimate from the CPU's advertised features and clock, not a
// measurement; Assumptions lists what it takes for granted.
type peakEstimate struct {
	Known       bool     `json:"known"` // false when the clock or the SIMD width is unknown
	Hz          float64  `json:"hz,omitempty"`
	HzSource    string   `json:"hz_source"`
	SIMD        string   `json:"simd,omitempty"`          // "AVX-512F", "AVX2+FMA3", "NEON"
	Lanes32     int      `json:"lanes_float32,omitempty"` // float32 lanes of one FMA
	FMAUnits    int      `json:"fma_units_per_core,omitempty"`
	Cores       int      `json:"cores,omitempty"`
	PerCore32   float64  `json:"per_core_gflops_float32,omitempty"`
	Machine32   float64  `json:"machine_gflops_float32,omitempty"`
	Assumptions []string `json:"assumptions"`
}

// perCore returns the estimated per-core peak in GFLOP/s for elements of
// the given byte size (4 or 8), or 0 when unknown.
func (p *peakEstimate) perCore(elemSize int) float64 {
	if !p.Known {
		return 0
	}
	return p.PerCore32 * 4 / float64(elemSize)
}

// simdInput is what the peak estimate needs from cpuid, separated out so
// that tests can feed it any machine.
type simdInput struct {
	goarch        string
	avx512f       bool
	avx2, fma3    bool
	asimd         bool
	vendor        cpuid.Vendor
	physicalCores int
	logicalCores  int
}

func currentSIMD() simdInput {
	c := &cpuid.CPU
	return simdInput{
		goarch:        runtime.GOARCH,
		avx512f:       c.Supports(cpuid.AVX512F),
		avx2:          c.Supports(cpuid.AVX2),
		fma3:          c.Supports(cpuid.FMA3),
		asimd:         c.Supports(cpuid.ASIMD),
		vendor:        c.VendorID,
		physicalCores: c.PhysicalCores,
		logicalCores:  runtime.NumCPU(),
	}
}

// estimatePeak computes peak FLOP/s = cores × FMA units per core × lanes ×
// 2 flops per FMA × frequency, for float32 (float64 has half the lanes).
func estimatePeak(in simdInput, hz float64, hzSource string) peakEstimate {
	p := peakEstimate{Hz: hz, HzSource: hzSource, FMAUnits: 2}
	switch {
	case in.goarch == "amd64" && in.avx512f:
		p.SIMD, p.Lanes32 = "AVX-512F", 16
		p.Assumptions = append(p.Assumptions,
			"2 512-bit FMA units per core (server Intel parts; Zen 4 and many client Intel parts have 1, so their true peak is half)")
	case in.goarch == "amd64" && in.avx2 && in.fma3:
		p.SIMD, p.Lanes32 = "AVX2+FMA3", 8
		p.Assumptions = append(p.Assumptions,
			"2 256-bit FMA units per core (Haswell and later, Zen 2 and later; Zen 1 has half that)")
	case in.goarch == "arm64":
		p.SIMD, p.Lanes32 = "NEON", 4
		p.Assumptions = append(p.Assumptions,
			"2 128-bit FMA units per core (Cortex-A76/Neoverse N1 class; Apple M-series and Neoverse V1/V2 have 4, so their true peak is double)")
	default:
		p.Assumptions = append(p.Assumptions, "no known SIMD FMA on this CPU: no peak estimate")
	}
	p.Cores = in.physicalCores
	if p.Cores <= 0 {
		p.Cores = in.logicalCores
		p.Assumptions = append(p.Assumptions, "physical core count unknown: counting every logical CPU as a core")
	}
	if hz <= 0 {
		p.Assumptions = append(p.Assumptions, "clock frequency unknown: no peak estimate")
	}
	if hz > 0 && p.Lanes32 > 0 && p.Cores > 0 {
		p.Known = true
		p.PerCore32 = float64(p.FMAUnits*p.Lanes32*2) * hz / 1e9
		p.Machine32 = p.PerCore32 * float64(p.Cores)
		p.Assumptions = append(p.Assumptions,
			"every core runs at the frequency above at once (all-core turbo is usually lower than the maximum)",
			"an FMA counts as 2 flops; float64 has half the float32 lanes",
			"memory bandwidth is not estimated: cpuid does not report it")
	}
	return p
}

// freqSources are where cpuFrequency looks, as functions so that tests can
// substitute them.
type freqSources struct {
	baseHz, boostHz int64                        // from cpuid
	readFile        func(string) ([]byte, error) // os.ReadFile
}

// cpuFrequency returns the clock frequency to estimate the peak with, and
// where it came from: cpuid's boost frequency, else its base frequency
// (both usually only on x86), else the kernel's cpufreq maximum
// (/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq, in kHz), else the
// highest "cpu MHz" of /proc/cpuinfo (the current clock, so possibly low on
// an idle machine with frequency scaling; on virtual machines it is usually
// the nominal clock). It returns 0, "unknown" if none is available.
func cpuFrequency(s freqSources) (hz float64, source string) {
	switch {
	case s.boostHz > 0:
		return float64(s.boostHz), "cpuid boost frequency"
	case s.baseHz > 0:
		return float64(s.baseHz), "cpuid base frequency"
	}
	if s.readFile == nil {
		return 0, "unknown"
	}
	const maxFreq = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"
	if b, err := s.readFile(maxFreq); err == nil {
		if khz, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && khz > 0 {
			return khz * 1e3, maxFreq
		}
	}
	if b, err := s.readFile("/proc/cpuinfo"); err == nil {
		if mhz := cpuinfoMHz(b); mhz > 0 {
			return mhz * 1e6, `/proc/cpuinfo "cpu MHz", the current clock`
		}
	}
	return 0, "unknown"
}

// cpuinfoMHz returns the highest "cpu MHz" value of a /proc/cpuinfo text, or
// 0 if there is none.
func cpuinfoMHz(b []byte) float64 {
	best := 0.0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(k) != "cpu MHz" {
			continue
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f > best {
			best = f
		}
	}
	return best
}

func currentFrequency() (float64, string) {
	return cpuFrequency(freqSources{baseHz: cpuid.CPU.Hz, boostHz: cpuid.CPU.BoostFreq, readFile: os.ReadFile})
}

// describePeak writes the peak estimate and its assumptions.
func describePeak(w *strings.Builder, p *peakEstimate) {
	if p.Hz > 0 {
		fmt.Fprintf(w, "clock:          %.2f GHz (%s)\n", p.Hz/1e9, p.HzSource)
	} else {
		fmt.Fprintf(w, "clock:          unknown\n")
	}
	if p.Known {
		fmt.Fprintf(w, "estimated peak: %.1f GFLOP/s float32 per core (%.1f float64) = %d FMA units × %d lanes (%s) × 2 flops × %.2f GHz\n",
			p.PerCore32, p.PerCore32/2, p.FMAUnits, p.Lanes32, p.SIMD, p.Hz/1e9)
		fmt.Fprintf(w, "                %.1f GFLOP/s float32 for the machine (%d cores)\n", p.Machine32, p.Cores)
	} else {
		fmt.Fprintf(w, "estimated peak: unknown (no %%peak column)\n")
	}
	fmt.Fprintf(w, "this is an ESTIMATE; it assumes:\n")
	for _, a := range p.Assumptions {
		fmt.Fprintf(w, "  - %s\n", a)
	}
}
