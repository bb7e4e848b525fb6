package model_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// Train a perceptron, save it, load it back without knowing its kind, and
// predict.
func Example() {
	X := []float64{2, 1, 1, 2, -1, -2, -2, -1} // four samples of two features
	y := []int{1, 1, -1, -1}
	trained, _, err := perceptron.Train(X, 2, y, perceptron.Options{})
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "model")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "example.model")
	if err := model.SaveFile(path, trained, model.Binary); err != nil {
		panic(err)
	}
	m, err := model.LoadFile(path)
	if err != nil {
		panic(err)
	}
	c, err := model.As[float64](m)
	if err != nil {
		panic(err)
	}
	label, err := c.Predict([]float64{3, 2})
	fmt.Println(m, "→", label, err)
	// Output: binary online perceptron, float64, 2 features, classes -1 1 → 1 <nil>
}

// Describe a model file from its header, without decoding the model.
func ExampleInspectFile() {
	info, err := model.InspectFile("testdata/fixtures/kernel-svm-ovo-f32.model")
	if err != nil {
		panic(err)
	}
	fmt.Println(info.Kind, info.Elem, info.Dims, info.Classes)
	// Output: one-vs-one kernel SVM float32 4 [0 1 2]
}
