// Package parity checks a floating-point kernel against a plain loop, the
// way rosenblatt fuzzes its own SIMD kernels: any summation order, fused or
// not, on every dispatch path, with inputs chosen to break numeric code.
//
// It holds four things:
//
//   - The error bound of a reduction (CheckSum, CheckDot, CheckSqDist,
//     CheckAxpy, Bound). For n terms summed in any order the classical
//     bound is (Higham, Accuracy and Stability of Numerical Algorithms,
//     2nd ed., §3.1, and Wilkinson's before it)
//
//     |computed − exact| ≤ γₙ·S + (n+1)·tiny,   γₙ = n·u/(1 − n·u),
//
//     where u is the unit roundoff of the element type (2⁻²⁴ for float32,
//     2⁻⁵³ for float64), S = Σ|xᵢyᵢ| for a dot product (Σ|xᵢ| for a sum)
//     and tiny, the smallest subnormal, covers gradual underflow. The
//     reference is a float64 loop, so its own γₙ(float64)·S is added. An
//     infinite or NaN result is accepted where S is large enough for a
//     partial sum to overflow (the plain loop's result then depends on the
//     order too); a NaN is required where every order gives one (a NaN
//     input, Inf·0, infinities of both signs).
//
//   - Adversarial inputs from fuzz bytes (Floats): raw bit patterns,
//     small integers whose sums are exact (Integers), subnormals, NaNs with
//     every payload among ordinary values, catastrophic cancellation, the
//     type's whole dynamic range, and the special values.
//
//   - Bit-exact comparison (BitEqual) for operations with one correctly
//     rounded result, where any NaN matches any NaN: IEEE 754 leaves the
//     payload and sign of a NaN result to the implementation, and SIMD
//     code propagates them differently from scalar code. SameBits is the
//     strict form, for checking that inputs were left untouched.
//
//   - The dispatch paths (Impls, EveryImpl): every implementation of
//     package kernel this CPU can run, so that a check covers the AVX-512,
//     AVX2, NEON and portable paths alike, not only the one dispatch
//     chose.
//
// A fuzz target for one's own dot product, in a _test.go file:
//
//	func FuzzMyDot(f *testing.F) {
//		f.Add([]byte{5, 1, 2, 3, 4, 5, 6, 7, 8, 9}) // a cancellation case
//		f.Fuzz(func(t *testing.T, data []byte) {
//			x, y := parity.Split(parity.Floats[float64](data))
//			if err := parity.CheckDot(MyDot(x, y), x, y); err != nil {
//				t.Fatalf("n=%d: %v", len(x), err)
//			}
//		})
//	}
//
// Run it with go test -fuzz=FuzzMyDot. Code built on package kernel checks
// every path at once:
//
//	parity.EveryImpl(t, func(im *kernel.Impl) error {
//		return parity.CheckDot(kernel.On[float32](im).Dot(x, y), x, y)
//	})
//
// The package imports the standard library and package kernel alone, so
// that a module using it needs nothing that rosenblatt's kernels do not
// (its go.sum does not grow).
package parity

import (
	"fmt"
	"math"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Unit returns the unit roundoff u of T: 2⁻²⁴ for float32, 2⁻⁵³ for float64.
func Unit[T kernel.Float]() float64 {
	if is32[T]() {
		return 0x1p-24
	}
	return 0x1p-53
}

// Gamma returns γₙ = n·u/(1 − n·u) for T, or +Inf when n·u ≥ 1.
func Gamma[T kernel.Float](n int) float64 {
	nu := float64(n) * Unit[T]()
	if nu >= 1 {
		return math.Inf(1)
	}
	return nu / (1 - nu)
}

// Bound returns the largest error a reduction of n terms of type T with
// magnitude sum s (Σ|termᵢ|) may have against the float64 plain loop:
// (γₙ(T) + γₙ(float64))·s + (n+1)·tiny(T).
func Bound[T kernel.Float](n int, s float64) float64 {
	return (Gamma[T](n)+Gamma[float64](n))*s + float64(n+1)*tiny[T]()
}

func is32[T kernel.Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// maxValue returns the largest finite value of T.
func maxValue[T kernel.Float]() float64 {
	if is32[T]() {
		return math.MaxFloat32
	}
	return math.MaxFloat64
}

// tiny returns the smallest positive subnormal of T.
func tiny[T kernel.Float]() float64 {
	if is32[T]() {
		return math.SmallestNonzeroFloat32
	}
	return math.SmallestNonzeroFloat64
}

// Dot returns the float64 plain-loop dot product of x and y and
// S = Σ|xᵢyᵢ|. y must be at least as long as x.
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

// within reports whether got is within Bound of ref for n terms with
// magnitude sum s. hardNaN says that every order of evaluation, fused or
// not, gives NaN; a NaN that comes only from finite terms overflowing
// depends on the order and on fusion: a fused multiply-add adds the exact,
// finite product to an infinite partial sum and keeps the infinity where
// the plain loop rounds the product to −Inf first and gets Inf − Inf = NaN.
func within[T kernel.Float](got T, ref, s float64, n int, hardNaN bool) error {
	g := float64(got)
	mayOverflow := math.IsInf(s, 0) || math.IsNaN(s) || s*(1+Gamma[T](n)) > maxValue[T]()
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
	bound := Bound[T](n, s)
	if err := math.Abs(g - ref); err > bound {
		return fmt.Errorf("got %v, want %v: |error| %.3g > bound %.3g (n=%d, Σ|terms|=%.3g)", g, ref, err, bound, n, s)
	}
	return nil
}

// infinities reports whether the terms hold NaN, +Inf and −Inf.
type infinities struct{ nan, pos, neg bool }

func (f *infinities) add(v float64) {
	switch {
	case math.IsNaN(v):
		f.nan = true
	case math.IsInf(v, 1):
		f.pos = true
	case math.IsInf(v, -1):
		f.neg = true
	}
}

// hard reports whether every order of summation gives NaN.
func (f *infinities) hard() bool { return f.nan || f.pos && f.neg }

// CheckSum returns an error if got is not an acceptable value of Σxᵢ in
// any order.
func CheckSum[T kernel.Float](got T, x []T) error {
	var ref, s float64
	var inf infinities
	for _, v := range x {
		ref += float64(v)
		s += math.Abs(float64(v))
		inf.add(float64(v))
	}
	return within(got, ref, s, len(x), inf.hard())
}

// CheckDot returns an error if got is not an acceptable value of x·y in
// any order, fused or not. y must be at least as long as x.
func CheckDot[T kernel.Float](got T, x, y []T) error {
	ref, s := Dot(x, y)
	var inf infinities
	for i := range x {
		a, b := float64(x[i]), float64(y[i])
		switch {
		case math.IsNaN(a) || math.IsNaN(b):
			inf.nan = true
		case math.IsInf(a, 0) || math.IsInf(b, 0):
			if a == 0 || b == 0 {
				inf.nan = true // Inf·0
			} else {
				inf.add(a * b)
			}
		}
	}
	return within(got, ref, s, len(x), inf.hard())
}

// CheckSqDist returns an error if got is not an acceptable value of
// ‖x−y‖² = Σ(xᵢ−yᵢ)² in any order, fused or not (the bound takes n+2
// terms, for the rounding of the difference and of the square).
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
			if g == ref || math.IsInf(mag, 0) || mag*(1+2*u) > maxValue[T]() {
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

// bits returns the IEEE 754 encoding of v.
func bits[T kernel.Float](v T) uint64 {
	if is32[T]() {
		return uint64(math.Float32bits(float32(v)))
	}
	return math.Float64bits(float64(v))
}

// BitEqual returns an error naming the first index where got and want
// differ in their bits, or their lengths: −0 differs from +0, and any NaN
// matches any NaN, whatever its sign and payload (IEEE 754 leaves those of
// a NaN result to the implementation).
func BitEqual[T kernel.Float](got, want []T) error {
	if len(got) != len(want) {
		return fmt.Errorf("length %d, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if bits(g) != bits(w) && !(g != g && w != w) {
			return fmt.Errorf("index %d: got %v (%#x), want %v (%#x)", i, g, bits(g), w, bits(w))
		}
	}
	return nil
}

// SameBits reports whether a and b hold bit-identical values, NaN
// payloads included: the check that an input was left untouched.
func SameBits[T kernel.Float](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if bits(a[i]) != bits(b[i]) {
			return false
		}
	}
	return true
}

// Impls returns the implementations of package kernel in this build that
// the CPU can run: every dispatch path a check should cover.
func Impls() []*kernel.Impl {
	var out []*kernel.Impl
	for _, im := range kernel.Impls() {
		if im.Available() {
			out = append(out, im)
		}
	}
	return out
}

// EveryImpl runs check on every implementation Impls returns and reports
// each error through tb.Errorf, prefixed with the implementation's name.
func EveryImpl(tb testing.TB, check func(im *kernel.Impl) error) {
	tb.Helper()
	ims := Impls()
	if len(ims) == 0 {
		tb.Fatal("parity: no kernel implementation available")
	}
	for _, im := range ims {
		if err := check(im); err != nil {
			tb.Errorf("%s: %v", im, err)
		}
	}
}
