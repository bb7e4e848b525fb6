package linear

import "github.com/rosenblatt-go/rosenblatt/internal/describe"

// String describes the model in one line, e.g. "ovr averaged perceptron,
// float32, 4 features, classes 0 1 2", or for a linear SVM "ovr dcd
// linear SVM, …".
func (m *Model[T]) String() string {
	s := m.st.Load()
	if s == nil {
		return "untrained linear model"
	}
	return describe.Perceptron(s.scheme.String(), describe.Algorithm(s.algo.String()), "", typeName[T](),
		s.d, -1, s.labels, s.bias, s.bfeat, describe.Scaling(s.scaling))
}
