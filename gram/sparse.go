package gram

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Sparse data. The kernel values of CSR rows (dataset.CSR: hashed text,
// 10⁵–10⁷ features with tens or hundreds of non-zeros per row) come from
// sparse products, never from a dense copy of the rows:
//
//	Linear      x·x′
//	Polynomial  (γ·x·x′ + c)^m
//	RBF         exp(−γ·max(‖x‖² + ‖x′‖² − 2x·x′, 0))   (the squared norms computed once)
//
// A row of the kernel matrix, K(xᵢ, X), scatters xᵢ into a dense scratch
// vector of width D (one per goroutine, cleared again after the row) and
// gathers every other row against it: O(nnz(X)) per row, O(nnz(xⱼ)) per
// pair. Sorted merging of the two index lists, the alternative that needs
// no scratch, costs O(nnz(xᵢ) + nnz(xⱼ)) per pair and a mispredicted
// branch per step: 5–10× slower on text-like rows (BenchmarkSparseDot,
// bench/results/gram/sparse-gram-zen5.txt). It serves only where the scratch
// would be too large, D > MaxScatterCols (2²² features; a model file may
// declare up to 2³⁰), so that the memory stays bounded by the data.
//
// Numerics. Every product x·x′ is the sequential sum, in increasing column
// order, of the products of the columns the two rows share (a column one
// of them lacks adds an exact zero), so the value does not depend on which
// row was scattered: the matrix is exactly symmetric and ComputeSparse,
// SparseRows.Row, RowBatch and a sparse Cache return bit-identical values
// for the same pair. Against the exact product the bound is
// |s − x·x′| ≤ γₙ·Σ|xₖx′ₖ| with n the number of shared columns. On
// integer-valued data small enough that every partial sum is an integer
// below 2^24 (float32) or 2^53 (float64) the products are exact, and so
// equal to those of the dense functions (Compute, Rows), and the kernel
// function is then applied by the same code as theirs (the
// implementation's vectorised exp for RBF, its power for Polynomial), so
// the whole kernel value is bit-identical to the dense one. The RBF
// diagonal is exactly 1, as in Compute.

// MaxScatterCols is the widest data set whose kernel rows SparseRows
// computes by scatter and gather, with a scratch vector of D values per
// goroutine (16 MiB of float32); wider ones merge index lists, with the
// same values.
const MaxScatterCols = 1 << 22

// SparseRows computes rows of the kernel matrix of a CSR data set on
// demand, as Rows does for dense data: K(xᵢ, X) for a training row, or
// K(x, X) for any sparse query. It keeps its own copy of the rows (O(nnz)
// values; the caller's CSR may be changed or dropped afterwards) and their
// squared norms. A SparseRows is safe for concurrent use.
type SparseRows[T kernel.Float] struct {
	e     *engine[T]
	n, d  int
	ptr   []int
	idx   []int32
	val   []T
	norms []T // ‖xᵢ‖², zero-padded to a multiple of the register tile
	npad  int
	merge bool // D > MaxScatterCols: products by merging, no scratch
	// free holds idle scratches. Not a sync.Pool: the collector empties a
	// pool, and a fresh scratch is D zeroed values (4 MiB for 2²⁰ float32
	// features), more than a whole row of gathers costs.
	free chan *sparseScratch[T]
}

// sparseScratch is one goroutine's working memory: the scattered row (D
// values, zero outside the row being scattered) and a padded result row.
type sparseScratch[T kernel.Float] struct {
	w   []T
	row []T
}

// NewSparseRows prepares the CSR data set c for row queries with kernel k.
// c must be valid (dataset.CSR.Validate: an invalid one is an error
// wrapping ErrShape, or ErrNonFinite for a NaN or infinite value); no rows
// is ErrEmpty. The memory budget (Options.MaxBytes) covers the copy of
// the rows and one scratch vector of D values per goroutine.
func NewSparseRows[T kernel.Float](c *dataset.CSR[T], k Kernel, opts *Options) (*SparseRows[T], error) {
	e, err := setup[T](k, opts)
	if err != nil {
		return nil, err
	}
	if c == nil || c.Rows == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrEmpty)
	}
	if err := c.Validate(); err != nil {
		if isNonFinite(err) {
			return nil, fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrShape, err)
	}
	if c.Cols < 1 {
		return nil, fmt.Errorf("%w: dimension d = %d, want ≥ 1", ErrShape, c.Cols)
	}
	nnz := int64(len(c.Val))
	merge := c.Cols > MaxScatterCols
	scratch := int64(e.threads) * int64(c.Cols)
	if merge {
		scratch = 0
	}
	// The copy holds nnz values and nnz int32 indices (counted as values).
	if err := e.budget(int64(c.Rows), 2*nnz+scratch, "sparse row source"); err != nil {
		return nil, err
	}
	nr := e.mk.nr
	npad := (c.Rows + nr - 1) / nr * nr
	r := &SparseRows[T]{e: e, n: c.Rows, d: c.Cols, npad: npad, merge: merge, free: make(chan *sparseScratch[T], e.threads),
		ptr: append([]int(nil), c.Ptr...), idx: append([]int32(nil), c.Idx...), val: append([]T(nil), c.Val...),
		norms: make([]T, npad)}
	maxNorm := 0.0
	for i := range r.n {
		v := r.val[r.ptr[i]:r.ptr[i+1]]
		nm := selfDot(v)
		r.norms[i] = nm
		maxNorm = max(maxNorm, float64(nm))
	}
	if err := e.checkOverflow(maxNorm); err != nil {
		return nil, err
	}
	return r, nil
}

// isNonFinite reports whether a dataset validation error is about a NaN or
// infinite value.
func isNonFinite(err error) bool { return errors.Is(err, dataset.ErrNonFinite) }

// Len returns N, the number of rows (and the length of each kernel row).
func (r *SparseRows[T]) Len() int { return r.n }

// Dim returns D, the number of features.
func (r *SparseRows[T]) Dim() int { return r.d }

// selfDot returns Σ v², sequentially: the dot of a row with itself as
// sparseDot computes it.
func selfDot[T kernel.Float](v []T) T {
	var s T
	for _, a := range v {
		s += T(a * a)
	}
	return s
}

// gather returns Σ val[k]·w[idx[k]] in order, one rounding per product and
// per sum (the conversion keeps the compiler from fusing them, so that the
// value is the same on every architecture and for either row scattered).
func gather[T kernel.Float](idx []int32, val, w []T) T {
	var s T
	w = w[:len(w):len(w)]
	for k, j := range idx {
		s += T(val[k] * w[j])
	}
	return s
}

// sparseDot is the product of two sorted sparse rows by merging their
// index lists: the same value as gather against the other row scattered.
// It serves data wider than MaxScatterCols.
func sparseDot[T kernel.Float](ai []int32, av []T, bi []int32, bv []T) T {
	var s T
	p, q := 0, 0
	for p < len(ai) && q < len(bi) {
		switch {
		case ai[p] == bi[q]:
			s += T(av[p] * bv[q])
			p++
			q++
		case ai[p] < bi[q]:
			p++
		default:
			q++
		}
	}
	return s
}

// scratch returns an idle scratch, or a new one; put hands it back (and
// drops it if Options.Threads are idle already).
func (r *SparseRows[T]) scratch() *sparseScratch[T] {
	select {
	case sc := <-r.free:
		return sc
	default:
		sc := &sparseScratch[T]{row: make([]T, r.npad)}
		if !r.merge {
			sc.w = make([]T, r.d)
		}
		return sc
	}
}

func (r *SparseRows[T]) put(sc *sparseScratch[T]) {
	select {
	case r.free <- sc:
	default:
	}
}

// rowInto computes K(x, X) for the sparse x (idx, val) with squared norm
// nx into dst[:N]; diag ≥ 0 is the index of x in X (RBF diagonal 1). Only
// the columns lo ≤ j < hi are computed (the others of dst are left
// alone).
func (r *SparseRows[T]) rowInto(sc *sparseScratch[T], dst []T, idx []int32, val []T, nx T, diag, hi int) {
	out := sc.row[:(hi+r.e.mk.nr-1)/r.e.mk.nr*r.e.mk.nr]
	if r.merge {
		for j := range hi {
			lo, up := r.ptr[j], r.ptr[j+1]
			out[j] = sparseDot(idx, val, r.idx[lo:up], r.val[lo:up])
		}
	} else {
		w := sc.w
		for k, j := range idx {
			w[j] = val[k]
		}
		for j := range hi {
			lo, up := r.ptr[j], r.ptr[j+1]
			out[j] = gather(r.idx[lo:up], r.val[lo:up], w)
		}
		for _, j := range idx {
			w[j] = 0
		}
	}
	clear(out[hi:])
	r.apply(out, nx)
	if diag >= 0 && diag < hi && r.e.sp.kind == kindRBF {
		out[diag] = 1
	}
	copy(dst[:hi], out[:hi])
}

// apply replaces the products in out (a multiple of the register tile
// long) by the kernel values, with the implementation's tile functions.
func (r *SparseRows[T]) apply(out []T, nx T) {
	e := r.e
	switch e.sp.kind {
	case kindRBF:
		e.mk.rbf(out, nx, r.norms[:len(out)], e.gamma)
	case kindPoly:
		e.mk.poly(out, e.gamma, e.coef0, e.sp.degree)
	case kindSigmoid:
		sigmoidTile(out, e.gamma, e.coef0)
	}
}

// Row writes K(xᵢ, xⱼ) for j = 0…N−1 into dst, which it grows if shorter
// than N, and returns dst[:N]. It panics if i is out of range.
func (r *SparseRows[T]) Row(dst []T, i int) []T {
	if i < 0 || i >= r.n {
		panic(fmt.Sprintf("gram: row %d out of range [0, %d)", i, r.n))
	}
	if cap(dst) < r.n {
		dst = make([]T, r.n)
	}
	dst = dst[:r.n]
	sc := r.scratch()
	defer r.put(sc)
	lo, hi := r.ptr[i], r.ptr[i+1]
	r.rowInto(sc, dst, r.idx[lo:hi], r.val[lo:hi], r.norms[i], i, r.n)
	return dst
}

// RowOf writes K(x, xⱼ) for j = 0…N−1 into dst, which it grows if shorter
// than N, and returns dst[:N]: the kernel values a model needs to score a
// new sparse sample x. Indices that are not strictly increasing, or not in
// [0, D) (a sample wider than the data set), are errors wrapping ErrShape;
// NaN or infinite values ErrNonFinite. x is not modified.
func (r *SparseRows[T]) RowOf(dst []T, x dataset.SparseRow[T]) ([]T, error) {
	nx, err := r.checkQuery(x)
	if err != nil {
		return dst, err
	}
	if cap(dst) < r.n {
		dst = make([]T, r.n)
	}
	dst = dst[:r.n]
	sc := r.scratch()
	defer r.put(sc)
	r.rowInto(sc, dst, x.Idx, x.Val, nx, -1, r.n)
	return dst, nil
}

// checkQuery validates a sparse query against the data set and returns its
// squared norm.
func (r *SparseRows[T]) checkQuery(x dataset.SparseRow[T]) (T, error) {
	if err := x.Check(r.d); err != nil {
		if isNonFinite(err) {
			return 0, fmt.Errorf("%w: query: %w", ErrNonFinite, err)
		}
		return 0, fmt.Errorf("%w: query: %w", ErrShape, err)
	}
	nx := selfDot(x.Val)
	if err := r.e.checkOverflow(max(float64(nx), r.maxNorm())); err != nil {
		return 0, err
	}
	return nx, nil
}

func (r *SparseRows[T]) maxNorm() float64 {
	m := 0.0
	for _, v := range r.norms {
		m = max(m, float64(v))
	}
	return m
}

// Diag returns K(xᵢ, xᵢ) for every row, the diagonal of the kernel matrix
// (bit-identical to the values Row returns there).
func (r *SparseRows[T]) Diag() []T {
	out := make([]T, r.npad)
	for i := range r.n {
		out[i] = r.norms[i]
	}
	switch r.e.sp.kind {
	case kindRBF:
		for i := range out {
			out[i] = 1
		}
	case kindPoly, kindSigmoid:
		r.apply(out, 0)
	}
	return out[:r.n]
}

// RowBatch writes K(xᵢ, X) for each i of idx into dst[k] (dst grown to
// len(idx) rows, each grown if shorter than N, as by Row) and returns
// dst[:len(idx)]; the rows are spread over Options.Threads goroutines. The
// values are identical to Row's. It panics if an index is out of range.
func (r *SparseRows[T]) RowBatch(dst [][]T, idx []int) [][]T {
	dst = batchRows(dst, idx, r.n)
	r.batch(dst, idx)
	return dst
}

// Row and batch make SparseRows a row source of Cache.
func (r *SparseRows[T]) batch(dst [][]T, idx []int) {
	r.rowsParallel(len(idx), func(sc *sparseScratch[T], k int) {
		i := idx[k]
		lo, hi := r.ptr[i], r.ptr[i+1]
		r.rowInto(sc, dst[k], r.idx[lo:hi], r.val[lo:hi], r.norms[i], i, r.n)
	})
}

// rowsParallel runs f(sc, k) for k = 0…m−1 on up to Options.Threads
// goroutines (the first is the caller's; parallel.Run re-raises a panic
// there), each with its own scratch, taking rows in small chunks from a
// shared counter (rows of a triangle differ in cost).
func (r *SparseRows[T]) rowsParallel(m int, f func(sc *sparseScratch[T], k int)) {
	const chunk = 8
	w := r.e.workers((m + chunk - 1) / chunk)
	var next atomic.Int64
	run := func() {
		sc := r.scratch()
		defer r.put(sc)
		for {
			k0 := int(next.Add(chunk)) - chunk
			if k0 >= m {
				return
			}
			for k := k0; k < min(m, k0+chunk); k++ {
				f(sc, k)
			}
		}
	}
	parallel.Run(w, func(int) { run() })
}

// ComputeSparse returns the symmetric N×N kernel matrix of the CSR data
// set c from sparse products (see SparseRows for the numerics): only the
// lower triangle is computed, row by row over Options.Threads goroutines,
// and mirrored, so the result is exactly symmetric, with an RBF diagonal
// of exactly 1. The memory budget (Options.MaxBytes) covers the matrix,
// the copy of the rows and the scratch vectors. Errors are NewSparseRows's.
func ComputeSparse[T kernel.Float](c *dataset.CSR[T], k Kernel, opts *Options) (*Matrix[T], error) {
	r, err := NewSparseRows(c, k, opts)
	if err != nil {
		return nil, err
	}
	n := int64(r.n)
	if err := r.e.budget(n*n, 2*int64(len(r.val))+int64(r.e.threads)*int64(r.d), "Gram matrix"); err != nil {
		return nil, err
	}
	m := &Matrix[T]{Rows: r.n, Cols: r.n, Data: make([]T, r.n*r.n)}
	r.rowsParallel(r.n, func(sc *sparseScratch[T], i int) {
		lo, hi := r.ptr[i], r.ptr[i+1]
		r.rowInto(sc, m.Data[i*r.n:], r.idx[lo:hi], r.val[lo:hi], r.norms[i], i, i+1)
	})
	for i := range r.n {
		for j := range i {
			m.Data[j*r.n+i] = m.Data[i*r.n+j]
		}
	}
	return m, nil
}

// NewSparseCache prepares the CSR data set c (as NewSparseRows does) and
// returns an LRU cache of its kernel rows holding at most budgetBytes of
// rows (N values each): the same Cache as NewCache's, whose rows are
// SparseRows'. A budget below one row is an error wrapping ErrBudget.
func NewSparseCache[T kernel.Float](c *dataset.CSR[T], k Kernel, budgetBytes int64, opts *Options) (*Cache[T], error) {
	r, err := NewSparseRows(c, k, opts)
	if err != nil {
		return nil, err
	}
	return NewSparseCacheOf(r, budgetBytes)
}

// NewSparseCacheOf returns a cache of the rows of r holding at most
// budgetBytes of rows (N values each), sharing r (see NewCacheOf). A
// budget below one row is an error wrapping ErrBudget.
func NewSparseCacheOf[T kernel.Float](r *SparseRows[T], budgetBytes int64) (*Cache[T], error) {
	return newCache[T](r, budgetBytes)
}
