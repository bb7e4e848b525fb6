package perceptron

import (
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/describe"
)

// String describes the model in one line, e.g. "kernel-binary online
// perceptron, rbf(gamma=0.5), float32, 30 features, 41 support vectors,
// classes -1 1".
func (m *KernelModel[T]) String() string {
	k := ""
	if m.Kernel() != nil {
		k = m.Kernel().String()
	}
	return describeModel(m, typeName[T](), k, m.NumSupport())
}

// described is what describeModel reads of a model.
type described interface {
	Kind() Kind
	Algorithm() Algorithm
	Dims() int
	Classes() []int
	HasBias() bool
	BiasFeature() float64
	Scaling() Scaling
}

// describeModel is the String of a model, with typ naming what it computes
// in, kernel its kernel function's name ("" for a linear model) and
// support its support vectors (−1 for a linear model).
func describeModel(m described, typ, kernel string, support int) string {
	if m.Kind() == 0 {
		return "untrained perceptron model"
	}
	return describe.Perceptron(m.Kind().String(), describe.Algorithm(m.Algorithm().String()), kernel, typ,
		m.Dims(), support, m.Classes(), m.HasBias(), m.BiasFeature(), describe.Scaling(m.Scaling()))
}

// typeName is "float32" or "float64".
func typeName[T Float]() string {
	if unsafe.Sizeof(T(0)) == 8 {
		return "float64"
	}
	return "float32"
}
