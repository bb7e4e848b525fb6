package svm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// A kernel SVM separates XOR, which no hyperplane does.
func ExampleFit() {
	X := []float64{
		0, 0,
		1, 1,
		0, 1,
		1, 0,
	}
	y := []int{-1, -1, 1, 1}
	data := &dataset.Data[float64]{X: X, Y: y, Rows: 4, Cols: 2}
	m, rep, err := svm.Fit(context.Background(), data, y, svm.Options{Kernel: gram.RBF{Gamma: 2}, C: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	pred := make([]int, 4)
	_ = m.PredictBatch(pred, X)
	fmt.Printf("%v; support vectors: %d, dual objective %.4f (scikit-learn SVC: -2.6751)\n", pred, rep.SupportVectors, rep.Dual)
	// Output:
	// [-1 -1 1 1]; support vectors: 4, dual objective -2.6751 (scikit-learn SVC: -2.6751)
}

// One-vs-one on iris, LIBSVM's defaults with scikit-learn's gamma="scale".
func ExampleFit_multiclass() {
	tr, _ := dataset.LoadLIBSVM[float64]("testdata/iris.train.libsvm", dataset.LIBSVMOptions{Cols: 4})
	te, _ := dataset.LoadLIBSVM[float64]("testdata/iris.test.libsvm", dataset.LIBSVMOptions{Cols: 4})
	m, rep, err := svm.Fit(context.Background(), tr, tr.Y, svm.Options{Kernel: gram.RBF{Gamma: svm.GammaScale(tr)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	acc, _ := m.Accuracy(te.X, te.Y)
	fmt.Printf("%v with %d machines, %d support vectors, test accuracy %.3f\n", m.Scheme(), len(rep.Detail.(*svm.Info).Problems), rep.SupportVectors, acc)
	for r := range m.NumScores() {
		neg, pos := m.Pair(r)
		fmt.Printf("%d vs %d: %d support vectors\n", neg, pos, rep.Detail.(*svm.Info).Problems[r].SV)
	}
	// Output:
	// ovo with 3 machines, 54 support vectors, test accuracy 1.000
	// 0 vs 1: 12 support vectors
	// 0 vs 2: 7 support vectors
	// 1 vs 2: 41 support vectors
}

// C = +Inf trains the hard-margin SVM; data it cannot separate is an
// error.
func ExampleFit_hardMargin() {
	and := &dataset.Data[float64]{X: []float64{0, 0, 0, 1, 1, 0, 1, 1}, Rows: 4, Cols: 2}
	hard := svm.Options{C: math.Inf(1), Kernel: gram.Linear{}}
	_, rep, err := svm.Fit(context.Background(), and, []int{-1, -1, -1, 1}, hard)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("AND: margin %.4f (√2/4 = %.4f)\n", rep.Detail.(*svm.Info).Problems[0].Margin, math.Sqrt2/4)
	_, _, err = svm.Fit(context.Background(), and, []int{-1, 1, 1, -1}, hard)
	fmt.Println("XOR:", errors.Is(err, svm.ErrNotSeparable))
	// Output:
	// AND: margin 0.3536 (√2/4 = 0.3536)
	// XOR: true
}

// The linear SVM by dual coordinate descent, LIBLINEAR's -s 3 -B 1.
func ExampleFitLinear() {
	ds, _ := dataset.LoadLIBSVM[float64]("testdata/heart_scale.libsvm", dataset.LIBSVMOptions{Cols: 13})
	m, rep, err := svm.FitLinear(context.Background(), ds, ds.Y, svm.LinearOptions{Loss: svm.Hinge, C: 1, Tol: 0.01, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	acc, _ := m.Accuracy(ds.X, ds.Y)
	fmt.Printf("dual objective %.2f (liblinear-train -s 3 -e 0.01 -B 1: -92.96), training accuracy %.3f\n", rep.Dual, acc)
	// Output:
	// dual objective -92.96 (liblinear-train -s 3 -e 0.01 -B 1: -92.96), training accuracy 0.848
}

// The data set's maximum margin γ_D and Novikoff's bound R²/γ_D² for a
// perceptron with a bias (a weight on the constant feature 1).
func ExampleMaxMargin() {
	X := []float64{0, 0, 0, 1, 1, 0, 1, 1}
	y := []int{-1, -1, -1, 1} // AND
	mg, err := svm.MaxMargin(context.Background(), dataset.NewData(X, 2, nil), y, svm.MarginOptions{BiasFeature: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("γ_D = %.4f (1/√17 = %.4f), R = %.4f, R²/γ² = %.1f\n", mg.Gamma, 1/math.Sqrt(17), mg.Radius, mg.Bound)
	fmt.Printf("w = (%.3f, %.3f), b = %.3f, support vectors %v\n", mg.W[0], mg.W[1], mg.Bias, mg.Support)
	// Output:
	// γ_D = 0.2425 (1/√17 = 0.2425), R = 1.7321, R²/γ² = 51.0
	// w = (2.000, 2.000), b = -3.000, support vectors [1 2 3]
}

// Train a linear SVM, save it, load it back as package model's Classifier
// and predict.
func Example() {
	tr, _ := dataset.LoadLIBSVM[float32]("testdata/iris.train.libsvm", dataset.LIBSVMOptions{Cols: 4})
	te, _ := dataset.LoadLIBSVM[float32]("testdata/iris.test.libsvm", dataset.LIBSVMOptions{Cols: 4})
	m, _, err := svm.FitLinear(context.Background(), tr, tr.Y, svm.LinearOptions{Seed: 1})
	if err != nil {
		panic(err)
	}
	var file bytes.Buffer // or model.SaveFile(path, m, model.Binary)
	if err := model.Save(&file, m, model.Binary); err != nil {
		panic(err)
	}
	back, err := model.Load(&file) // or model.LoadFile(path)
	if err != nil {
		panic(err)
	}
	c, _ := model.As[float32](back)
	label, _ := c.Predict(te.X[:4])
	fmt.Printf("%v\nrow 0: predicted %d, label %d\n", back, label, te.Y[0])
	// Output:
	// ovr linear SVM (dual coordinate descent), float32, 4 features, classes 0 1 2
	// row 0: predicted 0, label 0
}
