package svm

import (
	"context"
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
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
func trainSparse[T kernel.Float](c *dataset.CSR[T], y []int, opts Options) (*expansion.Model[T], *Info, error) {
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
func trainSparseContext[T kernel.Float](ctx context.Context, c *dataset.CSR[T], y []int, opts Options) (*expansion.Model[T], *Info, error) {
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
func checkCSR[T kernel.Float](c *dataset.CSR[T]) error {
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
func gammaScaleSparse[T kernel.Float](c *dataset.CSR[T]) float64 {
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
func selectRows[T kernel.Float](c *dataset.CSR[T], idx []int) *dataset.CSR[T] {
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
