// Package freelist is a bounded free list of slices that, unlike
// sync.Pool, survives garbage collections: a service that scores batches
// between collections finds its buffers mapped and in cache instead of
// allocating (and page-faulting) fresh ones after every GC.
package freelist

import (
	"sync"
	"unsafe"
)

// List recycles slices of T. It holds at most MaxBuffers slices and at most
// MaxValues values in all (the retained memory is bounded); a slice that
// would exceed either bound is left to the garbage collector. The zero
// value is not usable: make one with New. A List is safe for concurrent use.
type List[T any] struct {
	mu        sync.Mutex
	bufs      [][]T
	held      int // Σ cap(bufs[i])
	maxBufs   int
	maxValues int
}

// New returns a List that keeps up to maxBuffers slices of up to maxValues
// values in all. With maxBuffers ≤ 0 or maxValues ≤ 0 it keeps none (every
// Get allocates).
func New[T any](maxBuffers, maxValues int) *List[T] {
	return &List[T]{maxBufs: maxBuffers, maxValues: maxValues}
}

// Get returns a slice of n values with arbitrary contents: the smallest held
// slice with room for n values, or a new one.
func (l *List[T]) Get(n int) []T {
	l.mu.Lock()
	best := -1
	for i, b := range l.bufs {
		if cap(b) >= n && (best < 0 || cap(b) < cap(l.bufs[best])) {
			best = i
		}
	}
	if best >= 0 {
		b := l.bufs[best]
		last := len(l.bufs) - 1
		l.bufs[best] = l.bufs[last]
		l.bufs[last] = nil
		l.bufs = l.bufs[:last]
		l.held -= cap(b)
		l.mu.Unlock()
		return b[:n]
	}
	l.mu.Unlock()
	return make([]T, n)
}

// Put hands b back for reuse. When the list is full (in count or in
// values), b replaces the smallest held slices if it is larger than them,
// so the list converges on buffers that fit the largest recent requests.
func (l *List[T]) Put(b []T) {
	c := cap(b)
	if c == 0 || c > l.maxValues || l.maxBufs <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.bufs) == l.maxBufs || l.held+c > l.maxValues {
		small := 0
		for i, h := range l.bufs {
			if cap(h) < cap(l.bufs[small]) {
				small = i
			}
		}
		if cap(l.bufs[small]) >= c {
			return
		}
		l.held -= cap(l.bufs[small])
		l.bufs[small] = l.bufs[len(l.bufs)-1]
		l.bufs = l.bufs[:len(l.bufs)-1]
	}
	l.bufs = append(l.bufs, b[:c])
	l.held += c
}

// Held returns the number of slices and of values the list holds.
func (l *List[T]) Held() (buffers, values int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.bufs), l.held
}

// Floats is a pair of Lists, for float32 and float64 slices, for the
// generic code over both element types (GetFloat, PutFloat).
type Floats struct {
	f32 *List[float32]
	f64 *List[float64]
}

// NewFloats returns a pair of Lists with New's bounds each.
func NewFloats(maxBuffers, maxValues int) *Floats {
	return &Floats{New[float32](maxBuffers, maxValues), New[float64](maxBuffers, maxValues)}
}

// GetFloat is Get on p's list for T.
func GetFloat[T ~float32 | ~float64](p *Floats, n int) []T {
	var z T
	if unsafe.Sizeof(z) == 4 {
		b := p.f32.Get(n)
		return *(*[]T)(unsafe.Pointer(&b))
	}
	b := p.f64.Get(n)
	return *(*[]T)(unsafe.Pointer(&b))
}

// PutFloat is Put on p's list for T.
func PutFloat[T ~float32 | ~float64](p *Floats, b []T) {
	var z T
	if unsafe.Sizeof(z) == 4 {
		p.f32.Put(*(*[]float32)(unsafe.Pointer(&b)))
		return
	}
	p.f64.Put(*(*[]float64)(unsafe.Pointer(&b)))
}
