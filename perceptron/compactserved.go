package perceptron

import (
	"sync"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/usedcols"
)

// compactServed is a linear model's served weights held compactly: those
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
type compactServed[T Float] struct {
	d    int
	cols *usedcols.Columns // cols.Cols[r]: the column of compact column r
	A    []T

	once  sync.Once
	dense []T // rows × d, formed once (denseW)
}

// newCompactServed returns the compact weights A (rows × (len(c.Cols)+1),
// laid out as compactServed says) of the columns c of a model of d
// features.
func newCompactServed[T Float](c *usedcols.Columns, A []T, d int) *compactServed[T] {
	return &compactServed[T]{d: d, cols: c, A: A}
}

// width is the compact rows' length: the used columns and the zero one.
func (c *compactServed[T]) width() int { return len(c.cols.Cols) + 1 }

// row returns the compact weights of row k.
func (c *compactServed[T]) row(k int) []T {
	n := c.width()
	return c.A[k*n : (k+1)*n]
}

// remap sets dst[k] to the compact column of column idx[k] (its rank,
// usedcols.Columns.Lookup, or len(cols), the zero column, for a column
// not used). Every index must be in [0, d).
func (c *compactServed[T]) remap(dst, idx []int32) {
	dst = dst[:len(idx)]
	zero := int32(len(c.cols.Cols))
	for k, j := range idx {
		r, ok := c.cols.Lookup(j)
		if !ok {
			r = zero
		}
		dst[k] = r
	}
}

// scatterRow sets w (d long, zero) to row k's weights.
func (c *compactServed[T]) scatterRow(w []T, k int) {
	a := c.row(k)
	for r, j := range c.cols.Cols {
		w[j] = a[r]
	}
}

// denseW returns the rows × d dense weights, formed on the first call
// (zero outside cols).
func (c *compactServed[T]) denseW() []T {
	c.once.Do(func() {
		n := c.width()
		rows := len(c.A) / n
		W := dataset.Alloc[T](rows * c.d)
		for k := range rows {
			c.scatterRow(W[k*c.d:(k+1)*c.d], k)
		}
		c.dense = W
	})
	return c.dense
}

// remapPool holds the scratch index slices of samples too long for
// compactIdx's stack buffer.
var remapPool = sync.Pool{New: func() any { return new([]int32) }}

// compactIdx is a sample's indices mapped to a compact model's columns, in
// a buffer of its own for samples of up to len(buf) stored values (stack
// memory in the caller), else in a pooled slice that release returns.
type compactIdx struct {
	buf    [256]int32
	pooled *[]int32
}

// compactIdxOf returns idx mapped by c (compactServed.remap), in ci.
func compactIdxOf[T Float](ci *compactIdx, c *compactServed[T], idx []int32) []int32 {
	dst := ci.buf[:]
	if len(idx) > len(ci.buf) {
		ci.pooled = remapPool.Get().(*[]int32)
		if cap(*ci.pooled) < len(idx) {
			*ci.pooled = make([]int32, len(idx))
		}
		dst = (*ci.pooled)[:len(idx)]
	}
	c.remap(dst, idx)
	return dst[:len(idx)]
}

// release returns a pooled slice to the pool.
func (ci *compactIdx) release() {
	if ci.pooled != nil {
		remapPool.Put(ci.pooled)
		ci.pooled = nil
	}
}
