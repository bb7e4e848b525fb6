package svm

import (
	"context"
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// TestNoBias checks Options.NoBias on two points of one feature, x₁ = 2
// (y = +1) and x₂ = −1 (y = −1), with the linear kernel, by hand. Without a
// bias the machine is f(x) = w·x with w = 2α₁ + α₂, and the dual
// min ½(2α₁ + α₂)² − α₁ − α₂ over 0 ≤ α ≤ C has its minimum at α = (0, 1)
// for C ≥ 1 (G₁ = 2w − 1 = 1 > 0 keeps α₁ = 0, G₂ = w − 1 = 0): w = 1, the
// hard margin's too (2w ≥ 1 and w ≥ 1). For C = 0.5, α = (0, 0.5): w = 0.5
// (G₂ = −0.5 < 0 at the bound, G₁ = 0). With the bias (the default) the
// machine is w = 2/3, b = −1/3 (f(2) = 1, f(−1) = −1), α₁ = α₂ = 2/9.
func TestNoBias(t *testing.T) {
	data := dataset.NewData([]float64{2, -1}, 1, []int{1, -1})
	for _, tc := range []struct {
		name  string
		opts  Options
		w, b  float64
		alpha [2]float64
	}{
		{"C=10", Options{C: 10, NoBias: true}, 1, 0, [2]float64{0, 1}},
		{"C=0.5", Options{C: 0.5, NoBias: true}, 0.5, 0, [2]float64{0, 0.5}},
		{"hard", Options{C: math.Inf(1), NoBias: true}, 1, 0, [2]float64{0, 1}},
		{"bias", Options{C: 10}, 2.0 / 3, -1.0 / 3, [2]float64{2.0 / 9, 2.0 / 9}},
	} {
		tc.opts.Kernel, tc.opts.Tol = gram.Linear{}, 1e-9
		m, rep, err := Fit(context.Background(), data, data.Y, tc.opts)
		if err != nil {
			t.Fatal(tc.name, err)
		}
		sc := make([]float64, 1)
		for _, x := range []float64{1, -3} {
			if err := m.Scores(sc, []float64{x}); err != nil {
				t.Fatal(err)
			}
			if want := tc.w*x + tc.b; math.Abs(sc[0]-want) > 1e-6 {
				t.Errorf("%s: f(%v) = %v, want %v", tc.name, x, sc[0], want)
			}
		}
		coef, b := m.Coefficients(0)
		alpha := [2]float64{}
		for k, i := range m.SupportIndices() {
			alpha[i] = math.Abs(float64(coef[k]))
		}
		if math.Abs(b-tc.b) > 1e-6 || math.Abs(alpha[0]-tc.alpha[0]) > 1e-6 || math.Abs(alpha[1]-tc.alpha[1]) > 1e-6 || !rep.Converged {
			t.Errorf("%s: α = %v, b = %v, converged %v; want α = %v, b = %v", tc.name, alpha, b, rep.Converged, tc.alpha, tc.b)
		}
	}
}
