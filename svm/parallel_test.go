package svm

import (
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// classBlocks spreads the classes over goroutines through package
// parallel: a panic in a worker other than the caller's own part is
// re-raised on the caller (where it can be recovered) instead of ending
// the process. No input reaches such a panic through the API (the counts
// are the data's own), so the test makes one with counts that claim more
// rows than the data has: every class's slice of the sorted rows is out of
// range, so the second worker, whichever class it takes, panics too.
func TestClassBlocksPanicOnCaller(t *testing.T) {
	const n, d = 6, 2
	cfg, err := Options{}.resolve(d)
	if err != nil {
		t.Fatal(err)
	}
	X := make([]float64, n*d)
	tr := &trainer[float64]{cfg: cfg, X: X, d: d, n: n, k: kernel.On[float64](cfg.impl), workers: 2}
	got := func() (p any) {
		defer func() { p = recover() }()
		_, _ = tr.classBlocks(2, []int64{n + 1, 1}, make([]int32, n))
		return nil
	}()
	if _, ok := got.(error); !ok {
		t.Fatalf("recovered %v, want the worker's runtime error", got)
	}
}
