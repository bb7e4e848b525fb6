package usedcols

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
)

// BenchmarkRenumberByCount renumbers 8 M stored values over 2²⁰ columns
// drawn from a Zipf law (s = 1.1), about the manual pages' text set
// (bench/textset: 8.26 M values, 565 670 of the 2²⁰ columns used), sorted
// within rows of 516 values as a CSR matrix's.
func BenchmarkRenumberByCount(b *testing.B) {
	const d, nnz, row = 1 << 20, 8 << 20, 516
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 1, d-1)
	perm := r.Perm(d) // the hashed columns of the frequent features are scattered
	idx := make([]int32, nnz)
	for k := range idx {
		idx[k] = int32(perm[z.Uint64()])
	}
	for lo := 0; lo < nnz; lo += row {
		slices.Sort(idx[lo:min(nnz, lo+row)])
	}
	ranked := make([]int32, nnz)
	b.SetBytes(4 * nnz)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := cputime.Thread()
	for b.Loop() {
		RenumberByCount(ranked, idx, d)
	}
	if cpu0 >= 0 {
		b.ReportMetric(float64(cputime.Thread()-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	}
}
