package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/viterin/vek/vek32"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestDotCPUTime measures float32 Dot through the public API of every
// implementation this CPU runs and vek32.Dot, in CPU time of the measuring
// thread rather than wall time: on a machine shared with other processes,
// time spent descheduled does not count. Rounds of 200 000 calls per
// candidate are interleaved, and the fastest round of each is reported
// with its ratio to vek32's fastest. It prints a table and asserts
// nothing; run it with
//
//	ROSENBLATT_CPUTIME_ROUNDS=20 go -C bench test -run TestDotCPUTime -v .
//
// Wall-clock benchmarks (BenchmarkDot) remain the reference on an idle
// machine; on a busy one, their spread is many times the differences
// between the candidates at small n.
func TestDotCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	type cand struct {
		name string
		f    func(x, y []float32) float32
	}
	// Every candidate is a closure calling the library the way user code
	// does, as in BenchmarkDot.
	cands := []cand{{"auto", func(x, y []float32) float32 { return kernel.Dot(x, y) }}}
	for _, im := range kernel.Impls() {
		if im.Available() {
			k := kernel.On[float32](im)
			cands = append(cands, cand{im.Name(), func(x, y []float32) float32 { return k.Dot(x, y) }})
		}
	}
	cands = append(cands, cand{"vek", func(x, y []float32) float32 { return vek32.Dot(x, y) }})
	for _, n := range []int{1, 4, 16, 64, 256, 1024} {
		x, y := randSlice[float32](n, 1), randSlice[float32](n, 2)
		calls := 200000
		if n > 256 {
			calls = 50000
		}
		times := make([][]float64, len(cands))
		for r := 0; r < rounds; r++ {
			for i, c := range cands {
				var s float32
				t0 := cputime.Thread()
				for range calls {
					s += c.f(x, y)
				}
				times[i] = append(times[i], float64(cputime.Thread()-t0)/float64(calls))
				sink32 += s
			}
		}
		vekMin := slices.Min(times[len(cands)-1])
		for i, c := range cands {
			v := slices.Clone(times[i])
			slices.Sort(v)
			fmt.Printf("Dot f32 n=%-5d %-8s min %7.2f ns  median %7.2f ns  %7.1f GFLOP/s  %.2fx vek32\n",
				n, c.name, v[0], v[len(v)/2], 2*float64(n)/v[0], vekMin/v[0])
		}
	}
}
