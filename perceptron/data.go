package perceptron

import (
	"fmt"
	"math"
	"slices"

	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// data is validated training data: X (the caller's slice, or a normalised
// copy) or the rows of a CSR matrix, its shape, and every row's squared
// norm.
type data[T kernel.Float] struct {
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
func prepareLazy[T kernel.Float](X []T, n, d int) *data[T] {
	return &data[T]{X: X, n: n, d: d, sq: make([]float64, n), unchecked: true}
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
func checkShape[T kernel.Float](X []T, cols int, y []int) (int, error) {
	if cols <= 0 {
		return 0, fmt.Errorf("%w: %d features (columns); need at least 1", linear.ErrDims, cols)
	}
	if len(X) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	if len(X)%cols != 0 {
		return 0, fmt.Errorf("%w: len(X) = %d is not a multiple of cols = %d", linear.ErrDims, len(X), cols)
	}
	n := len(X) / cols
	if len(y) != n {
		return 0, fmt.Errorf("%w: len(y) = %d, but X has %d rows", linear.ErrDims, len(y), n)
	}
	return n, nil
}

// prepare checks X for non-finite values, computes the row norms and
// applies the scaling, on a copy (the caller's X is not modified):
// ScaleFeatures scales every row to unit norm; ScaleAugmented scales the
// augmented row (x, bf) to unit norm (bf: the bias feature B, 0 without a
// bias), as d+1 columns (aug) if column and a bias, else as the d scaled
// features with sᵢ kept in scale.
func prepare[T kernel.Float](k modelkern.Kernels[T], X []T, n, d int, scaling linear.Scaling, bf float64, column bool) (*data[T], error) {
	dt := &data[T]{X: X, n: n, d: d, sq: make([]float64, n)}
	return dt, dt.scaleRows(k, scaling, bf, column, sqv[T])
}

// scaleRows is prepare and prepareSparse on dt's rows (the caller's): it
// checks them and records their squared norms (by norm), then applies the
// scaling on a copy of the values.
func (dt *data[T]) scaleRows(k modelkern.Kernels[T], scaling linear.Scaling, bf float64, column bool, norm func(modelkern.Kernels[T], vec[T]) T) error {
	for i := range dt.n {
		x := dt.vec(i)
		if err := dt.checkVec(i, x, norm(k, x)); err != nil {
			return err
		}
	}
	switch scaling {
	case linear.ScaleFeatures:
		dt.cloneValues()
		for i := range dt.n {
			if dt.sq[i] > 0 {
				x := dt.vec(i)
				k.Scale(T(1/math.Sqrt(dt.sq[i])), x.val)
				dt.sq[i] = float64(sqv(k, x))
			}
		}
	case linear.ScaleAugmented:
		dt.r2 = dt.radius2()
		dt.scale = make([]float64, dt.n)
		for i := range dt.n {
			dt.scale[i] = linmodel.AugScale(dt.sq[i], bf)
		}
		if column && bf > 0 {
			dt.augment(T(bf))
		} else {
			dt.cloneValues()
		}
		for i := range dt.n {
			x := dt.vec(i)
			k.Scale(T(dt.scale[i]), x.val)
			dt.sq[i] = float64(sqv(k, x))
		}
	}
	return nil
}

// cloneValues gives dt a copy of the rows' values to scale.
func (dt *data[T]) cloneValues() {
	if sp := dt.sp; sp != nil {
		sp.val = slices.Clone(sp.val)
		return
	}
	dt.X = slices.Clone(dt.X)
}

// augment replaces the rows by copies with one more column, d, holding b:
// the augmented points (x, B) (aug).
func (dt *data[T]) augment(b T) {
	n, d := dt.n, dt.d
	dt.aug, dt.d = true, d+1
	if sp := dt.sp; sp != nil {
		aug := &sparseRows[T]{ptr: make([]int, n+1), idx: make([]int32, 0, len(sp.idx)+n), val: make([]T, 0, len(sp.val)+n)}
		for i := range n {
			lo, hi := sp.ptr[i], sp.ptr[i+1]
			aug.idx = append(append(aug.idx, sp.idx[lo:hi]...), int32(d))
			aug.val = append(append(aug.val, sp.val[lo:hi]...), b)
			aug.ptr[i+1] = len(aug.idx)
		}
		dt.sp = aug
		return
	}
	X := dt.X
	dt.X = make([]T, n*(d+1))
	for i := range n {
		z := dt.row(i)
		copy(z, X[i*d:(i+1)*d])
		z[d] = b
	}
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
			return nil, fmt.Errorf("%w: y[%d] = %d; a binary model needs labels −1 and +1", linear.ErrLabels, i, v)
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
		return nil, nil, fmt.Errorf("%w: %d classes", linear.ErrLabels, len(labels))
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
