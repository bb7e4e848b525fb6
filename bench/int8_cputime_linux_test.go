package bench

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"
	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestInt8CPUTime measures int8Cases in CPU time of the measuring thread
// (as TestDotCPUTime does): rounds of calls of every candidate are
// interleaved and the fastest round of each is reported, with the ratio of
// each int8 kernel to the float32 kernel of its shape on the
// implementation the int8 one belongs to. It prints a table and asserts
// nothing; run it with
//
//	ROSENBLATT_CPUTIME_ROUNDS=30 go -C bench test -run TestInt8CPUTime -v .
func TestInt8CPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cs := int8Cases()
	const calls = 20000
	times := make([][]float64, len(cs))
	for r := 0; r < rounds; r++ {
		for i, c := range cs {
			t0 := cputime.Thread()
			for range calls {
				c.call()
			}
			times[i] = append(times[i], float64(cputime.Thread()-t0)/calls)
		}
	}
	best := map[string]float64{}
	for i, c := range cs {
		best[c.kernel+"/"+c.impl] = slices.Min(times[i])
	}
	parent := map[string]string{"auto": kernel.ActiveImpl().Name()}
	for _, v := range kerneltest.Int8Impls() {
		parent[v.Name()] = v.Impl().Name()
	}
	fmt.Printf("CPU: %s; active: %s, int8 %s; d = %d, Dots: %d classes\n", cpuName(), kernel.ActiveImpl().Name(), kernel.ActiveImpl().Int8(), int8D, int8Classes)
	for i, c := range cs {
		v := slices.Clone(times[i])
		slices.Sort(v)
		line := fmt.Sprintf("%-10s %-11s min %8.1f ns  median %8.1f ns  %7.1f GOP/s", c.kernel, c.impl, v[0], v[len(v)/2], 2*float64(c.ops)/v[0])
		f32 := "Dot/f32/"
		if c.ops > int8D {
			f32 = "Dots/f32/"
		}
		if p, ok := parent[c.impl]; ok && !strings.HasSuffix(c.kernel, "/f32") {
			if ref, ok := best[f32+p]; ok {
				line += fmt.Sprintf("  %.2fx float32 %s on %s", ref/v[0], f32[:len(f32)-1], p)
			}
		}
		fmt.Println(line)
	}
}

// cpuName returns the CPU's brand string with its family and model, as
// `rosenblatt cpu` names it (a guest's /proc/cpuinfo model name can be
// vaguer: "AMD EPYC" on the Zen 5 guest whose brand is "Oxide Virtual
// Turin-like Processor").
func cpuName() string {
	c := cpuid.CPU
	name := strings.TrimSpace(c.BrandName)
	if name == "" {
		name = "unknown"
	}
	return fmt.Sprintf("%s (family %d model %d)", name, c.Family, c.Model)
}
