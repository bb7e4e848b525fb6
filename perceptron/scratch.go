package perceptron

import (
	"sync"

	"github.com/rosenblatt-go/rosenblatt/internal/pages"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// A slicePool keeps the large scratch arrays a sparse one-vs-rest fit drops
// at its end (the class blocks of weights and sums, the renumbered column
// indices, the epoch's visits) for the next fit in the process to reuse.
// The Go runtime returns freed memory to the system in the background,
// and a fit that allocates its arrays afresh then faults their pages in
// again: on the 2-vCPU AMD Zen 5 KVM guest of docs/benchmarks/text.md at
// about 18 µs a page,
// up to 5 ms of a 16 ms fit of the manual pages' NAME lines (bench/textfit,
// which counted the page faults of each fit). Like any sync.Pool, it lets
// the collector have what is not reused within two collections.
type slicePool[E any] struct{ p sync.Pool }

// get returns a slice of n zero values: a pooled one if one is large
// enough, else a new one with its pages populated (pages.Make). A nil
// pool pools nothing.
func (sp *slicePool[E]) get(n int) []E {
	return sp.getOr(n, pages.Make[E])
}

// getOr is get with alloc making the new slice.
func (sp *slicePool[E]) getOr(n int, alloc func(int) []E) []E {
	if sp == nil {
		return alloc(n)
	}
	if v, ok := sp.p.Get().(*[]E); ok {
		if cap(*v) >= n {
			s := (*v)[:n]
			clear(s)
			return s
		}
		sp.p.Put(v) // too small for this fit; perhaps not for the next
	}
	return alloc(n)
}

// put gives s back for a later get; the caller must not use s after.
func (sp *slicePool[E]) put(s []E) {
	if sp != nil && cap(s) > 0 {
		sp.p.Put(&s)
	}
}

var (
	poolF32   slicePool[float32]
	poolF64   slicePool[float64]
	poolI32   slicePool[int32]
	poolVisit slicePool[ovrVisit]
)

// poolOf returns the pool of T's slices: float32's or float64's, and nil
// (no pooling) for a named type of either.
func poolOf[T kernel.Float]() *slicePool[T] {
	switch p := any(&poolF32).(type) {
	case *slicePool[T]:
		return p
	}
	switch p := any(&poolF64).(type) {
	case *slicePool[T]:
		return p
	}
	return nil
}
