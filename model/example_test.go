package model_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// Train a perceptron, save it, load it back without knowing its kind, and
// predict.
func Example() {
	X := []float64{2, 1, 1, 2, -1, -2, -2, -1} // four samples of two features
	y := []int{1, 1, -1, -1}
	trained, _, err := perceptron.Fit(context.Background(), dataset.NewData(X, 2, y), y, perceptron.Options{})
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

// Load a LIBSVM file, train the averaged perceptron (Freund and Schapire,
// 1999), save the model, load the file back as any model, and predict the
// test set: the README's library example.
func Example_dataFile() {
	train, err := dataset.LoadLIBSVM[float64]("../dataset/testdata/breast_cancer_std.train.libsvm", dataset.LIBSVMOptions{})
	if err != nil {
		panic(err)
	}
	trained, _, err := perceptron.Fit(context.Background(), train, train.Y,
		perceptron.Options{Algorithm: linear.Averaged, MaxIter: 10, Shuffle: true, Seed: 1})
	if err != nil {
		panic(err)
	}
	dir, _ := os.MkdirTemp("", "model")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cancer.model")
	if err := model.SaveFile(path, trained, model.Binary); err != nil {
		panic(err)
	}

	m, err := model.LoadFile(path) // any model file: perceptron, SVM, quantised; binary or JSON
	if err != nil {
		panic(err)
	}
	c, err := model.As[float64](m)
	if err != nil {
		panic(err)
	}
	test, err := dataset.LoadLIBSVM[float64]("../dataset/testdata/breast_cancer_std.test.libsvm", dataset.LIBSVMOptions{Cols: c.Dims()})
	if err != nil {
		panic(err)
	}
	labels := make([]int, test.Rows)
	if err := c.PredictBatch(labels, test.X); err != nil {
		panic(err)
	}
	correct := 0
	for i, l := range labels {
		if l == test.Y[i] {
			correct++
		}
	}
	fmt.Printf("%v\n%d of %d test rows right\n", m, correct, test.Rows)
	// Output:
	// binary averaged perceptron, float64, 30 features, classes -1 1
	// 110 of 114 test rows right
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
