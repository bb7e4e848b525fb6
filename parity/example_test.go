package parity_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/rosenblatt-go/rosenblatt/parity"
)

// dot4 is the dot product under test: four accumulators, the order of
// evaluation of a SIMD kernel.
func dot4(x, y []float64) float64 {
	var s [4]float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		for j := range s {
			s[j] += x[i+j] * y[i+j]
		}
	}
	for ; i < len(x); i++ {
		s[0] += x[i] * y[i]
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}

// dotF32 has a bug: it accumulates float64 products in float32.
func dotF32(x, y []float64) float64 {
	var s float32
	for i := range x {
		s += float32(x[i] * y[i])
	}
	return float64(s)
}

// A fuzz target would take its bytes from the fuzzer (see the package
// documentation); here they come from a seeded generator, 2 000 inputs
// across every encoding of Floats.
func Example() {
	rng := rand.New(rand.NewPCG(1, 2))
	failed := map[string]int{}
	for range 2000 {
		data := make([]byte, 1+rng.IntN(120))
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		x, y := parity.Split(parity.Floats[float64](data))
		if err := parity.CheckDot(dot4(x, y), x, y); err != nil {
			failed["dot4"]++
		}
		if err := parity.CheckDot(dotF32(x, y), x, y); err != nil {
			failed["dotF32"]++
		}
	}
	fmt.Println("dot4 failures:", failed["dot4"])
	fmt.Println("dotF32 caught:", failed["dotF32"] > 0)

	// The error of the float32 accumulator on a cancellation.
	x, y := []float64{1e8, 1, -1e8}, []float64{1, 1, 1}
	fmt.Println(parity.CheckDot(dotF32(x, y), x, y))
	fmt.Println(parity.CheckDot(dot4(x, y), x, y))
	// Output:
	// dot4 failures: 0
	// dotF32 caught: true
	// got 0, want 1: |error| 1 > bound 1.33e-07 (n=3, Σ|terms|=2e+08)
	// <nil>
}
