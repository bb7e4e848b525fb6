// Package kerneltest holds the references that the tests and fuzz targets
// of package kernel (and of the packages built on it) check the kernels
// that package parity does not cover against: Scale, MatVec, the sparse
// kernels, the int8 kernels and the quantiser, and guard buffers for
// out-of-bounds writes. The error bounds of the floating-point reductions,
// the adversarial inputs and the list of dispatch paths are package
// parity's, public so that users fuzz their own kernels the same way.
package kerneltest

import (
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// CheckScale returns an error unless got[i] is exactly T(a·x[i]) for every i
// (a single rounded multiplication on every path), NaN matching NaN.
func CheckScale[T kernel.Float](got []T, a T, x []T) error {
	want := make([]T, len(x))
	for i := range x {
		want[i] = a * x[i]
	}
	return parity.BitEqual(got, want)
}

// CheckMatVec returns an error if some got[i] is not an acceptable value of
// the dot product of row i of the row-major matrix m with w.
func CheckMatVec[T kernel.Float](got, m, w []T) error {
	d := len(w)
	for i := range got {
		if err := parity.CheckDot(got[i], m[i*d:i*d+d], w); err != nil {
			return fmt.Errorf("row %d of %d (d=%d): %w", i, len(got), d, err)
		}
	}
	return nil
}

// Guarded returns a slice of n elements at element offset off inside a larger
// buffer whose other elements hold a sentinel, and a function that reports
// whether any sentinel was overwritten: a check for out-of-bounds writes.
func Guarded[T kernel.Float](n, off int) (s []T, intact func() error) {
	const guard = 16
	buf := make([]T, off+n+guard+guard)
	sentinel := T(-7.0e30)
	for i := range buf {
		buf[i] = sentinel
	}
	s = buf[guard+off : guard+off+n : guard+off+n]
	return s, func() error {
		for i := range buf {
			if i >= guard+off && i < guard+off+n {
				continue
			}
			if buf[i] != sentinel {
				return fmt.Errorf("out-of-bounds write: element %d of the guard buffer (slice at %d..%d) is %v", i, guard+off, guard+off+n, buf[i])
			}
		}
		return nil
	}
}

// Gather returns the dense values w[idx[i]], so that the reduction checks
// apply to the sparse kernels: DotSparse(idx, val, w) must be an acceptable
// value of Dot(val, Gather(idx, w)).
func Gather[T kernel.Float](idx []int32, w []T) []T {
	g := make([]T, len(idx))
	for i, j := range idx {
		g[i] = w[j]
	}
	return g
}

// CheckDotSparse returns an error if got is not an acceptable value of
// Σ val[i]·w[idx[i]].
func CheckDotSparse[T kernel.Float](got T, idx []int32, val, w []T) error {
	return parity.CheckDot(got, val, Gather(idx, w))
}

// CheckAxpySparse returns an error if got is not an acceptable value of y
// after y[idx[i]] += a·val[i] for every i in order, for distinct indices:
// within two roundings of the exact value at each index scattered to, and
// bit-identical to y elsewhere.
func CheckAxpySparse[T kernel.Float](got []T, a T, idx []int32, val, y []T) error {
	hit := make([]bool, len(y))
	for i, j := range idx {
		if hit[j] {
			return fmt.Errorf("index %d repeated: CheckAxpySparse needs distinct indices", j)
		}
		hit[j] = true
		if err := parity.CheckAxpy(got[j:j+1], a, val[i:i+1], y[j:j+1]); err != nil {
			return fmt.Errorf("non-zero %d (index %d): %w", i, j, err)
		}
	}
	for j := range y {
		if !hit[j] && !parity.SameBits(got[j:j+1], y[j:j+1]) {
			return fmt.Errorf("index %d, not in idx, changed from %v to %v", j, y[j], got[j])
		}
	}
	return nil
}

// Integer is the set of element types of the int8 kernels' slices.
type Integer interface {
	~int8 | ~uint8 | ~int32
}

// DotU8I8 returns the plain loop's Σ x[i]·w[i] in int32 (wrapping modulo
// 2³² as Go's int32 arithmetic does), the reference of kernel.DotU8I8, and
// the exact sum in int64.
func DotU8I8(x []uint8, w []int8) (wrapped int32, exact int64) {
	for i := range x {
		p := int32(x[i]) * int32(w[i])
		wrapped += p
		exact += int64(p)
	}
	return wrapped, exact
}

// DotI8 is DotU8I8 for signed x: the reference of kernel.DotI8.
func DotI8(x, y []int8) (wrapped int32, exact int64) {
	for i := range x {
		p := int32(x[i]) * int32(y[i])
		wrapped += p
		exact += int64(p)
	}
	return wrapped, exact
}

// GuardedInts returns a slice of n elements at element offset off inside a
// larger buffer whose other elements hold a sentinel pattern, and a
// function that reports whether any of them was overwritten.
func GuardedInts[T Integer](n, off int) (s []T, intact func() error) {
	const guard = 64
	buf := make([]T, off+n+guard+guard)
	sentinel := func(i int) T { return T(0x5a ^ i*37) }
	for i := range buf {
		buf[i] = sentinel(i)
	}
	lo, hi := guard+off, guard+off+n
	s = buf[lo:hi:hi]
	return s, func() error {
		for i := range buf {
			if i >= lo && i < hi {
				continue
			}
			if buf[i] != sentinel(i) {
				return fmt.Errorf("out-of-bounds write: element %d of the guard buffer (slice at %d..%d) is %v", i, lo, hi, buf[i])
			}
		}
		return nil
	}
}

// Int8Impls returns every int8 implementation of this build, including
// those this CPU cannot run: each implementation's (kernel.Impls) own
// (Impl.Int8Impls), in that order.
func Int8Impls() []*kernel.Int8Impl {
	var out []*kernel.Int8Impl
	for _, im := range kernel.Impls() {
		out = append(out, im.Int8Impls()...)
	}
	return out
}

// AvailableInt8 returns the int8 implementations of this build that the
// CPU can run.
func AvailableInt8() []*kernel.Int8Impl {
	var out []*kernel.Int8Impl
	for _, v := range Int8Impls() {
		if v.Available() {
			out = append(out, v)
		}
	}
	return out
}

// QuantRange is modelkern.QuantRange's plain loop, written with float
// comparisons (not kernel's order keys): lo = min(0, min x) and
// hi = max(0, max x), −0 below +0, and finite = false, lo = hi = 0, if x
// holds a NaN or ±Inf.
func QuantRange(x []float32) (lo, hi float32, finite bool) {
	neg := func(v float32) bool { return math.Signbit(float64(v)) }
	for _, v := range x {
		switch {
		case math.IsNaN(float64(v)) || math.IsInf(float64(v), 0):
			return 0, 0, false
		case v < lo || v == lo && neg(v) && !neg(lo):
			lo = v
		case v > hi:
			hi = v
		}
	}
	return lo, hi, true
}

// QuantizeU8 is modelkern.QuantizeU8's plain loop: the byte of
// t = float32(x[i]·inv) + off, 255 for t ≥ 255, 0 for t ≤ 0 or NaN, else t
// truncated toward zero.
func QuantizeU8(dst []uint8, x []float32, inv, off float32) {
	for i, v := range x {
		t := float32(v*inv) + off
		switch {
		case math.IsNaN(float64(t)) || t <= 0:
			dst[i] = 0
		case t >= 255:
			dst[i] = 255
		default:
			dst[i] = uint8(math.Trunc(float64(t)))
		}
	}
}
