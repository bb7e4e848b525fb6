package linear

import (
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// TestSparseOK: the linear model's branch-free check accepts exactly the
// samples (of finite values) that dataset.SparseRow.Check accepts, for
// every length up to 13 (each lane of its four running ANDs and the tail),
// with one index disturbed at each position, and for indices whose
// differences overflow int32.
func TestSparseOK(t *testing.T) {
	const d = 64
	check := func(idx []int32, nval int) {
		t.Helper()
		x := dataset.SparseRow[float32]{Idx: idx, Val: make([]float32, nval)}
		want := checkSparseSample(x, d) == nil
		if got := sparseOK(idx, nval, d); got != want {
			t.Errorf("sparseOK(%v, %d values) = %v, Check says %v", idx, nval, got, want)
		}
	}
	for n := range 14 {
		idx := make([]int32, n)
		for i := range idx {
			idx[i] = int32(3*i + 1)
		}
		check(idx, n)
		check(idx, n+1)
		for i := range idx {
			for _, v := range []int32{-1, 0, idx[i] - 1, idx[i] + 1, idx[i] + 3, d - 1, d, math.MaxInt32, math.MinInt32} {
				old := idx[i]
				idx[i] = v
				check(idx, n)
				idx[i] = old
			}
		}
	}
	for _, idx := range [][]int32{
		{0, math.MaxInt32, math.MinInt32, 5},
		{0, math.MinInt32, math.MaxInt32, 5},
		{1, math.MaxInt32, math.MinInt32 + 1, 2, 3, 4, 5, 6},
	} {
		if sparseOK(idx, len(idx), d) {
			t.Errorf("sparseOK(%v) accepts", idx)
		}
	}
}
