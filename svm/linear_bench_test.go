package svm_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// sparseText is a synthetic short-text set: n rows of about 12 stored
// values among d hashed columns, k classes, each class drawing half its
// columns from a band of its own.
func sparseText(n, d, k int, seed uint64) *dataset.CSR[float32] {
	r := rand.New(rand.NewPCG(seed, 11))
	c := &dataset.CSR[float32]{Rows: n, Cols: d, Ptr: make([]int, 1, n+1), Y: make([]int, n)}
	band := d / k
	for i := range n {
		y := i % k
		c.Y[i] = y
		seen := map[int32]bool{}
		for range 12 {
			j := int32(r.IntN(d))
			if r.IntN(2) == 0 {
				j = int32(y*band + r.IntN(band/8))
			}
			seen[j] = true
		}
		row := make([]int32, 0, len(seen))
		for j := range seen {
			row = append(row, j)
		}
		for a := 1; a < len(row); a++ { // insertion sort: a dozen values
			for b := a; b > 0 && row[b] < row[b-1]; b-- {
				row[b], row[b-1] = row[b-1], row[b]
			}
		}
		for _, j := range row {
			c.Idx = append(c.Idx, j)
			c.Val = append(c.Val, 1)
		}
		c.Ptr = append(c.Ptr, len(c.Idx))
	}
	return c
}

// BenchmarkLinearLayout is the linear SVM's fit and prediction on the
// paths its model serves: dense (layoutData, 20,000 rows of 32 features,
// 4 classes; one row, a batch of 4,000) and sparse (sparseText, 10,000
// rows of about 12 values among 2¹⁸ columns, 20 classes; a batch of
// 4,000 rows). It reports process CPU time (cpu-ns/op).
func BenchmarkLinearLayout(b *testing.B) {
	ctx := context.Background()
	X, y := layoutData(20000, 1)
	T, _ := layoutData(4000, 2)
	dense := dataset.NewData(X, 32, y)
	opt := svm.LinearOptions{C: 1, Seed: 1}
	b.Run("dense/fit", func(b *testing.B) {
		loopCPU(b, func() error { _, _, err := svm.FitLinear(ctx, dense, y, opt); return err })
	})
	dm, _, err := svm.FitLinear(ctx, dense, y, opt)
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]int, 4000)
	b.Run("dense/predict-one", func(b *testing.B) {
		loopCPU(b, func() error { _, err := dm.Predict(T[:32]); return err })
	})
	b.Run("dense/predict-batch", func(b *testing.B) {
		loopCPU(b, func() error { return dm.PredictBatch(dst, T) })
	})
	sp := sparseText(10000, 1<<18, 20, 1)
	st := sparseText(4000, 1<<18, 20, 2)
	b.Run("sparse/fit", func(b *testing.B) {
		loopCPU(b, func() error { _, _, err := svm.FitLinear(ctx, sp, sp.Y, opt); return err })
	})
	sm, _, err := svm.FitLinear(ctx, sp, sp.Y, opt)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("sparse/predict-batch", func(b *testing.B) {
		loopCPU(b, func() error { return sm.PredictBatchSparse(dst, st) })
	})
	b.Run("sparse/predict-one", func(b *testing.B) {
		loopCPU(b, func() error { _, err := sm.PredictSparse(st.Row(0)); return err })
	})
}

// TestLinearSparseFileCompact: a linear SVM fitted on hashed sparse rows is
// written with the columns some class uses alone (linear's format,
// version 4), not as K×D dense weights, and its file loads back
// predicting the same labels and score bits.
func TestLinearSparseFileCompact(t *testing.T) {
	sp := sparseText(3000, 1<<18, 20, 3)
	m, _, err := svm.FitLinear(context.Background(), sp, sp.Y, svm.LinearOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	used := map[int32]bool{}
	for _, j := range sp.Idx {
		used[j] = true
	}
	// Each used column: its index and 20 weights; the header, labels,
	// biases and checksum besides.
	dense, compact := 20*(1<<18)*4, len(used)*(4+20*4)+1024
	if len(b) > compact || len(b) > dense/5 {
		t.Errorf("file of %d bytes for %d used columns (at most %d); the dense weights alone take %d", len(b), len(used), compact, dense)
	}
	t.Logf("file %d bytes, %d used columns of %d, dense weights %d bytes", len(b), len(used), 1<<18, dense)
	var back linear.Model[float32]
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	p1, p2 := make([]int, sp.Rows), make([]int, sp.Rows)
	s1, s2 := make([]float32, sp.Rows*20), make([]float32, sp.Rows*20)
	if err := m.PredictBatchSparse(p1, sp); err != nil {
		t.Fatal(err)
	}
	if err := back.PredictBatchSparse(p2, sp); err != nil {
		t.Fatal(err)
	}
	_ = m.ScoresBatchSparse(s1, sp)
	_ = back.ScoresBatchSparse(s2, sp)
	if !slices.Equal(p1, p2) || !slices.Equal(s1, s2) {
		t.Error("the loaded model predicts otherwise")
	}
	if back.Algorithm() != linear.DualCD || back.Scheme() != fit.OneVsRest {
		t.Errorf("loaded %v", back.String())
	}
}
