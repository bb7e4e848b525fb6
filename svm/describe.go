package svm

import (
	"fmt"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/internal/describe"
)

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
