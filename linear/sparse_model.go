package linear

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// sparseOK is the check of the linear model's PredictSparse and
// ScoresSparse, whose dot product is too short to pay for
// checkSparseSample's branches per value: it reports whether there are
// nval indices, the first at least 0, the last below d, and strictly
// increasing, tested in one pass with no branch per index: idx[k−1] −
// idx[k], in int64 so that it cannot overflow, is negative for every k
// exactly when they are, so the AND of the differences keeps its sign bit
// (four running ANDs let the loop overlap the dot product's loads). The
// values are left to the score, which a NaN or ±Inf value always makes
// non-finite (0·Inf is NaN), as Predict does for a dense sample. A sample
// that fails is given to sparseError.
func sparseOK(idx []int32, nval, d int) bool {
	n := len(idx)
	if n != nval || n > 0 && (idx[0] < 0 || int(idx[n-1]) >= d) {
		return false
	}
	m0, m1, m2, m3 := int64(-1), int64(-1), int64(-1), int64(-1)
	k := 1
	for ; k+3 < n; k += 4 {
		p := idx[k-1 : k+4 : k+4]
		m0 &= int64(p[0]) - int64(p[1])
		m1 &= int64(p[1]) - int64(p[2])
		m2 &= int64(p[2]) - int64(p[3])
		m3 &= int64(p[3]) - int64(p[4])
	}
	for ; k < n; k++ {
		m0 &= int64(idx[k-1]) - int64(idx[k])
	}
	return m0&m1&m2&m3 < 0
}

// sparseError is the error checkSparseSample gives for a sample that
// sparseOK rejects.
func sparseError[T Float](x dataset.SparseRow[T], d int) error {
	if err := checkSparseSample(x, d); err != nil {
		return err
	}
	return fmt.Errorf("%w: sparse sample of %d indices and %d values rejected", ErrDims, len(x.Idx), len(x.Val)) // not reached
}

// scoreSparse returns score k of the sparse sample x, with (mul, bmul) =
// s.sampleScale(x.val): O(nnz) per weight vector (for a voted model, per
// kept vector of class k, voted as scoresInto does). For a compact model
// (s.cs), x's indices are its compact columns (compactIdxOf).
func (s *state[T]) scoreSparse(k int, x vec[T], mul, bmul T) T {
	d := s.d
	if !s.voted() {
		// Each product rounded (the conversions), as scoresInto does: no
		// fused multiply-add, which the compiler may form on arm64, so that
		// one row and a batch (finishBatch) give the same bits.
		if s.cs != nil {
			return T(s.k.DotSparse(x.idx, x.val, s.cs.Row(k))*mul) + T(s.B[k]*bmul)
		}
		return T(s.k.DotSparse(x.idx, x.val, s.W[k*d:(k+1)*d])*mul) + T(s.B[k]*bmul)
	}
	var buf [scoreChunk]T
	var vote float64
	for j, end := s.VOff[k], s.VOff[k+1]; j < end; j += scoreChunk {
		c := min(scoreChunk, end-j)
		for t := range c {
			buf[t] = s.k.DotSparse(x.idx, x.val, s.V[(j+t)*d:(j+t+1)*d])
		}
		vote += s.vote(buf[:c], j, mul, bmul)
	}
	return T(vote)
}

// predictSparse is Predict for a checked sparse sample.
func (s *state[T]) predictSparse(x vec[T]) (int, error) {
	mul, bmul := s.sampleScale(x.val)
	if s.scheme == fit.Binary {
		a := s.scoreSparse(0, x, mul, bmul)
		if !finite(a) {
			return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if a > 0 {
			return s.labels[1], nil
		}
		return s.labels[0], nil
	}
	best, bestK := T(0), 0
	for k := range s.labels {
		a := s.scoreSparse(k, x, mul, bmul)
		if !finite(a) {
			return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if k == 0 || a > best {
			best, bestK = a, k
		}
	}
	return s.labels[bestK], nil
}

// PredictSparse is Predict for a sparse sample (for example a row of a
// dataset.CSR, X.Row(i)): the stored values x.Val at the 0-based feature
// indices x.Idx, every other feature 0. It costs O(nnz) per score (for a
// voted model, per kept vector), allocates nothing, and is safe for
// concurrent use. x must be valid as for expansion.Model.PredictSparse and the
// svm package (dataset.SparseRow.Check): len(x.Idx) != len(x.Val), or an
// index that is not strictly increasing (unsorted or repeated) or not in
// [0, Dims()), is an error wrapping ErrDims; a NaN or ±Inf value wraps
// ErrNonFinite (found, as Predict finds it, by the score it makes
// non-finite: one pass over x.Val fewer), and so does a non-finite score.
func (m *Model[T]) PredictSparse(x dataset.SparseRow[T]) (int, error) {
	s, err := m.loadSparse()
	if err != nil {
		return 0, err
	}
	if !sparseOK(x.Idx, len(x.Val), s.d) {
		return 0, sparseError(x, s.d)
	}
	v := vec[T]{idx: x.Idx, val: x.Val}
	if s.cs != nil {
		var ci linmodel.CompactIdx
		defer ci.Release()
		v.idx = linmodel.CompactIdxOf(&ci, s.cs, v.idx)
	}
	return s.predictSparse(v)
}

// ScoresSparse is Scores for a sparse sample, checked as PredictSparse
// checks it. It allocates nothing and is safe for concurrent use.
func (m *Model[T]) ScoresSparse(dst []T, x dataset.SparseRow[T]) error {
	s, err := m.loadSparse()
	if err != nil {
		return err
	}
	if !sparseOK(x.Idx, len(x.Val), s.d) {
		return sparseError(x, s.d)
	}
	if len(dst) != s.rows() {
		return fmt.Errorf("%w: len(dst) = %d, the model has %d scores", ErrDims, len(dst), s.rows())
	}
	v := vec[T]{idx: x.Idx, val: x.Val}
	if s.cs != nil {
		var ci linmodel.CompactIdx
		defer ci.Release()
		v.idx = linmodel.CompactIdxOf(&ci, s.cs, v.idx)
	}
	mul, bmul := s.sampleScale(v.val)
	for k := range dst {
		a := s.scoreSparse(k, v, mul, bmul)
		if !finite(a) {
			return fmt.Errorf("%w: score %d is %v", ErrNonFinite, k, a)
		}
		dst[k] = a
	}
	return nil
}

// checkCSRFor validates a CSR matrix of samples for a model of d features:
// consistent offsets, and in every row column indices strictly increasing
// and in [0, d) (sparseOK, the single-sample methods' check: a row that
// fails gets their error, with its number). Its Cols may be below d (the
// missing features are 0) but not above. The values are left to the
// scores, which a NaN or ±Inf value makes non-finite.
func checkCSRFor[T Float](X *dataset.CSR[T], d int) error {
	if err := checkCSRShape(X, d); err != nil {
		return err
	}
	for i := range X.Rows {
		lo, hi := X.Ptr[i], X.Ptr[i+1]
		if !sparseOK(X.Idx[lo:hi], hi-lo, d) {
			return fmt.Errorf("row %d: %w", i, sparseError(X.Row(i), d))
		}
	}
	return nil
}

// checkCSRShape checks the shape of a batch's matrix for a model of d
// features (dataset.CSR.CheckShape: the offsets describe the rows, so
// X.Row is safe) and that it is at most d wide; the indices and values are
// left to the per-row checks. Errors wrap ErrDims (and dataset.ErrMismatch
// for a malformed matrix).
func checkCSRShape[T Float](X *dataset.CSR[T], d int) error {
	if err := X.CheckShape(); err != nil {
		return fmt.Errorf("%w: %w", ErrDims, err)
	}
	if X.Cols > d {
		return fmt.Errorf("%w: samples of %d features, the model has %d", ErrDims, X.Cols, d)
	}
	return nil
}

// ScoresBatchSparse writes the decision values of the rows of X to dst
// (NumScores values per row, len(dst) = X.Rows·NumScores, row-major), as
// ScoresBatch does for dense rows: kernel.MatVecSparse for a binary model,
// kernel.DotsSparse per row otherwise. X may have fewer columns than the
// model (the rest are 0), not more. Each row is held to PredictSparse's
// rules: a row whose indices are not strictly increasing or not below the
// model's width is an error wrapping ErrDims that names the row; a score
// made non-finite by a NaN or ±Inf value wraps ErrNonFinite. For a model
// whose weights are compact (a sparse one-vs-rest fit's) it allocates X's
// indices mapped to them.
func (m *Model[T]) ScoresBatchSparse(dst []T, X *dataset.CSR[T]) error {
	s, err := m.loadSparse()
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
	// The weights and the indices into them: a compact model's compact
	// columns (compactServed), for all of X at once.
	W, idx := s.W, X.Idx
	if s.cs != nil {
		W, idx = s.cs.A, make([]int32, X.Ptr[X.Rows])
		s.cs.Remap(idx, X.Idx[:len(idx)])
	}
	switch {
	case s.voted():
		for i := range X.Rows {
			xi := x(i)
			mul, bmul := s.sampleScale(xi.val)
			for k := range r {
				dst[i*r+k] = s.scoreSparse(k, xi, mul, bmul)
			}
		}
	case r == 1:
		s.k.MatVecSparse(dst, X.Ptr, idx, X.Val, W)
	default:
		for i := range X.Rows {
			lo, hi := X.Ptr[i], X.Ptr[i+1]
			s.k.DotsSparse(dst[i*r:(i+1)*r], W, idx[lo:hi:hi], X.Val[lo:hi:hi])
		}
	}
	return s.finishBatch(dst, X.Rows, func(i int) []T { return x(i).val })
}

// PredictBatchSparse writes the labels of the rows of X to dst (len(dst) =
// X.Rows), scoring them with ScoresBatchSparse; it allocates one scratch
// slice of X.Rows·NumScores values (and, for a model trained on sparse data
// whose weights are still compact, one of X's indices mapped to them).
func (m *Model[T]) PredictBatchSparse(dst []int, X *dataset.CSR[T]) error {
	s, err := m.loadSparse()
	if err != nil {
		return err
	}
	if err := checkCSRShape(X, s.d); err != nil {
		return err
	}
	if len(dst) != X.Rows {
		return fmt.Errorf("%w: len(dst) = %d for the %d rows of X", ErrDims, len(dst), X.Rows)
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
	s, err := m.loadSparse()
	if err != nil {
		return 0, err
	}
	if err := checkCSRShape(X, s.d); err != nil {
		return 0, err
	}
	if len(y) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatchSparse(pred, X); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}

// finishBatch completes the products w·x of n samples in dst (for a voted
// model, the final scores) into the scores: the samples' scaling (vals(i)
// is sample i's values, all that its norm needs) and the biases; a
// non-finite score is ErrNonFinite.
func (s *state[T]) finishBatch(dst []T, n int, vals func(i int) []T) error {
	r := s.rows()
	if !s.voted() {
		for i := range n {
			mul, bmul := s.sampleScale(vals(i))
			for k := range r {
				dst[i*r+k] = T(dst[i*r+k]*mul) + T(s.B[k]*bmul)
			}
		}
	}
	return finiteScores(dst, r)
}

// finiteScores returns an error wrapping ErrNonFinite that names the first
// non-finite score of dst (rows of r scores), or nil.
func finiteScores[T Float](dst []T, r int) error {
	for j, a := range dst {
		if !finite(a) {
			return fmt.Errorf("%w: score %d of row %d is %v", ErrNonFinite, j%r, j/r, a)
		}
	}
	return nil
}
