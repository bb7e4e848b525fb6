package bench

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// csrOf lays the rows of rs out as one CSR block: offsets, indices, values.
func csrOf[T kernel.Float](rs sparseRows[T]) (ptr []int, idx []int32, val []T) {
	ptr = []int{0}
	for r := range rs.idx {
		idx = append(idx, rs.idx[r]...)
		val = append(val, rs.val[r]...)
		ptr = append(ptr, len(idx))
	}
	return ptr, idx, val
}

// TestSparseBatchCPUTime measures the sparse dot of a block of rows, the
// form a trainer's pass or a batch prediction takes: kernel.MatVecSparse
// on a CSR block of 4096 rows (one call; amd64's row loop runs in
// assembly), DotSparse called per row, and the plain Go loop over the rows
// (for i: for k in row i: s += val[k]·w[idx[k]]), in CPU time per row of
// the measuring thread, rounds interleaved, the fastest round of each with
// its ratio to the plain loop's fastest. Rows of 12 and of 100 stored
// values into 2²⁰ weights; "hot" cycles 64 rows (their weights in L1),
// "cold" 4096 (gathers over the whole vector). It prints a table and
// asserts nothing; run it with
//
//	ROSENBLATT_CPUTIME_ROUNDS=30 go -C bench test -run TestSparseBatchCPUTime -v .
func TestSparseBatchCPUTime(t *testing.T) {
	sparseBatchCPUTime[float32](t)
	sparseBatchCPUTime[float64](t)
}

func sparseBatchCPUTime[T kernel.Float](t *testing.T) {
	rounds := cputime.Rounds(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w := randSlice[T](sparseDim, 7)
	const total = 4096 * 32 // rows per round
	for _, nnz := range []int{12, 100} {
		for _, rows := range []int{64, 4096} {
			ptr, idx, val := csrOf(newSparseRows[T](rows, nnz))
			dst := make([]T, rows)
			cands := []struct {
				name string
				fn   func()
			}{
				{"matvec", func() { kernel.MatVecSparse(dst, ptr, idx, val, w) }},
				{"dot/row", func() {
					for i := range dst {
						lo, hi := ptr[i], ptr[i+1]
						dst[i] = kernel.DotSparse(idx[lo:hi], val[lo:hi], w)
					}
				}},
				{"plain", func() {
					for i := range dst {
						var s T
						for k := ptr[i]; k < ptr[i+1]; k++ {
							s += val[k] * w[idx[k]]
						}
						dst[i] = s
					}
				}},
			}
			times := make([][]float64, len(cands))
			for range rounds {
				for i, c := range cands {
					t0 := cputime.Thread()
					for range total / rows {
						c.fn()
					}
					times[i] = append(times[i], float64(cputime.Thread()-t0)/total)
					for _, v := range dst {
						sink64 += float64(v)
					}
				}
			}
			plainMin := slices.Min(times[len(cands)-1])
			heat := "hot"
			if rows == 4096 {
				heat = "cold"
			}
			for i, c := range cands {
				v := slices.Clone(times[i])
				slices.Sort(v)
				fmt.Printf("sparse rows %T %-4s nnz=%-3d %-8s min %7.2f ns/row  median %7.2f  %.2fx plain\n",
					T(0), heat, nnz, c.name, v[0], v[len(v)/2], plainMin/v[0])
			}
		}
	}
}
