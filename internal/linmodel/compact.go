// Package linmodel holds what the linear model (package linear) and its
// trainers (packages perceptron and svm) share without it being public:
// the model's parts as a trainer builds them, its compact forms, and the
// bridge by which a trainer turns parts into a *linear.Model and back
// without copying the arrays.
package linmodel

import (
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/usedcols"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Float is the element type of a model: float32 or float64.
type Float = kernel.Float

// CompactAvg is an averaged model's training state held compactly: the
// running weights and the averaging sums of the columns cols only, rows ×
// len(cols) values each (row k's value of column cols[r] at k·len(cols)+r),
// every other column zero in both. A fit from zero weights on sparse data
// makes it (cols: the columns the data uses), so that the fit writes one
// K×D array (the served average) rather than three; the dense running
// weights and sums are formed (dense) only where they are read: continueDense,
// Update and MarshalJSON (MarshalBinary writes their rows from the compact
// form; the files hold them dense of width D as before).
type CompactAvg[T Float] struct {
	Cols []int32
	W, U []T
}

// Dense returns the running weights and sums as rows × d arrays (fresh).
func (a *CompactAvg[T]) Dense(rows, d int) (W, U []T) {
	n := len(a.Cols)
	W, U = dataset.Alloc[T](rows*d), dataset.Alloc[T](rows*d)
	for k := range rows {
		w, u := W[k*d:(k+1)*d], U[k*d:(k+1)*d]
		aw, au := a.W[k*n:(k+1)*n], a.U[k*n:(k+1)*n]
		for r, j := range a.Cols {
			w[j], u[j] = aw[r], au[r]
		}
	}
	return W, U
}

// CompactServed is a linear model's served weights held compactly: those
// of the columns cols only (the columns its training data uses, every
// other column's weight zero), rows × (nc+1) values, nc = len(cols): row
// k's weight of column cols[r] at k·(nc+1)+r, and a zero at k·(nc+1)+nc,
// the weight of every column not in cols.
//
// A fit from zero weights on sparse data (the one-vs-rest blocks) makes it
// instead of the rows × D dense weights: for text-sized D the dense array
// is mostly zeros (the manual pages' NAME lines use 33 000 of 2²⁰ columns,
// so 25 MB against 0.8 MB for six classes), and allocating it and
// scattering the used columns into it took about as long as the epochs.
// The sparse methods (PredictSparse, ScoresSparse and their batch forms)
// score with it directly: each sample's indices are mapped to the compact
// columns (remap), and the same kernels run on the compact rows, so that
// every score is bit for bit the one the dense weights give (the same
// weights, gathered in the same order); Weights scatters the one row it
// returns. Whatever else reads the weights (a dense sample, Update,
// continueDense, MarshalJSON) gets the dense rows × D array, formed once on
// its first use (dense, through Model.load), from which point the model
// is an ordinary dense one.
type CompactServed[T Float] struct {
	d    int
	Cols *usedcols.Columns // cols.Cols[r]: the column of compact column r
	A    []T

	once  sync.Once
	dense []T // rows × d, formed once (denseW)
}

// NewCompactServed returns the compact weights A (rows × (len(c.Cols)+1),
// laid out as CompactServed says) of the columns c of a model of d
// features.
func NewCompactServed[T Float](c *usedcols.Columns, A []T, d int) *CompactServed[T] {
	return &CompactServed[T]{d: d, Cols: c, A: A}
}

// Width is the compact rows' length: the used columns and the zero one.
func (c *CompactServed[T]) Width() int { return len(c.Cols.Cols) + 1 }

// Row returns the compact weights of row k.
func (c *CompactServed[T]) Row(k int) []T {
	n := c.Width()
	return c.A[k*n : (k+1)*n]
}

// Remap sets dst[k] to the compact column of column idx[k] (its rank,
// usedcols.Columns.Lookup, or len(cols), the zero column, for a column
// not used). Every index must be in [0, d).
func (c *CompactServed[T]) Remap(dst, idx []int32) {
	dst = dst[:len(idx)]
	zero := int32(len(c.Cols.Cols))
	for k, j := range idx {
		r, ok := c.Cols.Lookup(j)
		if !ok {
			r = zero
		}
		dst[k] = r
	}
}

// ScatterRow sets w (d long, zero) to row k's weights.
func (c *CompactServed[T]) ScatterRow(w []T, k int) {
	a := c.Row(k)
	for r, j := range c.Cols.Cols {
		w[j] = a[r]
	}
}

// DenseW returns the rows × d dense weights, formed on the first call
// (zero outside cols).
func (c *CompactServed[T]) DenseW() []T {
	c.once.Do(func() {
		n := c.Width()
		rows := len(c.A) / n
		W := dataset.Alloc[T](rows * c.d)
		for k := range rows {
			c.ScatterRow(W[k*c.d:(k+1)*c.d], k)
		}
		c.dense = W
	})
	return c.dense
}

// remapPool holds the scratch index slices of samples too long for
// CompactIdx's stack buffer.
var remapPool = sync.Pool{New: func() any { return new([]int32) }}

// CompactIdx is a sample's indices mapped to a compact model's columns, in
// a buffer of its own for samples of up to len(buf) stored values (stack
// memory in the caller), else in a pooled slice that release returns.
type CompactIdx struct {
	buf    [256]int32
	pooled *[]int32
}

// CompactIdxOf returns idx mapped by c (CompactServed.remap), in ci.
func CompactIdxOf[T Float](ci *CompactIdx, c *CompactServed[T], idx []int32) []int32 {
	dst := ci.buf[:]
	if len(idx) > len(ci.buf) {
		ci.pooled = remapPool.Get().(*[]int32)
		if cap(*ci.pooled) < len(idx) {
			*ci.pooled = make([]int32, len(idx))
		}
		dst = (*ci.pooled)[:len(idx)]
	}
	c.Remap(dst, idx)
	return dst[:len(idx)]
}

// Release returns a pooled slice to the pool.
func (ci *CompactIdx) Release() {
	if ci.pooled != nil {
		remapPool.Put(ci.pooled)
		ci.pooled = nil
	}
}
