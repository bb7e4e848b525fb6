package perceptron

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"
)

// TestUpdateStepAndTie: a MiniBatch model's Update steps by its τ (a batch
// of one sample), an Online model's by its η; and a zero score is a mistake
// for either label (Rosenblatt's rule): Predict answers −1 and an Update
// with y = −1 still moves the weights by −η·x.
func TestUpdateStepAndTie(t *testing.T) {
	X := []float64{1, 0, 0, 1, -1, 0, 0, -1}
	y := []int{1, 1, -1, -1}
	for _, tc := range []struct {
		name string
		opt  Options
		step float64
	}{
		{"online", Options{Eta: 0.5, MaxIter: 1, Stop: StopNever}, 0.5},
		{"minibatch", Options{Algorithm: linear.MiniBatch, Tau: 5, Eta: 0.5, BatchSize: 2, Sampling: SampleSweep, MaxIter: 1, Stop: StopNever}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, _, err := trainBinary(X, 2, y, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			w0, b0 := m.Weights(0)
			// A sample orthogonal to w with the bias cancelled: choose x so
			// that w·x + b = 0 exactly, or skip when w has no usable entry.
			x := []float64{0, 0}
			switch {
			case w0[0] != 0:
				x[0] = -b0 / w0[0]
			case w0[1] != 0:
				x[1] = -b0 / w0[1]
			case b0 != 0:
				t.Fatalf("w = 0 and b = %v: no sample scores 0", b0)
			}
			sc := make([]float64, 1)
			if err := m.Scores(sc, x); err != nil || sc[0] != 0 {
				t.Fatalf("score %v, %v; want exactly 0", sc[0], err)
			}
			if l, _ := m.Predict(x); l != -1 {
				t.Errorf("Predict of a zero score = %d, want -1", l)
			}
			mistake, err := m.Update(x, -1)
			if err != nil || !mistake {
				t.Fatalf("Update(y = -1) on a zero score: %v, %v; want a mistake", mistake, err)
			}
			w1, b1 := m.Weights(0)
			for j := range x {
				if want := w0[j] - tc.step*x[j]; w1[j] != want {
					t.Errorf("w[%d] = %v, want %v − %v·%v", j, w1[j], w0[j], tc.step, x[j])
				}
			}
			if want := b0 - tc.step; b1 != want {
				t.Errorf("b = %v, want %v − %v", b1, b0, tc.step)
			}
		})
	}
}
