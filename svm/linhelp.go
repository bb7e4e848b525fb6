package svm

import (
	"errors"
	"fmt"
	"runtime"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
)

// The helpers of LinearModel's batch and sparse methods.

// checkSparseRow checks a sparse sample for a model of d features.
func checkSparseRow[T Float](x dataset.SparseRow[T], d int) error {
	if err := x.Check(d); err != nil {
		if errors.Is(err, dataset.ErrNonFinite) {
			return fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return fmt.Errorf("%w: %w (the model has %d features)", ErrDims, err, d)
	}
	return nil
}

// checkBatchCSR checks the shape of a batch's matrix (dataset.CSR.CheckShape:
// the offsets describe the rows, so c.Row is safe) and that it is at most d
// wide. Errors wrap ErrDims and dataset.ErrMismatch.
func checkBatchCSR[T Float](c *dataset.CSR[T], d int) error {
	if err := c.CheckShape(); err != nil {
		return fmt.Errorf("%w: %w", ErrDims, err)
	}
	if c.Cols > d {
		return fmt.Errorf("%w: the matrix has %d features, the model %d", ErrDims, c.Cols, d)
	}
	return nil
}

// batchSparse runs f on every row of c (checked by checkBatchCSR) over
// GOMAXPROCS goroutines; the first error by row wins.
func batchSparse[T Float](c *dataset.CSR[T], f func(i int) error) error {
	w := rowWorkers(c.Rows)
	return parallel.FirstError(w, func(t int) error {
		return parallel.Each(t*c.Rows/w, (t+1)*c.Rows/w, f)
	})
}

// parallelRows splits [0, n) between GOMAXPROCS goroutines.
func parallelRows(n int, f func(lo, hi int)) {
	w := rowWorkers(n)
	if w <= 1 {
		f(0, n)
		return
	}
	parallel.Run(w, func(t int) { f(t*n/w, (t+1)*n/w) })
}

// rowWorkers is the number of goroutines for a batch of n rows: GOMAXPROCS,
// but at least 64 rows each.
func rowWorkers(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/64))
}

// fractionEqual returns the fraction of the predictions pred equal to the
// labels y (len(y) > 0).
func fractionEqual(pred, y []int) float64 {
	ok := 0
	for i, p := range pred {
		if p == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}
