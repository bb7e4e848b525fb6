package svm

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/csrtest"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestSparseBatchMalformed: every sparse batch method returns an error
// wrapping the model package's ErrDims and dataset.ErrMismatch for a CSR whose offsets do not
// describe its rows (on 8 rows, run by the caller, and on 2000, run by
// worker goroutines), never a panic.
func TestSparseBatchMalformed(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 33))
	X, y, c := sparseInt(r, 40, 10, 3)
	km, _, err := trainSparse(c, y, Options{Kernel: gram.RBF{Gamma: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	lm, _, err := trainLinearDense(X, 10, y, LinearOptions{})
	if err != nil {
		t.Fatal(err)
	}
	csrtest.Check(t, func(rows int) *dataset.CSR[float32] { _, _, c := sparseInt(r, rows, 10, 3); return c }, expansion.ErrDims, []csrtest.Method[float32]{
		{Name: "Model.PredictBatchSparse", Call: func(c *dataset.CSR[float32], n int) error { return km.PredictBatchSparse(make([]int, n), c) }},
		{Name: "Model.ScoresBatchSparse", Call: func(c *dataset.CSR[float32], n int) error {
			return km.ScoresBatchSparse(make([]float32, n*km.NumScores()), c)
		}},
		{Name: "Model.AccuracySparse", Call: func(c *dataset.CSR[float32], n int) error { _, err := km.AccuracySparse(c, make([]int, n)); return err }},
	})
	csrtest.Check(t, func(rows int) *dataset.CSR[float32] { _, _, c := sparseInt(r, rows, 10, 3); return c }, linear.ErrDims, []csrtest.Method[float32]{
		{Name: "linear.Model.PredictBatchSparse", Call: func(c *dataset.CSR[float32], n int) error { return lm.PredictBatchSparse(make([]int, n), c) }},
		{Name: "linear.Model.ScoresBatchSparse", Call: func(c *dataset.CSR[float32], n int) error {
			return lm.ScoresBatchSparse(make([]float32, n*lm.NumScores()), c)
		}},
	})
}

// TestAccuracySparse: the fraction of matching labels, the dense
// Accuracy's value on the same rows, and the dense method's errors (ErrDims
// for no labels or a count that is not the matrix's).
func TestAccuracySparse(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	X, y, c := sparseInt(r, 60, 8, 3)
	m, _, err := trainSparse(c, y, Options{Kernel: gram.RBF{Gamma: 0.1}, C: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	dm, _, err := trainDense(X, 8, y, Options{Kernel: gram.RBF{Gamma: 0.1}, C: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	want, err := dm.Accuracy(X, y)
	if err != nil {
		t.Fatal(err)
	}
	csrtest.CheckAccuracy(t, c, y, want, m.AccuracySparse, m.PredictBatchSparse)
	empty := &dataset.CSR[float32]{Cols: 8, Ptr: []int{0}}
	for _, tc := range []struct {
		name string
		c    *dataset.CSR[float32]
		y    []int
	}{
		{"no labels", c, nil},
		{"empty matrix", empty, nil},
		{"short labels", c, y[:10]},
	} {
		_, errS := m.AccuracySparse(tc.c, tc.y)
		if !errors.Is(errS, expansion.ErrDims) {
			t.Errorf("%s: %v, want ErrDims", tc.name, errS)
		}
	}
	if _, err := dm.Accuracy(nil, nil); !errors.Is(err, expansion.ErrDims) {
		t.Errorf("dense Accuracy with no samples: %v, want ErrDims (the sparse one's)", err)
	}
}

// TestTrainSparseCanceled: trainSparseContext stops on a cancelled context
// with its error.
func TestTrainSparseCanceled(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 66))
	_, y, c := sparseInt(r, 60, 8, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, _, err := trainSparseContext(ctx, c, y, Options{Kernel: gram.RBF{Gamma: 0.1}})
	if !errors.Is(err, context.Canceled) || m != nil {
		t.Errorf("cancelled: model %v, error %v; want context.Canceled", m != nil, err)
	}
}
