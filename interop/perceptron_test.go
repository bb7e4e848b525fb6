package interop

import (
	"context"
	"errors"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// TestKernelPerceptronRefused: a kernel perceptron shares the kernel SVM's
// model type but not its decision function (scaled samples, a bias
// feature, a vote), so neither LIBSVM nor ONNX's SVMClassifier takes it.
func TestKernelPerceptronRefused(t *testing.T) {
	X := []float64{0, 0, 1, 1, 0, 1, 1, 0}
	y := []int{-1, -1, 1, 1}
	m, _, err := perceptron.FitKernel(context.Background(), dataset.NewData(X, 2, y), y,
		perceptron.KernelOptions{Options: perceptron.Options{MaxIter: 20}, Kernel: gram.RBF{Gamma: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := MarshalLIBSVM(m); !errors.Is(err, ErrUnsupported) {
		t.Errorf("MarshalLIBSVM: %v, want ErrUnsupported", err)
	}
	if _, err := MarshalONNX(m, nil); !errors.Is(err, ErrUnsupported) {
		t.Errorf("MarshalONNX: %v, want ErrUnsupported", err)
	}
}
