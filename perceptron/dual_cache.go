package perceptron

import (
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// rowStore is the kernel-row cache of a trainer whose Gram matrix exceeds
// its memory budget: an LRU cache of rows K(xⱼ, X), like gram.Cache, that
// computes its misses in batches.
//
// A single row from gram.Rows runs the micro-kernel on a sliver with one
// real row and streams all of X through it (2.5 ms for a 10 000 × 784
// float32 set here), while gram.Cross computes a batch of rows at full tile
// efficiency on all Workers (0.25 ms per row for 256 rows). So on a miss the
// trainer asks for the missing row together with the rows of the next
// samples it will visit that its current decision values get wrong (about
// a third of them turn out to be mistakes on Fashion-MNIST, which still
// beats computing them one by one), and the store computes them with one
// Cross call. Every way of computing a row gives the values of
// gram.Compute, bit for bit (the RBF diagonal is set to exactly 1, as
// Compute sets it), so the model does not depend on the budget.
type rowStore[T Float] struct {
	X    []T
	n, d int
	kern gram.Kernel
	opts *gram.Options
	rbf  bool
	rows *gram.Rows[T]

	cap   int     // most rows held
	slot  []int32 // row → slot, −1 if absent
	owner []int32 // slot → row
	prev  []int32 // LRU list over slots, head = most recent
	next  []int32
	head  int32
	tail  int32
	bufs  [][]T

	batchMax int   // most rows one fill computes
	hits     int64 // rows found in the cache
	misses   int64 // rows computed
	fills    int64 // Cross calls
}

// Lookahead of the row store, tuned on Fashion-MNIST (10 000 rows, a cache
// of a quarter of the matrix): fills of up to 256 rows chosen among the
// next 8·256 samples. Longer windows and larger batches evicted prefetched
// rows before their use; shorter ones made more, smaller Cross calls, each
// of which packs all of X again.
const (
	storeBatch  = 256
	storeWindow = 8
)

func newRowStore[T Float](X []T, n, d int, kern gram.Kernel, opts *gram.Options, capRows int) (*rowStore[T], error) {
	r, err := gram.NewRows(X, d, kern, opts)
	if err != nil {
		return nil, err
	}
	_, rbf := kern.(gram.RBF)
	s := &rowStore[T]{X: X, n: n, d: d, kern: kern, opts: opts, rbf: rbf, rows: r,
		cap: capRows, slot: make([]int32, n), head: -1, tail: -1}
	for i := range s.slot {
		s.slot[i] = -1
	}
	// A batch takes at most a quarter of the cache, so that the rows
	// computed ahead survive until they are used.
	s.batchMax = min(storeBatch, capRows/4)
	return s, nil
}

// get returns the cached row j (most recently used from now on), or nil.
func (s *rowStore[T]) get(j int) []T {
	sl := s.slot[j]
	if sl < 0 {
		return nil
	}
	s.hits++
	if s.head != sl {
		s.unlink(sl)
		s.pushFront(sl)
	}
	return s.bufs[sl]
}

// cached reports whether row j is in the cache, without touching it.
func (s *rowStore[T]) cached(j int) bool { return s.slot[j] >= 0 }

// alloc returns a slot for row j, evicting the least recently used row if
// the cache is full, and makes it the most recent.
func (s *rowStore[T]) alloc(j int) []T {
	var sl int32
	if len(s.bufs) < s.cap {
		sl = int32(len(s.bufs))
		s.bufs = append(s.bufs, make([]T, s.n))
		s.owner = append(s.owner, -1)
		s.prev = append(s.prev, -1)
		s.next = append(s.next, -1)
	} else {
		sl = s.tail
		s.unlink(sl)
		s.slot[s.owner[sl]] = -1
	}
	s.owner[sl] = int32(j)
	s.slot[j] = sl
	s.pushFront(sl)
	return s.bufs[sl]
}

// fill computes the rows js (none of them cached; js[0] is the row needed
// now) and caches them, js[0] last so that it is the most recent.
func (s *rowStore[T]) fill(js []int) {
	s.misses += int64(len(js))
	if len(js) > 1 {
		A := make([]T, 0, len(js)*s.d)
		for _, j := range js {
			A = append(A, s.X[j*s.d:(j+1)*s.d]...)
		}
		C, err := gram.Cross(A, s.X, s.d, s.kern, s.opts)
		if err == nil { // the data were checked when the store was made
			s.fills++
			for k := len(js) - 1; k >= 0; k-- {
				row := s.alloc(js[k])
				copy(row, C.Row(k))
				if s.rbf {
					row[js[k]] = 1
				}
			}
			return
		}
	}
	for k := len(js) - 1; k >= 0; k-- {
		s.rows.Row(s.alloc(js[k]), js[k])
	}
}

func (s *rowStore[T]) unlink(sl int32) {
	p, n := s.prev[sl], s.next[sl]
	if p >= 0 {
		s.next[p] = n
	} else {
		s.head = n
	}
	if n >= 0 {
		s.prev[n] = p
	} else {
		s.tail = p
	}
	s.prev[sl], s.next[sl] = -1, -1
}

func (s *rowStore[T]) pushFront(sl int32) {
	s.prev[sl], s.next[sl] = -1, s.head
	if s.head >= 0 {
		s.prev[s.head] = sl
	}
	s.head = sl
	if s.tail < 0 {
		s.tail = sl
	}
}

// wrongNow reports whether the current decision values misclassify row j
// for some score row (by the trainer's mistake rule).
func (t *dualTrainer[T]) wrongNow(j int) bool {
	n := t.dt.n
	y := int(t.cls[j])
	bj := t.bf(j)
	if t.argmax {
		sy := t.F[y*n+j] + t.B[y]*bj
		for c := range t.K {
			if c != y && !(sy > t.F[c*n+j]+t.B[c]*bj) {
				return true
			}
		}
		return false
	}
	for c := range t.K {
		a := t.F[c*n+j] + t.B[c]*bj
		if c != y {
			a = -a
		}
		if !(a > 0) {
			return true
		}
	}
	return false
}

// cachedRow returns row j, visited at position jj of the epoch, from the
// row store, computing it on a miss together with the rows of the next
// samples that the current decision values get wrong.
func (t *dualTrainer[T]) cachedRow(j, jj int) []T {
	s := t.store
	if r := s.get(j); r != nil {
		return r
	}
	js := append(t.batch[:0], j)
	for k := jj + 1; k < t.smp.visits && k <= jj+storeWindow*s.batchMax && len(js) < s.batchMax; k++ {
		if j2 := t.rowAt(k); !s.cached(j2) && t.wrongNow(j2) {
			js = append(js, j2)
		}
	}
	t.batch = js
	s.fill(js)
	return s.bufs[s.slot[j]]
}
