package gram

import (
	"math"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// rbfPoly is rbfGeneric with the exponential of the assembly paths written
// in Go (expPoly32, expPoly64): branch-free, so the compiler keeps it in
// registers, and several times faster than math.Exp. The NEON path uses it.
func rbfPoly[T kernel.Float](dst []T, ni T, nj []T, gamma T) {
	nj = nj[:len(dst)]
	if unsafe.Sizeof(gamma) == 4 {
		d := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
		n := unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(nj))), len(nj))
		g, a := -float32(gamma), float32(ni)
		for j, s := range d {
			t := max(a+n[j]-(s+s), 0)
			d[j] = expPoly32(g * t)
		}
		return
	}
	d := unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst))
	n := unsafe.Slice((*float64)(unsafe.Pointer(unsafe.SliceData(nj))), len(nj))
	g, a := -float64(gamma), float64(ni)
	for j, s := range d {
		t := max(a+n[j]-(s+s), 0)
		d[j] = expPoly64(g * t)
	}
}

// expPoly32 is e^x for x ≤ 0 as in rbfAVX2F32: x < −86 gives 0, otherwise
// 2ⁿ·(1 + r + r²·P(r)) with n = round(x·log₂e), r = x − n·ln2 (Cephes'
// two-part ln2 and expf polynomial).
func expPoly32(x float32) float32 {
	if x < -86 {
		return 0
	}
	n := float32(math.RoundToEven(float64(x * 1.44269504088896341)))
	r := x - n*0.693359375
	r -= n * -2.12194440e-4
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	y := p*(r*r) + r + 1
	return math.Float32frombits(math.Float32bits(y) + uint32(int32(n))<<23)
}

// expPoly64 is e^x for x ≤ 0 as in rbfAVX2F64: x < −708 gives 0, otherwise
// 2ⁿ·e^r with e^r by its Taylor series of degree 13.
func expPoly64(x float64) float64 {
	if x < -708 {
		return 0
	}
	n := math.RoundToEven(x * 1.4426950408889634073599)
	r := x - n*6.93145751953125e-1
	r -= n * 1.42860682030941723212e-6
	p := 1.0 / 6227020800 // 1/13!
	p = p*r + 1.0/479001600
	p = p*r + 1.0/39916800
	p = p*r + 1.0/3628800
	p = p*r + 1.0/362880
	p = p*r + 1.0/40320
	p = p*r + 1.0/5040
	p = p*r + 1.0/720
	p = p*r + 1.0/120
	p = p*r + 1.0/24
	p = p*r + 1.0/6
	p = p*r + 0.5
	p = p*r + 1
	p = p*r + 1
	return math.Float64frombits(math.Float64bits(p) + uint64(int64(n))<<52)
}
