package gram

import (
	"fmt"
	"sync"
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
		}
		copy(dst[jr:], row)
	}
	return dst
}

// Cache is an LRU cache of kernel rows K(xᵢ, X) of a data set under a byte
// budget, like LIBSVM's kernel cache (its -m option): for data sets whose
// full N×N matrix does not fit in memory. Rows are computed on a miss by
// Rows.Row, so their values are identical to those of Compute. A Cache is
// not safe for concurrent use.
type Cache[T kernel.Float] struct {
	rows   *Rows[T]
	cap    int     // most rows held
	slot   []int32 // row → slot, −1 if absent
	owner  []int32 // slot → row
	prev   []int32 // LRU list over slots, head = most recent
	next   []int32
	head   int32
	tail   int32
	bufs   [][]T
	hits   int64
	misses int64
}

// NewCache prepares X (as NewRows does) and returns a cache holding at most
// budgetBytes of rows (N values each). A budget below one row is an error
// wrapping ErrBudget.
func NewCache[T kernel.Float](X []T, d int, k Kernel, budgetBytes int64, opts *Options) (*Cache[T], error) {
	r, err := NewRows(X, d, k, opts)
	if err != nil {
		return nil, err
	}
	return newCache(r, budgetBytes)
}

func newCache[T kernel.Float](r *Rows[T], budgetBytes int64) (*Cache[T], error) {
	var zero T
	n := r.Len()
	rowBytes := int64(n) * int64(unsafe.Sizeof(zero))
	if budgetBytes < rowBytes {
		return nil, fmt.Errorf("%w: cache budget %d bytes is less than one row (%d bytes)", ErrBudget, budgetBytes, rowBytes)
	}
	c := &Cache[T]{rows: r, cap: int(min(budgetBytes/rowBytes, int64(n))), head: -1, tail: -1}
	c.slot = make([]int32, n)
	for i := range c.slot {
		c.slot[i] = -1
	}
	return c, nil
}

// Rows returns the row source the cache computes its rows with.
func (c *Cache[T]) Rows() *Rows[T] { return c.rows }

// Capacity returns the number of rows the budget holds.
func (c *Cache[T]) Capacity() int { return c.cap }

// Stats returns the number of Row calls answered from the cache and the
// number that computed their row.
func (c *Cache[T]) Stats() (hits, misses int64) { return c.hits, c.misses }

// Row returns K(xᵢ, X), a slice owned by the cache: do not modify it; it
// stays valid until the next call to Row (which may evict it). It panics if
// i is out of range.
func (c *Cache[T]) Row(i int) []T {
	if i < 0 || i >= len(c.slot) {
		panic(fmt.Sprintf("gram: row %d out of range [0, %d)", i, len(c.slot)))
	}
	if s := c.slot[i]; s >= 0 {
		c.hits++
		c.touch(s)
		return c.bufs[s]
	}
	c.misses++
	var s int32
	if len(c.bufs) < c.cap {
		s = int32(len(c.bufs))
		c.bufs = append(c.bufs, make([]T, c.rows.Len()))
		c.owner = append(c.owner, -1)
		c.prev = append(c.prev, -1)
		c.next = append(c.next, -1)
	} else {
		s = c.tail // evict the least recently used row
		c.unlink(s)
		c.slot[c.owner[s]] = -1
	}
	c.rows.Row(c.bufs[s], i)
	c.owner[s] = int32(i)
	c.slot[i] = s
	c.pushFront(s)
	return c.bufs[s]
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
