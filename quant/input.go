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
	var lo, hi float32
	for _, v := range x {
		lo = min(lo, v)
		hi = max(hi, v)
	}
	// min and max propagate a NaN; ±Inf lands in lo or hi.
	if lo-lo != 0 || hi-hi != 0 {
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
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = uint8(int32(min(max(v*inv32+off, 0), 255)))
	}
	return scale, zero, nil
}
