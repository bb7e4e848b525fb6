// Package parallel runs the parts of a batch over goroutines so that a
// failing part can never be taken for a finished one: every part runs to its
// end (or its first error) before the call returns, a panic in any part is
// re-raised on the caller's goroutine once all parts have ended (as if the
// parts had run in a loop), and the error returned is that of the lowest
// failing part.
package parallel

import (
	"fmt"
	"sync"
)

// Run runs f(0), …, f(w−1), f(0) on the calling goroutine and the others on
// goroutines of their own, and returns when all have ended. If any part
// panics, Run panics on the calling goroutine with the value of the lowest
// panicking part, after all parts have ended. w ≤ 1 runs f(0) alone.
func Run(w int, f func(t int)) {
	if w <= 1 {
		f(0)
		return
	}
	panics := make([]any, w)
	done := make([]bool, w)
	part := func(t int) {
		defer func() {
			if !done[t] {
				panics[t] = recover()
			}
		}()
		f(t)
		done[t] = true
	}
	var wg sync.WaitGroup
	for t := 1; t < w; t++ {
		wg.Go(func() { part(t) })
	}
	part(0)
	wg.Wait()
	for t, ok := range done {
		if !ok {
			if panics[t] == nil { // runtime.Goexit in a part
				panic(fmt.Sprintf("parallel: part %d of %d called runtime.Goexit", t, w))
			}
			panic(panics[t])
		}
	}
}

// FirstError runs f(0), …, f(w−1) as Run does and returns the error of the
// lowest part that failed, or nil. When the parts are ascending ranges of
// rows that each stop at their first error (see Each), that is the error of
// the first failing row.
func FirstError(w int, f func(t int) error) error {
	errs := make([]error, max(w, 1))
	Run(w, func(t int) { errs[t] = f(t) })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Each runs f(i) for i in [lo, hi) and returns the first error, wrapped as
// "row i: …".
func Each(lo, hi int, f func(i int) error) error {
	for i := lo; i < hi; i++ {
		if err := f(i); err != nil {
			return fmt.Errorf("row %d: %w", i, err)
		}
	}
	return nil
}
