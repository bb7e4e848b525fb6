package perceptron

// The helpers the kernel perceptron shares with the linear model (package
// linear, which has its own): the decision rule, the parallel split of a
// batch, the score buffers and the checks.

import (
	"fmt"
	"runtime"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/freelist"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
)

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

// rangeOf returns the rows [lo, hi) of part t of w of a batch of n rows:
// contiguous ranges that start at multiples of 4, so that kernel.MatVec
// blocks and modelkern.Dots2 pairs the same rows whatever the split and a
// row's scores do not depend on it.
func rangeOf(n, t, w int) (lo, hi int) {
	quads := (n + 3) / 4
	return min(n, 4*(quads*t/w)), min(n, 4*(quads*(t+1)/w))
}

// parallelRows runs f over [0, n) split into workers(n, work) ranges (see
// rangeOf), one per goroutine, the first on the caller's (a panic in any
// is re-raised on the caller once all have ended; see package parallel).
func parallelRows(n, work int, f func(lo, hi int)) {
	w := workers(n, work)
	if w <= 1 {
		f(0, n)
		return
	}
	parallel.Run(w, func(t int) { f(rangeOf(n, t, w)) })
}

// scores recycles the score buffers of PredictBatch for the
// models predictRows does not take (and of KernelModel.PredictBatch): a
// fresh buffer per call would cost page faults whenever the runtime has
// returned the freed pages to the system (on Zen 5, d = 784, 10 classes:
// 400 ns per sample instead of 150, measured in CPU time by
// TestPredictCPUTime). Unlike a sync.Pool it survives garbage
// collections; it keeps at most 8 buffers and 2²² values per type.
var scores = freelist.NewFloats(8, 1<<22)

// getScores returns a buffer of n values; hand it back with putScores.
func getScores[T Float](n int) []T { return freelist.GetFloat[T](scores, n) }

// putScores hands a buffer from getScores back.
func putScores[T Float](b []T) { freelist.PutFloat(scores, b) }

// decideLabel is the decision rule of every model of the package, linear
// or kernel: for a binary model the sign of its one score (0 → −1), else
// the label of the highest score, the first on a tie (labels are sorted, so
// the smaller label). It inlines into the decide methods and their callers.
func decideLabel[T Float](binary bool, labels []int, sc []T) int {
	if binary {
		if sc[0] > 0 {
			return 1
		}
		return -1
	}
	best := 0
	for k, a := range sc {
		if a > sc[best] {
			best = k
		}
	}
	return labels[best]
}

// fractionEqual returns the fraction of the predictions pred equal to the
// labels y (len(y) > 0).
func fractionEqual(pred, y []int) float64 {
	ok := 0
	for i, p := range pred {
		if p == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// checkCSRShape checks the shape of a batch's matrix for a model of d
// features (dataset.CSR.CheckShape: the offsets describe the rows, so
// X.Row is safe) and that it is at most d wide; the indices and values are
// left to the per-row checks. Errors wrap ErrDims (and dataset.ErrMismatch
// for a malformed matrix).
func checkCSRShape[T Float](X *dataset.CSR[T], d int) error {
	if err := X.CheckShape(); err != nil {
		return fmt.Errorf("%w: %w", ErrDims, err)
	}
	if X.Cols > d {
		return fmt.Errorf("%w: samples of %d features, the model has %d", ErrDims, X.Cols, d)
	}
	return nil
}
