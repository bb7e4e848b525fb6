package linear

import (
	"errors"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Float is the element type of a model: float32 or float64.
type Float = kernel.Float

// kernelsFor is linmodel.KernelsFor, the trainers' own.
func kernelsFor[T Float](impl *kernel.Impl) modelkern.Kernels[T] { return linmodel.KernelsFor[T](impl) }

// vec is one sample: a dense row (idx nil, val its d values) or a sparse
// one (the values val in the columns idx).
type vec[T Float] struct {
	idx []int32
	val []T
}

// dotv returns x·w.
func dotv[T Float](k modelkern.Kernels[T], x vec[T], w []T) T {
	if x.idx == nil {
		return k.Dot(x.val, w)
	}
	return k.DotSparse(x.idx, x.val, w)
}

// axpyv adds a·x to w.
func axpyv[T Float](k modelkern.Kernels[T], a T, x vec[T], w []T) {
	if x.idx == nil {
		k.Axpy(a, x.val, w)
		return
	}
	k.AxpySparse(a, x.idx, x.val, w)
}

// augScale is ScaleAugmented's factor for a sample of squared norm sq:
// linmodel.AugScale, the trainers' own.
func augScale(sq, bf float64) float64 { return linmodel.AugScale(sq, bf) }

// averageOf is the average w − u/steps of an averaged model:
// linmodel.AverageOf, the trainers' own.
func averageOf[T Float](w, u []T, steps int64) []T { return linmodel.AverageOf(w, u, steps) }

// allFinite is linmodel.AllFinite.
func allFinite[T Float](x []T) bool { return linmodel.AllFinite(x) }

// finiteSlice reports whether every value of x is finite.
func finiteSlice[T Float](x []T) bool { return allFinite(x) }

// nonFiniteRow returns the error for row i, x, of a batch that holds a
// NaN or ±Inf, or whose squared norm overflows.
func nonFiniteRow[T Float](x []T, i int) error {
	for j, v := range x {
		f := float64(v)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: X[%d][%d] = %v", ErrNonFinite, i, j, f)
		}
	}
	return fmt.Errorf("%w: the squared norm of row %d overflows", ErrNonFinite, i)
}

// gramError maps an error of package gram to this package's sentinels.
func gramError(err error) error {
	switch {
	case errors.Is(err, gram.ErrNonFinite), errors.Is(err, gram.ErrOverflow):
		return fmt.Errorf("%w: %w", ErrNonFinite, err)
	case errors.Is(err, gram.ErrShape):
		return fmt.Errorf("%w: %w", ErrDims, err)
	}
	return err
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

// typeName is linmodel.TypeName: "float32" or "float64".
func typeName[T Float]() string { return linmodel.TypeName[T]() }

// finitePositive is linmodel.FinitePositive.
func finitePositive(v float64) bool { return linmodel.FinitePositive(v) }

// sqNorm is linmodel.SqNorm, the trainers' own.
func sqNorm[T Float](k modelkern.Kernels[T], v []T) float64 { return linmodel.SqNorm(k, v) }
