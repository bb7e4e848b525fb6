package gram

import (
	"sync/atomic"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
)

// workerPanic is the value the tests' workers panic with.
type workerPanic struct{ part int }

func recovered(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// TestWorkerPanicOnCaller: gram's worker loops (engine.parallel,
// engine.work, SparseRows.rowsParallel) run through package parallel, so a
// panic on a goroutine other than the caller's is re-raised on the caller
// (where it can be recovered) after every part has ended, instead of
// ending the process. No input reaches such a panic through the API (row
// indices are checked before the workers start, and no caller code runs in
// them), so the tests panic inside the loops themselves.
func TestWorkerPanicOnCaller(t *testing.T) {
	e, err := setup[float64](Linear{}, &Options{Threads: 2})
	if err != nil {
		t.Fatal(err)
	}

	t.Run("parallel", func(t *testing.T) {
		const n = 10
		var done atomic.Int64
		got := recovered(func() {
			e.parallel(n, func(lo, hi int) {
				if lo != 0 { // the second range, on a goroutine of its own
					panic(workerPanic{1})
				}
				done.Add(int64(hi - lo))
			})
		})
		if got != (workerPanic{1}) {
			t.Fatalf("recovered %v, want workerPanic{1}", got)
		}
		if done.Load() != n/2 {
			t.Errorf("the caller's range did %d of its %d items", done.Load(), n/2)
		}
	})

	t.Run("work", func(t *testing.T) {
		const n = 40
		var done atomic.Int64
		got := recovered(func() {
			e.work(n, func(id int) func(int) {
				if id != 0 {
					panic(workerPanic{id})
				}
				return func(int) { done.Add(1) }
			})
		})
		if got != (workerPanic{1}) {
			t.Fatalf("recovered %v, want workerPanic{1}", got)
		}
		if done.Load() != n {
			t.Errorf("%d of %d tasks done (worker 0 takes the tasks worker 1 never reached)", done.Load(), n)
		}
	})

	t.Run("rowsParallel", func(t *testing.T) {
		c := &dataset.CSR[float64]{Rows: 32, Cols: 4, Ptr: make([]int, 33)}
		for i := range c.Rows {
			c.Idx = append(c.Idx, int32(i%4))
			c.Val = append(c.Val, float64(i+1))
			c.Ptr[i+1] = len(c.Idx)
			c.Y = append(c.Y, 1)
		}
		r, err := NewSparseRows(c, Linear{}, &Options{Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		if w := r.e.workers(c.Rows / 8); w != 2 {
			t.Fatalf("%d workers, want 2", w)
		}
		// Every row panics: each worker panics on its first chunk, so the
		// one on a goroutine of its own does too (a chunk is left for it).
		var chunks atomic.Int64
		got := recovered(func() {
			r.rowsParallel(c.Rows, func(_ *sparseScratch[float64], k int) {
				chunks.Add(1)
				panic(workerPanic{k})
			})
		})
		if _, ok := got.(workerPanic); !ok {
			t.Fatalf("recovered %v, want a workerPanic", got)
		}
		if chunks.Load() != 2 {
			t.Errorf("%d chunks started, want 2 (one per worker)", chunks.Load())
		}
		// The SparseRows still works after the recovered panic.
		row := r.Row(nil, 5)
		if want := 6.0 * 6; row[5] != want {
			t.Errorf("K(x5, x5) = %v after the panic, want %v", row[5], want)
		}
	})
}
