package svm

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// TestSparseRows: a dataset.CSR through sparseRows trains the machine the
// dense matrix trains (to rounding: the sums skip the zeros), one-vs-rest
// over three classes, and a bad matrix is an error, not a panic.
func TestSparseRows(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	const n, d = 240, 30
	X := make([]float64, n*d)
	y := make([]int, n)
	for i := range n {
		y[i] = i % 3
		for j := range d {
			if r.IntN(3) == 0 {
				X[i*d+j] = float64(r.IntN(5) - 2 + 3*boolInt(j%3 == y[i]))
			}
		}
	}
	c, rows := sparseOf(t, X, y, n, d)
	opts := LinearOptions{Tol: 1e-6, MaxIter: 10000}
	dm, dinfo, err := trainLinearDense(X, d, y, opts)
	if err != nil {
		t.Fatal(err)
	}
	sm, sinfo, err := trainLinearRows(context.Background(), rows, c.Y, opts)
	if err != nil {
		t.Fatal(err)
	}
	if sm.NumScores() != 3 || dm.NumScores() != 3 {
		t.Fatalf("%d and %d scores, want 3", sm.NumScores(), dm.NumScores())
	}
	for k := range 3 {
		if a, b := sinfo.Problems[k].Dual, dinfo.Problems[k].Dual; math.Abs(a-b) > 1e-8*math.Abs(b) {
			t.Errorf("class %d: sparse dual %v, dense %v", k, a, b)
		}
		ws, bs := sm.Weights(k)
		wd, bd := dm.Weights(k)
		for j := range wd {
			if math.Abs(ws[j]-wd[j]) > 1e-4*max(1, math.Abs(wd[j])) {
				t.Errorf("class %d w[%d]: sparse %v, dense %v", k, j, ws[j], wd[j])
			}
		}
		if math.Abs(bs-bd) > 1e-4*max(1, math.Abs(bd)) {
			t.Errorf("class %d b: sparse %v, dense %v", k, bs, bd)
		}
	}
	for _, tc := range []struct {
		name   string
		change func(c *dataset.CSR[float64])
		want   error
		cause  error // dataset's error, wrapped as well
	}{
		{"index at Cols", func(c *dataset.CSR[float64]) { c.Idx[len(c.Idx)-1] = int32(c.Cols) }, ErrDims, dataset.ErrIndex},
		{"offsets", func(c *dataset.CSR[float64]) { c.Ptr[1] = c.Ptr[2] + 1 }, ErrDims, nil},
		{"NaN", func(c *dataset.CSR[float64]) { c.Val[5] = math.NaN() }, ErrNonFinite, dataset.ErrNonFinite},
	} {
		bad := *c
		bad.Ptr, bad.Idx, bad.Val = append([]int(nil), c.Ptr...), append([]int32(nil), c.Idx...), append([]float64(nil), c.Val...)
		tc.change(&bad)
		_, err := sparseRows(&bad)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if tc.cause != nil && !errors.Is(err, tc.cause) {
			t.Errorf("%s: %v does not wrap %v", tc.name, err, tc.cause)
		}
	}
	if _, err := sparseRows[float64](nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil: %v", err)
	}
}

// sparseOf returns the dense rows X (n×d, labels y) as a CSR matrix and as
// sparseRows.
func sparseOf(t *testing.T, X []float64, y []int, n, d int) (*dataset.CSR[float64], solverRows[float64]) {
	t.Helper()
	c, err := dataset.FromDense(&dataset.Data[float64]{X: X, Y: y, Rows: n, Cols: d})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := sparseRows(c)
	if err != nil {
		t.Fatal(err)
	}
	return c, rows
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestDenseRows: a row-major matrix through denseRows trains, by
// trainLinearRows, the model trainLinearDense trains, bit for bit; a matrix
// that is not whole rows is an error wrapping ErrDims.
func TestDenseRows(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	const n, d = 150, 7
	X := make([]float32, n*d)
	y := make([]int, n)
	for i := range n {
		s := float32(0)
		for j := range d {
			X[i*d+j] = float32(r.IntN(9) - 4)
			s += X[i*d+j] * float32(j%3-1)
		}
		y[i] = 1
		if s < 0 || r.IntN(8) == 0 {
			y[i] = -1
		}
	}
	want, _, err := trainLinearDense(X, d, y, LinearOptions{C: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := denseRows(X, d)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := trainLinearRows(context.Background(), rows, y, LinearOptions{C: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	wb, _ := want.MarshalBinary()
	gb, _ := got.MarshalBinary()
	if string(wb) != string(gb) {
		t.Fatal("denseRows trains another model than trainLinearDense")
	}
	for _, bad := range []struct{ n, d int }{{10, 3}, {6, 0}} {
		if _, err := denseRows(make([]float32, bad.n), bad.d); !errors.Is(err, ErrDims) {
			t.Errorf("%d values in rows of %d: error %v, want ErrDims", bad.n, bad.d, err)
		}
	}
}

// hiddenRows hides a Rows' type, so trainLinearRows takes it as any Rows
// (D-wide weights) rather than as sparseRows' matrix (used columns only).
type hiddenRows[T kernel.Float] struct{ solverRows[T] }

// TestSparseRowsUsedColumns: on rows that leave most columns empty (as
// hashed text does), the solver over the used columns only gives the model
// of the solver over all D columns, bit for bit (the same sums in the same
// order), with 0 weights for the unused columns, binary and one-vs-rest, on
// one and two goroutines; with 9 classes on one goroutine the solver keeps
// their weights interleaved (visitRow), which must change no bit either.
func TestSparseRowsUsedColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(43, 44))
	const n, d = 200, 97
	for _, K := range []int{2, 4, 9} {
		X := make([]float64, n*d)
		y := make([]int, n)
		for i := range n {
			y[i] = i % K
			x := X[i*d : (i+1)*d]
			x[5+7*y[i]] = float64(1 + r.IntN(3))
			for range 4 {
				x[3*r.IntN(d/3)] = float64(r.IntN(5)-2) / 4
			}
		}
		_, rows := sparseOf(t, X, y, n, d)
		for _, threads := range []int{1, 2} {
			opts := LinearOptions{C: 0.5, Tol: 1e-4, MaxIter: 500, BiasFeature: 1, Workers: threads}
			cm, cinfo, err := trainLinearRows(context.Background(), rows, y, opts)
			if err != nil {
				t.Fatal(err)
			}
			fm, finfo, err := trainLinearRows(context.Background(), hiddenRows[float64]{rows}, y, opts)
			if err != nil {
				t.Fatal(err)
			}
			for k := range fm.NumScores() {
				wc, bc := cm.Weights(k)
				wf, bf := fm.Weights(k)
				if bc != bf {
					t.Fatalf("K=%d threads=%d class %d: bias %v over the used columns, %v over all", K, threads, k, bc, bf)
				}
				for j := range wf {
					if wc[j] != wf[j] {
						t.Fatalf("K=%d threads=%d class %d w[%d]: %v over the used columns, %v over all", K, threads, k, j, wc[j], wf[j])
					}
				}
				if cinfo.Problems[k] != finfo.Problems[k] {
					t.Fatalf("K=%d threads=%d class %d: %+v over the used columns, %+v over all", K, threads, k, cinfo.Problems[k], finfo.Problems[k])
				}
			}
		}
	}
}
