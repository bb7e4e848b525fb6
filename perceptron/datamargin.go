package perceptron

import (
	"context"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// dataMargins measures the data margin of every binary problem of a
// trainer: X (n rows of d values) are the points as trained on, cls the
// class of each (for a binary model 0 is the positive class), kern the
// kernel and bias whether the model adds a bias the points do not carry
// (on the constant feature cfg.bfeat). It fills diag.DataMargin (K = 1) or
// each class's.
func dataMargins[T kernel.Float](cfg *config, X []T, d int, cls []int32, K int, kern gram.Kernel, bias bool, diag *Diagnostics) {
	bf := 0.0 // no bias: svm's NoBias; a bias: the weight of the constant feature
	if bias {
		bf = cfg.bfeat
		if bf == 0 {
			bf = 1
		}
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
		mg, err := svm.MaxMargin(context.Background(), dataset.NewData(X64, d, nil), y,
			svm.MarginOptions{Kernel: kern, NoBias: !bias, BiasFeature: bf, Workers: cfg.workers, Impl: cfg.impl})
		dg := diag
		if K > 1 {
			dg = &diag.Classes[c]
		}
		dg.DataMargin, dg.DataMarginErr = mg, err
	}
}
