package benchcmd

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/klauspost/cpuid/v2"

	"github.com/rosenblatt-go/rosenblatt/internal/cli"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// machineInfo describes the machine a bench report was made on: what it
// is (from cpuid and the operating system), not how fast it is (that is
// the report's roofline, which is measured).
type machineInfo struct {
	Brand  string `json:"brand"`
	Vendor string `json:"vendor"`
	Family int    `json:"family"`
	Model  int    `json:"model"`
	// Cores is the number of cores the process may run on: the CPUs of
	// its affinity mask, at most GOMAXPROCS. Every "all cores" figure
	// (and the Gram case's thread count) uses it.
	Cores       int    `json:"usable_cores"`
	CoresSource string `json:"usable_cores_source"`
	// AffinityCPUs is the size of the affinity mask (sched_getaffinity on
	// Linux; runtime.NumCPU elsewhere).
	AffinityCPUs int `json:"affinity_cpus"`
	GOMAXPROCS   int `json:"gomaxprocs"`
	// HostCPUs is what cpuid says the host has: information only. In a
	// virtual machine it is often the host's count, not the guest's.
	HostCPUs int `json:"host_logical_cpus,omitempty"`
	// The cache sizes in bytes (0: unknown) and where each came from:
	// "cpuid", "sysfs" or "measured: ...".
	L1D       int    `json:"l1d_bytes"`
	L1DSource string `json:"l1d_source"`
	L2        int    `json:"l2_bytes"`
	L2Source  string `json:"l2_source"`
	L3        int    `json:"l3_bytes"`
	L3Source  string `json:"l3_source"`
	// BaseHz and BoostHz are cpuid's nominal clocks, when it reports them
	// (information: the report's clock is measured).
	BaseHz    int64    `json:"base_hz,omitempty"`
	BoostHz   int64    `json:"boost_hz,omitempty"`
	Features  []string `json:"features"`
	GoVersion string   `json:"go_version"`
	GOOS      string   `json:"goos"`
	GOARCH    string   `json:"goarch"`
	Kernels   []string `json:"kernels"` // implementations this CPU can run, worst first
	// ActiveKernel is the implementation of the "auto" path.
	ActiveKernel string `json:"active_kernel"`
	// Emulated is set when the report's figures were measured under an
	// emulator (EmulatedWhy says how that was detected): they describe the
	// emulator on its host, not a CPU of this architecture.
	Emulated    bool   `json:"emulated"`
	EmulatedWhy string `json:"emulated_why,omitempty"`
}

func currentMachine() machineInfo {
	c := &cpuid.CPU
	m := machineInfo{
		Brand:     strings.TrimSpace(c.BrandName),
		Vendor:    c.VendorString,
		Family:    c.Family,
		Model:     c.Model,
		HostCPUs:  c.LogicalCores,
		BaseHz:    c.Hz,
		BoostHz:   c.BoostFreq,
		Features:  c.FeatureSet(),
		GoVersion: runtime.Version(),
		GOOS:      runtime.GOOS,
		GOARCH:    runtime.GOARCH,
	}
	m.ActiveKernel = kernel.ActiveImpl().Name()
	for _, im := range kernel.Impls() {
		if im.Available() {
			m.Kernels = append(m.Kernels, im.Name())
		}
	}
	aff, affSrc := affinityCPUs()
	m.AffinityCPUs, m.GOMAXPROCS = aff, runtime.GOMAXPROCS(0)
	m.Cores, m.CoresSource = usableCores(aff, affSrc, m.GOMAXPROCS)
	cs := detectCaches(cpuidCaches{c.Cache.L1D, c.Cache.L2, c.Cache.L3}, os.ReadFile, filepath.Glob)
	m.L1D, m.L1DSource = cs[0].bytes, cs[0].source
	m.L2, m.L2Source = cs[1].bytes, cs[1].source
	m.L3, m.L3Source = cs[2].bytes, cs[2].source
	if cpuinfo, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.Emulated, m.EmulatedWhy = emulatedFromCPUInfo(runtime.GOARCH, cpuinfo)
	}
	return m
}

// usableCores is the number of cores the process may run on: its affinity
// mask, capped by GOMAXPROCS (Go runs at most that many threads of Go code
// at once).
func usableCores(affinity int, affinitySource string, gomaxprocs int) (int, string) {
	switch {
	case affinity <= 0:
		return max(gomaxprocs, 1), "GOMAXPROCS (affinity unknown)"
	case gomaxprocs > 0 && gomaxprocs < affinity:
		return gomaxprocs, fmt.Sprintf("GOMAXPROCS (%s: %d CPUs)", affinitySource, affinity)
	}
	return affinity, fmt.Sprintf("%s (GOMAXPROCS %d)", affinitySource, gomaxprocs)
}

// cacheLevel is one detected cache size and its source.
type cacheLevel struct {
	bytes  int
	source string
}

// cpuidCaches are the sizes cpuid reports (≤ 0: none).
type cpuidCaches struct{ l1d, l2, l3 int }

// sysfsCache is where Linux describes CPU 0's caches.
const sysfsCache = "/sys/devices/system/cpu/cpu0/cache"

// detectCaches returns the L1D, L2 and L3 sizes: cpuid's, else those of
// sysfs (sysfsCache/index*/{level,type,size}), else 0 with source
// "unknown" (bench then measures the L3: see measureL3). readFile and glob
// are os.ReadFile and filepath.Glob, parameters for the tests.
func detectCaches(c cpuidCaches, readFile func(string) ([]byte, error), glob func(string) ([]string, error)) [3]cacheLevel {
	out := [3]cacheLevel{{c.l1d, "cpuid"}, {c.l2, "cpuid"}, {c.l3, "cpuid"}}
	var sys [3]int
	if dirs, err := glob(sysfsCache + "/index*"); err == nil {
		for _, d := range dirs {
			read := func(f string) string {
				b, err := readFile(d + "/" + f)
				if err != nil {
					return ""
				}
				return strings.TrimSpace(string(b))
			}
			level, err := strconv.Atoi(read("level"))
			typ := read("type")
			size := parseCacheSize(read("size"))
			if err != nil || level < 1 || level > 3 || size <= 0 || (typ != "Data" && typ != "Unified") {
				continue
			}
			sys[level-1] = size
		}
	}
	for i := range out {
		if out[i].bytes > 0 {
			continue
		}
		if sys[i] > 0 {
			out[i] = cacheLevel{sys[i], "sysfs"}
		} else {
			out[i] = cacheLevel{0, "unknown"}
		}
	}
	return out
}

// parseCacheSize reads a sysfs cache size: "48K", "1024K", "32M" or a
// number of bytes; 0 if it is none of these or 2 GiB or more (no cache
// is that large, and the size fits a 32-bit int).
func parseCacheSize(s string) int {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n > math.MaxInt32/mult {
		return 0
	}
	return n * mult
}

// emulatedFromCPUInfo reports whether /proc/cpuinfo describes a CPU of
// another architecture than goarch, the program's: a user-mode emulator
// (qemu-user) runs the program and passes the host's file through. x86
// CPUs have a "vendor_id" and "flags" lines, arm64 ones "CPU implementer"
// and "Features" lines.
func emulatedFromCPUInfo(goarch string, cpuinfo []byte) (bool, string) {
	fields := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(cpuinfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if k = strings.TrimSpace(k); ok && fields[k] == "" {
			fields[k] = strings.TrimSpace(v)
		}
	}
	x86 := fields["vendor_id"] != "" && fields["flags"] != ""
	arm := fields["CPU implementer"] != ""
	var host string
	switch {
	case x86 && slices.Contains([]string{"arm64", "arm", "riscv64", "ppc64le", "s390x", "loong64"}, goarch):
		host = fmt.Sprintf("an x86 CPU (vendor_id %s)", fields["vendor_id"])
	case arm && (goarch == "amd64" || goarch == "386"):
		host = fmt.Sprintf("an Arm CPU (CPU implementer %s)", fields["CPU implementer"])
	default:
		return false, ""
	}
	return true, fmt.Sprintf("/proc/cpuinfo describes %s, but this program runs as %s: an emulator (qemu-user) translates it", host, goarch)
}

// describeMachine writes the machine part of the report.
func describeMachine(b *strings.Builder, m *machineInfo) {
	fmt.Fprintf(b, "cores:     %d usable (%s)", m.Cores, m.CoresSource)
	if m.HostCPUs > 0 && m.HostCPUs != m.Cores {
		fmt.Fprintf(b, "; cpuid reports %d logical CPUs on the host (information only)", m.HostCPUs)
	}
	b.WriteByte('\n')
	fmt.Fprintf(b, "caches:    L1D %s (%s), L2 %s (%s), L3 %s (%s)\n",
		cli.CacheSize(m.L1D), m.L1DSource, cli.CacheSize(m.L2), m.L2Source, cli.CacheSize(m.L3), m.L3Source)
	fmt.Fprintf(b, "kernels:   %s available; auto = %s\n", strings.Join(m.Kernels, ", "), m.ActiveKernel)
	if m.Emulated {
		fmt.Fprintf(b, "EMULATED:  %s. Every figure below measures the emulator on its host, not a CPU of this architecture.\n", m.EmulatedWhy)
	}
}
