package online

import (
	"context"
	"errors"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// TestSupportedRefusesDualCD: a linear SVM trained by dual coordinate
// descent is a linear.Model too, but a perceptron step would not keep its
// solution, so it is served, not learnt.
func TestSupportedRefusesDualCD(t *testing.T) {
	X := dataset.NewData([]float64{1, 2, 2, 1, -1, -2, -2, -1}, 2, nil)
	for _, y := range [][]int{{1, 1, -1, -1}, {7, 7, 3, 3}} {
		m, _, err := svm.FitLinear(context.Background(), X, y, svm.LinearOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := Supported(m); !errors.Is(err, ErrUnsupported) {
			t.Errorf("labels %v: Supported(linear SVM) = %v, want ErrUnsupported", y, err)
		}
	}
}
