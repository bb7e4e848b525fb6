package svm

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
)

// The kernel SVM on sparse (CSR) data. The kernel values come from gram's
// sparse products (gram.ComputeSparse, gram.SparseRows and its row cache),
// so no row is ever densified, and the model keeps its support vectors as
// sparse rows: a model of S support vectors over D = 2²⁰ hashed features
// holds their stored values, not S·D of them. On integer-valued data the
// kernel values are the dense ones bit for bit (see package gram), so the
// sparse fit is the dense fit's model: the same α, support vectors and
// bias.

// trainSparse fits a C-SVC on the CSR data c with labels y (usually c.Y),
// as trainDense does on dense rows. See trainSparseContext.
func trainSparse[T Float](c *dataset.CSR[T], y []int, opts Options) (*Model[T], *Info, error) {
	return trainSparseContext(context.Background(), c, y, opts)
}

// trainSparseContext is trainDenseContext on CSR data: every option means what
// it means there (a nil Kernel is RBF with γ = 1/D; GammaScale gives
// scikit-learn's "scale"), except that one-vs-one machines do not use
// class blocks: the N×N matrix is computed once if it fits GramBytes,
// else each machine computes its own matrix or row cache from its rows.
// The model keeps its support vectors as sparse rows (Model.SparseSupport).
// c is checked (dataset.CSR.Validate; errors wrap ErrDims or
// ErrNonFinite) and never modified; other errors are trainDenseContext's.
func trainSparseContext[T Float](ctx context.Context, c *dataset.CSR[T], y []int, opts Options) (*Model[T], *Info, error) {
	if err := checkCSR(c); err != nil {
		return nil, nil, err
	}
	if len(y) != c.Rows {
		return nil, nil, fmt.Errorf("%w: len(y) = %d, but the matrix has %d rows", ErrDims, len(y), c.Rows)
	}
	cfg, err := opts.resolve(c.Cols)
	if err != nil {
		return nil, nil, err
	}
	return solveAll(ctx, &trainer[T]{cfg: cfg, sp: c, d: c.Cols, n: c.Rows}, y)
}

// checkCSR checks a training matrix: rows, columns and dataset's own
// validation.
func checkCSR[T Float](c *dataset.CSR[T]) error {
	if c == nil || c.Rows == 0 {
		return fmt.Errorf("%w: no samples", ErrEmpty)
	}
	if c.Cols < 1 {
		return fmt.Errorf("%w: %d features; need at least 1", ErrDims, c.Cols)
	}
	if err := c.Validate(); err != nil {
		if errors.Is(err, dataset.ErrNonFinite) {
			return fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return fmt.Errorf("%w: %w", ErrDims, err)
	}
	return nil
}

// gammaScaleSparse is GammaScale of a CSR, from its stored values in the
// same two passes as the dense one.
func gammaScaleSparse[T Float](c *dataset.CSR[T]) float64 {
	if c == nil || c.Rows < 1 || c.Cols < 1 {
		return 0
	}
	total := float64(c.Rows) * float64(c.Cols)
	var s float64
	for _, v := range c.Val {
		s += float64(v)
	}
	mean := s / total
	var q float64
	for _, v := range c.Val {
		e := float64(v) - mean
		q += e * e
	}
	q += (total - float64(len(c.Val))) * mean * mean
	v := q / total
	if v == 0 {
		return 1
	}
	return 1 / (float64(c.Cols) * v)
}

// selectRows returns the rows idx of c as a new CSR (labels left out).
func selectRows[T Float](c *dataset.CSR[T], idx []int) *dataset.CSR[T] {
	nnz := 0
	for _, i := range idx {
		nnz += c.Ptr[i+1] - c.Ptr[i]
	}
	out := &dataset.CSR[T]{Rows: len(idx), Cols: c.Cols, Ptr: make([]int, 1, len(idx)+1),
		Idx: make([]int32, 0, nnz), Val: make([]T, 0, nnz), Y: make([]int, len(idx))}
	for _, i := range idx {
		r := c.Row(i)
		out.Idx = append(out.Idx, r.Idx...)
		out.Val = append(out.Val, r.Val...)
		out.Ptr = append(out.Ptr, len(out.Idx))
	}
	return out
}

// precomputeSparse computes the N×N kernel matrix of the sparse data if it
// fits GramBytes.
func (tr *trainer[T]) precomputeSparse() error {
	n := int64(tr.n)
	if n*n*int64(sizeOf[T]()) > tr.cfg.gramBytes {
		return nil
	}
	G, err := gram.ComputeSparse(tr.sp, tr.cfg.kern, &gram.Options{Impl: tr.cfg.impl, Threads: tr.cfg.threads, MaxBytes: -1})
	if err != nil {
		return gramErr(err)
	}
	tr.G = G
	return nil
}

// sparseSource is source for a machine of sparse data without the shared
// matrix: its own matrix if it fits the goroutine's share of GramBytes,
// else a row cache of CacheBytes/workers.
func (tr *trainer[T]) sparseSource(p *problem) (colSource[T], []int32, []float64, error) {
	l := len(p.rows)
	idx := make([]int, l)
	gidx := make([]int32, l)
	for q, i := range p.rows {
		idx[q], gidx[q] = int(i), int32(q)
	}
	sub := selectRows(tr.sp, idx)
	threads := max(1, tr.cfg.threads/tr.workers)
	gopts := &gram.Options{Impl: tr.cfg.impl, Threads: threads, MaxBytes: -1}
	kd := make([]float64, l)
	if tr.cfg.gramBytes >= 0 && int64(l)*int64(l)*int64(sizeOf[T]()) <= tr.cfg.gramBytes/int64(tr.workers) {
		G, err := gram.ComputeSparse(sub, tr.cfg.kern, gopts)
		if err != nil {
			return nil, nil, nil, gramErr(err)
		}
		for q := range l {
			kd[q] = float64(G.At(q, q))
		}
		return matrixSource[T]{G}, gidx, kd, nil
	}
	r, err := gram.NewSparseRows(sub, tr.cfg.kern, gopts)
	if err != nil {
		return nil, nil, nil, gramErr(err)
	}
	c, err := gram.NewSparseCacheOf(r, tr.cfg.cacheBytes/int64(tr.workers))
	if err != nil {
		if errors.Is(err, gram.ErrBudget) {
			return nil, nil, nil, fmt.Errorf("%w: CacheBytes/%d goroutines holds less than one kernel row of %d values: %w", ErrBudget, tr.workers, l, err)
		}
		return nil, nil, nil, gramErr(err)
	}
	for q, v := range r.Diag() {
		kd[q] = float64(v)
	}
	return cacheSource[T]{c}, gidx, kd, nil
}

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
	return checkSparseRow(x, m.d)
}

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

// rowSparse puts K(x, SV) of the sparse sample x into sc.kr.
func (m *Model[T]) rowSparse(sc *scratch[T], x dataset.SparseRow[T]) error {
	switch {
	case m.srows != nil:
		kr, err := m.srows.RowOf(sc.kr, x)
		if err != nil {
			return gramErr(err)
		}
		sc.kr = kr
	case m.rows != nil:
		// Dense support vectors: the sample densified in scratch (the
		// model holds S·Dims values already).
		if cap(sc.x) < m.d {
			sc.x = make([]T, m.d)
		}
		xd := sc.x[:m.d]
		for k, j := range x.Idx {
			xd[j] = x.Val[k]
		}
		kr, err := m.rows.RowOf(sc.kr, xd)
		for _, j := range x.Idx {
			xd[j] = 0
		}
		if err != nil {
			return gramErr(err)
		}
		sc.kr = kr
	}
	return nil
}

// ScoresSparse writes the NumScores decision values of the sparse sample x
// into dst; see Scores. It works for either kind of model (sparse or dense
// support vectors); a sample with a feature at or beyond Dims is an error
// wrapping ErrDims.
func (m *Model[T]) ScoresSparse(dst []T, x dataset.SparseRow[T]) error {
	if err := m.checkSparseSample(x); err != nil {
		return err
	}
	if len(dst) != len(m.bias) {
		return fmt.Errorf("%w: len(dst) = %d, want %d", ErrDims, len(dst), len(m.bias))
	}
	sc := m.get()
	defer m.pool.Put(sc)
	if err := m.rowSparse(sc, x); err != nil {
		return err
	}
	m.scores(dst, sc.kr, sc.part)
	return nil
}

// PredictSparse returns the predicted label of the sparse sample x; see
// ScoresSparse.
func (m *Model[T]) PredictSparse(x dataset.SparseRow[T]) (int, error) {
	if err := m.checkSparseSample(x); err != nil {
		return 0, err
	}
	sc := m.get()
	defer m.pool.Put(sc)
	if err := m.rowSparse(sc, x); err != nil {
		return 0, err
	}
	m.scores(sc.out, sc.kr, sc.part)
	return m.decide(sc.out, sc.votes), nil
}

// PredictBatchSparse writes the predicted label of each row of c into dst
// (len(dst) = c.Rows), the rows spread over GOMAXPROCS goroutines. c must
// have at most Dims columns (fewer is fine: the missing features are 0).
func (m *Model[T]) PredictBatchSparse(dst []int, c *dataset.CSR[T]) error {
	if err := m.check(); err != nil {
		return err
	}
	if err := checkBatchCSR(c, m.d); err != nil {
		return err
	}
	if len(dst) != c.Rows {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %d rows", ErrDims, len(dst), c.Rows)
	}
	return batchSparse(c, func(i int) (err error) { dst[i], err = m.PredictSparse(c.Row(i)); return err })
}

// AccuracySparse returns the fraction of rows of c whose predicted label is
// y.
func (m *Model[T]) AccuracySparse(c *dataset.CSR[T], y []int) (float64, error) {
	if err := m.check(); err != nil {
		return 0, err
	}
	if err := checkBatchCSR(c, m.d); err != nil {
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

// denseToSparse returns the non-zeros of x as a sparse row in the
// scratch's buffers.
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

// ScoresBatchSparse writes the decision values of the rows of c into dst,
// NumScores per row; see ScoresSparse.
func (m *Model[T]) ScoresBatchSparse(dst []T, c *dataset.CSR[T]) error {
	if err := m.check(); err != nil {
		return err
	}
	if err := checkBatchCSR(c, m.d); err != nil {
		return err
	}
	r := len(m.bias)
	if len(dst) != c.Rows*r {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %d rows and %d scores", ErrDims, len(dst), c.Rows, r)
	}
	return batchSparse(c, func(i int) error { return m.ScoresSparse(dst[i*r:(i+1)*r], c.Row(i)) })
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

// ScoresSparse writes the decision values of the sparse sample x into dst
// (NumScores values): gathers of the weights at x's stored features. A
// feature at or beyond Dims is an error wrapping ErrDims.
func (m *LinearModel[T]) ScoresSparse(dst []T, x dataset.SparseRow[T]) error {
	if m == nil || m.d == 0 {
		return fmt.Errorf("%w: untrained model", ErrModel)
	}
	if err := checkSparseRow(x, m.d); err != nil {
		return err
	}
	if len(dst) != len(m.b) {
		return fmt.Errorf("%w: len(dst) = %d, want %d", ErrDims, len(dst), len(m.b))
	}
	m.k.DotsSparse(dst, m.w, x.Idx, x.Val)
	for r, b := range m.b {
		dst[r] += b
	}
	return nil
}

// PredictSparse returns the predicted label of the sparse sample x.
func (m *LinearModel[T]) PredictSparse(x dataset.SparseRow[T]) (int, error) {
	var buf [64]T
	sc := buf[:0]
	if len(m.b) <= len(buf) {
		sc = buf[:len(m.b)]
	} else {
		sc = make([]T, len(m.b))
	}
	if err := m.ScoresSparse(sc, x); err != nil {
		return 0, err
	}
	return m.decide(sc), nil
}

// PredictBatchSparse writes the predicted label of each row of c into dst
// (len(dst) = c.Rows); c may have fewer columns than the model, not more.
func (m *LinearModel[T]) PredictBatchSparse(dst []int, c *dataset.CSR[T]) error {
	if m == nil || m.d == 0 {
		return fmt.Errorf("%w: untrained model", ErrModel)
	}
	if err := checkBatchCSR(c, m.d); err != nil {
		return err
	}
	if len(dst) != c.Rows {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %d rows", ErrDims, len(dst), c.Rows)
	}
	return batchSparse(c, func(i int) (err error) { dst[i], err = m.PredictSparse(c.Row(i)); return err })
}

// ScoresBatchSparse writes the decision values of the rows of c into dst,
// NumScores per row.
func (m *LinearModel[T]) ScoresBatchSparse(dst []T, c *dataset.CSR[T]) error {
	if m == nil || m.d == 0 {
		return fmt.Errorf("%w: untrained model", ErrModel)
	}
	if err := checkBatchCSR(c, m.d); err != nil {
		return err
	}
	r := len(m.b)
	if len(dst) != c.Rows*r {
		return fmt.Errorf("%w: len(dst) = %d for a matrix of %d rows and %d scores", ErrDims, len(dst), c.Rows, r)
	}
	return batchSparse(c, func(i int) error { return m.ScoresSparse(dst[i*r:(i+1)*r], c.Row(i)) })
}
