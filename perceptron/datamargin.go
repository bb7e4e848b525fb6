package perceptron

import (
	"context"
	"errors"
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// DataMargin is a binary training set's own maximum margin, which
// Options.DataMargin asks for: γ_D = sup minᵢ yᵢ⟨(w, b/B), zᵢ⟩/‖(w, b/B)‖
// over every separator (w, b) of the points zᵢ the perceptron trains on,
// the augmented (x, B) (B = 1 but with Options.BiasFeature; see
// Diagnostics.MarginAugmented, the returned model's value of the same
// ratio). It comes from an exact hard-margin solve (svm.MaxMargin, with
// the bias as a regularised weight on the constant feature B,
// Options.BiasFeature, 1 by default, as in Novikoff's theorem).
type DataMargin struct {
	// Separable reports that some separator exists. Otherwise Gamma,
	// Radius and Bound are 0, Upper bounds the margin of every separator
	// (near 0: the classes' hulls touch) and Err says why.
	Separable bool
	// Gamma ≤ γ_D ≤ Upper: Gamma is the margin of the separator the solver
	// found, Upper the solver's dual bound; they agree to about 10⁻⁶
	// relative (the solve runs in float64, on the points as trained on,
	// whatever the model's element type).
	Gamma, Upper float64
	// Radius is R′ = maxᵢ ‖zᵢ‖, Diagnostics.RadiusAugmented.
	Radius float64
	// Bound is R′²/Gamma² ≥ R′²/γ_D²: Rosenblatt's perceptron started from
	// 0 makes at most this many mistakes on the data, whatever the order
	// in which it visits them. BoundAugmented ≥ Bound.
	Bound float64
	// Err is the solver's error when not Separable: it wraps
	// svm.ErrNotSeparable (a *svm.NotSeparableError, errors.As) when the
	// data are not separable, and is nil when they are.
	Err error
}

// dataMargins measures the data margin of every binary problem of a
// trainer: X (n rows of d values) are the points as trained on, cls the
// class of each (for a binary model 0 is the positive class), kern the
// kernel and bias whether the model adds a bias the points do not carry
// (on the constant feature cfg.bfeat). It fills diag.DataMargin (K = 1) or
// each class's.
func dataMargins[T Float](cfg *config, X []T, d int, cls []int32, K int, kern gram.Kernel, bias bool, diag *Diagnostics) {
	mode := svm.BiasNone
	if bias {
		mode = svm.BiasFeature
	}
	// The margin is the points' own: solve it in float64 whatever T (a
	// float32 kernel matrix resolves no margin below about 10⁻³·R).
	X64, ok := any(X).([]float64)
	if !ok {
		X64 = make([]float64, len(X))
		for i, v := range X {
			X64[i] = float64(v)
		}
	}
	y := make([]int, len(cls))
	for c := range K {
		for i, v := range cls {
			y[i] = -1
			if int(v) == c {
				y[i] = 1
			}
		}
		dm := measureMargin(X64, d, y, svm.MarginOptions{Kernel: kern, Bias: mode, B: cfg.bfeat, Workers: cfg.workers, Impl: cfg.impl})
		if K == 1 {
			diag.DataMargin = dm
		} else {
			diag.Classes[c].DataMargin = dm
		}
	}
}

// measureMargin solves one hard-margin problem.
func measureMargin(X []float64, d int, y []int, o svm.MarginOptions) *DataMargin {
	mg, err := svm.MaxMargin(context.Background(), dataset.NewData(X, d, nil), y, o)
	if err != nil {
		dm := &DataMargin{Upper: math.Inf(1), Err: err}
		var ns *svm.NotSeparableError
		if errors.As(err, &ns) {
			dm.Upper = ns.Upper
		}
		return dm
	}
	return &DataMargin{Separable: true, Gamma: mg.Gamma, Upper: mg.Upper, Radius: mg.Radius, Bound: mg.Bound}
}
