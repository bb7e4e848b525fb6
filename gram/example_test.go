package gram_test

import (
	"errors"
	"fmt"

	"github.com/rosenblatt-go/rosenblatt/gram"
)

// The Gram matrix of three 2-dimensional points.
func ExampleCompute() {
	X := []float32{
		1, 2,
		3, 4,
		0, 1,
	}
	G, err := gram.Compute(X, 2, gram.Linear{}, nil)
	if err != nil {
		panic(err)
	}
	for i := 0; i < G.Rows; i++ {
		fmt.Println(G.Row(i))
	}
	// Output:
	// [5 11 2]
	// [11 25 4]
	// [2 4 1]
}

// An RBF kernel matrix: exactly symmetric, with an exact diagonal of ones.
func ExampleCompute_rbf() {
	X := []float64{
		0, 0,
		1, 0,
		0, 2,
	}
	K, err := gram.Compute(X, 2, gram.RBF{Gamma: 0.5}, nil)
	if err != nil {
		panic(err)
	}
	for i := 0; i < K.Rows; i++ {
		fmt.Printf("%.4f\n", K.Row(i))
	}
	// Output:
	// [1.0000 0.6065 0.1353]
	// [0.6065 1.0000 0.0821]
	// [0.1353 0.0821 1.0000]
}

// Kernel values between new samples and the training set, for prediction.
func ExampleCross() {
	train := []float32{1, 0, 0, 1, 1, 1}
	test := []float32{2, 3}
	C, err := gram.Cross(test, train, 2, gram.Polynomial{Gamma: 1, Coef0: 1, Degree: 2}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(C.Rows, C.Cols, C.Row(0))
	// Output: 1 3 [9 16 36]
}

// A row cache for a data set whose full kernel matrix would not fit: here a
// budget of two rows of four float32 values.
func ExampleNewCache() {
	X := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	c, err := gram.NewCache(X, 2, gram.Linear{}, 2*4*4, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Capacity(), c.Row(3))
	fmt.Println(c.Row(0))
	fmt.Println(c.Row(3)) // still cached
	hits, misses := c.Stats()
	fmt.Println(hits, misses)
	// Output:
	// 2 [23 53 83 113]
	// [5 11 17 23]
	// [23 53 83 113]
	// 1 2
}

// A trainer that knows which rows it needs next asks for them together:
// Fill computes the missing ones in one batch, and all of them stay valid
// until the next call.
func ExampleCache_Fill() {
	X := []float32{1, 2, 3, 4, 5, 6, 7, 8}
	c, err := gram.NewCache(X, 2, gram.Linear{}, 3*4*4, nil) // three rows
	if err != nil {
		panic(err)
	}
	rows := c.Fill(nil, []int{2, 0})
	fmt.Println(rows[0], rows[1])
	rows = c.Fill(rows, []int{0, 3})
	fmt.Println(rows[0], rows[1])
	hits, misses := c.Stats()
	fmt.Println(hits, misses, c.Contains(2))
	// Output:
	// [17 39 61 83] [5 11 17 23]
	// [5 11 17 23] [23 53 83 113]
	// 1 3 true
}

// Kernel rows for arbitrary queries.
func ExampleRows_RowOf() {
	X := []float64{1, 0, 0, 1}
	r, err := gram.NewRows(X, 2, gram.Linear{}, nil)
	if err != nil {
		panic(err)
	}
	row, err := r.RowOf(nil, []float64{3, 4})
	if err != nil {
		panic(err)
	}
	fmt.Println(row)
	_, err = r.RowOf(nil, []float64{3})
	fmt.Println(errors.Is(err, gram.ErrShape))
	// Output:
	// [3 4]
	// true
}

// A Gram matrix over the memory budget is an error, not a crash.
func ExampleOptions() {
	X := make([]float32, 100_000*2)
	_, err := gram.Compute(X, 2, gram.Linear{}, &gram.Options{MaxBytes: 1 << 30})
	fmt.Println(errors.Is(err, gram.ErrBudget))
	// Output: true
}
