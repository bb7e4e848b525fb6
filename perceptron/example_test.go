package perceptron_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// Two separable clouds in two dimensions, labels ±1.
var (
	exX = []float32{
		2, 1, 3, 2, 2, 3, 4, 2, // +1
		-1, -2, -2, -1, -3, -2, -1, -3, // −1
	}
	exY = []int{1, 1, 1, 1, -1, -1, -1, -1}
	ex  = &dataset.Data[float32]{X: exX, Y: exY, Rows: 8, Cols: 2}
	ctx = context.Background()
)

// Rosenblatt's online perceptron: one update per mistake, stopping after
// the first epoch without one.
func ExampleFit_online() {
	m, rep, err := perceptron.Fit(ctx, ex, exY, perceptron.Options{Algorithm: linear.Online})
	if err != nil {
		fmt.Println(err)
		return
	}
	w, b := m.Weights(0)
	fmt.Println("weights", w, "bias", b)
	fmt.Println("epochs", rep.Epochs, "mistakes", rep.Mistakes, "converged", rep.Converged)
	diag := rep.Detail.(*perceptron.Diagnostics)
	// The geometric margin |w·x + b|/‖w‖ with R = max ‖x‖, and the
	// margin of the augmented points (x, 1), |w·x + b|/‖(w, b)‖, with
	// R′ = max ‖(x, 1)‖: Novikoff's bound for the perceptron with a bias.
	fmt.Printf("margin γ %.3f radius R %.3f R²/γ² %.1f\n", diag.Margin, diag.Radius, diag.Bound)
	fmt.Printf("augmented γ′ %.3f R′ %.3f bound R′²/γ′² %.1f\n", diag.MarginAugmented, diag.RadiusAugmented, diag.BoundAugmented)
	label, _ := m.Predict([]float32{5, 5})
	fmt.Println("predict (5,5):", label)
	// Output:
	// weights [2 1] bias 1
	// epochs 2 mistakes 1 converged true
	// margin γ 1.342 radius R 4.472 R²/γ² 11.1
	// augmented γ′ 1.225 R′ 4.583 bound R′²/γ′² 14.0
	// predict (5,5): 1
}

// Novikoff's theorem with the points normalised: the augmented points
// (x, 1)/‖(x, 1)‖ have norm R′ = 1, so the perceptron makes at most 1/γ′²
// mistakes, γ′ the margin of any separator of those points.
func ExampleFit_novikoff() {
	_, rep, _ := perceptron.Fit(ctx, ex, exY, perceptron.Options{Normalize: true})
	diag := rep.Detail.(*perceptron.Diagnostics)
	fmt.Printf("R′ = %.3f, mistakes %d ≤ 1/γ′² = %.1f: %v\n", diag.RadiusAugmented, diag.Updates,
		diag.BoundAugmented, float64(diag.Updates) <= diag.BoundAugmented)
	// Output:
	// R′ = 1.000, mistakes 1 ≤ 1/γ′² = 4.1: true
}

// The full-batch perceptron sums the updates of all misclassified samples.
func ExampleFit_batch() {
	m, rep, _ := perceptron.Fit(ctx, ex, exY, perceptron.Options{Algorithm: linear.Batch, Eta: 0.5})
	w, b := m.Weights(0)
	fmt.Println("weights", w, "bias", b, "epochs", rep.Epochs)
	diag := rep.Detail.(*perceptron.Diagnostics)
	fmt.Println("first epoch: mistakes", diag.Epochs[0].Mistakes, "accuracy", diag.Epochs[0].Accuracy)
	// Output:
	// weights [9 8] bias 0 epochs 2
	// first epoch: mistakes 8 accuracy 0
}

// Mini-batch stochastic subgradient steps: τ/B times the sum over the
// batch's mistakes.
func ExampleFit_miniBatch() {
	m, rep, _ := perceptron.Fit(ctx, ex, exY, perceptron.Options{
		Algorithm: linear.MiniBatch, BatchSize: 4, Tau: 1, Shuffle: true, Seed: 7,
	})
	acc, _ := m.Accuracy(exX, exY)
	fmt.Println("accuracy", acc, "converged", rep.Converged)
	// Output:
	// accuracy 1 converged true
}

// The averaged perceptron returns the average of the weight vectors after
// every sample, which generalises better than the last one. Here the first
// sample's update already separates the data, so the average is that vector.
func ExampleFit_averaged() {
	m, rep, _ := perceptron.Fit(ctx, ex, exY, perceptron.Options{
		Algorithm: linear.Averaged, MaxIter: 5, Stop: perceptron.StopNever,
	})
	w, b := m.Weights(0)
	fmt.Printf("averaged weights [%.3f %.3f] bias %.3f after %d epochs\n", w[0], w[1], b, rep.Epochs)
	// Output:
	// averaged weights [2.000 1.000] bias 1.000 after 5 epochs
}

// The voted perceptron keeps every weight vector with the number of
// samples it survived, and predicts by their weighted vote. It runs all
// MaxIter epochs (here 100 of 8 samples), as Freund and Schapire's does.
func ExampleFit_voted() {
	m, _, _ := perceptron.Fit(ctx, ex, exY, perceptron.Options{Algorithm: linear.Voted})
	vectors, biases, counts := m.Voted(0)
	for i := range vectors {
		fmt.Println("vector", vectors[i], "bias", biases[i], "count", counts[i])
	}
	scores := make([]float32, 1)
	_ = m.Scores(scores, []float32{-2, -2})
	fmt.Println("vote for (-2,-2):", scores[0])
	// Output:
	// vector [2 1] bias 1 count 800
	// vote for (-2,-2): -800
}

// The soft-margin SVM (Pegasos) trades margin against hinge loss through λ.
func ExampleFit_svm() {
	m, rep, _ := perceptron.Fit(ctx, ex, exY, perceptron.Options{
		Algorithm: linear.SVM, Lambda: 0.01, MaxIter: 200, Shuffle: true, Seed: 1,
	})
	acc, _ := m.Accuracy(exX, exY)
	diag := rep.Detail.(*perceptron.Diagnostics)
	fmt.Printf("accuracy %.0f, objective below 0.1: %v, margin above 1: %v\n", acc, rep.Objective < 0.1, diag.Margin > 1)
	// Output:
	// accuracy 1, objective below 0.1: true, margin above 1: true
}

// Any integer labels: one-vs-rest trains one perceptron per class.
func ExampleFit_multiclass() {
	X := []float64{
		0, 0, 1, 0, 0, 1, // class 10 near the origin
		10, 0, 11, 0, 10, 1, // class 20 to the right
		0, 10, 1, 10, 0, 11, // class 30 above
	}
	y := []int{10, 10, 10, 20, 20, 20, 30, 30, 30}
	data := &dataset.Data[float64]{X: X, Y: y, Rows: len(y), Cols: 2}
	m, _, err := perceptron.Fit(ctx, data, y, perceptron.Options{Algorithm: linear.Averaged, MaxIter: 20})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("classes", m.Classes())
	for _, x := range [][]float64{{0.5, 0.5}, {12, 1}, {1, 12}} {
		label, _ := m.Predict(x)
		fmt.Println(x, "->", label)
	}
	// Output:
	// classes [10 20 30]
	// [0.5 0.5] -> 10
	// [12 1] -> 20
	// [1 12] -> 30
}

// The multiclass perceptron: one weight vector per class, predict the
// argmax, update the true and the predicted class on a mistake.
func ExampleFit_argmax() {
	X := []float32{1, 0, 0, 0, 1, 0, 0, 0, 1, 2, 0, 0, 0, 2, 0, 0, 0, 2}
	y := []int{0, 1, 2, 0, 1, 2}
	data := &dataset.Data[float32]{X: X, Y: y, Rows: len(y), Cols: 3}
	m, rep, _ := perceptron.Fit(ctx, data, y, perceptron.Options{Multiclass: fit.Argmax})
	epochs := rep.Detail.(*perceptron.Diagnostics).Epochs
	fmt.Println("scheme", m.Scheme(), "mistakes per epoch:", epochs[0].Mistakes, epochs[1].Mistakes)
	label, _ := m.Predict([]float32{0, 0, 5})
	fmt.Println("predict (0,0,5):", label)
	// Output:
	// scheme argmax mistakes per epoch: 4 0
	// predict (0,0,5): 2
}

// Bad input is an error to test with errors.Is, never a panic.
func ExampleFit_errors() {
	_, _, err := perceptron.Fit(ctx, &dataset.Data[float32]{X: []float32{1, 2, 3}, Rows: 1, Cols: 2}, []int{1}, perceptron.Options{})
	fmt.Println(errors.Is(err, linear.ErrDims))
	one := &dataset.Data[float32]{X: []float32{1, 2}, Rows: 2, Cols: 1}
	_, _, err = perceptron.Fit(ctx, one, []int{3, 3}, perceptron.Options{})
	fmt.Println(errors.Is(err, perceptron.ErrOneClass))
	_, _, err = perceptron.Fit(ctx, one, []int{1, -1}, perceptron.Options{Eta: -1})
	fmt.Println(errors.Is(err, perceptron.ErrOption))
	// Output:
	// true
	// true
	// true
}
