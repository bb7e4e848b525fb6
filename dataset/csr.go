package dataset

import (
	"slices"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// CSR is a labelled data set stored as a compressed sparse row matrix: only
// the stored (non-zero) values of each row, with their column indices. It is
// the form LIBSVM files describe, and the one text data needs: a row of a
// bag-of-words set has tens or hundreds of non-zeros among 10⁵–10⁷ features,
// which a dense matrix would store as zeros.
//
// Row i's values are Val[Ptr[i]:Ptr[i+1]], in the columns
// Idx[Ptr[i]:Ptr[i+1]] (0-based, strictly increasing along the row, each
// below Cols). A value left out is 0; a stored value may be 0 too (a file's
// explicit "3:0"). This is the layout of scipy.sparse.csr_matrix (indptr,
// indices, data), so data can be exchanged with it without conversion.
//
// The readers in this package always return a CSR that passes Validate.
type CSR[T kernel.Float] struct {
	Ptr  []int   // Rows+1 offsets into Idx and Val: Ptr[0] = 0, non-decreasing, Ptr[Rows] = len(Idx)
	Idx  []int32 // column of each stored value, 0-based
	Val  []T     // the stored values
	Y    []int   // one integer label per row
	Rows int
	Cols int
}

// SparseRow is one sparse sample: the values Val in the columns Idx
// (0-based, strictly increasing), every other feature 0. CSR.Row returns
// views of its rows; the trainers and models of package perceptron take
// them as samples.
type SparseRow[T kernel.Float] struct {
	Idx []int32
	Val []T
}

// NNZ returns the number of stored values.
func (r SparseRow[T]) NNZ() int { return len(r.Idx) }

// Row returns row i as views of c.Idx and c.Val (their capacity capped, so
// appending to them never overwrites the next row). It panics if i is out
// of range, as indexing a slice does.
func (c *CSR[T]) Row(i int) SparseRow[T] {
	if i < 0 || i >= c.Rows {
		panic("dataset: row index out of range")
	}
	lo, hi := c.Ptr[i], c.Ptr[i+1]
	return SparseRow[T]{Idx: c.Idx[lo:hi:hi], Val: c.Val[lo:hi:hi]}
}

// NNZ returns the number of stored values, len(c.Val).
func (c *CSR[T]) NNZ() int { return len(c.Val) }

// Bytes returns the memory the matrix holds: its offsets, indices, values
// and labels (8 + 8 bytes per row, 4 + sizeof(T) per stored value).
func (c *CSR[T]) Bytes() int64 {
	var z T
	return int64(len(c.Ptr))*8 + int64(len(c.Y))*8 + int64(len(c.Idx))*4 + int64(len(c.Val))*int64(sizeOf(z))
}

// CheckShape reports whether c's offsets describe its rows, so that Row(i)
// is safe for every i in [0, Rows): c not nil, Rows ≥ 0, len(Ptr) ==
// Rows+1, Ptr[0] = 0, Ptr non-decreasing, and Ptr[Rows] == len(Idx) ==
// len(Val). It does not look at the indices, values, Cols or Y (see
// Validate, and SparseRow.Check for one row); it runs in O(Rows). The error
// wraps ErrMismatch. The models' batch methods on CSR matrices call it
// first, so a malformed matrix is an error, never a panic.
func (c *CSR[T]) CheckShape() error {
	switch {
	case c == nil:
		return errorf(ErrMismatch, "nil CSR matrix")
	case c.Rows < 0:
		return errorf(ErrMismatch, "negative row count %d", c.Rows)
	case len(c.Ptr) != c.Rows+1:
		return errorf(ErrMismatch, "len(Ptr) = %d, want Rows+1 = %d", len(c.Ptr), c.Rows+1)
	case len(c.Idx) != len(c.Val):
		return errorf(ErrMismatch, "len(Idx) = %d, len(Val) = %d", len(c.Idx), len(c.Val))
	case c.Ptr[0] != 0 || c.Ptr[c.Rows] != len(c.Idx):
		return errorf(ErrMismatch, "Ptr runs from %d to %d, want 0 to len(Idx) = %d", c.Ptr[0], c.Ptr[c.Rows], len(c.Idx))
	}
	for i := range c.Rows {
		if c.Ptr[i+1] < c.Ptr[i] {
			return errorf(ErrMismatch, "Ptr[%d] = %d > Ptr[%d] = %d", i, c.Ptr[i], i+1, c.Ptr[i+1])
		}
	}
	return nil
}

// Validate reports whether c is consistent: non-negative Rows and Cols,
// len(Ptr) == Rows+1 with Ptr[0] = 0, non-decreasing, and Ptr[Rows] ==
// len(Idx) == len(Val), len(Y) == Rows, the indices of every row strictly
// increasing and in [0, Cols), and every value finite. The error wraps
// ErrMismatch for inconsistent shapes or offsets, ErrIndex for a bad
// column index, and ErrNonFinite for a NaN or infinite value (the last two
// inside a *ParseError giving the row as Line and the 1-based column as
// Col).
func (c *CSR[T]) Validate() error {
	if err := c.CheckShape(); err != nil {
		return err
	}
	if c.Cols < 0 {
		return errorf(ErrMismatch, "negative shape %dx%d", c.Rows, c.Cols)
	}
	if len(c.Y) != c.Rows {
		return errorf(ErrMismatch, "len(Y) = %d, want Rows = %d", len(c.Y), c.Rows)
	}
	for i := range c.Rows {
		lo, hi := c.Ptr[i], c.Ptr[i+1]
		prev := int32(-1)
		for k := lo; k < hi; k++ {
			j := c.Idx[k]
			if j <= prev || int(j) >= c.Cols {
				return &ParseError{Line: i + 1, Col: int(j) + 1,
					Err: errorf(ErrIndex, "row %d: column %d not increasing (previous %d) or not below Cols = %d", i, j, prev, c.Cols)}
			}
			prev = j
			if v := c.Val[k]; !isFinite(v) {
				return &ParseError{Line: i + 1, Col: int(j) + 1,
					Err: errorf(ErrNonFinite, "row %d, feature %d is %v", i, j, float64(v))}
			}
		}
	}
	return nil
}

// ToDense returns c as a dense Data, or an error wrapping ErrTooLarge if
// Rows×Cols exceeds maxValues (0 means DefaultMaxValues; negative means no
// limit beyond the address space), before allocating anything. Text data
// is sparse enough that its dense form would not fit in memory (42 000 rows
// of 2²⁰ features take 176 GB of float32): keep it sparse unless the
// caller knows it is small. c must be valid (see Validate).
func (c *CSR[T]) ToDense(maxValues int) (*Data[T], error) {
	if maxValues == 0 {
		maxValues = DefaultMaxValues
	}
	n, ok := mulOK(c.Rows, c.Cols)
	if !ok || (maxValues > 0 && n > maxValues) {
		return nil, errorf(ErrTooLarge, "a dense %d×%d matrix exceeds the limit of %d values", c.Rows, c.Cols, maxValues)
	}
	x := Alloc[T](n)
	for i := range c.Rows {
		row := x[i*c.Cols : (i+1)*c.Cols]
		for k := c.Ptr[i]; k < c.Ptr[i+1]; k++ {
			row[c.Idx[k]] = c.Val[k]
		}
	}
	return &Data[T]{X: x, Y: slices.Clone(c.Y), Rows: c.Rows, Cols: c.Cols}, nil
}

// FromDense returns the rows of d in CSR form, storing only the values that
// are not zero (±0 are left out). It returns an error wrapping ErrTooLarge
// if d has more than 2³¹−1 columns (CSR indices are int32), and the error
// of d.Validate if d is not valid.
func FromDense[T kernel.Float](d *Data[T]) (*CSR[T], error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	if d.Cols > maxIndex {
		return nil, errorf(ErrTooLarge, "%d columns: CSR indices are int32", d.Cols)
	}
	nnz := 0
	for _, v := range d.X {
		if v != 0 {
			nnz++
		}
	}
	c := &CSR[T]{Ptr: make([]int, 1, d.Rows+1), Idx: make([]int32, 0, nnz), Val: make([]T, 0, nnz),
		Y: slices.Clone(d.Y), Rows: d.Rows, Cols: d.Cols}
	for i := range d.Rows {
		for j, v := range d.Row(i) {
			if v != 0 {
				c.Idx = append(c.Idx, int32(j))
				c.Val = append(c.Val, v)
			}
		}
		c.Ptr = append(c.Ptr, len(c.Idx))
	}
	return c, nil
}

// ConvertCSR returns a copy of c with the values converted to element type
// U (the offsets, indices and labels copied too). Values too large for U
// become infinite; Validate detects that.
func ConvertCSR[U, T kernel.Float](c *CSR[T]) *CSR[U] {
	v := make([]U, len(c.Val))
	for i, x := range c.Val {
		v[i] = U(x)
	}
	return &CSR[U]{Ptr: slices.Clone(c.Ptr), Idx: slices.Clone(c.Idx), Val: v, Y: slices.Clone(c.Y), Rows: c.Rows, Cols: c.Cols}
}

// Slice returns rows lo..hi-1 of c as a new CSR (the offsets rebased; the
// indices, values and labels shared with c, their capacity capped). It
// panics if lo..hi is not a valid range of rows, as slicing does.
func (c *CSR[T]) Slice(lo, hi int) *CSR[T] {
	if lo < 0 || hi < lo || hi > c.Rows {
		panic("dataset: row range out of range")
	}
	base, end := c.Ptr[lo], c.Ptr[hi]
	ptr := make([]int, hi-lo+1)
	for i := range ptr {
		ptr[i] = c.Ptr[lo+i] - base
	}
	return &CSR[T]{Ptr: ptr, Idx: c.Idx[base:end:end], Val: c.Val[base:end:end], Y: c.Y[lo:hi:hi], Rows: hi - lo, Cols: c.Cols}
}

// sizeOf returns the size of a T in bytes.
func sizeOf[T kernel.Float](T) int { return bitsOf[T]() / 8 }
