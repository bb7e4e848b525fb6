package expansion_test

import (
	"bytes"
	"context"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// Train a kernel SVM (a kernel perceptron's model is the same type), save
// it, load it back and predict.
func Example() {
	X, y := []float64{0, 0, 1, 1, 0, 1, 1, 0}, []int{-1, -1, 1, 1}
	m, _, _ := svm.Fit(context.Background(), dataset.NewData(X, 2, y), y, svm.Options{Kernel: gram.RBF{Gamma: 2}, C: 10})
	var file bytes.Buffer
	_ = model.Save(&file, m, model.Binary)
	loaded, _ := model.Load(&file)
	back := loaded.(*expansion.Model[float64])
	label, _ := back.Predict([]float64{0.9, 0.1})
	fmt.Println(back, "predicts", label)
	// Output:
	// kernel SVM, binary, rbf(gamma=2), float64, 2 features, 4 support vectors, classes -1 1 predicts 1
}

// A model's parts, as a model file stores them, rebuild the model.
func ExampleNew() {
	X, y := []float64{0, 0, 1, 1, 0, 1, 1, 0}, []int{-1, -1, 1, 1}
	m, _, _ := svm.Fit(context.Background(), dataset.NewData(X, 2, y), y, svm.Options{Kernel: gram.RBF{Gamma: 2}, C: 10})
	p := m.Parts()
	m2, err := expansion.New(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	label, _ := m2.Predict([]float64{0.9, 0.1})
	fmt.Println(p.Scheme, p.Labels, len(p.SV)/p.Dims, "support vectors; predicts", label)
	// Output:
	// binary [-1 1] 4 support vectors; predicts 1
}
