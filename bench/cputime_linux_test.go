package bench

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

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
// ROSENBLATT_DOT_SIZES="40,48,64" measures those lengths instead of the
// default ones (TestSqDistCPUTime too). Wall-clock benchmarks (BenchmarkDot) remain the reference on an idle
// machine; on a busy one, their spread is many times the differences
// between the candidates at small n.
func TestDotCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	reduceCPUTime(rounds, "Dot", 2, dotCandidates[float32]())
	reduceCPUTime(rounds, "Dot", 2, dotCandidates[float64]())
}

// TestSqDistCPUTime is TestDotCPUTime for SqDist; vek's peer is its
// Euclidean distance (vek32.Distance, vek.Distance: a square root more).
func TestSqDistCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	reduceCPUTime(rounds, "SqDist", 3, sqdistCandidates[float32]())
	reduceCPUTime(rounds, "SqDist", 3, sqdistCandidates[float64]())
}

// sizesFromEnv returns the lengths listed in the environment variable
// name, comma-separated ("40,48,64"), or def if it is unset or lists none.
func sizesFromEnv(name string, def []int) []int {
	var ns []int
	for _, f := range strings.Split(os.Getenv(name), ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return def
	}
	return ns
}

// reduceCPUTime is TestDotCPUTime for the reduction name of element type
// T, of flops floating-point operations an element: its candidates as BenchmarkDot's (every one a closure calling the
// library the way user code does), less gonum and the plain loop; vek is
// the reference of the ratios.
func reduceCPUTime[T kernel.Float](rounds int, name string, flops float64, all []candidate[dotFn[T]]) {
	var cands []candidate[dotFn[T]]
	vek := -1
	for _, c := range all {
		switch c.name {
		case "gonum", "plain":
			continue
		case "vek":
			vek = len(cands)
		}
		cands = append(cands, c)
	}
	for _, n := range sizesFromEnv("ROSENBLATT_DOT_SIZES", []int{1, 4, 16, 64, 256, 1024, 4096}) {
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
					s += c.fn(x, y)
				}
				times[i] = append(times[i], float64(cputime.Thread()-t0)/float64(calls))
				sink64 += float64(s)
			}
		}
		vekMin := slices.Min(times[vek])
		for i, c := range cands {
			v := slices.Clone(times[i])
			slices.Sort(v)
			fmt.Printf("%s %s n=%-5d %-8s min %7.2f ns  median %7.2f ns  %7.1f GFLOP/s  %.2fx vek\n",
				name, typeName[T](), n, c.name, v[0], v[len(v)/2], flops*float64(n)/v[0], vekMin/v[0])
		}
	}
}
