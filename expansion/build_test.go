package expansion

import (
	"errors"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// TestBuildChecks: Build, the trainers' constructor, refuses what New
// refuses instead of handing out a model whose scoring would panic.
func TestBuildChecks(t *testing.T) {
	bad := []Parts[float64]{
		{Kernel: gram.Linear{}, Dims: 2, Labels: []int{-1, 1}, Scheme: fit.Binary, SV: []float64{1, 2, 3, 4}, Coef: []float64{1}, Bias: []float64{0}},
		{Kernel: gram.Linear{}, Dims: 2, Labels: []int{-1, 1}, Scheme: fit.Binary, SV: []float64{1, 2, 3}, Coef: []float64{1}, Bias: []float64{0}},
		{Kernel: gram.Linear{}, Dims: 2, Labels: []int{1, -1}, Scheme: fit.Binary, SV: []float64{1, 2}, Coef: []float64{1}, Bias: []float64{0}},
	}
	for i, p := range bad {
		if m, err := Build(p, nil); !errors.Is(err, ErrModel) {
			t.Errorf("parts %d: Build = %v, %v; want an error wrapping ErrModel", i, m, err)
		}
	}
	good := Parts[float64]{Kernel: gram.Linear{}, Dims: 2, Labels: []int{-1, 1}, Scheme: fit.Binary, SV: []float64{1, 2}, Coef: []float64{1}, Bias: []float64{0}}
	m, err := Build(good, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := m.Predict([]float64{1, 1}); err != nil || got != 1 {
		t.Fatalf("Predict = %d, %v; want 1", got, err)
	}
}
