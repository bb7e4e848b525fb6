package quant

import (
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/kernel"
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
// exactly). The bytes are computed in float32 as modelkern.QuantizeU8 does,
// t = float32(x[i]·inv) + (zero + ½) with inv = 1/scale rounded to
// float32, truncated: within a few units in the last place of the exact
// value, which moves a byte only at a rounding boundary, and the same bytes
// on every CPU. The range and the bytes run on the active int8
// implementation's SIMD quantiser (modelkern.QuantRange, modelkern.QuantizeU8).
// An all-zero x gives scale 1 and zero 0. A NaN or ±Inf in x is an error
// wrapping ErrNonFinite; len(dst) ≠ len(x) one wrapping ErrDims.
func QuantizeInput(dst []uint8, x []float32) (scale float32, zero uint8, err error) {
	return quantizeInput(modelkern.OnInt8(kernel.ActiveImpl().Int8()), dst, x)
}

// quantizeInput is QuantizeInput on the int8 implementation of k.
func quantizeInput(k modelkern.Int8Kernels, dst []uint8, x []float32) (scale float32, zero uint8, err error) {
	if len(dst) != len(x) {
		return 0, 0, fmt.Errorf("%w: len(dst) = %d, len(x) = %d", ErrDims, len(dst), len(x))
	}
	lo, hi, finite := k.QuantRange(x)
	if !finite {
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
	inv32, off := float32(inv), float32(zero)+0.5
	if math.IsInf(float64(inv32), 0) {
		// A range of a few subnormals: inv beyond float32.
		for i, v := range x {
			dst[i] = uint8(min(max(math.Floor(float64(v)*inv+float64(off)), 0), 255))
		}
		return scale, zero, nil
	}
	k.QuantizeU8(dst, x, inv32, off)
	return scale, zero, nil
}
