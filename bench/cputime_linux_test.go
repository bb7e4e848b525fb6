package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestDotCPUTime measures Dot (float32, then float64) through the public
// API of every implementation this CPU runs and vek's Dot (vek32.Dot,
// vek.Dot), in CPU time of the measuring thread rather than wall time: on a
// machine shared with other processes, time spent descheduled does not
// count. Rounds of 200 000 calls per candidate (50 000 above n = 256) are
// interleaved, and the fastest round of each is reported with its ratio to
// vek's fastest. It prints a table and asserts nothing; run it with
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
	dotCPUTime[float32](rounds, func(x, y []float32) float32 { return vek32.Dot(x, y) })
	dotCPUTime[float64](rounds, func(x, y []float64) float64 { return vek.Dot(x, y) })
}

// dotCPUTime is TestDotCPUTime for element type T, vekDot vek's Dot of T.
func dotCPUTime[T kernel.Float](rounds int, vekDot func(x, y []T) T) {
	type cand struct {
		name string
		f    func(x, y []T) T
	}
	// Every candidate is a closure calling the library the way user code
	// does, as in BenchmarkDot.
	cands := []cand{{"auto", func(x, y []T) T { return kernel.Dot(x, y) }}}
	for _, im := range kernel.Impls() {
		if im.Available() {
			k := kernel.On[T](im)
			cands = append(cands, cand{im.Name(), func(x, y []T) T { return k.Dot(x, y) }})
		}
	}
	cands = append(cands, cand{"vek", vekDot})
	for _, n := range []int{1, 4, 16, 64, 256, 1024, 4096} {
		x, y := randSlice[T](n, 1), randSlice[T](n, 2)
		calls := 200000
		if n > 256 {
			calls = 50000
		}
		times := make([][]float64, len(cands))
		for r := 0; r < rounds; r++ {
			for i, c := range cands {
				var s T
				t0 := cputime.Thread()
				for range calls {
					s += c.f(x, y)
				}
				times[i] = append(times[i], float64(cputime.Thread()-t0)/float64(calls))
				sink64 += float64(s)
			}
		}
		vekMin := slices.Min(times[len(cands)-1])
		for i, c := range cands {
			v := slices.Clone(times[i])
			slices.Sort(v)
			fmt.Printf("Dot %s n=%-5d %-8s min %7.2f ns  median %7.2f ns  %7.1f GFLOP/s  %.2fx vek\n",
				typeName[T](), n, c.name, v[0], v[len(v)/2], 2*float64(n)/v[0], vekMin/v[0])
		}
	}
}
