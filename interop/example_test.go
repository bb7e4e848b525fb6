package interop_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/rosenblatt-go/rosenblatt/interop"
	"github.com/rosenblatt-go/rosenblatt/linear"
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
	m, err := linear.New(linear.State[float64]{Kind: linear.KindBinary, Algorithm: linear.DualCD, Dims: 2, Labels: []int{-1, 1},
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
