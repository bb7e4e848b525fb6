package quant

import (
	"fmt"
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// The sparse forms quantise the sample as its dense form: a sparse row is
// the dense sample with zeros in the columns it leaves out, so the label
// and scores are those of Predict and Scores on that dense sample.

// PredictSparse returns the label of the sparse sample x, as Predict
// returns it for the same sample dense. A bad row (an index out of range
// or out of order) is an error wrapping ErrDims.
func (q *Model) PredictSparse(x dataset.SparseRow[float32]) (int, error) {
	var label int
	err := q.withDense(x, func(d []float32) (err error) {
		label, err = q.Predict(d)
		return err
	})
	return label, err
}

// ScoresSparse writes the scores of the sparse sample x to dst, as Scores
// writes them for the same sample dense.
func (q *Model) ScoresSparse(dst []float32, x dataset.SparseRow[float32]) error {
	return q.withDense(x, func(d []float32) error { return q.Scores(dst, d) })
}

// PredictBatchSparse writes the labels of X's rows to dst.
func (q *Model) PredictBatchSparse(dst []int, X *dataset.CSR[float32]) error {
	if err := q.checkCSR(X, len(dst), 1); err != nil {
		return err
	}
	for i := range X.Rows {
		k, err := q.PredictSparse(X.Row(i))
		if err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
		dst[i] = k
	}
	return nil
}

// ScoresBatchSparse writes the scores of X's rows to dst, NumScores a row.
func (q *Model) ScoresBatchSparse(dst []float32, X *dataset.CSR[float32]) error {
	r := q.NumScores()
	if err := q.checkCSR(X, len(dst), r); err != nil {
		return err
	}
	for i := range X.Rows {
		if err := q.ScoresSparse(dst[i*r:(i+1)*r], X.Row(i)); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
	}
	return nil
}

// checkCSR checks X's width and that dst holds per values a row.
func (q *Model) checkCSR(X *dataset.CSR[float32], dst, per int) error {
	switch {
	case X == nil:
		return fmt.Errorf("%w: no data", ErrDims)
	case X.Cols != q.d:
		return fmt.Errorf("%w: %d features, the model has %d", ErrDims, X.Cols, q.d)
	case dst != X.Rows*per:
		return fmt.Errorf("%w: dst holds %d values for %d rows of %d", ErrDims, dst, X.Rows, per)
	}
	return nil
}

// densePools holds, per model width, dense rows of zeros.
var densePools sync.Map // int → *sync.Pool of *[]float32

// withDense calls f with x scattered into a dense row of q's width, which
// is all zeros again when withDense returns (only x's columns are written,
// and they are cleared), so that no call sees another's values.
func (q *Model) withDense(x dataset.SparseRow[float32], f func([]float32) error) error {
	if len(x.Idx) != len(x.Val) {
		return fmt.Errorf("%w: sparse sample of %d indices and %d values", ErrDims, len(x.Idx), len(x.Val))
	}
	prev := int32(-1)
	for _, c := range x.Idx {
		if c <= prev || int(c) >= q.d {
			return fmt.Errorf("%w: sparse sample: feature %d (0-based) not increasing (previous %d) or not below %d features", ErrDims, c, prev, q.d)
		}
		prev = c
	}
	p, _ := densePools.LoadOrStore(q.d, &sync.Pool{New: func() any {
		v := make([]float32, q.d)
		return &v
	}})
	pool := p.(*sync.Pool)
	dp := pool.Get().(*[]float32)
	d := *dp
	for j, c := range x.Idx {
		d[c] = x.Val[j]
	}
	err := f(d)
	for _, c := range x.Idx {
		d[c] = 0
	}
	pool.Put(dp)
	return err
}
