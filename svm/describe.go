package svm

import (
	"fmt"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/describe"
)

// String describes the model in one line, e.g. "kernel SVM, ovo,
// rbf(gamma=0.5), float32, 4 features, 37 support vectors, classes 0 1 2".
func (m *Model[T]) String() string {
	return fmt.Sprintf("kernel SVM, %s, %s, %s, %d features, %d support vectors, classes %s",
		m.Scheme(), m.Kernel(), typeName[T](), m.Dims(), m.NumSupport(), describe.Labels(m.Classes()))
}

// String describes the model in one line, e.g. "linear SVM, ovr, float64,
// 13 features, classes -1 1".
func (m *LinearModel[T]) String() string {
	return fmt.Sprintf("linear SVM, %s, %s, %d features, classes %s",
		m.Scheme(), typeName[T](), m.Dims(), describe.Labels(m.Classes()))
}

// typeName is "float32" or "float64".
func typeName[T Float]() string {
	if unsafe.Sizeof(T(0)) == 8 {
		return "float64"
	}
	return "float32"
}
