package kernel_test

import (
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

func ExampleDot() {
	x := []float32{1, 2, 3, 4}
	y := []float32{0.5, 0.5, 0.5, 0.5}
	fmt.Println(kernel.Dot(x, y))
	// Output: 5
}

func ExampleAxpy() {
	w := []float64{0, 0, 0}
	x := []float64{1, -2, 3}
	kernel.Axpy(0.5, x, w) // a perceptron update: w += η·y·x with η·y = 0.5
	fmt.Println(w)
	// Output: [0.5 -1 1.5]
}

func ExampleScale() {
	x := []float32{2, 4, 6}
	kernel.Scale(0.5, x) // x is the destination
	fmt.Println(x)
	// Output: [1 2 3]
}

func ExampleSqDist() {
	fmt.Println(kernel.SqDist([]float64{1, 2, 3}, []float64{1, 0, 0}))
	// Output: 13
}

func ExampleMatVec() {
	// Margins of three samples (rows of X) against one weight vector.
	X := []float32{
		1, 0,
		0, 1,
		1, 1,
	}
	w := []float32{2, -1}
	margins := make([]float32, 3)
	kernel.MatVec(margins, X, w)
	fmt.Println(margins)
	// Output: [2 -1 1]
}

func ExampleDots() {
	// Scores of one sample against the weight vectors of three classes.
	W := []float64{
		1, 0, 0,
		0, 1, 0,
		0, 0, 1,
	}
	x := []float64{0.2, 0.7, 0.1}
	scores := make([]float64, 3)
	kernel.Dots(scores, W, x)
	fmt.Println(scores)
	// Output: [0.2 0.7 0.1]
}

// Every implementation this CPU can run, called directly: how tests and
// benchmarks compare paths without touching the process-wide choice.
func ExampleOn() {
	x := []float32{1, 2, 3}
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		_ = kernel.On[float32](im).Dot(x, x) // 14 on every path
	}
	fmt.Println(kernel.Dot(x, x))
	// Output: 14
}

func ExampleActiveImpl() {
	fmt.Println("kernels in use:", kernel.ActiveImpl().Name())
}
