package dataset

import (
	"math"
	"slices"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Data is a labelled, dense, row-major data set.
//
// The readers in this package always return a Data with len(X) == Rows*Cols,
// len(Y) == Rows, Rows > 0 and every value finite; Validate checks the same
// for a Data built by hand.
type Data[T kernel.Float] struct {
	X    []T   // Rows×Cols values, row-major: row i is X[i*Cols : (i+1)*Cols]
	Y    []int // one integer label per row
	Rows int
	Cols int
}

// Row returns row i of X. The slice shares memory with d.X and has its
// capacity capped, so appending to it never overwrites the next row. It
// panics if i is out of range, as indexing a slice does.
func (d *Data[T]) Row(i int) []T {
	if i < 0 || i >= d.Rows {
		panic("dataset: row index out of range")
	}
	lo, hi := i*d.Cols, (i+1)*d.Cols
	return d.X[lo:hi:hi]
}

// Slice returns rows lo..hi-1 of d as a Data that shares memory with d (its
// slices have their capacity capped, so appending to them never writes into
// d). It panics if lo..hi is not a valid range of rows, as slicing does.
func (d *Data[T]) Slice(lo, hi int) *Data[T] {
	if lo < 0 || hi < lo || hi > d.Rows {
		panic("dataset: row range out of range")
	}
	xl, xh := lo*d.Cols, hi*d.Cols
	return &Data[T]{X: d.X[xl:xh:xh], Y: d.Y[lo:hi:hi], Rows: hi - lo, Cols: d.Cols}
}

// Subset returns the first n rows of d (all of them if n >= d.Rows), sharing
// memory with d as Slice does. It panics if n is negative.
func (d *Data[T]) Subset(n int) *Data[T] {
	return d.Slice(0, min(n, d.Rows))
}

// Clone returns a deep copy of d.
func (d *Data[T]) Clone() *Data[T] {
	return &Data[T]{X: slices.Clone(d.X), Y: slices.Clone(d.Y), Rows: d.Rows, Cols: d.Cols}
}

// Classes returns the distinct labels of d in increasing order.
func (d *Data[T]) Classes() []int {
	c := slices.Clone(d.Y)
	slices.Sort(c)
	return slices.Compact(c)
}

// ClassCounts returns how many rows carry each label.
func (d *Data[T]) ClassCounts() map[int]int {
	m := make(map[int]int)
	for _, y := range d.Y {
		m[y]++
	}
	return m
}

// Validate reports whether d is consistent: non-negative Rows and Cols,
// len(X) == Rows*Cols, len(Y) == Rows and every value finite. The error
// wraps ErrMismatch for inconsistent shapes and ErrNonFinite (inside a
// *ParseError giving the row as Line and the 1-based column as Col) for a NaN
// or infinite value.
func (d *Data[T]) Validate() error {
	if d.Rows < 0 || d.Cols < 0 {
		return errorf(ErrMismatch, "negative shape %dx%d", d.Rows, d.Cols)
	}
	if n, ok := mulOK(d.Rows, d.Cols); !ok || n != len(d.X) {
		return errorf(ErrMismatch, "len(X) = %d, want Rows*Cols = %d*%d", len(d.X), d.Rows, d.Cols)
	}
	if len(d.Y) != d.Rows {
		return errorf(ErrMismatch, "len(Y) = %d, want Rows = %d", len(d.Y), d.Rows)
	}
	for i, v := range d.X {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			r, c := i/d.Cols, i%d.Cols
			return &ParseError{Line: r + 1, Col: c + 1,
				Err: errorf(ErrNonFinite, "row %d, feature %d is %v", r, c, f)}
		}
	}
	return nil
}

// Convert returns a copy of d with the values converted to element type U,
// for example to train in float32 on data read as float64. Values too large
// for U become infinite; Validate detects that.
func Convert[U, T kernel.Float](d *Data[T]) *Data[U] {
	x := make([]U, len(d.X))
	for i, v := range d.X {
		x[i] = U(v)
	}
	return &Data[U]{X: x, Y: slices.Clone(d.Y), Rows: d.Rows, Cols: d.Cols}
}

// mulOK returns a*b for non-negative a and b and whether it fits in an int.
func mulOK(a, b int) (int, bool) {
	if a < 0 || b < 0 {
		return 0, false
	}
	if a == 0 || b == 0 {
		return 0, true
	}
	if a > math.MaxInt/b {
		return 0, false
	}
	return a * b, true
}

// isFinite reports whether v is neither NaN nor infinite.
func isFinite[T kernel.Float](v T) bool {
	f := float64(v)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

// bitsOf returns the size of T in bits, for strconv. A named type with
// float32 or float64 underneath has the size of its underlying type.
func bitsOf[T kernel.Float]() int {
	var z T
	return int(unsafe.Sizeof(z)) * 8
}
