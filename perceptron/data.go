package perceptron

import (
	"errors"
	"fmt"
	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"math"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Float is the set of element types the models accept: float32 and float64
// (and types defined on them).
type Float = kernel.Float

// data is validated training data: X (the caller's slice, or a normalised
// copy) or the rows of a CSR matrix, its shape, and every row's squared
// norm.
type data[T Float] struct {
	X    []T            // dense rows, row-major; nil for sparse data
	sp   *sparseRows[T] // sparse rows (see sparse.go); nil for dense data
	n, d int            // d: the columns of X (with aug, the model's features + 1)
	sq   []float64      // ‖zᵢ‖² of the rows as trained on (with aug, of the augmented rows)
	// unchecked: sq is not filled in yet, and X not yet checked for
	// non-finite values; the first epoch does both (see prepareLazy).
	unchecked bool
	// aug: X holds the normalised augmented points
	// (sᵢ·xᵢ, sᵢ·B), sᵢ = 1/‖(xᵢ, B)‖ (B the bias feature, 1 by default),
	// in d = D + 1 columns: the trainer has no bias of its own, the last
	// column's weight w_B gives the model's b = B·w_B.
	aug bool
	// scale holds sᵢ, the factor ScaleAugmented applied to row i (nil for
	// the other scalings: 1). The dual trainer, whose rows keep D columns,
	// uses it as the bias feature.
	scale []float64
	// r2 is maxᵢ ‖xᵢ‖² of the rows before ScaleAugmented (set by prepare
	// when scale is set; otherwise it is max sq).
	r2 float64
}

// prepareLazy is prepare for a trainer whose first epoch reads every row
// anyway and checks it there (linTrainer.epochSeq): it only allocates sq,
// saving a pass over the data, which for data larger than the caches is a
// tenth of a ten-epoch fit. It must not be used with a scaling.
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

// radius2 returns maxᵢ ‖xᵢ‖² of the rows before ScaleAugmented.
func (dt *data[T]) radius2() float64 {
	if dt.scale != nil {
		return dt.r2
	}
	r2 := 0.0
	for _, v := range dt.sq {
		r2 = max(r2, v)
	}
	return r2
}

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

// augScale is linmodel.AugScale: ScaleAugmented's factor 1/‖(x, bf)‖ of a
// sample of squared norm sq, as the model computes it.
func augScale(sq, bf float64) float64 { return linmodel.AugScale(sq, bf) }

// prepare checks X for non-finite values, computes the row norms and
// applies the scaling, on a copy (the caller's X is not modified):
// ScaleFeatures scales every row to unit norm; ScaleAugmented scales the
// augmented row (x, bf) to unit norm (bf: the bias feature B, 0 without a
// bias), as d+1 columns (aug) if column and a bias, else as the d scaled
// features with sᵢ kept in scale.
func prepare[T Float](k modelkern.Kernels[T], X []T, n, d int, scaling Scaling, bf float64, column bool) (*data[T], error) {
	dt := &data[T]{X: X, n: n, d: d, sq: make([]float64, n)}
	for i := range n {
		x := dt.row(i)
		if err := dt.check(i, k.Dot(x, x)); err != nil {
			return nil, err
		}
	}
	switch scaling {
	case ScaleFeatures:
		dt.X = slices.Clone(X)
		for i := range n {
			if dt.sq[i] > 0 {
				x := dt.row(i)
				k.Scale(T(1/math.Sqrt(dt.sq[i])), x)
				dt.sq[i] = float64(k.Dot(x, x))
			}
		}
	case ScaleAugmented:
		dt.r2 = dt.radius2()
		dt.scale = make([]float64, n)
		for i := range n {
			dt.scale[i] = augScale(dt.sq[i], bf)
		}
		if column && bf > 0 {
			dt.aug, dt.d = true, d+1
			dt.X = make([]T, n*(d+1))
			for i := range n {
				z := dt.row(i)
				copy(z, X[i*d:(i+1)*d])
				z[d] = T(bf)
				k.Scale(T(dt.scale[i]), z)
			}
		} else {
			dt.X = slices.Clone(X)
			for i := range n {
				k.Scale(T(dt.scale[i]), dt.row(i))
			}
		}
		for i := range n {
			z := dt.row(i)
			dt.sq[i] = float64(k.Dot(z, z))
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
			return nil, fmt.Errorf("%w: y[%d] = %d; a binary model needs labels −1 and +1 (trainMulti takes any integers)", ErrLabels, i, v)
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

func finiteSlice[T Float](x []T) bool {
	for _, v := range x {
		if !finite(v) {
			return false
		}
	}
	return true
}

// checkSparseSample checks a sparse sample for a model of d features.
func checkSparseSample[T Float](x dataset.SparseRow[T], d int) error {
	if err := x.Check(d); err != nil {
		if errors.Is(err, dataset.ErrNonFinite) {
			return fmt.Errorf("%w: %w", ErrNonFinite, err)
		}
		return fmt.Errorf("%w: %w (the model has %d features)", ErrDims, err, d)
	}
	return nil
}
