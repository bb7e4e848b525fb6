package perceptron

import (
	"fmt"
	"math"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Float is the set of element types the models accept: float32 and float64
// (and types defined on them).
type Float = kernel.Float

// Flatten copies rows into one row-major slice, the layout Train takes, and
// returns it with the column count. Rows of different lengths are an error
// wrapping ErrDims; no rows, or rows of length 0, wrap ErrEmpty.
func Flatten[T Float](rows [][]T) ([]T, int, error) {
	if len(rows) == 0 {
		return nil, 0, fmt.Errorf("%w: no rows", ErrEmpty)
	}
	cols := len(rows[0])
	if cols == 0 {
		return nil, 0, fmt.Errorf("%w: row 0 has no features", ErrEmpty)
	}
	X := make([]T, 0, len(rows)*cols)
	for i, r := range rows {
		if len(r) != cols {
			return nil, 0, fmt.Errorf("%w: ragged rows: row %d has %d values, row 0 has %d", ErrDims, i, len(r), cols)
		}
		X = append(X, r...)
	}
	return X, cols, nil
}

// data is validated training data: X (the caller's slice, or a normalised
// copy), its shape, and every row's squared norm.
type data[T Float] struct {
	X    []T
	n, d int
	sq   []float64 // ‖xᵢ‖² of the rows as trained on
	// unchecked: sq is not filled in yet, and X not yet checked for
	// non-finite values; the first epoch does both (see prepareLazy).
	unchecked bool
}

// prepareLazy is prepare for a trainer whose first epoch reads every row
// anyway and checks it there (linTrainer.epochSeq): it only allocates sq,
// saving a pass over the data, which for data larger than the caches is a
// tenth of a ten-epoch fit. It must not be used with normalize.
func prepareLazy[T Float](X []T, n, d int) *data[T] {
	return &data[T]{X: X, n: n, d: d, sq: make([]float64, n), unchecked: true}
}

// check records the squared norm s of row i, or explains why it is not
// finite.
func (dt *data[T]) check(i int, s T) error {
	f := float64(s)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nonFiniteRow(dt.row(i), i)
	}
	dt.sq[i] = f
	return nil
}

func (dt *data[T]) row(i int) []T { return dt.X[i*dt.d : i*dt.d+dt.d : i*dt.d+dt.d] }

// checkShape validates the sizes of X, cols and y.
func checkShape[T Float](X []T, cols int, y []int) (int, error) {
	if cols <= 0 {
		return 0, fmt.Errorf("%w: %d features (columns); need at least 1", ErrDims, cols)
	}
	if len(X) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	if len(X)%cols != 0 {
		return 0, fmt.Errorf("%w: len(X) = %d is not a multiple of cols = %d", ErrDims, len(X), cols)
	}
	n := len(X) / cols
	if len(y) != n {
		return 0, fmt.Errorf("%w: len(y) = %d, but X has %d rows", ErrDims, len(y), n)
	}
	return n, nil
}

// prepare checks X for non-finite values, computes the row norms and, if
// normalize is set, makes a unit-norm copy. The caller's X is not modified.
func prepare[T Float](k kernel.Kernels[T], X []T, n, d int, normalize bool) (*data[T], error) {
	dt := &data[T]{X: X, n: n, d: d, sq: make([]float64, n)}
	for i := range n {
		x := dt.row(i)
		if err := dt.check(i, k.Dot(x, x)); err != nil {
			return nil, err
		}
	}
	if normalize {
		dt.X = slices.Clone(X)
		for i := range n {
			if dt.sq[i] > 0 {
				x := dt.row(i)
				k.Scale(T(1/math.Sqrt(dt.sq[i])), x)
				dt.sq[i] = float64(k.Dot(x, x))
			}
		}
	}
	return dt, nil
}

// nonFiniteRow explains why row i's squared norm is not finite.
func nonFiniteRow[T Float](x []T, i int) error {
	for j, v := range x {
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: X[%d][%d] = %v", ErrNonFinite, i, j, f)
		}
	}
	return fmt.Errorf("%w: the squared norm of row %d overflows", ErrNonFinite, i)
}

// binaryClasses maps ±1 labels to class indices for a single binary model:
// class 0 is +1, so sign(i) = +1 exactly when cls[i] == 0.
func binaryClasses(y []int) ([]int32, error) {
	cls := make([]int32, len(y))
	pos, neg := 0, 0
	for i, v := range y {
		switch v {
		case 1:
			pos++
		case -1:
			cls[i] = -1
			neg++
		default:
			return nil, fmt.Errorf("%w: y[%d] = %d; a binary model needs labels −1 and +1 (TrainMulticlass takes any integers)", ErrLabels, i, v)
		}
	}
	if pos == 0 || neg == 0 {
		return nil, fmt.Errorf("%w: all %d labels are %d", ErrOneClass, len(y), y[0])
	}
	return cls, nil
}

// multiClasses returns the sorted distinct labels and each row's index in
// them.
func multiClasses(y []int) ([]int, []int32, error) {
	labels := slices.Clone(y)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	if len(labels) < 2 {
		return nil, nil, fmt.Errorf("%w: all %d labels are %d", ErrOneClass, len(y), y[0])
	}
	if len(labels) > math.MaxInt32 {
		return nil, nil, fmt.Errorf("%w: %d classes", ErrLabels, len(labels))
	}
	idx := make(map[int]int32, len(labels))
	for i, l := range labels {
		idx[l] = int32(i)
	}
	cls := make([]int32, len(y))
	for i, v := range y {
		cls[i] = idx[v]
	}
	return labels, cls, nil
}
