package text

import (
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// ReadAll and FitReadAll featurize a file's documents on up to
// GOMAXPROCS goroutines (at most maxWorkers): the calling goroutine reads
// the documents in order, numbers their labels and copies them into
// batches of about batchBytes of text; the workers featurize the batches
// (each with its own scratch space), and the calling goroutine appends
// their rows to the matrix in the file's order. A document's row depends
// on nothing but the document, so the matrix is the same, bit for bit,
// as one goroutine makes it (TestReadAllWorkers). At most
// 2·workers batches are in flight, so the memory beyond the matrix stays
// bounded: 2·workers·(batchBytes + a line) of text and their rows.

// batchBytes is the text a batch gathers before it is handed to a
// worker (a batch also ends after batchDocs documents): large enough that
// handing it over costs nothing next to featurizing it, small enough that
// the workers start at once and finish together.
const (
	batchBytes = 256 << 10
	batchDocs  = 1024
	maxWorkers = 8
)

// batchLimit returns batchBytes and batchDocs; a variable so that the
// tests can make batches of a few documents.
var batchLimit = func() (int, int) { return batchBytes, batchDocs }

// readWorkers is the number of goroutines ReadAll featurizes on; a
// variable so that the tests can compare any number with one.
var readWorkers = func() int { return min(runtime.GOMAXPROCS(0), maxWorkers) }

// batch is documents handed to a worker and the rows it made of them.
type batch[T kernel.Float] struct {
	text []byte  // the documents, one after another
	ends []int   // the end of each document in text
	y    []int   // each document's label
	idx  []int32 // the rows' columns, one row after another
	val  []T     // their values (counts: the counts' bits, putCount)
	ptr  []int   // the end of each row in idx
	zero []int32 // counts: columns whose signed features cancel, for the df
	err  error   // counts: a count putCount cannot hold
	done chan struct{}
}

// add copies doc of label y into b.
func (b *batch[T]) add(doc []byte, y int) {
	b.text = append(b.text, doc...)
	b.ends = append(b.ends, len(b.text))
	b.y = append(b.y, y)
}

// featurize makes b's rows with f and s: their values, or with counts
// their signed counts (putCount) and the cancelled columns (b.zero).
func (b *batch[T]) featurize(f *Featurizer, s *scratch, counts bool, rank []uint32) {
	b.idx, b.val, b.ptr, b.zero, b.err = b.idx[:0], b.val[:0], b.ptr[:0], b.zero[:0], nil
	lo := 0
	for _, hi := range b.ends {
		doc := b.text[lo:hi]
		lo = hi
		if counts {
			s.counts(f, doc, true)
			for _, j := range s.ent {
				b.idx = append(b.idx, int32(j))
			}
			for _, c := range s.vals {
				if math.Abs(c) > math.MaxInt32 && b.err == nil {
					b.err = fmt.Errorf("%w: a feature counted %.0f times in one document", ErrTooLarge, c)
				}
				b.val = append(b.val, putCount[T](c))
			}
			for _, j := range s.zero {
				b.zero = append(b.zero, int32(j))
			}
		} else {
			s.counts(f, doc, false)
			scale := s.weigh(f, rank)
			b.idx, b.val = slices.Grow(b.idx, len(s.ent)), slices.Grow(b.val, len(s.ent))
			b.idx, b.val = store(b.idx, b.val, s.ent, s.vals, scale)
		}
		b.ptr = append(b.ptr, len(b.idx))
	}
}

// putCount stores count c (|c| < 2³¹, an integer) in a value of T by its
// bits, so that FitReadAll keeps it exactly whatever T: float32 holds
// integers exactly only below 2²⁴.
func putCount[T kernel.Float](c float64) T {
	var v T
	if unsafe.Sizeof(v) == 4 {
		u := uint32(int32(c))
		return *(*T)(unsafe.Pointer(&u))
	}
	u := uint64(int64(c))
	return *(*T)(unsafe.Pointer(&u))
}

// getCount is the count putCount stored in v.
func getCount[T kernel.Float](v T) float64 {
	if unsafe.Sizeof(v) == 4 {
		return float64(int32(*(*uint32)(unsafe.Pointer(&v))))
	}
	return float64(int64(*(*uint64)(unsafe.Pointer(&v))))
}

// appendBatch appends b's rows to the matrix.
func (r *Rows[T]) appendBatch(b *batch[T]) {
	c := r.CSR
	c.Idx, c.Val = reserve(c.Idx, len(b.idx)), reserve(c.Val, len(b.idx))
	if n := len(c.Idx) + len(b.idx); n > r.ahead || unsafe.SliceData(c.Idx) != r.base {
		r.populate(n)
	}
	base := len(c.Idx)
	c.Idx = append(c.Idx, b.idx...)
	c.Val = append(c.Val, b.val...)
	for _, e := range b.ptr {
		c.Ptr = append(c.Ptr, base+e)
	}
	c.Y = append(c.Y, b.y...)
	c.Rows += len(b.y)
}

// newRows returns the Rows ReadAll appends to, with room made for the
// values of a file of r's size.
func newRows[T kernel.Float](r *Reader, f *Featurizer) *Rows[T] {
	rows := NewRows[T](f)
	if r.size > 0 {
		// Room for the stored values a file of this size mostly gives
		// (the manual pages' text, unigrams and bigrams: 0.15 a byte),
		// made at once: memory the system gives is only touched where
		// it is written, and the rows do not grow by copies.
		est := min(r.size/4, maxEstimate)
		c := rows.CSR
		c.Idx, c.Val = make([]int32, 0, est), make([]T, 0, est)
	}
	return rows
}

// readBatches reads r's documents into batches featurized on workers
// goroutines (with counts, their signed counts; featurize) and hands each
// batch, in the file's order, to use.
func readBatches[T kernel.Float](r *Reader, f *Featurizer, names *Names, workers int, counts bool, use func(*batch[T]) error) error {
	inflight := 2 * workers
	jobs := make(chan *batch[T], inflight)
	var rank []uint32
	if !counts {
		rank = f.idfRanks(nil)
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var s scratch
			for b := range jobs {
				b.featurize(f, &s, counts, rank)
				b.done <- struct{}{}
			}
		})
	}
	// A batch taken from the queue's front is done when its worker says
	// so; on an error the workers finish what they were given (their
	// done channels have room) and stop.
	defer func() {
		close(jobs)
		wg.Wait()
	}()
	var queue, free []*batch[T]
	var cur *batch[T]
	maxBytes, maxDocs := batchLimit()
	finish := func() error {
		b := queue[0]
		<-b.done
		queue = queue[1:]
		err := use(b)
		b.text, b.ends, b.y = b.text[:0], b.ends[:0], b.y[:0]
		free = append(free, b)
		return err
	}
	send := func() error {
		if len(queue) == inflight {
			if err := finish(); err != nil {
				return err
			}
		}
		jobs <- cur
		queue = append(queue, cur)
		cur = nil
		return nil
	}
	for {
		lab, doc, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		y := -1
		if lab != "" {
			y = names.ID(lab)
		}
		if cur == nil {
			if n := len(free); n > 0 {
				cur, free = free[n-1], free[:n-1]
			} else {
				cur = &batch[T]{done: make(chan struct{}, 1)}
			}
		}
		cur.add(doc, y)
		if len(cur.text) >= maxBytes || len(cur.ends) >= maxDocs {
			if err := send(); err != nil {
				return err
			}
		}
	}
	if cur != nil {
		if err := send(); err != nil {
			return err
		}
	}
	for len(queue) > 0 {
		if err := finish(); err != nil {
			return err
		}
	}
	return nil
}

// readAllWorkers is ReadAll on workers > 1 goroutines.
func readAllWorkers[T kernel.Float](r *Reader, f *Featurizer, names *Names, workers int) (*dataset.CSR[T], error) {
	rows := newRows[T](r, f)
	err := readBatches(r, f, names, workers, false, func(b *batch[T]) error {
		rows.appendBatch(b)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return rows.CSR, nil
}

// FitReadAll is Fit of opt over the documents of r then ReadAll of them
// with the featurizer, in one pass over r: the same featurizer and the
// same matrix, bit for bit. With Options.IDF it keeps each row's signed
// counts (exactly, whatever T), counts the document frequencies as the
// rows come, and weighs the rows once the idf is known; without, it is
// New then ReadAll. It reads on up to GOMAXPROCS goroutines as ReadAll.
// Errors are Fit's, ReadAll's, and ErrTooLarge for a feature counted 2³¹
// times or more in one document.
func FitReadAll[T kernel.Float](opt Options, r *Reader, names *Names) (*Featurizer, *dataset.CSR[T], error) {
	if err := opt.Check(); err != nil {
		return nil, nil, err
	}
	f := newFeaturizer(opt)
	if !opt.IDF {
		X, err := ReadAll[T](r, f, names)
		return f, X, err
	}
	df := make([]uint32, f.Dims())
	rows := newRows[T](r, f)
	use := func(b *batch[T]) error {
		if b.err != nil {
			return b.err
		}
		if uint64(f.docs)+uint64(len(b.ptr)) > math.MaxUint32 {
			return fmt.Errorf("%w: more than %d documents for the idf", ErrTooLarge, uint32(math.MaxUint32))
		}
		f.docs += int64(len(b.ptr))
		for _, j := range b.idx {
			df[j]++
		}
		for _, j := range b.zero {
			df[j]++
		}
		rows.appendBatch(b)
		return nil
	}
	if err := readBatches(r, f, names, max(readWorkers(), 1), true, use); err != nil {
		return nil, nil, err
	}
	for j, d := range df {
		if d > 0 {
			f.dfCols = append(f.dfCols, uint32(j))
			f.dfs = append(f.dfs, d)
		}
	}
	f.setIDF()
	// The idf of a column in one load: df's memory holds the table.
	weighRows(f, rows.CSR, f.idfRanks(df))
	return f, rows.CSR, nil
}

// weighRows turns the counts FitReadAll stored in X's values into the
// rows' values (scratch.weigh), the rows split among the workers.
func weighRows[T kernel.Float](f *Featurizer, X *dataset.CSR[T], rank []uint32) {
	workers := max(1, min(readWorkers(), X.Rows/64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var s scratch
			for i := w * X.Rows / workers; i < (w+1)*X.Rows/workers; i++ {
				lo, hi := X.Ptr[i], X.Ptr[i+1]
				s.ent, s.vals = s.ent[:0], s.vals[:0]
				for k := lo; k < hi; k++ {
					s.ent = append(s.ent, uint64(X.Idx[k]))
					s.vals = append(s.vals, getCount(X.Val[k]))
				}
				scale := s.weigh(f, rank)
				for k, v := range s.vals {
					X.Val[lo+k] = T(v * scale)
				}
			}
		})
	}
	wg.Wait()
}
