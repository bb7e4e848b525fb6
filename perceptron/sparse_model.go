package perceptron

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// checkSparse validates a sparse sample against a model of d features:
// as many indices as values, every index in [0, d). The indices need not
// be sorted: a repeated one counts twice, as in the dot product it is.
func checkSparse[T Float](x dataset.SparseRow[T], d int) error {
	if len(x.Idx) != len(x.Val) {
		return fmt.Errorf("%w: sparse sample with %d indices and %d values", ErrDims, len(x.Idx), len(x.Val))
	}
	for _, j := range x.Idx {
		if j < 0 || int(j) >= d {
			return fmt.Errorf("%w: sparse sample has feature index %d, the model %d features", ErrDims, j, d)
		}
	}
	return nil
}

// PredictSparse is Predict for a sparse sample (for example a row of a
// dataset.CSR, X.Row(i)): the stored values x.Val at the 0-based feature
// indices x.Idx, every other feature 0. It costs O(nnz) per score (for a
// voted model, per kept vector), allocates nothing, and is safe for
// concurrent use. An index outside [0, Dims()) or len(x.Idx) != len(x.Val)
// is an error wrapping ErrDims; a non-finite score wraps ErrNonFinite.
func (m *Model[T]) PredictSparse(x dataset.SparseRow[T]) (int, error) {
	s, err := m.load()
	if err != nil {
		return 0, err
	}
	if err := checkSparse(x, s.d); err != nil {
		return 0, err
	}
	return s.predict(vec[T]{idx: x.Idx, val: x.Val})
}

// ScoresSparse is Scores for a sparse sample (see PredictSparse). It
// allocates nothing and is safe for concurrent use.
func (m *Model[T]) ScoresSparse(dst []T, x dataset.SparseRow[T]) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	if err := checkSparse(x, s.d); err != nil {
		return err
	}
	return s.scores(dst, vec[T]{idx: x.Idx, val: x.Val})
}

// checkCSRFor validates a CSR matrix of samples for a model of d features:
// consistent offsets, every column index in [0, d). Its Cols may be below
// d (the missing features are 0) but not above.
func checkCSRFor[T Float](X *dataset.CSR[T], d int) error {
	switch {
	case X == nil:
		return fmt.Errorf("%w: nil matrix", ErrDims)
	case X.Cols > d:
		return fmt.Errorf("%w: samples of %d features, the model has %d", ErrDims, X.Cols, d)
	case X.Rows < 0 || len(X.Ptr) != X.Rows+1 || len(X.Idx) != len(X.Val) || X.Ptr[0] != 0 || X.Ptr[X.Rows] != len(X.Idx):
		return fmt.Errorf("%w: inconsistent CSR matrix (%d rows, %d offsets, %d indices, %d values)", ErrDims, X.Rows, len(X.Ptr), len(X.Idx), len(X.Val))
	}
	for i := range X.Rows {
		if X.Ptr[i+1] < X.Ptr[i] {
			return fmt.Errorf("%w: CSR offsets decrease at row %d", ErrDims, i)
		}
	}
	for _, j := range X.Idx {
		if j < 0 || int(j) >= d {
			return fmt.Errorf("%w: feature index %d, the model has %d features", ErrDims, j, d)
		}
	}
	return nil
}

// ScoresBatchSparse writes the decision values of the rows of X to dst
// (NumScores values per row, len(dst) = X.Rows·NumScores, row-major), as
// ScoresBatch does for dense rows: kernel.MatVecSparse for a binary model,
// kernel.DotsSparse per row otherwise. X may have fewer columns than the
// model (the rest are 0), not more.
func (m *Model[T]) ScoresBatchSparse(dst []T, X *dataset.CSR[T]) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	if err := checkCSRFor(X, s.d); err != nil {
		return err
	}
	r := s.rows()
	if len(dst) != X.Rows*r {
		return fmt.Errorf("%w: len(dst) = %d, want %d rows × %d scores", ErrDims, len(dst), X.Rows, r)
	}
	x := func(i int) vec[T] {
		lo, hi := X.Ptr[i], X.Ptr[i+1]
		return vec[T]{idx: X.Idx[lo:hi:hi], val: X.Val[lo:hi:hi]}
	}
	switch {
	case s.voted():
		for i := range X.Rows {
			xi := x(i)
			mul, bmul := s.sampleScale(xi.val)
			for k := range r {
				dst[i*r+k] = s.scoreVec(k, xi, mul, bmul)
			}
		}
	case r == 1:
		s.k.MatVecSparse(dst, X.Ptr, X.Idx, X.Val, s.W)
	default:
		for i := range X.Rows {
			xi := x(i)
			s.k.DotsSparse(dst[i*r:(i+1)*r], s.W, xi.idx, xi.val)
		}
	}
	return s.finishBatch(dst, X.Rows, func(i int) []T { return x(i).val })
}

// PredictBatchSparse writes the labels of the rows of X to dst (len(dst) =
// X.Rows), scoring them with ScoresBatchSparse; it allocates one scratch
// slice of X.Rows·NumScores values.
func (m *Model[T]) PredictBatchSparse(dst []int, X *dataset.CSR[T]) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	if X == nil || len(dst) != X.Rows {
		return fmt.Errorf("%w: len(dst) = %d for the rows of X", ErrDims, len(dst))
	}
	r := s.rows()
	sc := make([]T, len(dst)*r)
	if err := m.ScoresBatchSparse(sc, X); err != nil {
		return err
	}
	for i := range dst {
		dst[i] = s.decide(sc[i*r : (i+1)*r])
	}
	return nil
}

// AccuracySparse returns the fraction of the rows of X whose predicted
// label equals y.
func (m *Model[T]) AccuracySparse(X *dataset.CSR[T], y []int) (float64, error) {
	if len(y) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatchSparse(pred, X); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}
