// Package kerneltest holds the plain-loop references and the error bounds that
// the tests and fuzz targets of package kernel (and of the packages built on it)
// check every implementation against.
//
// The bound for a reduction of n terms is the classical one for any summation
// order (Higham, Accuracy and Stability of Numerical Algorithms, §3.1):
//
//	|computed − exact| ≤ γₙ·S + n·tiny,   γₙ = n·u/(1 − n·u),
//
// where u is the unit roundoff of the element type, S = Σ|xᵢyᵢ| for Dot and
// Σ(xᵢ−yᵢ)² for SqDist (with n+2 in place of n for the rounding of the
// difference and the square), and n·tiny covers gradual underflow. The
// reference itself is a float64 loop, so its own γₙ(float64)·S is added.
// When S is so large that an intermediate sum may overflow, an infinite or NaN
// result is accepted too, since the plain loop's result then depends on order
// as well.
package kerneltest

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Unit returns the unit roundoff u of T: 2⁻²⁴ for float32, 2⁻⁵³ for float64.
func Unit[T kernel.Float]() float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return 0x1p-24
	}
	return 0x1p-53
}

// MaxValue returns the largest finite value of T.
func MaxValue[T kernel.Float]() float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// tiny returns the smallest positive subnormal of T.
func tiny[T kernel.Float]() float64 {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return math.SmallestNonzeroFloat32
	}
	return math.SmallestNonzeroFloat64
}

// Gamma returns γₙ = n·u/(1 − n·u) for T.
func Gamma[T kernel.Float](n int) float64 {
	nu := float64(n) * Unit[T]()
	return nu / (1 - nu)
}

// Dot returns the float64 plain-loop dot product of x and y and S = Σ|xᵢyᵢ|.
func Dot[T kernel.Float](x, y []T) (dot, s float64) {
	for i := range x {
		p := float64(x[i]) * float64(y[i])
		dot += p
		s += math.Abs(p)
	}
	return dot, s
}

// SqDist returns the float64 plain-loop Σ(xᵢ−yᵢ)², which is also its S.
func SqDist[T kernel.Float](x, y []T) float64 {
	var s float64
	for i := range x {
		d := float64(x[i]) - float64(y[i])
		s += d * d
	}
	return s
}

// within reports whether got is within the reduction bound of ref for n
// terms with magnitude sum s. hardNaN says that every order of evaluation,
// fused or not, gives NaN (a NaN input, Inf·0, or infinite terms of both
// signs); a NaN that comes only from finite terms overflowing depends on the
// order and on fusion: a fused multiply-add adds the exact, finite product
// to an infinite partial sum and keeps the infinity where the plain loop
// rounds the product to −Inf first and gets Inf − Inf = NaN.
func within[T kernel.Float](got T, ref, s float64, n int, hardNaN bool) error {
	g := float64(got)
	mayOverflow := math.IsInf(s, 0) || math.IsNaN(s) || s*(1+Gamma[T](n)) > MaxValue[T]()
	if hardNaN || (math.IsNaN(ref) && !mayOverflow) {
		if !math.IsNaN(g) {
			return fmt.Errorf("got %v, want NaN", g)
		}
		return nil
	}
	if math.IsNaN(g) || math.IsInf(g, 0) || math.IsNaN(ref) {
		if mayOverflow {
			return nil
		}
		return fmt.Errorf("got %v, want %v (no overflow possible: Σ|terms| = %v)", g, ref, s)
	}
	if math.IsInf(ref, 0) {
		// The float64 reference overflowed but got is finite: only possible
		// for float64 data, where the sum order decides.
		if mayOverflow {
			return nil
		}
		return fmt.Errorf("got %v, want %v", g, ref)
	}
	bound := (Gamma[T](n)+Gamma[float64](n))*s + float64(n+1)*tiny[T]()
	if err := math.Abs(g - ref); err > bound {
		return fmt.Errorf("got %v, want %v: |error| %.3g > bound %.3g (n=%d, Σ|terms|=%.3g)", g, ref, err, bound, n, s)
	}
	return nil
}

// CheckDot returns an error if got is not an acceptable value of x·y.
func CheckDot[T kernel.Float](got T, x, y []T) error {
	ref, s := Dot(x, y)
	hard, posInf, negInf := false, false, false
	for i := range x {
		a, b := float64(x[i]), float64(y[i])
		switch {
		case math.IsNaN(a) || math.IsNaN(b):
			hard = true
		case math.IsInf(a, 0) || math.IsInf(b, 0):
			if a == 0 || b == 0 {
				hard = true // Inf·0
			} else if (a > 0) == (b > 0) {
				posInf = true
			} else {
				negInf = true
			}
		}
	}
	return within(got, ref, s, len(x), hard || (posInf && negInf))
}

// CheckSqDist returns an error if got is not an acceptable value of ‖x−y‖².
func CheckSqDist[T kernel.Float](got T, x, y []T) error {
	ref := SqDist(x, y)
	hard := false
	for i := range x {
		a, b := float64(x[i]), float64(y[i])
		if math.IsNaN(a) || math.IsNaN(b) || (math.IsInf(a, 0) && a == b) {
			hard = true // NaN input, or Inf − Inf
		}
	}
	return within(got, ref, ref, len(x)+2, hard)
}

// CheckAxpy returns an error if got[i] is not an acceptable value of
// y[i] + a·x[i] for some i: fused or unfused, the result is within two
// roundings of the exact value.
func CheckAxpy[T kernel.Float](got []T, a T, x, y []T) error {
	u := Unit[T]()
	for i := range x {
		ax := float64(a) * float64(x[i])
		ref := math.FMA(float64(a), float64(x[i]), float64(y[i]))
		g := float64(got[i])
		switch {
		case math.IsNaN(ref):
			if !math.IsNaN(g) {
				return fmt.Errorf("index %d: got %v, want NaN", i, g)
			}
			continue
		case math.IsInf(ref, 0) || math.IsInf(g, 0):
			mag := math.Abs(ax) + math.Abs(float64(y[i]))
			if g == ref || math.IsInf(mag, 0) || mag*(1+2*u) > MaxValue[T]() {
				continue
			}
			return fmt.Errorf("index %d: got %v, want %v", i, g, ref)
		}
		bound := 2*u*(math.Abs(ax)+math.Abs(float64(y[i]))) + 2*tiny[T]()
		if math.Abs(g-ref) > bound {
			return fmt.Errorf("index %d: got %v, want %v (a=%v x=%v y=%v)", i, g, ref, a, x[i], y[i])
		}
	}
	return nil
}

// CheckScale returns an error unless got[i] is exactly T(a·x[i]) for every i
// (a single rounded multiplication on every path), NaN matching NaN.
func CheckScale[T kernel.Float](got []T, a T, x []T) error {
	for i := range x {
		want := a * x[i]
		if got[i] != want && !(got[i] != got[i] && want != want) {
			return fmt.Errorf("index %d: got %v, want %v", i, got[i], want)
		}
	}
	return nil
}

// CheckMatVec returns an error if some got[i] is not an acceptable value of
// the dot product of row i of the row-major matrix m with w.
func CheckMatVec[T kernel.Float](got, m, w []T) error {
	d := len(w)
	for i := range got {
		if err := CheckDot(got[i], m[i*d:i*d+d], w); err != nil {
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

// SameBits reports whether a and b hold bit-identical values (so −0 differs
// from +0 and NaN payloads count).
func SameBits[T kernel.Float](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	var z T
	for i := range a {
		if unsafe.Sizeof(z) == 4 {
			if math.Float32bits(float32(a[i])) != math.Float32bits(float32(b[i])) {
				return false
			}
		} else if math.Float64bits(float64(a[i])) != math.Float64bits(float64(b[i])) {
			return false
		}
	}
	return true
}

// Available returns the implementations of this build that the CPU can run.
func Available() []*kernel.Impl {
	var out []*kernel.Impl
	for _, im := range kernel.Impls() {
		if im.Available() {
			out = append(out, im)
		}
	}
	return out
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
	return CheckDot(got, val, Gather(idx, w))
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
		if err := CheckAxpy(got[j:j+1], a, val[i:i+1], y[j:j+1]); err != nil {
			return fmt.Errorf("non-zero %d (index %d): %w", i, j, err)
		}
	}
	for j := range y {
		if !hit[j] && !SameBits(got[j:j+1], y[j:j+1]) {
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

// AvailableInt8 returns the int8 implementations of this build that the
// CPU can run.
func AvailableInt8() []*kernel.Int8Impl {
	var out []*kernel.Int8Impl
	for _, v := range kernel.Int8Impls() {
		if v.Available() {
			out = append(out, v)
		}
	}
	return out
}

// QuantRange is kernel.QuantRange's plain loop, written with float
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

// QuantizeU8 is kernel.QuantizeU8's plain loop: the byte of
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
