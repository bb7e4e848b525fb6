package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
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
					var s float32
					r := 0
					t0 := cputime.Thread()
					for range calls {
						s += c.fn(rs.idx[r], rs.val[r], w)
						if r++; r == rows {
							r = 0
						}
					}
					times[i] = append(times[i], float64(cputime.Thread()-t0)/calls)
					sink32 += s
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
