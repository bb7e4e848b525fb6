package expansion

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Sparse samples and sparse support vectors. A model trained on CSR data
// keeps its support vectors as sparse rows (gram.SparseRows computes the
// kernel rows from their stored values); either kind of model scores
// dense and sparse samples alike.

// SparseSupport returns a copy of the support vectors of a model trained
// on sparse data (or decoded from such a model's file) as CSR rows (Rows =
// NumSupport, Cols = Dims, no labels), or nil for a model with dense
// support vectors (SupportVectors).
func (m *Model[T]) SparseSupport() *dataset.CSR[T] {
	if m.ssv == nil {
		return nil
	}
	return cloneCSR(m.ssv)
}

func cloneCSR[T Float](c *dataset.CSR[T]) *dataset.CSR[T] {
	return &dataset.CSR[T]{Rows: c.Rows, Cols: c.Cols, Ptr: slices.Clone(c.Ptr), Idx: slices.Clone(c.Idx),
		Val: slices.Clone(c.Val), Y: make([]int, c.Rows)}
}

// checkSparseSample checks a sparse sample against the model: indices
// strictly increasing and below Dims (a sample wider than the model is an
// error wrapping ErrDims), values finite (ErrNonFinite).
func (m *Model[T]) checkSparseSample(x dataset.SparseRow[T]) error {
	if err := m.check(); err != nil {
		return err
	}
	if err := x.Check(m.d); err != nil {
		if errors.Is(err, dataset.ErrNonFinite) {
			return fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return fmt.Errorf("%w: %w (the model has %d features)", ErrDims, err, m.d)
	}
	return nil
}

// rowSparse puts K(x, SV) of the checked sparse sample x into sc.kr and
// returns its bias feature.
func (m *Model[T]) rowSparse(sc *scratch[T], x dataset.SparseRow[T]) (T, error) {
	switch {
	case m.srows != nil:
		bf := T(1)
		if sl := m.Scaling(); sl != linear.ScaleNone {
			sc.val = append(sc.val[:0], x.Val...)
			switch sl {
			case linear.ScaleFeatures:
				if nx := float64(m.k.Dot(sc.val, sc.val)); nx > 0 && !math.IsInf(nx, 0) {
					m.k.Scale(T(1/math.Sqrt(nx)), sc.val)
				}
			case linear.ScaleAugmented:
				bf = T(augScale(m.k, x.Val, m.pc.BiasFeature))
				m.k.Scale(bf, sc.val)
			}
			x.Val = sc.val
		}
		kr, err := m.srows.RowOf(sc.kr, x)
		if err != nil {
			return 0, gramErr(err)
		}
		sc.kr = kr
		return bf, nil
	case m.rows != nil:
		// Dense support vectors: the sample densified in scratch (the
		// model holds S·Dims values already), then scaled in place.
		if cap(sc.x) < m.d {
			sc.x = make([]T, m.d)
		}
		xd := sc.x[:m.d]
		for k, j := range x.Idx {
			xd[j] = x.Val[k]
		}
		xs, bf := m.scaled(xd, xd)
		kr, err := m.rows.RowOf(sc.kr, xs)
		clear(xd)
		if err != nil {
			return 0, gramErr(err)
		}
		sc.kr = kr
		return bf, nil
	}
	return 1, nil
}

// sparseOf returns the non-zeros of x as a sparse row in the scratch's
// buffers.
func (sc *scratch[T]) sparseOf(x []T) dataset.SparseRow[T] {
	idx, val := sc.idx[:0], sc.val[:0]
	for j, v := range x {
		if v != 0 {
			idx = append(idx, int32(j))
			val = append(val, v)
		}
	}
	sc.idx, sc.val = idx, val
	return dataset.SparseRow[T]{Idx: idx, Val: val}
}

// scoreSparse writes the scores of the checked sparse sample x into dst.
func (m *Model[T]) scoreSparse(sc *scratch[T], dst []T, x dataset.SparseRow[T]) error {
	bf, err := m.rowSparse(sc, x)
	if err != nil {
		return err
	}
	m.scores(dst, sc.kr, sc.part, bf)
	return finiteScores(dst)
}

// ScoresSparse writes the NumScores decision values of the sparse sample x
// into dst; see Scores. It works for either kind of model (sparse or dense
// support vectors); a sample with a feature at or beyond Dims is an error
// wrapping ErrDims.
func (m *Model[T]) ScoresSparse(dst []T, x dataset.SparseRow[T]) error {
	if err := m.checkSparseSample(x); err != nil {
		return err
	}
	if len(dst) != m.nf {
		return fmt.Errorf("%w: len(dst) = %d, want %d", ErrDims, len(dst), m.nf)
	}
	sc := m.get()
	defer m.pool.Put(sc)
	return m.scoreSparse(sc, dst, x)
}

// PredictSparse returns the predicted label of the sparse sample x; see
// ScoresSparse.
func (m *Model[T]) PredictSparse(x dataset.SparseRow[T]) (int, error) {
	if err := m.checkSparseSample(x); err != nil {
		return 0, err
	}
	sc := m.get()
	defer m.pool.Put(sc)
	if err := m.scoreSparse(sc, sc.out, x); err != nil {
		return 0, err
	}
	return m.decide(sc.out, sc.votes), nil
}

// PredictBatchSparse writes the predicted label of each row of c into dst
// (len(dst) = c.Rows), the rows spread over GOMAXPROCS goroutines. c must
// have at most Dims columns (fewer is fine: the missing features are 0).
func (m *Model[T]) PredictBatchSparse(dst []int, c *dataset.CSR[T]) error {
	if err := m.checkBatchCSR(c); err != nil {
		return err
	}
	if len(dst) != c.Rows {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %d rows", ErrDims, len(dst), c.Rows)
	}
	return m.batchSparse(c, func(sc *scratch[T], i int) error {
		if err := m.scoreSparse(sc, sc.out, c.Row(i)); err != nil {
			return err
		}
		dst[i] = m.decide(sc.out, sc.votes)
		return nil
	})
}

// ScoresBatchSparse writes the decision values of the rows of c into dst,
// NumScores per row; see ScoresSparse.
func (m *Model[T]) ScoresBatchSparse(dst []T, c *dataset.CSR[T]) error {
	if err := m.checkBatchCSR(c); err != nil {
		return err
	}
	r := m.nf
	if len(dst) != c.Rows*r {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %d rows and %d scores", ErrDims, len(dst), c.Rows, r)
	}
	return m.batchSparse(c, func(sc *scratch[T], i int) error {
		return m.scoreSparse(sc, dst[i*r:(i+1)*r], c.Row(i))
	})
}

// AccuracySparse returns the fraction of rows of c whose predicted label is
// y.
func (m *Model[T]) AccuracySparse(c *dataset.CSR[T], y []int) (float64, error) {
	if err := m.checkBatchCSR(c); err != nil {
		return 0, err
	}
	if len(y) != c.Rows || len(y) == 0 {
		return 0, fmt.Errorf("%w: len(y) = %d for a matrix of %d rows", ErrDims, len(y), c.Rows)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatchSparse(pred, c); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}

// checkBatchCSR checks the model and the shape of a batch's matrix
// (dataset.CSR.CheckShape: the offsets describe the rows, so c.Row is
// safe) and that it is at most Dims wide. Errors wrap ErrDims and
// dataset.ErrMismatch.
func (m *Model[T]) checkBatchCSR(c *dataset.CSR[T]) error {
	if err := m.check(); err != nil {
		return err
	}
	if err := c.CheckShape(); err != nil {
		return fmt.Errorf("%w: %w", ErrDims, err)
	}
	if c.Cols > m.d {
		return fmt.Errorf("%w: the matrix has %d features, the model %d", ErrDims, c.Cols, m.d)
	}
	return nil
}

// batchSparse runs f on every row of c (checked by checkBatchCSR, each
// row checked here) over GOMAXPROCS goroutines, each with its own
// scratch; the first error by row wins.
func (m *Model[T]) batchSparse(c *dataset.CSR[T], f func(sc *scratch[T], i int) error) error {
	w := rowWorkers(c.Rows)
	return parallel.FirstError(w, func(t int) error {
		sc := m.get()
		defer m.pool.Put(sc)
		return parallel.Each(t*c.Rows/w, (t+1)*c.Rows/w, func(i int) error {
			if err := m.checkSparseSample(c.Row(i)); err != nil {
				return err // parallel.Each names the row
			}
			return f(sc, i)
		})
	})
}

// checkSparseParts checks the sparse support vectors of p: no dense ones
// besides, Cols = Dims, and a valid CSR (indices increasing and below
// Dims, finite values). Errors wrap ErrModel.
func checkSparseParts[T Float](p *Parts[T]) error {
	c := p.Sparse
	switch {
	case len(p.SV) != 0:
		return fmt.Errorf("%w: both dense and sparse support vectors", ErrModel)
	case c.Cols != p.Dims:
		return fmt.Errorf("%w: sparse support vectors of %d columns for Dims = %d", ErrModel, c.Cols, p.Dims)
	}
	y := c.Y
	if len(y) != c.Rows {
		y = make([]int, max(0, c.Rows)) // the labels are not part of a model
	}
	cc := *c
	cc.Y = y
	if err := cc.Validate(); err != nil {
		return fmt.Errorf("%w: sparse support vectors: %w", ErrModel, err)
	}
	return nil
}
