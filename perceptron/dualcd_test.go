package perceptron

import (
	"context"
	"errors"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// TestContinueRefusesDualCD: a linear SVM's model is not continued by a
// perceptron rule (its labels need not be ±1, and the result would claim
// dual coordinate descent); Fit says so instead of making a model that its
// own file format refuses.
func TestContinueRefusesDualCD(t *testing.T) {
	X := dataset.NewData([]float64{1, 2, 2, 1, -1, -2, -2, -1}, 2, nil)
	for _, y := range [][]int{{1, 1, -1, -1}, {7, 7, 3, 3}} {
		m, _, err := svm.FitLinear(context.Background(), X, y, svm.LinearOptions{})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Fit(context.Background(), X, []int{1, 1, -1, -1}, Options{Init: m})
		if !errors.Is(err, linear.ErrUnsupported) {
			t.Errorf("labels %v: Fit from a linear SVM = %v, want linear.ErrUnsupported", y, err)
		}
	}
}
