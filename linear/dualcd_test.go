package linear

import (
	"errors"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
)

// TestNewRefusesDualCDState: a linear SVM has no sample scaling, no
// training steps and no argmax form; New refuses such a state (and a file
// claiming one is ErrCorrupt: state.check).
func TestNewRefusesDualCDState(t *testing.T) {
	base := State[float64]{Scheme: fit.Binary, Algorithm: DualCD, Dims: 2, Labels: []int{3, 7},
		W: []float64{1, -1}, B: []float64{0.5}, Eta: 1, BiasFeature: 1, Bias: true}
	if _, err := New(base); err != nil {
		t.Fatalf("a binary DualCD state: %v", err)
	}
	scaled := base
	scaled.Scaling = ScaleAugmented
	steps := base
	steps.Steps = 3
	argmax := base
	argmax.Scheme, argmax.Labels, argmax.W, argmax.B = fit.Argmax, []int{1, 2, 3}, make([]float64, 6), make([]float64, 3)
	for name, st := range map[string]State[float64]{"scaled": scaled, "steps": steps, "argmax": argmax} {
		if _, err := New(st); !errors.Is(err, ErrOption) {
			t.Errorf("%s: New = %v, want ErrOption", name, err)
		}
	}
}
