// Package kernel holds the vector kernels everything else in rosenblatt runs on:
// Dot, Axpy, Scale, SqDist, MatVec and Dots, for float32 and float64.
//
// Each kernel exists in several implementations (hand-written AVX-512 and
// AVX2+FMA assembly on amd64, NEON on arm64, and portable Go everywhere). One
// is chosen once, at start-up, from the CPU's features; see dispatch.go for the
// table of which implementation runs on which CPU and for the
// ROSENBLATT_KERNEL environment variable that caps the choice.
//
// # Contracts
//
// Mismatched lengths are programmer errors and panic with a message naming the
// kernel, as gonum's do. Empty input is valid: the Dot of nothing is 0. No
// kernel modifies its inputs; the only slice written is the documented
// destination (y in Axpy, x in Scale, dst in MatVec and Dots).
//
// # Numerics
//
// The SIMD paths keep several partial sums and add them at the end, so a
// reduction is not computed in the same order as a plain left-to-right loop.
// For float type with unit roundoff u (2⁻²⁴ for float32, 2⁻⁵³ for float64) and
// n terms, every implementation satisfies the standard bound for any
// summation order,
//
//	|Dot(x, y) − x·y| ≤ γₙ · Σ|xᵢyᵢ|,   γₙ = n·u / (1 − n·u),
//
// and likewise for SqDist with Σ(xᵢ−yᵢ)² in place of Σ|xᵢyᵢ| (with n+1 for
// the extra rounding of the difference). Axpy and Scale are element-wise and
// differ from the plain loop by at most one rounding per element (fused
// multiply-add rounds once where a*x+y rounds twice). NaN and Inf propagate as
// in the plain loop.
package kernel

import (
	"fmt"
	"unsafe"
)

// Float is the set of element types the kernels accept.
type Float interface {
	~float32 | ~float64
}

// Kernels is the set of kernels of one implementation for element type T. Get
// one with On; the package-level functions use the active implementation.
// A Kernels value is immutable and safe for concurrent use.
type Kernels[T Float] struct {
	im *Impl
}

// On returns the kernels of implementation im for element type T. It panics
// if im is not available on this CPU: running it would fault with an illegal
// instruction.
func On[T Float](im *Impl) Kernels[T] {
	if !im.available {
		panic("kernel: implementation " + im.name + " is not available on this CPU")
	}
	return Kernels[T]{im: im}
}

// Impl returns the implementation these kernels belong to.
func (k Kernels[T]) Impl() *Impl { return k.im }

// Dot returns Σ x[i]·y[i]. It panics if len(x) != len(y).
func (k Kernels[T]) Dot(x, y []T) T {
	if len(x) != len(y) {
		panicLen("Dot", "len(x)", len(x), "len(y)", len(y))
	}
	if is32[T]() {
		return T(dot32(k.im.id, f32s(x), f32s(y)))
	}
	return T(dot64(k.im.id, f64s(x), f64s(y)))
}

// SqDist returns the squared Euclidean distance Σ (x[i]−y[i])². It panics if
// len(x) != len(y).
func (k Kernels[T]) SqDist(x, y []T) T {
	if len(x) != len(y) {
		panicLen("SqDist", "len(x)", len(x), "len(y)", len(y))
	}
	if is32[T]() {
		return T(sqdist32(k.im.id, f32s(x), f32s(y)))
	}
	return T(sqdist64(k.im.id, f64s(x), f64s(y)))
}

// Axpy adds a·x to y in place: y[i] += a·x[i]. It panics if len(x) != len(y).
func (k Kernels[T]) Axpy(a T, x, y []T) {
	if len(x) != len(y) {
		panicLen("Axpy", "len(x)", len(x), "len(y)", len(y))
	}
	if is32[T]() {
		axpy32(k.im.id, float32(a), f32s(x), f32s(y))
		return
	}
	axpy64(k.im.id, float64(a), f64s(x), f64s(y))
}

// Scale multiplies x by a in place: x[i] *= a.
func (k Kernels[T]) Scale(a T, x []T) {
	if is32[T]() {
		scale32(k.im.id, float32(a), f32s(x))
		return
	}
	scale64(k.im.id, float64(a), f64s(x))
}

// MatVec sets dst[i] = X[i]·w for the row-major len(dst)×len(w) matrix X: the
// margins of a whole batch in one call. It panics if len(X) != len(dst)·len(w).
func (k Kernels[T]) MatVec(dst, X, w []T) {
	if len(X) != len(dst)*len(w) {
		panicLen("MatVec", "len(X)", len(X), "len(dst)·len(w)", len(dst)*len(w))
	}
	if is32[T]() {
		matvec32(k.im.id, f32s(dst), f32s(X), f32s(w))
		return
	}
	matvec64(k.im.id, f64s(dst), f64s(X), f64s(w))
}

// Dots sets dst[k] = W[k]·x for the row-major len(dst)×len(x) matrix W of
// weight vectors: the scores of every class for one sample. It is MatVec with
// the roles named for scoring; the rows are processed in register blocks so x
// is streamed once per block rather than once per row. It panics if
// len(W) != len(dst)·len(x).
func (k Kernels[T]) Dots(dst, W, x []T) {
	if len(W) != len(dst)*len(x) {
		panicLen("Dots", "len(W)", len(W), "len(dst)·len(x)", len(dst)*len(x))
	}
	if is32[T]() {
		matvec32(k.im.id, f32s(dst), f32s(W), f32s(x))
		return
	}
	matvec64(k.im.id, f64s(dst), f64s(W), f64s(x))
}

// is32 reports whether T is a 4-byte float. It is a constant in each
// instantiation, so the branches on it compile away.
func is32[T Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// f32s and f64s view a []T as the slice of its underlying float type: a
// named float type has the layout of its underlying type.
func f32s[T Float](s []T) []float32 {
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

func f64s[T Float](s []T) []float64 {
	return unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// panicLen is kept out of line so the kernels' length checks stay small
// enough for the callers to be inlined.
//
//go:noinline
func panicLen(kernel, a string, na int, b string, nb int) {
	panic(fmt.Sprintf("kernel.%s: length mismatch: %s = %d, %s = %d", kernel, a, na, b, nb))
}

// The package-level functions check lengths and call the active
// implementation through the dispatch switch: their cost over calling the
// assembly directly is one load and a predictable branch.

// Dot returns Σ x[i]·y[i] using the active implementation. It panics if
// len(x) != len(y).
func Dot[T Float](x, y []T) T {
	if len(x) != len(y) {
		panicLen("Dot", "len(x)", len(x), "len(y)", len(y))
	}
	if is32[T]() {
		return T(dot32(active.id, f32s(x), f32s(y)))
	}
	return T(dot64(active.id, f64s(x), f64s(y)))
}

// SqDist returns Σ (x[i]−y[i])², the squared Euclidean distance, using the
// active implementation. It panics if len(x) != len(y).
func SqDist[T Float](x, y []T) T {
	if len(x) != len(y) {
		panicLen("SqDist", "len(x)", len(x), "len(y)", len(y))
	}
	if is32[T]() {
		return T(sqdist32(active.id, f32s(x), f32s(y)))
	}
	return T(sqdist64(active.id, f64s(x), f64s(y)))
}

// Axpy adds a·x to y in place (y[i] += a·x[i]) using the active
// implementation. y is the destination; x is not modified. It panics if
// len(x) != len(y).
func Axpy[T Float](a T, x, y []T) {
	if len(x) != len(y) {
		panicLen("Axpy", "len(x)", len(x), "len(y)", len(y))
	}
	if is32[T]() {
		axpy32(active.id, float32(a), f32s(x), f32s(y))
		return
	}
	axpy64(active.id, float64(a), f64s(x), f64s(y))
}

// Scale multiplies x by a in place (x[i] *= a) using the active
// implementation. x is the destination.
func Scale[T Float](a T, x []T) {
	if is32[T]() {
		scale32(active.id, float32(a), f32s(x))
		return
	}
	scale64(active.id, float64(a), f64s(x))
}

// MatVec sets dst[i] = X[i]·w for the row-major len(dst)×len(w) matrix X,
// using the active implementation. The row loop runs inside the
// implementation. dst is the destination; X and w are not modified. It panics
// if len(X) != len(dst)·len(w).
func MatVec[T Float](dst, X, w []T) {
	if len(X) != len(dst)*len(w) {
		panicLen("MatVec", "len(X)", len(X), "len(dst)·len(w)", len(dst)*len(w))
	}
	if is32[T]() {
		matvec32(active.id, f32s(dst), f32s(X), f32s(w))
		return
	}
	matvec64(active.id, f64s(dst), f64s(X), f64s(w))
}

// Dots sets dst[k] = W[k]·x for the row-major len(dst)×len(x) matrix W, using
// the active implementation: k weight vectors scored against one sample. dst
// is the destination; W and x are not modified. It panics if
// len(W) != len(dst)·len(x).
func Dots[T Float](dst, W, x []T) {
	if len(W) != len(dst)*len(x) {
		panicLen("Dots", "len(W)", len(W), "len(dst)·len(x)", len(dst)*len(x))
	}
	if is32[T]() {
		matvec32(active.id, f32s(dst), f32s(W), f32s(x))
		return
	}
	matvec64(active.id, f64s(dst), f64s(W), f64s(x))
}
