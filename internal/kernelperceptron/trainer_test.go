package kernelperceptron

import (
	"math"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
)

// A NaN decision value is never a correct prediction: the final
// evaluation counts it as a mistake, a NaN score does not win the argmax,
// and the row cache's lookahead counts the row as one to fetch.
func TestNaNScoreIsAMistake(t *testing.T) {
	X := []float64{1, 0, 0, 1, 1, 1}
	dt := &Data[float64]{N: 3, D: 2, X: X, Sq: []float64{1, 1, 2}}
	nan := math.NaN()
	// The kernel trainer's diagnostics (decision values F + b).
	dtr := &Trainer[float64]{dt: dt, cls: []int32{0, 1, 0}, K: 3, cfg: &Config{},
		F: []float64{nan, nan, nan, -1, -1, -1, -2, -2, -2}, A: make([]float64, 9), B: make([]float64, 3)}
	diag := perceptrontrain.Diagnostics{Classes: make([]perceptrontrain.Diagnostics, 3)}
	dtr.diagnose(gram.Linear{}, &diag)
	if diag.TrainAccuracy != 0 {
		t.Fatalf("kernel argmax accuracy %v with NaN scores", diag.TrainAccuracy)
	}
	dtr.argmax = true
	if !dtr.wrongNow(0) {
		t.Fatal("wrongNow: a NaN score of the true class is not wrong")
	}
	dtr.K, dtr.argmax, dtr.cls, dtr.F, dtr.B = 1, false, []int32{0, -1, 0}, []float64{nan, nan, nan}, []float64{0}
	diag = perceptrontrain.Diagnostics{}
	dtr.diagnose(gram.Linear{}, &diag)
	if diag.TrainAccuracy != 0 {
		t.Fatalf("kernel binary accuracy %v with NaN scores", diag.TrainAccuracy)
	}
	if !dtr.wrongNow(0) {
		t.Fatal("wrongNow: a NaN score is not wrong")
	}
}
