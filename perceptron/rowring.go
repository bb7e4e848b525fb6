package perceptron

import (
	"runtime"
	"sync/atomic"
	"time"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// ringRows is the number of samples of one window of a rowRing (a multiple
// of blockRows), and ringSlots the number of windows it holds at once.
const (
	ringRows  = 32
	ringSlots = 8
)

// rowRing shares the samples of a shuffled dense epoch among the goroutines
// of a one-vs-rest fit (epochBlock), so that each sample is gathered from
// memory once per epoch rather than once per goroutine: gathering the
// scattered rows (gatherRows) costs more than scoring them. The epoch's
// visits are cut into windows of ringRows samples; the first goroutine to
// reach a window gathers it into one of ringSlots slots, the others wait
// until it is there and read it from the cache. A slot is reused only when
// every goroutine is done with its window, so a goroutine runs at most
// ringSlots windows ahead of the slowest. Which goroutine gathers a window
// changes no arithmetic: every class sees the same samples in the same
// order and blocks of blockRows as without the ring.
type rowRing[T kernel.Float] struct {
	buf   []T            // ringSlots × ringRows × d
	claim []atomic.Bool  // per window: a goroutine gathers it
	ready []atomic.Bool  // per window: gathered
	used  []atomic.Int32 // per window: the goroutines done with it
	n     int32          // the goroutines
	// abort: a goroutine left the epoch before its end (a panic, which
	// parallel.Run re-raises): the others wait for nothing more.
	abort atomic.Bool
}

// sharedRows returns the trainer's ring, cleared for an epoch of n
// goroutines.
func (t *linTrainer[T]) sharedRows(n int) *rowRing[T] {
	nw := (t.smp.Visits + ringRows - 1) / ringRows
	r := t.ringMem
	if r == nil || len(r.claim) != nw {
		r = &rowRing[T]{buf: make([]T, ringSlots*ringRows*t.dt.d),
			claim: make([]atomic.Bool, nw), ready: make([]atomic.Bool, nw), used: make([]atomic.Int32, nw)}
		t.ringMem = r
	} else {
		// No goroutine uses the ring between epochs (parallel.Run
		// orders these writes before the next epoch's reads).
		clear(r.claim)
		clear(r.ready)
		clear(r.used)
		r.abort.Store(false)
	}
	r.n = int32(n)
	return r
}

// acquire returns window w's samples (rows order[w·ringRows:…] of X, d values
// each), gathering them if no other goroutine has, after waiting for its
// slot to be free. The caller marks the window used when done with it
// (the last window of the epoch need not be: no slot is reused after it).
// After an abort it waits for nothing, and the window may hold anything.
func (r *rowRing[T]) acquire(w int, order []int32, X []T, d int) []T {
	if w >= ringSlots {
		wait(func() bool { return r.used[w-ringSlots].Load() >= r.n || r.abort.Load() })
	}
	rows := order[w*ringRows : min((w+1)*ringRows, len(order))]
	slot := r.buf[(w%ringSlots)*ringRows*d:][:len(rows)*d]
	if r.claim[w].CompareAndSwap(false, true) {
		// blockRows rows at a time: gatherRows interleaves its rows'
		// chunks, and over a whole window that many streams at once
		// read slower (Zen 3: 4 GB/s for 32 rows, 9 GB/s for 4).
		for j := 0; j < len(rows); j += blockRows {
			e := min(j+blockRows, len(rows))
			gatherRows(slot[j*d:e*d], X, rows[j:e], d)
		}
		r.ready[w].Store(true)
	} else {
		wait(func() bool { return r.ready[w].Load() || r.abort.Load() })
	}
	return slot
}

// wait returns when done reports true: spinning (yielding to other
// goroutines) at first, then sleeping briefly, so that a goroutine waiting
// for a descheduled one does not hold its CPU.
func wait(done func() bool) {
	for i := 0; !done(); i++ {
		if i < 256 {
			runtime.Gosched()
		} else {
			time.Sleep(20 * time.Microsecond)
		}
	}
}
