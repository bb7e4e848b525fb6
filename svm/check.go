package svm

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// checkShape validates the sizes of X, d and y and returns the row count.
func checkShape[T kernel.Float](X []T, d int, y []int) (int, error) {
	if d < 1 {
		return 0, fmt.Errorf("%w: %d features; need at least 1", ErrDims, d)
	}
	if len(X) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	if len(X)%d != 0 {
		return 0, fmt.Errorf("%w: len(X) = %d is not a multiple of d = %d", ErrDims, len(X), d)
	}
	n := len(X) / d
	if len(y) != n {
		return 0, fmt.Errorf("%w: len(y) = %d, but X has %d rows", ErrDims, len(y), n)
	}
	return n, nil
}

// checkFinite reports the first NaN or infinite value of X, naming its row
// and column.
func checkFinite[T kernel.Float](X []T, d int) error {
	for i, v := range X {
		if f := float64(v); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%w: row %d, feature %d is %v", ErrNonFinite, i/d, i%d, f)
		}
	}
	return nil
}

// finite reports whether every value of x is finite.
func finite[T kernel.Float](x []T) bool {
	for _, v := range x {
		if v-v != 0 { // NaN for NaN and ±Inf, 0 for every finite v
			return false
		}
	}
	return true
}

// classesOf returns the sorted distinct labels of y and each row's class
// index.
func classesOf(y []int) (labels []int, cls []int32) {
	labels = slices.Clone(y)
	slices.Sort(labels)
	labels = slices.Compact(labels)
	cls = make([]int32, len(y))
	for i, v := range y {
		k, _ := slices.BinarySearch(labels, v)
		cls[i] = int32(k)
	}
	return labels, cls
}

// gramErr translates an error of package gram into this package's
// sentinels, keeping gram's error in the chain too.
func gramErr(err error) error {
	var kind error
	switch {
	case errors.Is(err, gram.ErrInvalidKernel), errors.Is(err, gram.ErrImpl):
		kind = ErrOption
	case errors.Is(err, gram.ErrNonFinite), errors.Is(err, gram.ErrOverflow):
		kind = ErrNonFinite
	case errors.Is(err, gram.ErrBudget):
		kind = ErrBudget
	case errors.Is(err, gram.ErrEmpty):
		kind = ErrEmpty
	default:
		kind = ErrDims
	}
	return fmt.Errorf("%w: %w", kind, err)
}

// unitRoundoff returns u for T: 2⁻²⁴ for float32, 2⁻⁵³ for float64.
func unitRoundoff[T kernel.Float]() float64 {
	if is32[T]() {
		return 0x1p-24
	}
	return 0x1p-53
}

// is32 reports whether T is a 4-byte float.
func is32[T kernel.Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}
