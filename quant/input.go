package quant

import (
	"fmt"
	"math"
)

// QuantizeInput quantises the float32 sample x to unsigned bytes in dst
// (len(dst) must be len(x)) with an affine map of its own range, widened
// to hold 0:
//
//	lo = min(0, min x),  hi = max(0, max x)
//	scale = (hi − lo)/255,  zero = round(−lo/scale)
//	dst[i] = clamp(⌊x[i]/scale + zero + ½⌋, 0, 255)
//
// so that x[i] ≈ scale·(dst[i] − zero) within scale/2 (0 maps to zero
// exactly). An all-zero x gives scale 1 and zero 0. A NaN or ±Inf in x is
// an error wrapping ErrNonFinite; len(dst) ≠ len(x) one wrapping ErrDims.
func QuantizeInput(dst []uint8, x []float32) (scale float32, zero uint8, err error) {
	if len(dst) != len(x) {
		return 0, 0, fmt.Errorf("%w: len(dst) = %d, len(x) = %d", ErrDims, len(dst), len(x))
	}
	lo, hi, bad := rangeOf(x)
	if bad {
		for i, v := range x {
			if v-v != 0 {
				return 0, 0, fmt.Errorf("%w: feature %d is %v", ErrNonFinite, i, v)
			}
		}
	}
	if hi == lo {
		clear(dst)
		return 1, 0, nil
	}
	scale = float32((float64(hi) - float64(lo)) / 255) // hi − lo may overflow float32
	if scale == 0 {
		scale = math.SmallestNonzeroFloat32
	}
	inv := 1 / float64(scale)
	zero = uint8(min(max(math.Round(-float64(lo)*inv), 0), 255))
	// float32 arithmetic in the loop: inv·x + zero + ½ is within a few
	// units in the last place of the exact value, which moves a byte only
	// at a rounding boundary.
	inv32, off := float32(inv), float32(zero)+0.5
	if math.IsInf(float64(inv32), 0) {
		for i, v := range x {
			dst[i] = uint8(min(max(math.Floor(float64(v)*inv+float64(off)), 0), 255))
		}
		return scale, zero, nil
	}
	quantizeAffine(dst, x, inv32, off)
	return scale, zero, nil
}

// rangeOf returns min(0, min x), max(0, max x) and whether x holds a NaN
// or ±Inf, in one pass over order keys: the bits of a float32 mapped to an
// int32 that orders as the values do (negative values' magnitude bits
// flipped), whose integer min and max compile to branch-free CMOVs in two
// independent chains (four spill to the stack) (the min and max builtins' NaN handling for floats
// costs a dependent chain of several instructions per value). A NaN's key
// lies beyond ±Inf's, so the extreme keys tell a non-finite value too.
func rangeOf(x []float32) (lo, hi float32, bad bool) {
	key := func(v float32) int32 {
		b := int32(math.Float32bits(v))
		return b ^ (b >> 31 & 0x7fffffff)
	}
	var lo0, lo1, hi0, hi1 int32 // key(0) = 0
	i := 0
	for ; i <= len(x)-2; i += 2 {
		k0, k1 := key(x[i]), key(x[i+1])
		lo0, hi0 = min(lo0, k0), max(hi0, k0)
		lo1, hi1 = min(lo1, k1), max(hi1, k1)
	}
	if i < len(x) {
		k := key(x[i])
		lo0, hi0 = min(lo0, k), max(hi0, k)
	}
	kl, kh := min(lo0, lo1), max(hi0, hi1)
	if kl <= key(float32(math.Inf(-1))) || kh >= key(float32(math.Inf(1))) {
		return 0, 0, true
	}
	back := func(k int32) float32 { return math.Float32frombits(uint32(k ^ (k >> 31 & 0x7fffffff))) }
	return back(kl), back(kh), false
}

// quantizeAffine sets dst[i] = min(⌊x[i]·inv + off⌋, 255) for x within
// the range inv and off were made from, where x[i]·inv + off ≥ −ε
// (truncation toward zero then gives 0) and may exceed 255 by rounding.
func quantizeAffine(dst []uint8, x []float32, inv, off float32) {
	dst = dst[:len(x)]
	q := func(v float32) uint8 { return uint8(min(int32(v*inv+off), 255)) }
	i := 0
	for ; i <= len(x)-4; i += 4 {
		dst[i], dst[i+1], dst[i+2], dst[i+3] = q(x[i]), q(x[i+1]), q(x[i+2]), q(x[i+3])
	}
	for ; i < len(x); i++ {
		dst[i] = q(x[i])
	}
}
