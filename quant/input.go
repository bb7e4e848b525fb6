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
// or ±Inf (an exponent of all ones), in one pass with four independent
// chains: plain comparisons, which Go compiles to a compare and a
// predictable branch (the min and max builtins' NaN handling costs a
// dependent chain of several instructions per value).
func rangeOf(x []float32) (lo, hi float32, bad bool) {
	var lo0, lo1, lo2, lo3, hi0, hi1, hi2, hi3 float32
	var e0, e1, e2, e3 uint32
	const exp, one = 0x7f800000, 0x00800000 // (bits & exp) + one has bit 31 set exactly for an all-ones exponent
	i := 0
	for ; i <= len(x)-4; i += 4 {
		v0, v1, v2, v3 := x[i], x[i+1], x[i+2], x[i+3]
		if v0 < lo0 {
			lo0 = v0
		}
		if v0 > hi0 {
			hi0 = v0
		}
		if v1 < lo1 {
			lo1 = v1
		}
		if v1 > hi1 {
			hi1 = v1
		}
		if v2 < lo2 {
			lo2 = v2
		}
		if v2 > hi2 {
			hi2 = v2
		}
		if v3 < lo3 {
			lo3 = v3
		}
		if v3 > hi3 {
			hi3 = v3
		}
		e0 |= math.Float32bits(v0)&exp + one
		e1 |= math.Float32bits(v1)&exp + one
		e2 |= math.Float32bits(v2)&exp + one
		e3 |= math.Float32bits(v3)&exp + one
	}
	for ; i < len(x); i++ {
		v := x[i]
		if v < lo0 {
			lo0 = v
		}
		if v > hi0 {
			hi0 = v
		}
		e0 |= math.Float32bits(v)&exp + one
	}
	lo = min(lo0, lo1, lo2, lo3)
	hi = max(hi0, hi1, hi2, hi3)
	return lo, hi, (e0|e1|e2|e3)>>31 != 0
}

// quantizeAffine sets dst[i] = clamp(⌊x[i]·inv + off⌋, 0, 255) for finite
// x (off > 0, so truncation is the floor).
func quantizeAffine(dst []uint8, x []float32, inv, off float32) {
	dst = dst[:len(x)]
	q := func(v float32) uint8 {
		f := v*inv + off
		if f < 0 {
			f = 0
		}
		if f > 255 {
			f = 255
		}
		return uint8(int32(f))
	}
	i := 0
	for ; i <= len(x)-4; i += 4 {
		dst[i], dst[i+1], dst[i+2], dst[i+3] = q(x[i]), q(x[i+1]), q(x[i+2]), q(x[i+3])
	}
	for ; i < len(x); i++ {
		dst[i] = q(x[i])
	}
}
