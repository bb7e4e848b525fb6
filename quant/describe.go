package quant

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/describe"
)

// String describes the model in one line, e.g. "int8 quantised ovr
// averaged perceptron, float32 input, 784 features, classes 0 1 2 3 4 5 6 7
// 8 9".
func (q *Model) String() string {
	if q.svm {
		scheme := "ovr"
		if q.scheme == fit.Binary {
			scheme = "binary"
		}
		return fmt.Sprintf("int8 quantised linear SVM, %s, float32 input, %d features, classes %s",
			scheme, q.Dims(), describe.Labels(q.Classes()))
	}
	return "int8 quantised " + describe.Perceptron(q.Scheme().String(), describe.Algorithm(q.Algorithm().String()), "",
		"float32 input", q.Dims(), -1, q.Classes(), q.HasBias(), q.BiasFeature(), describe.Scaling(q.Scaling()))
}
