package perceptron_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/model"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// XOR: no line separates the classes, a Gaussian kernel does.
var (
	xorX = []float64{0, 0, 1, 1, 0, 1, 1, 0}
	xorY = []int{1, 1, -1, -1}
	xor  = &dataset.Data[float64]{X: xorX, Y: xorY, Rows: 4, Cols: 2}
)

// The dual perceptron with the linear kernel: α counts the mistakes on each
// sample, and the model is the primal perceptron's (w = Σ η·αᵢ·yᵢ·xᵢ).
func ExampleFitKernel() {
	m, rep, err := perceptron.FitKernel(ctx, ex, exY, perceptron.KernelOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	coef, b := m.Coefficients(0)
	fmt.Println("support vectors", m.SupportIndices(), "coefficients", coef, "bias", b)
	fmt.Println("epochs", rep.Epochs, "mistakes", rep.Mistakes, "converged", rep.Converged)
	p, _, _ := perceptron.Fit(ctx, ex, exY, perceptron.Options{})
	w, pb := p.Weights(0)
	fmt.Println("primal weights", w, "bias", pb)
	// Output:
	// support vectors [0] coefficients [1] bias 1
	// epochs 2 mistakes 1 converged true
	// primal weights [2 1] bias 1
}

// The kernel perceptron with an RBF kernel separates XOR; the diagnostics
// describe the margin in the kernel's feature space.
func ExampleFitKernel_rbf() {
	m, rep, err := perceptron.FitKernel(ctx, xor, xorY, perceptron.KernelOptions{
		Options: perceptron.Options{MaxIter: 20}, Kernel: gram.RBF{Gamma: 2},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	diag := rep.Detail.(*perceptron.Diagnostics)
	fmt.Println("separable", diag.Separable, "mistakes", rep.Mistakes, "bound", diag.Bound >= float64(rep.Mistakes))
	for i := range 4 {
		label, _ := m.Predict(xorX[2*i : 2*i+2])
		fmt.Print(label, " ")
	}
	fmt.Println()
	// Output:
	// separable true mistakes 6 bound true
	// 1 1 -1 -1
}

// The averaged kernel perceptron returns the average of the decision
// functions after every sample (its coefficients are the averages).
func ExampleFitKernel_averaged() {
	m, _, _ := perceptron.FitKernel(ctx, xor, xorY, perceptron.KernelOptions{
		Options: perceptron.Options{Algorithm: linear.Averaged, MaxIter: 20},
		Kernel:  gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2},
	})
	coef, b := m.Coefficients(0)
	fmt.Printf("coefficients %.3f bias %.3f\n", coef, b)
	acc, _ := m.Accuracy(xorX, xorY)
	fmt.Println("training accuracy", acc)
	// Output:
	// coefficients [5.950 3.450 -4.375 -4.312] bias 0.713
	// training accuracy 1
}

// The voted kernel perceptron keeps every decision function of the run with
// the number of samples it survived; Scores gives their weighted vote.
func ExampleFitKernel_voted() {
	m, _, _ := perceptron.FitKernel(ctx, xor, xorY, perceptron.KernelOptions{
		Options: perceptron.Options{Algorithm: linear.Voted, MaxIter: 20},
		Kernel:  gram.RBF{Gamma: 2},
	})
	vote := make([]float64, 1)
	_ = m.Scores(vote, []float64{0.1, 0.1})
	fmt.Println("vote at (0.1, 0.1):", vote[0])
	_ = m.Scores(vote, []float64{0.9, 0.1})
	fmt.Println("vote at (0.9, 0.1):", vote[0])
	// Output:
	// vote at (0.1, 0.1): 78
	// vote at (0.9, 0.1): -72
}

// One-vs-rest kernel perceptrons share one Gram matrix (computed once) and
// train in parallel; the multiclass kernel perceptron (fit.Argmax) keeps one
// decision function per class.
func ExampleFitKernel_multiclass() {
	// Three classes on a line: the middle one is not separable from the
	// others by a single line, but is with a polynomial kernel.
	X := []float64{-3, -2.5, -2, -0.5, 0, 0.5, 2, 2.5, 3}
	y := []int{7, 7, 7, 8, 8, 8, 9, 9, 9}
	data := &dataset.Data[float64]{X: X, Y: y, Rows: 9, Cols: 1}
	for _, s := range []fit.Scheme{fit.OneVsRest, fit.Argmax} {
		m, _, err := perceptron.FitKernel(ctx, data, y, perceptron.KernelOptions{
			Options: perceptron.Options{Multiclass: s, MaxIter: 100},
			Kernel:  gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		pred := make([]int, 3)
		_ = m.PredictBatch(pred, []float64{-2.8, 0.2, 2.7})
		acc, _ := m.Accuracy(X, y)
		fmt.Println(m.Scheme(), "predicts", pred, "training accuracy", acc)
	}
	// Output:
	// ovr predicts [7 8 9] training accuracy 1
	// argmax predicts [7 8 9] training accuracy 1
}

// Above KernelOptions.MaxBytes the trainer keeps an LRU cache of kernel rows
// instead of the whole Gram matrix, and trains the same model; a budget
// below one row is an error.
func ExampleKernelOptions_maxBytes() {
	X := []float64{-3, -2.5, -2, -0.5, 0, 0.5, 2, 2.5, 3}
	y := []int{7, 7, 7, 8, 8, 8, 9, 9, 9}
	data := &dataset.Data[float64]{X: X, Y: y, Rows: 9, Cols: 1}
	opt := perceptron.KernelOptions{Options: perceptron.Options{MaxIter: 100}, Kernel: gram.RBF{Gamma: 1}}
	full, _, _ := perceptron.FitKernel(ctx, data, y, opt)
	opt.MaxBytes = 3 * 9 * 8 // three rows of nine float64 values
	cached, _, _ := perceptron.FitKernel(ctx, data, y, opt)
	a, _ := full.MarshalBinary()
	b, _ := cached.MarshalBinary()
	fmt.Println("same model:", string(a) == string(b))
	opt.MaxBytes = 9*8 - 1
	_, _, err := perceptron.FitKernel(ctx, data, y, opt)
	fmt.Println(errors.Is(err, perceptron.ErrBudget))
	// Output:
	// same model: true
	// true
}

// Kernel models are saved in the linear models' checksummed format with
// their own kinds; model.Inspect tells them apart, and a linear.Model
// refuses them.
func ExampleFitKernel_marshalBinary() {
	m, _, _ := perceptron.FitKernel(ctx, xor, xorY, perceptron.KernelOptions{
		Options: perceptron.Options{MaxIter: 20}, Kernel: gram.RBF{Gamma: 2},
	})
	data, _ := m.MarshalBinary()
	info, err := model.Inspect(bytes.NewReader(data))
	fmt.Println(info.Kind, info.Kind.Kernel(), m.NumSupport(), "support vectors", err)
	var back expansion.Model[float64]
	if err := back.UnmarshalBinary(data); err != nil {
		fmt.Println(err)
		return
	}
	label, _ := back.Predict([]float64{1, 0.1})
	fmt.Println("kernel", back.Kernel(), "predicts", label)
	var lin linear.Model[float64]
	fmt.Println(errors.Is(lin.UnmarshalBinary(data), linear.ErrMismatch))
	// Output:
	// binary kernel perceptron true 4 support vectors <nil>
	// kernel rbf(gamma=2) predicts -1
	// true
}
