package expansion

import (
	"fmt"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/describe"
)

// String describes the model in one line: for an SVM e.g. "kernel SVM,
// ovo, rbf(gamma=0.5), float32, 4 features, 37 support vectors, classes
// 0 1 2", for a kernel perceptron e.g. "kernel-binary online perceptron,
// rbf(gamma=0.5), float32, 30 features, 41 support vectors, classes -1 1".
func (m *Model[T]) String() string {
	switch {
	case m == nil || m.d == 0:
		return "untrained kernel expansion"
	case m.pc != nil:
		return describe.Perceptron(percKindName(m.scheme), describe.Algorithm(m.pc.Algorithm.String()), m.kern.String(), typeName[T](),
			m.d, m.NumSupport(), m.labels, m.pc.HasBias, m.pc.BiasFeature, describe.Scaling(m.pc.Scaling))
	}
	return fmt.Sprintf("kernel SVM, %s, %s, %s, %d features, %d support vectors, classes %s",
		m.scheme, m.kern, typeName[T](), m.d, m.NumSupport(), describe.Labels(m.labels))
}

// typeName is "float32" or "float64".
func typeName[T Float]() string {
	if unsafe.Sizeof(T(0)) == 8 {
		return "float64"
	}
	return "float32"
}
