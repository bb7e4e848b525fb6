package fuzz

import (
	"math"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/kerneltest"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/parity"
)

// exactSums reports whether every partial sum of terms, in any order, is
// an integer T holds exactly: Σ|termᵢ| ≤ 2²⁴ for float32, 2⁵³ for float64
// (int8 data's dot products pass 2²⁴ from about 1 000 values on).
func exactSums[T kernel.Float](n int, term func(i int) float64) bool {
	var z T
	limit := math.Ldexp(1, 53)
	if unsafe.Sizeof(z) == 4 {
		limit = math.Ldexp(1, 24)
	}
	sum := 0.0
	for i := range n {
		sum += math.Abs(term(i))
	}
	return sum <= limit
}

var seeds = [][]byte{
	{},
	{1, 1, 2, 3, 4, 5, 6, 7, 8},
	{1, 0x80, 0x7f, 3, 0xfd, 9, 0xf0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff},
	{2, 0x00, 0x01, 0xff, 0x7f, 0x34, 0x12, 0x00, 0x80, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x04, 0x00, 0x05, 0x00},
	{0, 0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x7f, 0, 0, 0x80, 0x3f},                         // NaN, 1, +Inf, 1 (float32 bits)
	{0, 0, 0, 0x80, 0x7f, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f},                               // Inf·0
	{0, 0xff, 0xff, 0x7f, 0x7f, 0xff, 0xff, 0x7f, 0x7f, 0xff, 0xff, 0x7f, 0x7f, 0xff, 0xff, 0x7f, 0x7f}, // MaxFloat32: overflow
	{0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},                                                 // subnormals
	// parity.Floats' adversarial encodings: subnormals, NaN payloads among
	// values, cancellation, the whole exponent range, special values.
	{3, 0xff, 0xff, 0x7f, 0x80, 0x01, 0x02, 0x03, 0x84, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc},
	{4, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 3, 3, 3, 3, 3, 3, 3, 3, 4, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 2, 7, 7, 7, 7, 7, 7, 7, 7},
	{5, 0x7f, 0x7f, 0xff, 0x81, 0x7f, 0xee, 0x45, 0x33, 0x99, 0x01, 0x02, 0x03, 0x7f, 0x7f, 0xff, 0x81, 0x81, 0x11},
	{6, 0x7f, 0xff, 0x01, 0x00, 0x80, 0xfe, 0x05, 0x80, 0x7f, 0xf0, 0x81, 0x10, 0x40, 0x40, 0x3f, 0xc0},
	{7, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89},
}

func addSeeds(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	long := make([]byte, 1+2*67)
	long[0] = 1
	for i := range long[1:] {
		long[1+i] = byte(i*37 + 11)
	}
	f.Add(long)
}

func impls(t *testing.T) []*kernel.Impl {
	list := parity.Impls()
	if len(list) == 0 {
		t.Fatal("no implementation available")
	}
	return list
}

func fuzzDot[T kernel.Float](t *testing.T, data []byte) {
	v, exact := parity.Floats[T](data), parity.Integers(data)
	x, y := parity.Split(v)
	exact = exact && exactSums[T](len(x), func(i int) float64 { return float64(x[i]) * float64(y[i]) })
	ref, _ := parity.Dot(x, y)
	for _, im := range impls(t) {
		got := modelkern.On[T](im).Dot(x, y)
		if err := parity.CheckDot(got, x, y); err != nil {
			t.Fatalf("%s Dot n=%d: %v", im, len(x), err)
		}
		if exact && float64(got) != ref {
			t.Fatalf("%s Dot of integers n=%d: got %v, want exactly %v", im, len(x), got, ref)
		}
	}
	// The package-level Dot: its own assembly entry (dotAuto: the length
	// check, the dispatch on the active implementation, the short paths
	// and the result stored through a pointer) on this CPU's best path.
	got := kernel.Dot(x, y)
	if err := parity.CheckDot(got, x, y); err != nil {
		t.Fatalf("kernel.Dot (%s) n=%d: %v", kernel.ActiveImpl(), len(x), err)
	}
	if exact && float64(got) != ref {
		t.Fatalf("kernel.Dot (%s) of integers n=%d: got %v, want exactly %v", kernel.ActiveImpl(), len(x), got, ref)
	}
}

func fuzzSqDist[T kernel.Float](t *testing.T, data []byte) {
	v, exact := parity.Floats[T](data), parity.Integers(data)
	x, y := parity.Split(v)
	exact = exact && exactSums[T](len(x), func(i int) float64 { d := float64(x[i]) - float64(y[i]); return d * d })
	ref := parity.SqDist(x, y)
	for _, im := range impls(t) {
		got := modelkern.On[T](im).SqDist(x, y)
		if err := parity.CheckSqDist(got, x, y); err != nil {
			t.Fatalf("%s SqDist n=%d: %v", im, len(x), err)
		}
		if exact && float64(got) != ref {
			t.Fatalf("%s SqDist of integers n=%d: got %v, want exactly %v", im, len(x), got, ref)
		}
	}
	// The package-level SqDist: its own assembly entry (sqdistAuto).
	got := kernel.SqDist(x, y)
	if err := parity.CheckSqDist(got, x, y); err != nil {
		t.Fatalf("kernel.SqDist (%s) n=%d: %v", kernel.ActiveImpl(), len(x), err)
	}
	if exact && float64(got) != ref {
		t.Fatalf("kernel.SqDist (%s) of integers n=%d: got %v, want exactly %v", kernel.ActiveImpl(), len(x), got, ref)
	}
}

func fuzzAxpy[T kernel.Float](t *testing.T, data []byte) {
	v := parity.Floats[T](data)
	if len(v) == 0 {
		return
	}
	a, v := v[0], v[1:]
	x, y0 := parity.Split(v)
	x0 := append([]T(nil), x...)
	for _, im := range impls(t) {
		y := append([]T(nil), y0...)
		modelkern.On[T](im).Axpy(a, x, y)
		if err := parity.CheckAxpy(y, a, x, y0); err != nil {
			t.Fatalf("%s Axpy n=%d: %v", im, len(x), err)
		}
		if !parity.SameBits(x, x0) {
			t.Fatalf("%s Axpy modified x", im)
		}
	}
}

func fuzzScale[T kernel.Float](t *testing.T, data []byte) {
	v := parity.Floats[T](data)
	if len(v) == 0 {
		return
	}
	a, x0 := v[0], v[1:]
	for _, im := range impls(t) {
		x := append([]T(nil), x0...)
		modelkern.On[T](im).Scale(a, x)
		if err := kerneltest.CheckScale(x, a, x0); err != nil {
			t.Fatalf("%s Scale n=%d: %v", im, len(x), err)
		}
	}
}

// fuzzMatVec uses the first decoded value's magnitude to pick the row count;
// the rest of the values are w followed by the rows of the matrix.
func fuzzMatVec[T kernel.Float](t *testing.T, rows uint8, data []byte, dots bool) {
	v := parity.Floats[T](data)
	r := int(rows%12) + 1
	d := len(v) / (r + 1)
	w, m := v[:d:d], v[d:d+r*d:d+r*d]
	w0, m0 := append([]T(nil), w...), append([]T(nil), m...)
	for _, im := range impls(t) {
		k := modelkern.On[T](im)
		dst := make([]T, r)
		if dots {
			k.Dots(dst, m, w)
		} else {
			k.MatVec(dst, m, w)
		}
		if err := kerneltest.CheckMatVec(dst, m, w); err != nil {
			t.Fatalf("%s rows=%d d=%d: %v", im, r, d, err)
		}
		if !parity.SameBits(w, w0) || !parity.SameBits(m, m0) {
			t.Fatalf("%s modified its inputs", im)
		}
	}
}

func FuzzDotF32(f *testing.F) { addSeeds(f); f.Fuzz(fuzzDot[float32]) }
func FuzzDotF64(f *testing.F) { addSeeds(f); f.Fuzz(fuzzDot[float64]) }

func FuzzSqDistF32(f *testing.F) { addSeeds(f); f.Fuzz(fuzzSqDist[float32]) }
func FuzzSqDistF64(f *testing.F) { addSeeds(f); f.Fuzz(fuzzSqDist[float64]) }

func FuzzAxpyF32(f *testing.F) { addSeeds(f); f.Fuzz(fuzzAxpy[float32]) }
func FuzzAxpyF64(f *testing.F) { addSeeds(f); f.Fuzz(fuzzAxpy[float64]) }

func FuzzScaleF32(f *testing.F) { addSeeds(f); f.Fuzz(fuzzScale[float32]) }
func FuzzScaleF64(f *testing.F) { addSeeds(f); f.Fuzz(fuzzScale[float64]) }

func addMatSeeds(f *testing.F) {
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
}

func FuzzMatVecF32(f *testing.F) {
	addMatSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzMatVec[float32](t, rows, data, false) })
}

func FuzzMatVecF64(f *testing.F) {
	addMatSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzMatVec[float64](t, rows, data, false) })
}

func FuzzDotsF32(f *testing.F) {
	addMatSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzMatVec[float32](t, rows, data, true) })
}

func FuzzDotsF64(f *testing.F) {
	addMatSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzMatVec[float64](t, rows, data, true) })
}

// fuzzDots2 takes the row count as fuzzMatVec does; the values are the two
// samples x0, x1 followed by the rows of W. Each score of each implementation's
// Dots2 must lie within the reduction bound of the exact dot product (and be
// NaN or infinite exactly where the reference is).
func fuzzDots2[T kernel.Float](t *testing.T, rows uint8, data []byte) {
	v := parity.Floats[T](data)
	r := int(rows%12) + 1
	d := len(v) / (r + 2)
	x, W := v[:2*d:2*d], v[2*d:2*d+r*d:2*d+r*d]
	x0, W0 := append([]T(nil), x...), append([]T(nil), W...)
	for _, im := range impls(t) {
		dst := make([]T, 2*r)
		modelkern.On[T](im).Dots2(dst, W, x)
		for s := range 2 {
			if err := kerneltest.CheckMatVec(dst[s*r:(s+1)*r], W, x[s*d:(s+1)*d]); err != nil {
				t.Fatalf("%s Dots2 rows=%d d=%d sample %d: %v", im, r, d, s, err)
			}
		}
		if !parity.SameBits(x, x0) || !parity.SameBits(W, W0) {
			t.Fatalf("%s Dots2 modified its inputs", im)
		}
	}
}

func FuzzDots2F32(f *testing.F) {
	addMatSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzDots2[float32](t, rows, data) })
}

func FuzzDots2F64(f *testing.F) {
	addMatSeeds(f)
	f.Fuzz(func(t *testing.T, rows uint8, data []byte) { fuzzDots2[float64](t, rows, data) })
}
