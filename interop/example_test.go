package interop_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// A model svm-train wrote (heart_scale, RBF kernel), read and used for
// prediction; svm-predict gives the first row of heart_scale the same
// label.
func ExampleReadLIBSVM() {
	data, err := os.ReadFile("../svm/testdata/libsvm/heart_rbf.model")
	if err != nil {
		panic(err)
	}
	f, err := interop.ReadLIBSVM(data, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(f.SVMType, f.Labels, f.Model.Kernel(), f.Model.NumSupport(), "support vectors")
	// The first row of heart_scale.libsvm.
	x := []float64{0.708333, 1, 1, -0.320755, -0.105023, -1, 1, -0.419847, -1, -0.225806, 0, 1, -1}
	label, err := f.Voting.Predict(x) // the file lists the labels as 1 -1
	if err != nil {
		panic(err)
	}
	fmt.Println("label", label)
	// Output:
	// c_svc [1 -1] rbf(gamma=0.07692307692307693) 132 support vectors
	// label 1
}

// A linear SVM of this module written for liblinear-predict.
func ExampleWriteLIBLINEAR() {
	m, err := linear.New(linear.State[float64]{Scheme: fit.Binary, Algorithm: linear.DualCD, Dims: 2, Labels: []int{-1, 1},
		Bias: true, BiasFeature: 1, Eta: 1, W: []float64{0.5, -1.25}, B: []float64{0.25}})
	if err != nil {
		panic(err)
	}
	text, err := interop.MarshalLIBLINEAR(m)
	if err != nil {
		panic(err)
	}
	// (LIBLINEAR ends each weight with a space; trimmed here for the
	// example's output.)
	fmt.Print(strings.ReplaceAll(string(text), " \n", "\n"))
	// Output:
	// solver_type L2R_L1LOSS_SVC_DUAL
	// nr_class 2
	// label 1 -1
	// nr_feature 2
	// bias 1
	// w
	// 0.5
	// -1.25
	// 0.25
}

// A linear SVM trained here, written as a LIBLINEAR model file (what
// liblinear-predict reads) and read back: the same predictions.
func Example() {
	tr, _ := dataset.LoadLIBSVM[float64]("../svm/testdata/iris.train.libsvm", dataset.LIBSVMOptions{Cols: 4})
	m, _, err := svm.FitLinear(context.Background(), tr, tr.Y, svm.LinearOptions{Seed: 1})
	if err != nil {
		panic(err)
	}
	text, err := interop.MarshalLIBLINEAR(m) // or WriteLIBLINEAR to a file
	if err != nil {
		panic(err)
	}
	f, err := interop.ReadLIBLINEAR(text)
	if err != nil {
		panic(err)
	}
	a, b := make([]int, tr.Rows), make([]int, tr.Rows)
	_, _ = m.PredictBatch(a, tr.X), f.Model.PredictBatch(b, tr.X)
	fmt.Println(f.Solver, f.Labels, slices.Equal(a, b))
	// Output:
	// L2R_L1LOSS_SVC_DUAL [0 1 2] true
}
