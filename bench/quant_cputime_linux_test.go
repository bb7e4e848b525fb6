package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestQuantPredictCPUTime measures a 10-class one-vs-rest Predict at
// d = 768 and 784 in CPU time of the measuring thread (as TestInt8CPUTime
// does): the float32 model (linear.Model.Predict on the active
// implementation) and its quantised form (package quant) on every int8
// implementation this CPU has, with the sample as unsigned bytes
// (PredictU8), signed bytes (PredictI8) and float32 (Predict, which
// quantises it per vector first). Rounds of every candidate are
// interleaved; the fastest round of each is reported, with the ratio of
// float32 Predict's time to each int8 candidate's whose implementation
// belongs to the active one. It asserts nothing; run it with
//
//	ROSENBLATT_CPUTIME_ROUNDS=40 go -C bench test -run TestQuantPredictCPUTime -v .
//	ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=40 go -C bench test -run TestQuantPredictCPUTime -v .
//
// (the second: float32 on the AVX2 kernels, against int8 avx2, the path of
// an AVX2 CPU without VNNI, and avxvnni).
func TestQuantPredictCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	type cand struct {
		d          int
		name, impl string
		call       func() (int, error)
	}
	var cs []cand
	for _, d := range []int{768, 784} {
		c := newQuantCase(t, d)
		cs = append(cs, cand{d, "float32 Predict", kernel.ActiveImpl().Name(), c.float32})
		for _, im := range kerneltest.Int8Impls() {
			if !im.Available() || im.Name() == "generic" {
				continue
			}
			u8, i8, f32 := c.int8(im)
			cs = append(cs,
				cand{d, "int8 DotsU8I8 alone", im.Name(), c.kernelOnly(im)},
				cand{d, "int8 PredictU8", im.Name(), u8},
				cand{d, "int8 PredictI8", im.Name(), i8},
				cand{d, "int8 Predict (float32 in)", im.Name(), f32})
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const calls = 5000
	times := make([][]float64, len(cs))
	for r := 0; r < rounds; r++ {
		for i, c := range cs {
			t0 := cputime.Thread()
			for range calls {
				if _, err := c.call(); err != nil {
					t.Fatal(err)
				}
			}
			times[i] = append(times[i], float64(cputime.Thread()-t0)/calls)
		}
	}
	belongs := map[string]string{}
	for _, v := range kerneltest.Int8Impls() {
		belongs[v.Name()] = v.Impl().Name()
	}
	fmt.Printf("CPU: %s; active: %s, int8 %s; 10-class one-vs-rest Predict, fastest of %d rounds of %d calls (thread CPU time)\n",
		cpuName(), kernel.ActiveImpl().Name(), kernel.ActiveImpl().Int8(), rounds, calls)
	ref := map[int]float64{}
	for i, c := range cs {
		if c.name == "float32 Predict" {
			ref[c.d] = slices.Min(times[i])
		}
	}
	for i, c := range cs {
		v := slices.Clone(times[i])
		slices.Sort(v)
		line := fmt.Sprintf("d=%d %-26s %-11s min %8.1f ns  median %8.1f ns", c.d, c.name, c.impl, v[0], v[len(v)/2])
		if c.name != "float32 Predict" && belongs[c.impl] == kernel.ActiveImpl().Name() {
			line += fmt.Sprintf("  %.2fx float32 Predict on %s", ref[c.d]/v[0], kernel.ActiveImpl().Name())
		}
		fmt.Println(line)
	}
}
