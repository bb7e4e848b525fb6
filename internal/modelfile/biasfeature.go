package modelfile

import (
	"fmt"
	"math"
)

// The header flags of the bias in the perceptrons' files, linear (kinds 1
// to 3) and kernel (16 to 18) alike.
const (
	// FlagBias: the model has a bias.
	FlagBias = 1
	// FlagBiasFeat (version 3): the bias feature B, a float64 ≠ 1,
	// follows the labels. A model with B = 1 is written without it.
	FlagBiasFeat = 32
)

// ReadBiasFeature reads the bias feature of a perceptron's file whose
// header flags are flags (after the labels: B, if FlagBiasFeat; else 1
// with a bias, 0 without) and checks it as CheckBiasFeature does; errors
// wrap corrupt.
func ReadBiasFeature[T Float](r *Reader, flags byte, corrupt error) (float64, error) {
	bias := flags&FlagBias != 0
	if flags&FlagBiasFeat == 0 {
		if bias {
			return 1, nil
		}
		return 0, nil
	}
	return CheckBiasFeature[T](bias, math.Float64frombits(r.U64()), corrupt)
}

// CheckBiasFeature checks a perceptron file's bias feature b: with a bias,
// finite, > 0 and ≠ 1 (B = 1 is written without the field), and B² finite
// and nonzero in T. Errors wrap corrupt.
func CheckBiasFeature[T Float](bias bool, b float64, corrupt error) (float64, error) {
	if !bias {
		return 0, fmt.Errorf("%w: a bias feature without a bias", corrupt)
	}
	positive := func(v float64) bool { return v > 0 && !math.IsInf(v, 1) }
	if sq := float64(T(b * b)); !positive(b) || !positive(sq) || b == 1 {
		return 0, fmt.Errorf("%w: bias feature %v", corrupt, b)
	}
	return b, nil
}
