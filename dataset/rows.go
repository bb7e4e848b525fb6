package dataset

import (
	"fmt"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Rows is the training data every trainer of the module takes: a dense
// *Data[T] or a sparse *CSR[T]. Dense or sparse is the data's type, not
// the trainer's name: perceptron.Fit, perceptron.FitKernel, svm.Fit and
// svm.FitLinear each take either, and run their dense or their O(nnz)
// sparse path accordingly. The set is closed (the unexported method), so
// that each trainer can read its own representation at full speed; convert
// other layouts with FromDense or CSR.ToDense.
//
// The labels are passed to the trainers separately (usually the data's own
// Y), so one matrix can be trained against several labellings.
type Rows[T kernel.Float] interface {
	// Dims returns the number of rows and of columns (features), as
	// gonum's mat.Matrix does.
	Dims() (rows, cols int)
	// At returns the value in row i and column j (0 for a value a CSR
	// does not store). It panics if i or j is out of range, as indexing
	// does.
	At(i, j int) T
	rows()
}

// Dims returns d.Rows and d.Cols.
func (d *Data[T]) Dims() (rows, cols int) { return d.Rows, d.Cols }

// Dims returns c.Rows and c.Cols.
func (c *CSR[T]) Dims() (rows, cols int) { return c.Rows, c.Cols }

// At returns the value in row i and column j; see Rows.
func (d *Data[T]) At(i, j int) T {
	if j < 0 || j >= d.Cols {
		panic("dataset: column index out of range")
	}
	return d.Row(i)[j]
}

// At returns the value in row i and column j, 0 if the row does not store
// it, by a binary search of the row; see Rows.
func (c *CSR[T]) At(i, j int) T {
	if j < 0 || j >= c.Cols {
		panic("dataset: column index out of range")
	}
	r := c.Row(i)
	if k, ok := slices.BinarySearch(r.Idx, int32(j)); ok {
		return r.Val[k]
	}
	return 0
}

func (d *Data[T]) rows() {}
func (c *CSR[T]) rows()  {}

// NewData returns the row-major values X, cols per row, with labels y as a
// Data of len(X)/cols rows, sharing X and y (nothing is copied), as
// gonum's mat.NewDense wraps a slice. It does not check the shape: the
// trainers do (a len(X) that is not a multiple of cols, or labels that are
// not one a row, is their ErrDims), and Validate does.
func NewData[T kernel.Float](X []T, cols int, y []int) *Data[T] {
	rows := 0
	if cols > 0 {
		rows = len(X) / cols
	}
	return &Data[T]{X: X, Y: y, Rows: rows, Cols: cols}
}

// FromRows copies rows, one slice per row, into a Data of that many rows
// (row-major, as the trainers take it) with labels y (nil for none;
// otherwise one a row, shared, not copied). Rows of different lengths are
// an error wrapping ErrRagged; no rows, or rows of no value, ErrEmpty;
// labels that are not one a row, ErrMismatch.
func FromRows[T kernel.Float](rows [][]T, y []int) (*Data[T], error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("%w: no rows", ErrEmpty)
	}
	cols := len(rows[0])
	if cols == 0 {
		return nil, fmt.Errorf("%w: row 0 has no values", ErrEmpty)
	}
	if y != nil && len(y) != len(rows) {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrMismatch, len(y), len(rows))
	}
	X := make([]T, 0, len(rows)*cols)
	for i, r := range rows {
		if len(r) != cols {
			return nil, fmt.Errorf("%w: row %d has %d values, row 0 has %d", ErrRagged, i, len(r), cols)
		}
		X = append(X, r...)
	}
	return &Data[T]{X: X, Y: y, Rows: len(rows), Cols: cols}, nil
}
