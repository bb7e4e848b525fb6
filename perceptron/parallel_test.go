package perceptron

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// workerPanic is the value the tests' workers panic with.
type workerPanic struct{ class int }

// recovered runs f and returns the value it panicked with (nil if none).
func recovered(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// threeClasses returns 3·n two-feature samples in three clusters, labelled
// 0, 1 and 2 by cluster, with some overlap so every class has mistakes.
func threeClasses(n int) ([]float64, []int) {
	var X []float64
	var y []int
	for i := range 3 * n {
		c := i % 3
		X = append(X, float64(c)+float64(i%7)/3, float64(2-c)+float64(i%5)/2)
		y = append(y, c)
	}
	return X, y
}

// The training and evaluation loops split classes or rows over goroutines
// through package parallel: a panic in a worker other than the caller's own
// part is re-raised on the caller (where it can be recovered) instead of
// ending the process. No input reaches such a panic through the API (the
// data is checked before the workers start and no caller code runs in
// them), so these tests make one through the package's own hooks.
func TestWorkerPanicOnCaller(t *testing.T) {
	X, y := threeClasses(40)
	cls := make([]int32, len(y))
	for i, c := range y {
		cls[i] = int32(c)
	}
	k := linmodel.KernelsFor[float64](nil)

	t.Run("kernel epoch", func(t *testing.T) {
		// One-vs-rest on the full matrix: classes 0 | 1, 2 on two
		// goroutines; the trace hook runs inside epochClasses.
		opt := KernelOptions{Options: Options{Workers: 2, MaxIter: 3}, trace: func(c, _ int) {
			if c == 2 {
				panic(workerPanic{c})
			}
		}}
		got := recovered(func() { _, _, _ = trainKernelMulti(X, 2, y, opt) })
		if got != (workerPanic{2}) {
			t.Fatalf("recovered %v, want the worker's workerPanic{2}", got)
		}
	})

	t.Run("linear epoch", func(t *testing.T) {
		o := Options{Workers: 2, MaxIter: 1}
		cfg, err := o.resolve()
		if err != nil {
			t.Fatal(err)
		}
		dt, err := prepare(k, X, len(y), 2, linear.ScaleNone, cfg.bfeat, false)
		if err != nil {
			t.Fatal(err)
		}
		lt := newLinTrainer(k, &cfg, dt, cls, 3, nil)
		grp, scratch := lt.groups()
		if len(grp) != 2 {
			t.Fatalf("%d groups, want 2", len(grp))
		}
		// Statistics for class 0 only: the second group (classes 1 and
		// 2, on a goroutine of its own) indexes past them.
		got := recovered(func() { _, _ = lt.epoch(make([]classStats, 1), grp, scratch) })
		if _, ok := got.(error); !ok {
			t.Fatalf("recovered %v, want the worker's runtime error", got)
		}
	})

	t.Run("averaged weights", func(t *testing.T) {
		// The sparse one-vs-rest path of averageW, over classes 0 | 1, 2;
		// W holds class 0's weights only, so the second group (on a
		// goroutine of its own) slices past it.
		newTrainer := averagedOvRTrainer(t, 2)
		lt := newTrainer()
		lt.step = 1
		lt.ensureDense() // (a fit from zero weights makes W only where read)
		lt.W = lt.W[:lt.dt.d:lt.dt.d]
		got := recovered(func() { lt.averageW() })
		if _, ok := got.(error); !ok {
			t.Fatalf("recovered %v, want the worker's runtime error", got)
		}
		// fromBlocks, the same split: the second group's block holds no
		// feature, so its worker indexes past it.
		lt2 := newTrainer()
		lt2.step = 1
		g := lt2.blk[2]
		g.W[0] = g.W[0][:0]
		got = recovered(func() { lt2.fromBlocks() })
		if _, ok := got.(error); !ok {
			t.Fatalf("fromBlocks: recovered %v, want the worker's runtime error", got)
		}
	})

	t.Run("evaluate", func(t *testing.T) {
		// Rows in three chunks, two workers: the row that panics is in the
		// last chunk, whichever goroutine takes it.
		n := 2*evalChunk + 10
		Xe := make([]float64, 2*n)
		ce := make([]int32, n)
		dt, err := prepare(k, Xe, n, 2, linear.ScaleNone, 1, false)
		if err != nil {
			t.Fatal(err)
		}
		W, B := make([]float64, 3*dt.d), make([]float64, 3)
		dots := func(dst []float64, lo, hi int) {
			if hi == n {
				panic(workerPanic{n - 1})
			}
			clear(dst)
		}
		for _, workers := range []int{1, 2} {
			got := recovered(func() { evaluateWith(k, dt, ce, dots, W, B, nil, 3, workers) })
			if got != (workerPanic{n - 1}) {
				t.Fatalf("%d workers: recovered %v, want workerPanic{%d}", workers, got, n-1)
			}
		}
	})
}
