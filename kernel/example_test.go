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

func ExampleActive() {
	fmt.Println("kernels in use:", kernel.Active())
}

func ExampleScanBlock2() {
	// Two classes' weights interleaved by feature: feature j's weights of
	// classes 0 and 1 at blk[2j], blk[2j+1].
	blk := []float32{
		1, -1, // feature 0 speaks for class 0
		-1, 1, // feature 1 for class 1
	}
	// Three sparse rows, stored one after the other.
	idx := []int32{0, 1, 0}
	val := []float32{2, 3, 1}
	vis := []kernel.Visit{
		{Lo: 0, Hi: 1, Class: 0}, // 2·feature 0: class 0, right
		{Lo: 1, Hi: 2, Class: 1}, // 3·feature 1: class 1, right
		{Lo: 2, Hi: 3, Class: 1}, // 1·feature 0, but labelled class 1: wrong
	}
	bias := []float32{0, 0}
	s0, s1 := make([]float32, 2), make([]float32, 2)
	j, n := kernel.ScanBlock2(s0, s1, blk, idx, val, vis, bias, 0)
	fmt.Println("first visit to update:", j, "scores:", s0, "visits scored:", n)
	// Output: first visit to update: 2 scores: [1 -1] visits scored: 1
}
