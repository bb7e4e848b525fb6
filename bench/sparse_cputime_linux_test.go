package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestSparseCPUTime measures DotSparse as TestDotCPUTime measures Dot: in
// CPU time of the measuring thread, rounds of calls per candidate
// interleaved, the fastest round of each reported with its ratio to the
// plain Go loop's fastest. Candidates and shapes are BenchmarkDotSparse's.
// It prints a table and asserts nothing; run it with
//
//	ROSENBLATT_CPUTIME_ROUNDS=30 go -C bench test -run TestSparseCPUTime -v .
func TestSparseCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := randSlice[float32](sparseDim, 7)
	cands := dotSparseCandidates[float32]()
	for _, rows := range []int{1, 4096} {
		for _, nnz := range []int{12, 100} {
			rs := newSparseRows[float32](rows, nnz)
			const calls = 100000
			times := make([][]float64, len(cands))
			for range rounds {
				for i, c := range cands {
					t0 := cputime.Thread()
					sink32 += closureLoop(c.fn, calls, rs, w)
					times[i] = append(times[i], float64(cputime.Thread()-t0)/calls)
				}
			}
			plainMin := slices.Min(times[len(cands)-1])
			for i, c := range cands {
				v := slices.Clone(times[i])
				slices.Sort(v)
				fmt.Printf("DotSparse f32 rows=%-4d nnz=%-3d %-8s min %7.2f ns  median %7.2f ns  %.2fx plain\n",
					rows, nnz, c.name, v[0], v[len(v)/2], plainMin/v[0])
			}
		}
	}
}

// TestSparseSmallCPUTime measures BenchmarkDotSparseSmall's candidates as
// TestSparseCPUTime does (CPU time of the thread, interleaved rounds, the
// fastest round of each, its ratio to the plain loop's fastest in the same
// harness). It prints a table and asserts nothing; run it with
//
//	ROSENBLATT_CPUTIME_ROUNDS=30 go -C bench test -run TestSparseSmallCPUTime -v .
func TestSparseSmallCPUTime(t *testing.T) {
	sparseSmallCPUTime[float32](t)
	sparseSmallCPUTime[float64](t)
}

func sparseSmallCPUTime[T kernel.Float](t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := randSlice[T](sparseDim, 7)
	closure, direct := smallClosures[T](), smallDirect[T]()
	const calls = 100000
	for _, rows := range []int{1, 4096} {
		for _, nnz := range []int{4, 8, 12, 16, 24, 100} {
			rs := newSparseRows[T](rows, nnz)
			tc := make([][]float64, len(closure))
			td := make([][]float64, len(direct))
			for range rounds {
				for i, c := range closure {
					t0 := cputime.Thread()
					sink64 += float64(closureLoop(c.fn, calls, rs, w))
					tc[i] = append(tc[i], float64(cputime.Thread()-t0)/calls)
				}
				for i, c := range direct {
					t0 := cputime.Thread()
					sink64 += float64(c.fn(calls, rs, w))
					td[i] = append(td[i], float64(cputime.Thread()-t0)/calls)
				}
			}
			for _, h := range []struct {
				name  string
				names []string
				times [][]float64
			}{{"closure", candNames(closure), tc}, {"direct", candNames(direct), td}} {
				plainMin := slices.Min(h.times[len(h.times)-1])
				for i, name := range h.names {
					v := slices.Clone(h.times[i])
					slices.Sort(v)
					fmt.Printf("DotSparse %s rows=%-4d nnz=%-3d loop=%-7s %-10s min %7.2f ns  median %7.2f ns  %.2fx plain\n",
						typeName[T](), rows, nnz, h.name, name, v[0], v[len(v)/2], plainMin/v[0])
				}
			}
		}
	}
}

func candNames[F any](c []candidate[F]) []string {
	names := make([]string, len(c))
	for i := range c {
		names[i] = c[i].name
	}
	return names
}
