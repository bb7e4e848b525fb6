package perceptron

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/csrtest"
)

// sparseBatchModels trains the kernel (RBF) and the linear one-vs-rest
// model whose sparse batch methods the tests below call.
func sparseBatchModels(t *testing.T, c *dataset.CSR[float32], y []int) (*expansion.Model[float32], *linear.Model[float32]) {
	t.Helper()
	km, _, err := trainKernelMultiSparse(c, y, KernelOptions{Kernel: gram.RBF{Gamma: 0.1}})
	if err != nil {
		t.Fatal(err)
	}
	lm, _, err := trainMultiSparse(c, y, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return km, lm
}

// TestSparseBatchMalformed: every sparse batch method of the linear and
// the kernel models returns an error wrapping ErrDims and
// dataset.ErrMismatch for a CSR whose offsets do not describe its rows (on
// 8 rows and on 2000, split over goroutines), never a panic.
func TestSparseBatchMalformed(t *testing.T) {
	_, y, c := sparseIntSet(51, 60, 10, 3)
	km, lm := sparseBatchModels(t, c, y)
	methods := sparseBatchMethods(km, lm)
	csrtest.Check(t, func(rows int) *dataset.CSR[float32] { _, _, c := sparseIntSet(52, rows, 10, 3); return c }, expansion.ErrDims, methods[:3])
	csrtest.Check(t, func(rows int) *dataset.CSR[float32] { _, _, c := sparseIntSet(52, rows, 10, 3); return c }, linear.ErrDims, methods[3:])
}

// TestSparseBatchRows: every sparse batch method of the linear and the
// kernel models rejects a matrix with one bad row (indices unsorted,
// repeated, at or past the model's width, negative) with ErrDims naming
// the row, as PredictSparse rejects the row alone, and a NaN value with
// ErrNonFinite; the same matrix with the row mended passes.
func TestSparseBatchRows(t *testing.T) {
	_, y, c := sparseIntSet(54, 60, 10, 3)
	km, lm := sparseBatchModels(t, c, y)
	methods := sparseBatchMethods(km, lm)
	// row is the row of at least three stored values that the cases change
	row := -1
	for i := range c.Rows {
		if c.Ptr[i+1]-c.Ptr[i] >= 3 {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatal("no row of three values")
	}
	lo := c.Ptr[row]
	for _, tc := range []struct {
		name   string
		change func(idx []int32, val []float32)
		want   error
	}{
		{"unsorted", func(idx []int32, _ []float32) { idx[lo], idx[lo+1] = idx[lo+1], idx[lo] }, linear.ErrDims},
		{"repeated", func(idx []int32, _ []float32) { idx[lo+1] = idx[lo] }, linear.ErrDims},
		{"at the width", func(idx []int32, _ []float32) { idx[c.Ptr[row+1]-1] = 10 }, linear.ErrDims},
		{"negative", func(idx []int32, _ []float32) { idx[lo] = -1 }, linear.ErrDims},
		{"NaN", func(_ []int32, val []float32) { val[lo] = float32(math.NaN()) }, linear.ErrNonFinite},
	} {
		bad := *c
		bad.Idx, bad.Val = slices.Clone(c.Idx), slices.Clone(c.Val)
		tc.change(bad.Idx, bad.Val)
		for _, m := range methods {
			err := m.Call(&bad, bad.Rows)
			if !isErr(err, tc.want) {
				t.Errorf("%s: %s: %v, want %v", m.Name, tc.name, err, tc.want)
			}
			if tc.want == linear.ErrDims && err != nil && !strings.Contains(err.Error(), fmt.Sprintf("row %d", row)) {
				t.Errorf("%s: %s: %v does not name row %d", m.Name, tc.name, err, row)
			}
			if err := m.Call(c, c.Rows); err != nil {
				t.Errorf("%s: the valid matrix: %v", m.Name, err)
			}
		}
	}
}

// TestKernelAccuracySparse: the fraction of matching labels, the dense
// Accuracy's value, and the dense method's error for no labels (ErrDims).
func TestKernelAccuracySparse(t *testing.T) {
	X, y, c := sparseIntSet(53, 60, 10, 3)
	m, _, err := trainKernelMultiSparse(c, y, KernelOptions{Kernel: gram.RBF{Gamma: 0.05}, Options: Options{MaxIter: 3}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Accuracy(X, y)
	if err != nil {
		t.Fatal(err)
	}
	csrtest.CheckAccuracy(t, c, y, want, m.AccuracySparse, m.PredictBatchSparse)
	empty := &dataset.CSR[float32]{Cols: 10, Ptr: []int{0}}
	if _, err := m.AccuracySparse(empty, nil); !errors.Is(err, expansion.ErrDims) {
		t.Errorf("no samples: %v, want ErrDims", err)
	}
	if _, err := m.Accuracy(nil, nil); !errors.Is(err, expansion.ErrDims) {
		t.Errorf("dense Accuracy, no samples: %v, want ErrDims (the sparse one's)", err)
	}
	if _, err := m.AccuracySparse(c, y[:10]); !errors.Is(err, expansion.ErrDims) {
		t.Errorf("short labels: %v, want ErrDims", err)
	}
}

// sparseBatchMethods is the sparse batch methods of the kernel model km
// and the linear model lm, each called on a CSR matrix of n rows.
func sparseBatchMethods(km *expansion.Model[float32], lm *linear.Model[float32]) []csrtest.Method[float32] {
	return []csrtest.Method[float32]{
		{Name: "expansion.Model.PredictBatchSparse", Call: func(c *dataset.CSR[float32], n int) error { return km.PredictBatchSparse(make([]int, n), c) }},
		{Name: "expansion.Model.ScoresBatchSparse", Call: func(c *dataset.CSR[float32], n int) error {
			return km.ScoresBatchSparse(make([]float32, n*km.NumScores()), c)
		}},
		{Name: "expansion.Model.AccuracySparse", Call: func(c *dataset.CSR[float32], n int) error { _, err := km.AccuracySparse(c, make([]int, n)); return err }},
		{Name: "Model.PredictBatchSparse", Call: func(c *dataset.CSR[float32], n int) error { return lm.PredictBatchSparse(make([]int, n), c) }},
		{Name: "Model.ScoresBatchSparse", Call: func(c *dataset.CSR[float32], n int) error {
			return lm.ScoresBatchSparse(make([]float32, n*lm.NumScores()), c)
		}},
		{Name: "Model.AccuracySparse", Call: func(c *dataset.CSR[float32], n int) error { _, err := lm.AccuracySparse(c, make([]int, n)); return err }},
	}
}
