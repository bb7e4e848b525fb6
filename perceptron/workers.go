package perceptron

// The trainers' finiteness test and their split of work over goroutines
// (package linear has its own for prediction).

import "runtime"

// finite reports whether a is neither NaN nor ±Inf: a − a is 0 exactly
// for a finite a and NaN otherwise (one subtraction, where math.IsNaN and
// math.IsInf are two tests of the converted value).
func finite[T Float](a T) bool {
	return a-a == 0
}

// parallelMinWork is the number of multiply-adds each goroutine of a
// split batch gets at least (see workers): 2²¹, some 20 µs of work at the
// rate of modelkern.Dots2 on Zen 5, so that a split pays for starting and joining the
// goroutines even when the other cores are busy. Measured on the shared
// 2-vCPU Zen 5 guest (bench/results/perceptron/predict-batch-zen5.txt), splitting a
// 10-class batch of 200 samples of 784 features (1.6 Mi multiply-adds)
// over two goroutines was slower than one (wall clock, median 177 against
// 122 ns per sample), so such a batch runs on the calling goroutine; one
// of 1000 samples is split. A variable for the tests.
var parallelMinWork = 1 << 21

// workers returns the number of goroutines a batch of n rows of work
// multiply-adds each is split over: one per full parallelMinWork
// multiply-adds of the batch (n·work/parallelMinWork, so a batch is split
// from 2·parallelMinWork on), at most GOMAXPROCS and n/4 (ranges of at
// least 4 rows), at least one.
func workers(n, work int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/4, n*work/parallelMinWork))
}
