package gram

import (
	"fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Rows computes single rows of the kernel matrix of a data set on demand:
// K(xᵢ, X) for a training row i (bit-identical to row i of Compute with the
// same kernel and implementation) or K(x, X) for any query x. It works on
// its own packed copy of X (N·d values), so X may be changed or dropped
// afterwards; X itself is never modified. A Rows is safe for concurrent
// use.
type Rows[T kernel.Float] struct {
	e    *engine[T]
	s    *set[T]
	pool sync.Pool // *rowScratch[T]
}

type rowScratch[T kernel.Float] struct {
	a   []T // the query packed as an A sliver
	x   []T // a training row unpacked from the packed copy
	tmp []T // mr×nr tile
}

// NewRows prepares the row-major N×d data set X for row queries. The memory
// budget (Options.MaxBytes) covers the packed copy.
func NewRows[T kernel.Float](X []T, d int, k Kernel, opts *Options) (*Rows[T], error) {
	e, err := setup[T](k, opts)
	if err != nil {
		return nil, err
	}
	n, err := rowsOf(X, d, "X")
	if err != nil {
		return nil, err
	}
	if err := e.budget(int64(n), int64(n)*int64(d), "row source"); err != nil {
		return nil, err
	}
	s, err := prepare(e, X, n, d, false, true)
	if err != nil {
		return nil, err
	}
	if err := e.checkOverflow(s.maxNorm); err != nil {
		return nil, err
	}
	return &Rows[T]{e: e, s: s}, nil
}

// Len returns N, the number of rows of the data set (and the length of each
// kernel row).
func (r *Rows[T]) Len() int { return r.s.n }

// Dim returns d, the number of features.
func (r *Rows[T]) Dim() int { return r.s.d }

// Row writes K(xᵢ, xⱼ) for j = 0…N−1 into dst, which it grows if shorter
// than N, and returns dst[:N]. The values are identical to row i of Compute.
// It panics if i is out of range.
func (r *Rows[T]) Row(dst []T, i int) []T {
	if i < 0 || i >= r.s.n {
		panic(fmt.Sprintf("gram: row %d out of range [0, %d)", i, r.s.n))
	}
	sc := r.scratch()
	defer r.pool.Put(sc)
	r.e.unpackB(r.s, sc.x, i)
	return r.row(sc, dst, sc.x, r.s.norms[i], i)
}

func (r *Rows[T]) scratch() *rowScratch[T] {
	if sc, ok := r.pool.Get().(*rowScratch[T]); ok {
		return sc
	}
	mr, nr, d := r.e.mk.mr, r.e.mk.nr, r.s.d
	return &rowScratch[T]{a: make([]T, mr*d), x: make([]T, d), tmp: make([]T, mr*nr)}
}

// RowOf writes K(x, xⱼ) for j = 0…N−1 into dst, which it grows if shorter
// than N, and returns dst[:N]: the kernel values a model needs to score a
// new sample x. x is not modified. A length other than d and NaN or infinite
// values are errors.
func (r *Rows[T]) RowOf(dst, x []T) ([]T, error) {
	if len(x) != r.s.d {
		return dst, fmt.Errorf("%w: len(x) = %d, data set has d = %d", ErrShape, len(x), r.s.d)
	}
	if !finite(x) {
		return dst, fmt.Errorf("%w: query", ErrNonFinite)
	}
	nm := norm(x)
	if err := r.e.checkOverflow(max(r.s.maxNorm, float64(nm))); err != nil {
		return dst, err
	}
	sc := r.scratch()
	defer r.pool.Put(sc)
	return r.row(sc, dst, x, nm, -1), nil
}

// RowsOf writes K(qᵢ, xⱼ) for the M row-major queries Q (M·d values) into
// dst[i·N+j] (len(dst) = M·N): the kernel values of a batch of new samples
// against the data set, computed together on the packed copy as Cross
// computes them (the queries packed as the other side of the product, full
// tiles, Options.Threads goroutines), so that each value is identical to
// RowOf's. Its working memory is the packed queries. A length that is not a
// multiple of d, or dst of the wrong length, wraps ErrShape, an empty Q
// ErrEmpty, and NaN or infinite values ErrNonFinite; Q is not modified.
func (r *Rows[T]) RowsOf(dst, Q []T) error {
	e, s := r.e, r.s
	m, err := rowsOf(Q, s.d, "Q")
	if err != nil {
		return err
	}
	if int64(len(dst)) != int64(m)*int64(s.n) {
		return fmt.Errorf("%w: len(dst) = %d, want %d queries × %d rows", ErrShape, len(dst), m, s.n)
	}
	q, err := prepare(e, Q, m, s.d, true, false)
	if err != nil {
		return err
	}
	defer q.release()
	if err := e.checkOverflow(max(s.maxNorm, q.maxNorm)); err != nil {
		return err
	}
	e.run(q, s, dst, s.n, false)
	return nil
}

// RowsOfEach computes the kernel rows of the M row-major queries Q (M·d
// values) against the data set, K(qᵢ, xⱼ), a block of consecutive queries
// at a time, and calls f(lo, hi, K) with the rows of queries lo…hi−1:
// K[(i−lo)·N + j] = K(qᵢ, xⱼ). It is RowsOf without the M×N result, for a
// caller that reduces each row as soon as it exists (a kernel model's
// decision values): each block of queries (as many as the engine's A block,
// sized from the L2 cache) is packed, multiplied by the packed copy on one
// goroutine with the kernel function applied tile by tile, and handed to f
// while it is still in cache. The blocks are spread over threads goroutines
// (0 means Options.Threads), so f is called concurrently for disjoint
// blocks; it must not retain K. The values are RowsOf's and RowOf's, bit
// for bit. Its working memory is one block of kernel rows and its packed
// queries per goroutine. Errors are RowsOf's, naming the block; an error
// from f is returned as it is. After an error no further block is started,
// and the error returned is that of the lowest failing block.
func (r *Rows[T]) RowsOfEach(Q []T, threads int, f func(lo, hi int, K []T) error) error {
	e, s := r.e, r.s
	m, err := rowsOf(Q, s.d, "Q")
	if err != nil {
		return err
	}
	if threads <= 0 {
		threads = e.threads
	}
	mr, d, n := e.mk.mr, s.d, s.n
	// Whole A blocks, but at least one block per goroutine.
	mb := max(mr, min(e.mc, (m+threads-1)/threads))
	mb = (mb + mr - 1) / mr * mr
	nblocks := (m + mb - 1) / mb
	one := *e
	one.threads = 1
	errs := make([]error, nblocks)
	var failed atomic.Bool
	ew := *e
	ew.threads = threads
	ew.work(nblocks, func(int) func(int) {
		w := worker[T]{e: &one, sb: s, tmp: make([]T, mr*e.mk.nr)}
		return func(t int) {
			if failed.Load() {
				return
			}
			lo := t * mb
			hi := min(m, lo+mb)
			if errs[t] = r.rowsBlock(&w, Q[lo*d:hi*d], hi-lo, n, f, lo); errs[t] != nil {
				failed.Store(true)
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// rowsBlock computes the kernel rows of the rows queries Q on w's (single
// goroutine) engine and hands them to f as queries lo….
func (r *Rows[T]) rowsBlock(w *worker[T], Q []T, rows, n int, f func(lo, hi int, K []T) error, lo int) error {
	e := w.e
	q, err := prepare(e, Q, rows, r.s.d, true, false)
	if err != nil {
		return fmt.Errorf("queries %d…%d: %w", lo, lo+rows-1, err)
	}
	defer q.release()
	if err := e.checkOverflow(max(r.s.maxNorm, q.maxNorm)); err != nil {
		return fmt.Errorf("queries %d…%d: %w", lo, lo+rows-1, err)
	}
	C := getBuf[T](rows * n)
	defer putBuf(C)
	w.sa, w.C, w.ldc = q, C, n
	w.block(task{0, rows, 0, n})
	return f(lo, lo+rows, C)
}

// RowBatch writes K(xᵢ, X) for each i of idx into dst[k], k the position
// of i in idx (dst is grown to len(idx) rows, each grown if shorter than N,
// as by Row), and returns dst[:len(idx)]. The rows are computed together,
// as a Cross of the rows idx against X would compute them: the query rows
// are taken from the packed copy, packed as the other side of the product,
// and multiplied with the packed copy at full tile size on Options.Threads
// goroutines, which for a few dozen rows or more costs a fraction of as
// many calls to Row (one Row runs the micro-kernel on a sliver with one
// real row, on one goroutine; BenchmarkRowBatch measures both, and
// docs/packages.md quotes a run). The values are identical to those of Row
// and Compute. Its working memory is the packed query rows (about
// 2·len(idx)·d values) and a scratch block of 2¹⁶ values per goroutine.
// It panics if an index is out of range.
func (r *Rows[T]) RowBatch(dst [][]T, idx []int) [][]T {
	dst = batchRows(dst, idx, r.s.n)
	if len(idx) > 0 {
		r.batch(dst, idx)
	}
	return dst
}

// batchRows checks the row indices idx against n rows (panicking on one
// out of range) and returns dst grown to len(idx) rows of n values.
func batchRows[T kernel.Float](dst [][]T, idx []int, n int) [][]T {
	for _, i := range idx {
		if i < 0 || i >= n {
			panic(fmt.Sprintf("gram: row %d out of range [0, %d)", i, n))
		}
	}
	if cap(dst) < len(idx) {
		dst = append(dst[:cap(dst)], make([][]T, len(idx)-cap(dst))...)
	}
	dst = dst[:len(idx)]
	for k := range dst {
		if cap(dst[k]) < n {
			dst[k] = make([]T, n)
		}
		dst[k] = dst[k][:n]
	}
	return dst
}

// batch computes the rows idx into dst (len(dst[k]) = N).
func (r *Rows[T]) batch(dst [][]T, idx []int) {
	e, s := r.e, r.s
	m, d, mr := len(idx), s.d, e.mk.mr
	q := &set[T]{n: m, d: d, npadA: (m + mr - 1) / mr * mr}
	q.norms = make([]T, q.npadA)
	X := getBuf[T](m * d)
	for k, i := range idx {
		e.unpackB(s, X[k*d:(k+1)*d], i)
		q.norms[k] = s.norms[i]
	}
	q.a = getBuf[T](q.npadA * d)
	pack(q.a, X, m, d, mr, e.kc, 0, q.npadA/mr, e.mk)
	putBuf(X)
	e.runRows(q, s, dst)
	putBuf(q.a)
	if e.sp.kind == kindRBF {
		for k, i := range idx {
			dst[k][i] = 1 // as Compute's diagonal
		}
	}
}

// row computes K(x, X); diag ≥ 0 is the index of x in X (RBF diagonal 1).
func (r *Rows[T]) row(sc *rowScratch[T], dst, x []T, nx T, diag int) []T {
	e, mk, s := r.e, r.e.mk, r.s
	mr, nr := mk.mr, mk.nr
	n, d := s.n, s.d
	if cap(dst) < n {
		dst = make([]T, n)
	}
	dst = dst[:n]
	pack(sc.a, x, 1, d, mr, e.kc, 0, 1, nil)
	nblk, klen := kBlocks(d, e.kc)
	tmp := sc.tmp
	for jr := 0; jr < n; jr += nr {
		for b := 0; b < nblk; b++ {
			k0 := b * klen
			kl := min(klen, d-k0)
			mk.kern(kl, sc.a[k0*mr:][:kl*mr], s.b[k0*s.npadB+jr*kl:][:kl*nr], tmp, nr, b > 0)
		}
		row := tmp[:nr]
		switch e.sp.kind {
		case kindRBF:
			mk.rbf(row, nx, s.norms[jr:jr+nr], e.gamma)
			if c := diag - jr; c >= 0 && c < nr {
				row[c] = 1
			}
		case kindPoly:
			mk.poly(row, e.gamma, e.coef0, e.sp.degree)
		case kindSigmoid:
			sigmoidTile(row, e.gamma, e.coef0)
		}
		copy(dst[jr:], row)
	}
	return dst
}

// Cache is an LRU cache of kernel rows K(xᵢ, X) of a data set under a byte
// budget, like LIBSVM's kernel cache (its -m option): for data sets whose
// full N×N matrix does not fit in memory. Row computes a missing row alone
// (Rows.Row); Fill makes a set of rows resident, computing the missing ones
// together (Rows.RowBatch), which is how a trainer that knows which rows it
// will need next should fill it. Either way the values are identical to
// those of Compute, so what a trainer computes does not depend on the
// budget.
//
// A Cache is not safe for concurrent use: the rows it returns stay valid
// only until its next Row or Fill call, which may evict them, so a lock
// around the calls would not make sharing safe either. Give each goroutine
// its own Cache (sharing one Rows is safe: see NewCacheOf), or, as the
// kernel perceptron does, visit the samples on one goroutine and let Fill
// spread the computation of each batch over Options.Threads goroutines.
type Cache[T kernel.Float] struct {
	rows   *Rows[T]     // the dense row source, nil for a sparse one
	src    rowSource[T] // where the rows come from: rows, or a *SparseRows
	cap    int          // most rows held
	slot   []int32      // row → slot, −1 if absent
	owner  []int32      // slot → row
	prev   []int32      // LRU list over slots, head = most recent
	next   []int32
	head   int32
	tail   int32
	bufs   [][]T
	hits   int64
	misses int64

	miss      []int // Fill's rows to compute
	missSlots [][]T // and their buffers
}

// NewCache prepares X (as NewRows does) and returns a cache holding at most
// budgetBytes of rows (N values each). A budget below one row is an error
// wrapping ErrBudget.
func NewCache[T kernel.Float](X []T, d int, k Kernel, budgetBytes int64, opts *Options) (*Cache[T], error) {
	r, err := NewRows(X, d, k, opts)
	if err != nil {
		return nil, err
	}
	return NewCacheOf(r, budgetBytes)
}

// NewCacheOf returns a cache of the rows of r holding at most budgetBytes
// of rows (N values each), without a packed copy of its own: caches of
// several goroutines can share one Rows. A budget below one row is an
// error wrapping ErrBudget.
func NewCacheOf[T kernel.Float](r *Rows[T], budgetBytes int64) (*Cache[T], error) {
	c, err := newCache[T](r, budgetBytes)
	if err != nil {
		return nil, err
	}
	c.rows = r
	return c, nil
}

// rowSource is what a Cache computes its rows with: Rows or SparseRows.
type rowSource[T kernel.Float] interface {
	Len() int
	Row(dst []T, i int) []T
	batch(dst [][]T, idx []int)
}

// newCache returns a cache of the rows of r under budgetBytes.
func newCache[T kernel.Float](r rowSource[T], budgetBytes int64) (*Cache[T], error) {
	var zero T
	n := r.Len()
	rowBytes := int64(n) * int64(unsafe.Sizeof(zero))
	if budgetBytes < rowBytes {
		return nil, fmt.Errorf("%w: cache budget %d bytes is less than one row (%d bytes)", ErrBudget, budgetBytes, rowBytes)
	}
	c := &Cache[T]{src: r, cap: int(min(budgetBytes/rowBytes, int64(n))), head: -1, tail: -1}
	c.slot = make([]int32, n)
	for i := range c.slot {
		c.slot[i] = -1
	}
	return c, nil
}

// Rows returns the row source the cache computes its rows with (nil for
// a cache of NewSparseCache).
func (c *Cache[T]) Rows() *Rows[T] { return c.rows }

// Capacity returns the number of rows the budget holds.
func (c *Cache[T]) Capacity() int { return c.cap }

// Stats returns the number of rows Row and Fill found in the cache and the
// number they computed.
func (c *Cache[T]) Stats() (hits, misses int64) { return c.hits, c.misses }

// Contains reports whether row i is in the cache, without making it more
// recently used. It panics if i is out of range.
func (c *Cache[T]) Contains(i int) bool {
	c.check(i)
	return c.slot[i] >= 0
}

// Row returns K(xᵢ, X), a slice owned by the cache: do not modify it; it
// stays valid until the next call to Row or Fill (which may evict it). It
// panics if i is out of range.
func (c *Cache[T]) Row(i int) []T {
	c.check(i)
	if s := c.slot[i]; s >= 0 {
		c.hits++
		c.touch(s)
		return c.bufs[s]
	}
	c.misses++
	s := c.alloc(i)
	c.src.Row(c.bufs[s], i)
	return c.bufs[s]
}

// Fill makes the rows idx resident and returns them: dst[k] = K(x_idx[k], X)
// (dst grown to len(idx); its old rows are not reused). The rows missing
// from the cache are computed together by one Rows.RowBatch; the others
// are taken from the cache. Afterwards idx[0] is the most recently used
// row, then idx[1], and so on, and all of them stay valid until the next
// call to Row or Fill: the slices are owned by the cache, do not modify
// them. An index may repeat (the Stats count every index found in the
// cache as a hit, every row computed as a miss). It panics if an index is
// out of range or if idx holds more indices than the cache holds rows
// (Capacity).
func (c *Cache[T]) Fill(dst [][]T, idx []int) [][]T {
	if len(idx) > c.cap {
		panic(fmt.Sprintf("gram: Fill of %d rows, more than the cache's %d", len(idx), c.cap))
	}
	for _, i := range idx {
		c.check(i)
	}
	// First the resident rows of idx move to the front, so that no
	// eviction below takes one of them; then, newest last (idx[len−1]
	// first, so that idx[0] ends at the front), every row is touched or
	// computed. The rows of idx stay ahead of all others, so (at most
	// Capacity of them) the evicted tail is never one of them.
	for _, i := range idx {
		if s := c.slot[i]; s >= 0 {
			c.touch(s)
		}
	}
	miss, slots := c.miss[:0], c.missSlots[:0]
	for k := len(idx) - 1; k >= 0; k-- {
		i := idx[k]
		if s := c.slot[i]; s >= 0 {
			c.hits++
			c.touch(s)
			continue
		}
		c.misses++
		s := c.alloc(i)
		miss = append(miss, i)
		slots = append(slots, c.bufs[s])
	}
	if len(miss) > 0 {
		c.src.batch(slots, miss)
	}
	c.miss, c.missSlots = miss, slots
	if cap(dst) < len(idx) {
		dst = make([][]T, len(idx))
	}
	dst = dst[:len(idx)]
	for k, i := range idx {
		dst[k] = c.bufs[c.slot[i]]
	}
	return dst
}

func (c *Cache[T]) check(i int) {
	if i < 0 || i >= len(c.slot) {
		panic(fmt.Sprintf("gram: row %d out of range [0, %d)", i, len(c.slot)))
	}
}

// alloc returns a slot for row i, evicting the least recently used row if
// the cache is full, and makes it the most recent.
func (c *Cache[T]) alloc(i int) int32 {
	var s int32
	if len(c.bufs) < c.cap {
		s = int32(len(c.bufs))
		c.bufs = append(c.bufs, make([]T, c.src.Len()))
		c.owner = append(c.owner, -1)
		c.prev = append(c.prev, -1)
		c.next = append(c.next, -1)
	} else {
		s = c.tail // evict the least recently used row
		c.unlink(s)
		c.slot[c.owner[s]] = -1
	}
	c.owner[s] = int32(i)
	c.slot[i] = s
	c.pushFront(s)
	return s
}

func (c *Cache[T]) touch(s int32) {
	if c.head != s {
		c.unlink(s)
		c.pushFront(s)
	}
}

func (c *Cache[T]) unlink(s int32) {
	p, n := c.prev[s], c.next[s]
	if p >= 0 {
		c.next[p] = n
	} else {
		c.head = n
	}
	if n >= 0 {
		c.prev[n] = p
	} else {
		c.tail = p
	}
	c.prev[s], c.next[s] = -1, -1
}

func (c *Cache[T]) pushFront(s int32) {
	c.prev[s], c.next[s] = -1, c.head
	if c.head >= 0 {
		c.prev[c.head] = s
	}
	c.head = s
	if c.tail < 0 {
		c.tail = s
	}
}
