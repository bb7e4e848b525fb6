package linmodel

import (
	"math"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// What the linear trainers (package perceptron) and the linear model
// (package linear) share: small checks and names.

// KernelsFor returns the kernels of impl (the active implementation for
// nil) for T.
func KernelsFor[T Float](impl *kernel.Impl) modelkern.Kernels[T] {
	if impl == nil {
		impl = kernel.ActiveImpl()
	}
	return modelkern.On[T](impl)
}

// AllFinite reports whether every value of x is finite: v − v is 0 for a
// finite v and NaN for ±Inf and NaN, so the sum is 0 exactly when all are.
func AllFinite[T Float](x []T) bool {
	var acc T
	for _, v := range x {
		acc += v - v
	}
	return acc == 0
}

// TypeName is "float32" or "float64", the name of T's underlying type.
func TypeName[T Float]() string {
	if unsafe.Sizeof(T(0)) == 8 {
		return "float64"
	}
	return "float32"
}

// FinitePositive reports whether v is positive and finite.
func FinitePositive(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
