package svm

import (
	"errors"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/usedcols"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Rows is the data the linear solver reads: Len rows of Dim features,
// touched only through these methods, so that a sparse (CSR) matrix can
// implement it as well as a dense one (trainLinearDense wraps a dense
// row-major matrix). The solver calls them from one goroutine per group of
// classes, so an implementation must allow concurrent calls (none of
// them modifies the rows).
type solverRows[T kernel.Float] interface {
	// Len returns the number of rows.
	Len() int
	// Dim returns the number of features.
	Dim() int
	// Dot returns xᵢ·w; len(w) == Dim().
	Dot(i int, w []T) T
	// Axpy adds a·xᵢ to w; len(w) == Dim().
	Axpy(i int, a T, w []T)
	// SqNorm returns ‖xᵢ‖², computed in float64. The solver checks that
	// it is finite, which catches NaN and infinite values in the row.
	SqNorm(i int) float64
}

// dense is a row-major matrix as Rows.
type dense[T kernel.Float] struct {
	X []T
	n int
	d int
	k kernel.Kernels[T]
}

func newDense[T kernel.Float](X []T, d int, impl *kernel.Impl) *dense[T] {
	return &dense[T]{X: X, n: len(X) / d, d: d, k: kernel.On[T](impl)}
}

func (m *dense[T]) Len() int { return m.n }
func (m *dense[T]) Dim() int { return m.d }
func (m *dense[T]) row(i int) []T {
	return m.X[i*m.d : (i+1)*m.d : (i+1)*m.d]
}
func (m *dense[T]) Dot(i int, w []T) T     { return m.k.Dot(m.row(i), w) }
func (m *dense[T]) Axpy(i int, a T, w []T) { m.k.Axpy(a, m.row(i), w) }
func (m *dense[T]) SqNorm(i int) float64 {
	var s float64
	for _, v := range m.row(i) {
		s += float64(v) * float64(v)
	}
	return s
}

// denseRows returns the row-major matrix X (d features per row) as Rows
// for trainLinearRows and other solvers over Rows, with the kernels of
// kernel.ActiveImpl(). X is not copied nor modified; len(X) must be a
// multiple of d ≥ 1 (else ErrDims).
func denseRows[T kernel.Float](X []T, d int) (solverRows[T], error) {
	if d < 1 || len(X)%d != 0 {
		return nil, fmt.Errorf("%w: %d values in rows of %d", ErrDims, len(X), d)
	}
	return newDense(X, d, kernel.ActiveImpl()), nil
}

// checkRows validates a Rows and returns the squared norms of its rows.
func checkRows[T kernel.Float](rows solverRows[T], y []int) ([]float64, error) {
	if rows == nil {
		return nil, fmt.Errorf("%w: nil rows", ErrEmpty)
	}
	n, d := rows.Len(), rows.Dim()
	if n < 1 {
		return nil, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	if d < 1 {
		return nil, fmt.Errorf("%w: %d features; need at least 1", ErrDims, d)
	}
	if len(y) != n {
		return nil, fmt.Errorf("%w: len(y) = %d, but there are %d rows", ErrDims, len(y), n)
	}
	limit := math.MaxFloat64 / 4
	if is32[T]() {
		limit = math.MaxFloat32 / 4
	}
	sq := make([]float64, n)
	for i := range n {
		s := rows.SqNorm(i)
		if !(s <= limit) {
			return nil, fmt.Errorf("%w: row %d has a NaN or infinite value, or its squared norm %g could overflow the element type", ErrNonFinite, i, s)
		}
		sq[i] = s
	}
	return sq, nil
}

// csrRows is a CSR matrix as Rows: every method touches only the row's
// stored values (kernel.DotSparse, kernel.AxpySparse).
type csrRows[T kernel.Float] struct {
	c *dataset.CSR[T]
	k kernel.Kernels[T]
}

// sparseRows returns the CSR matrix c as Rows for trainLinearRows, which
// then trains at O(nnz) per pass: the linear SVM on text-sized feature
// spaces. c is checked (dataset.CSR.Validate: offsets, indices increasing
// and below c.Cols, finite values; the error wraps ErrDims or
// ErrNonFinite) and never modified; the labels are trainLinearRows' y
// (c.Y, usually).
func sparseRows[T kernel.Float](c *dataset.CSR[T]) (solverRows[T], error) {
	if c == nil {
		return nil, fmt.Errorf("%w: nil matrix", ErrEmpty)
	}
	if err := c.Validate(); err != nil {
		if errors.Is(err, dataset.ErrNonFinite) {
			return nil, fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return nil, fmt.Errorf("%w: %w", ErrDims, err)
	}
	return &csrRows[T]{c: c, k: kernel.On[T](kernel.ActiveImpl())}, nil
}

// compact returns the rows with their columns renumbered to the ones that
// hold a stored value, 0..Du−1 in increasing order (the offsets and values
// shared, the indices copied), and cols[r], the column of rank r. Hashed
// text uses a few percent of its columns: the solver's weights over the
// used ones fit in the caches where D-wide ones do not. Renumbering keeps
// every row's values in their order, so each dot product and update is the
// same sum, bit for bit.
func (m *csrRows[T]) compact() (*csrRows[T], []int32) {
	c := m.c
	idx, cols := usedcols.Renumber(c.Idx, c.Cols)
	cc := &dataset.CSR[T]{Rows: c.Rows, Cols: len(cols), Ptr: c.Ptr, Idx: idx, Val: c.Val}
	return &csrRows[T]{c: cc, k: m.k}, cols
}

func (m *csrRows[T]) Len() int { return m.c.Rows }
func (m *csrRows[T]) Dim() int { return m.c.Cols }
func (m *csrRows[T]) Dot(i int, w []T) T {
	r := m.c.Row(i)
	return m.k.DotSparse(r.Idx, r.Val, w)
}
func (m *csrRows[T]) Axpy(i int, a T, w []T) {
	r := m.c.Row(i)
	m.k.AxpySparse(a, r.Idx, r.Val, w)
}
func (m *csrRows[T]) sparseRow(i int) ([]int32, []T) {
	r := m.c.Row(i)
	return r.Idx, r.Val
}
func (m *csrRows[T]) kernels() kernel.Kernels[T] { return m.k }
func (m *csrRows[T]) maxRow() int {
	n := 0
	for i := range m.c.Rows {
		n = max(n, m.c.Ptr[i+1]-m.c.Ptr[i])
	}
	return n
}
func (m *csrRows[T]) SqNorm(i int) float64 {
	var s float64
	for _, v := range m.c.Row(i).Val {
		s += float64(v) * float64(v)
	}
	return s
}
