package gram

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/klauspost/cpuid/v2"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// impl is gram's micro-kernels and tile functions of one implementation of
// package kernel, for both element types.
type impl struct {
	f32 micro[float32]
	f64 micro[float64]
}

// micro is one implementation's tile functions for element type T.
type micro[T kernel.Float] struct {
	mr, nr int // register tile: mr rows of the A side by nr of the B side
	// kern sets the mr×nr tile c (row stride ldc) to Σₖ a[k·mr+r]·b[k·nr+j]
	// for k < kc, continuing from the tile's values if acc is set. Each
	// value is one sequential chain of multiply-adds in k order.
	kern func(kc int, a, b, c []T, ldc int, acc bool)
	// rbf replaces each s = dst[j] by exp(−gamma·max(ni + nj[j] − 2s, 0)).
	// len(dst) == len(nj) is a multiple of the vector width.
	rbf func(dst []T, ni T, nj []T, gamma T)
	// poly replaces each s = dst[j] by (gamma·s + coef0)^degree.
	poly func(dst []T, gamma, coef0 T, degree int)
	// trans sets dst[c·ldd+r] = src[r·lds+c] for r < rows, c < cols.
	trans func(dst []T, ldd int, src []T, lds int, rows, cols int)
}

// registry holds gram's functions for every implementation of package
// kernel in this build, indexed by kernel.ID: the portable Go ones for
// kernel.IDGeneric and those of archRegistry (micro_amd64.go,
// micro_arm64.go, micro_noasm.go). Which entry runs is kernel's decision
// (kernel.ActiveImpl, or Options.Impl): gram detects no CPU features.
// TestRegistryComplete fails if an implementation of kernel has no entry.
var registry = func() [kernel.NumIDs]*impl {
	r := archRegistry
	r[kernel.IDGeneric] = &impl{f32: genericMicro[float32](), f64: genericMicro[float64]()}
	return r
}()

// microOf returns the functions of implementation im for T, or nil if gram
// has none (which TestRegistryComplete rules out for this build's
// implementations).
func microOf[T kernel.Float](im *kernel.Impl) *micro[T] {
	if int(im.ID()) >= len(registry) || registry[im.ID()] == nil {
		return nil
	}
	p := registry[im.ID()]
	var zero T
	if unsafe.Sizeof(zero) == 4 {
		return (*micro[T])(unsafe.Pointer(&p.f32))
	}
	return (*micro[T])(unsafe.Pointer(&p.f64))
}

// engine holds everything one call needs: the implementation, the kernel and the block
// sizes.
type engine[T kernel.Float] struct {
	im       *kernel.Impl
	mk       *micro[T]
	sp       spec
	gamma    T
	coef0    T
	threads  int
	maxBytes int64
	kc       int // largest feature block
	mc       int // rows per A block, a multiple of mk.mr
	nc       int // columns per B block, a multiple of mk.nr
}

func setup[T kernel.Float](k Kernel, opts *Options) (*engine[T], error) {
	if k == nil {
		return nil, fmt.Errorf("%w: nil kernel", ErrInvalidKernel)
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	sp := k.spec()
	e := &engine[T]{sp: sp, gamma: T(sp.gamma), coef0: T(sp.coef0), threads: opts.threads(), maxBytes: DefaultMaxBytes}
	if sp.kind != kindLinear && (!(e.gamma > 0) || math.IsInf(float64(e.gamma), 0) || math.IsInf(float64(e.coef0), 0)) {
		return nil, fmt.Errorf("%w: %v is out of the range of %T", ErrInvalidKernel, k, e.gamma)
	}
	e.im = kernel.ActiveImpl()
	if opts != nil {
		if opts.MaxBytes != 0 {
			e.maxBytes = opts.MaxBytes
		}
		if opts.Impl != nil {
			if !opts.Impl.Available() {
				return nil, fmt.Errorf("%w: %s", ErrImpl, opts.Impl.Name())
			}
			e.im = opts.Impl
		}
	}
	if e.mk = microOf[T](e.im); e.mk == nil {
		return nil, fmt.Errorf("%w: gram has no micro-kernels for %s", ErrImpl, e.im.Name())
	}
	e.blocks(opts)
	return e, nil
}

// blocks sets the block sizes from the cache sizes (cpuid): a KC×NR sliver
// of the B side fills half the L1 data cache, an MC×KC block of the A side
// half of L2, and a KC×NC panel of the B side a quarter of L3.
func (e *engine[T]) blocks(opts *Options) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	l1, l2, l3 := cpuid.CPU.Cache.L1D, cpuid.CPU.Cache.L2, cpuid.CPU.Cache.L3
	if l1 <= 0 {
		l1 = 32 << 10
	}
	if l2 <= 0 {
		l2 = 256 << 10
	}
	if l3 <= 0 {
		l3 = 4 << 20
	}
	mr, nr := e.mk.mr, e.mk.nr
	e.kc = max(64, l1/2/(nr*size))
	e.mc = max(mr, l2/2/(e.kc*size)/mr*mr)
	e.nc = max(nr, min(l3/4/(e.kc*size), 1<<14)/nr*nr)
	if opts != nil {
		if opts.kc > 0 {
			e.kc = opts.kc
		}
		if opts.mc > 0 {
			e.mc = max(mr, opts.mc/mr*mr)
		}
		if opts.nc > 0 {
			e.nc = max(nr, opts.nc/nr*nr)
		}
	}
}

// budget checks that values result entries plus packed data entries fit the
// memory budget.
func (e *engine[T]) budget(values, packed int64, what string) error {
	var zero T
	size := uint64(unsafe.Sizeof(zero))
	hi, n := bits.Mul64(uint64(values), size)
	hi2, p := bits.Mul64(uint64(packed)+uint64(64*(e.mk.mr+e.mk.nr)), size)
	total, carry := bits.Add64(n, p, 0)
	if hi != 0 || hi2 != 0 || carry != 0 || total > math.MaxInt64 || values > int64(math.MaxInt) {
		return fmt.Errorf("%w: %s of %d values does not fit in memory", ErrBudget, what, values)
	}
	if e.maxBytes >= 0 && int64(total) > e.maxBytes {
		return fmt.Errorf("%w: %s needs %d bytes, budget is %d (Options.MaxBytes)", ErrBudget, what, total, e.maxBytes)
	}
	return nil
}

// checkOverflow reports data whose kernel values could overflow T.
func (e *engine[T]) checkOverflow(maxNorm float64) error {
	var zero T
	limit := math.MaxFloat64 / 4
	if unsafe.Sizeof(zero) == 4 {
		limit = math.MaxFloat32 / 4
	}
	if !(maxNorm <= limit) {
		return fmt.Errorf("%w: squared norm %g exceeds %g", ErrOverflow, maxNorm, limit)
	}
	if e.sp.kind == kindPoly {
		base := e.sp.gamma*maxNorm + math.Abs(e.sp.coef0)
		if base > 1 && float64(e.sp.degree)*math.Log(base) > math.Log(limit) {
			return fmt.Errorf("%w: (gamma·max‖x‖² + |coef0|)^degree = %g^%d exceeds %g",
				ErrOverflow, base, e.sp.degree, limit)
		}
	}
	return nil
}

// set is a data set prepared for the micro-kernel: packed copies of the
// rows as A panels (a) and/or B panels (b), and the squared norms.
type set[T kernel.Float] struct {
	n, d    int
	a, b    []T
	npadA   int // n rounded up to mr
	npadB   int // n rounded up to nr
	norms   []T // ‖xᵢ‖², zero-padded to max(npadA, npadB)
	maxNorm float64
}

// prepare validates X (finite values) and packs it.
func prepare[T kernel.Float](e *engine[T], X []T, n, d int, asA, asB bool) (*set[T], error) {
	mr, nr := e.mk.mr, e.mk.nr
	s := &set[T]{n: n, d: d, npadA: (n + mr - 1) / mr * mr, npadB: (n + nr - 1) / nr * nr}
	s.norms = make([]T, max(s.npadA, s.npadB))
	for i := 0; i < n; i++ {
		row := X[i*d : (i+1)*d]
		// A NaN or an infinity makes the norm NaN or +Inf, so only rows
		// whose norm is not finite need the check value by value (a finite
		// row can overflow its norm: checkOverflow reports that).
		nm := norm(row)
		if f := float64(nm); math.IsNaN(f) || math.IsInf(f, 0) {
			if !finite(row) {
				return nil, fmt.Errorf("%w: row %d", ErrNonFinite, i)
			}
			s.maxNorm = math.Inf(1)
		}
		s.norms[i] = nm
		s.maxNorm = max(s.maxNorm, float64(nm))
	}
	if asA {
		s.a = getBuf[T](s.npadA * d)
	}
	if asB {
		s.b = getBuf[T](s.npadB * d)
	}
	na, nb := s.npadA/mr, s.npadB/nr
	parts := max(na, nb)
	e.parallel(parts, func(lo, hi int) {
		if asA {
			pack(s.a, X, n, d, mr, e.kc, na*lo/parts, na*hi/parts, e.mk.trans)
		}
		if asB {
			pack(s.b, X, n, d, nr, e.kc, nb*lo/parts, nb*hi/parts, e.mk.trans)
		}
	})
	return s, nil
}

// bufPool recycles the packed copies of Compute and Cross: a repeated call
// then finds its buffers mapped and in cache instead of faulting in fresh
// pages. Entries are *[]float32 or *[]float64.
var bufPool sync.Pool

// getBuf returns a slice of n values with arbitrary contents.
func getBuf[T kernel.Float](n int) []T {
	if p, ok := bufPool.Get().(*[]T); ok {
		if cap(*p) >= n {
			return (*p)[:n]
		}
		bufPool.Put(p)
	}
	return make([]T, n)
}

// putBuf hands a slice from getBuf back.
func putBuf[T kernel.Float](b []T) {
	if b != nil {
		bufPool.Put(&b)
	}
}

// release returns the set's packed copies to the pool.
func (s *set[T]) release() {
	putBuf(s.a)
	putBuf(s.b)
	s.a, s.b = nil, nil
}

// finite reports whether every value of x is finite: v − v is 0 for a
// finite v and NaN for ±Inf and NaN.
func finite[T kernel.Float](x []T) bool {
	var acc T
	for _, v := range x {
		acc += v - v
	}
	return acc == 0
}

// norm returns ‖x‖², always in the same order, so that every function of
// the package sees the same norms.
func norm[T kernel.Float](x []T) T {
	var s0, s1, s2, s3 T
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i] * x[i]
		s1 += x[i+1] * x[i+1]
		s2 += x[i+2] * x[i+2]
		s3 += x[i+3] * x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i] * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// kBlocks returns the number of feature blocks and their common length: d
// split as evenly as possible into blocks of at most kc.
func kBlocks(d, kc int) (nblk, klen int) {
	nblk = (d + kc - 1) / kc
	return nblk, (d + nblk - 1) / nblk
}

// pack writes slivers [s0, s1) of X (n rows of d features) as w-wide panels:
// for the feature block starting at k0 of length kl, sliver s occupies
// dst[k0·npad + s·w·kl :][:kl·w], feature k of row s·w+r at k·w+r. Rows past
// n are set to zero. A full sliver's block is a transpose of a w×kl block
// of X, done by trans (the implementation's, in registers where it has one).
func pack[T kernel.Float](dst, X []T, n, d, w, kc, s0, s1 int, trans func(dst []T, ldd int, src []T, lds int, rows, cols int)) {
	npad := len(dst) / d
	nblk, klen := kBlocks(d, kc)
	for s := s0; s < s1; s++ {
		rows := min(w, n-s*w)
		// Block by block, so the sliver's block (at most KC·w values) stays
		// in L1 while its rows are written into it.
		for b := 0; b < nblk; b++ {
			k0 := b * klen
			kl := min(klen, d-k0)
			out := dst[k0*npad+s*w*kl:][:kl*w]
			if rows == w && trans != nil {
				trans(out, w, X[s*w*d+k0:], d, w, kl)
				continue
			}
			for r := 0; r < rows; r++ {
				in := X[(s*w+r)*d+k0:][:kl]
				o := out[r:]
				for k, v := range in {
					o[k*w] = v
				}
			}
			for r := rows; r < w; r++ {
				for k := 0; k < kl; k++ {
					out[k*w+r] = 0
				}
			}
		}
	}
}

// unpackB copies row i of s's B panels (packed by e) into x, len(x) = d:
// the inverse of pack for one row.
func (e *engine[T]) unpackB(s *set[T], x []T, i int) {
	nr, d := e.mk.nr, s.d
	nblk, klen := kBlocks(d, e.kc)
	sl, r := i/nr, i%nr
	for b := 0; b < nblk; b++ {
		k0 := b * klen
		kl := min(klen, d-k0)
		in := s.b[k0*s.npadB+sl*nr*kl:][:kl*nr]
		for k := range x[k0 : k0+kl] {
			x[k0+k] = in[k*nr+r]
		}
	}
}

// parallel runs f over [0, n) split into contiguous ranges, one per
// goroutine.
func (e *engine[T]) parallel(n int, f func(lo, hi int)) {
	w := min(e.threads, n)
	if w <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < w; t++ {
		lo, hi := n*t/w, n*(t+1)/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// task is an MC×NC block of the result.
type task struct{ i0, i1, j0, j1 int }

// run computes C[i][j] = K(aᵢ, bⱼ) with row stride ldc; if sym (a and b are
// the same set), only the lower triangle is computed and mirrored.
func (e *engine[T]) run(sa, sb *set[T], C []T, ldc int, sym bool) {
	mr, nr := e.mk.mr, e.mk.nr
	mc, nc := e.mc, e.nc
	if e.threads > 1 {
		// At least four tasks per goroutine, so the uneven triangle and a
		// busy core even out: smaller row blocks first, then column blocks.
		want := 4 * e.threads
		mc = max(mr, min(mc, (sa.n+want-1)/want/mr*mr))
		if rowTasks := (sa.n + mc - 1) / mc; rowTasks < want && !sym {
			split := (want + rowTasks - 1) / rowTasks
			nc = max(nr, min(nc, (sb.n+split-1)/split/nr*nr))
		}
	}
	var tasks []task
	for j0 := 0; j0 < sb.n; j0 += nc {
		j1 := min(j0+nc, sb.n)
		// For the triangle the blocks with more columns come first so the
		// last ones, taken while others finish, are the small ones.
		if sym {
			for i0 := (sa.n - 1) / mc * mc; i0 >= 0 && i0+mc > j0; i0 -= mc {
				tasks = append(tasks, task{i0, min(i0+mc, sa.n), j0, j1})
			}
		} else {
			for i0 := 0; i0 < sa.n; i0 += mc {
				tasks = append(tasks, task{i0, min(i0+mc, sa.n), j0, j1})
			}
		}
	}
	workers := min(e.threads, len(tasks))
	var next atomic.Int64
	work := func() {
		w := worker[T]{e: e, sa: sa, sb: sb, C: C, ldc: ldc, sym: sym, tmp: make([]T, e.mk.mr*e.mk.nr)}
		for {
			t := int(next.Add(1) - 1)
			if t >= len(tasks) {
				return
			}
			w.block(tasks[t])
		}
	}
	if workers <= 1 {
		work()
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	wg.Wait()
}

// worker is one goroutine's state: the inputs and its scratch tile.
type worker[T kernel.Float] struct {
	e      *engine[T]
	sa, sb *set[T]
	C      []T
	ldc    int
	sym    bool
	tmp    []T // mr×nr scratch for tiles on the edge or the diagonal
}

// block computes one MC×NC block: for each feature block, for each NR-wide
// sliver of columns (in L1), for each MR-wide sliver of rows (in L2).
func (w *worker[T]) block(t task) {
	e, mk := w.e, w.e.mk
	mr, nr := mk.mr, mk.nr
	sa, sb, C, ldc := w.sa, w.sb, w.C, w.ldc
	d := sa.d
	nblk, klen := kBlocks(d, e.kc)
	for b := 0; b < nblk; b++ {
		k0 := b * klen
		kl := min(klen, d-k0)
		acc, last := b > 0, b == nblk-1
		for jr := t.j0; jr < t.j1; jr += nr {
			bs := sb.b[k0*sb.npadB+jr*kl:][:kl*nr]
			lo, hi := -1, -1 // the interior tiles' rows, mirrored together
			for ir := t.i0; ir < t.i1; ir += mr {
				if w.sym && ir+mr-1 < jr {
					continue // entirely above the diagonal
				}
				as := sa.a[k0*sa.npadA+ir*kl:][:kl*mr]
				if ir+mr <= sa.n && jr+nr <= sb.n && (!w.sym || ir >= jr+nr) {
					c := C[ir*ldc+jr:]
					mk.kern(kl, as, bs, c, ldc, acc)
					if last {
						w.finish(c, ldc, ir, jr, mr)
						if lo < 0 {
							lo = ir
						}
						hi = ir + mr
					}
					continue
				}
				w.edge(kl, as, bs, ir, jr, acc, last)
			}
			if w.sym && lo >= 0 {
				// The strip of rows [lo, hi) and columns [jr, jr+nr) is in
				// L1/L2 now; transposing it as one block writes whole cache
				// lines of rows jr… instead of a few values per tile.
				mk.trans(C[jr*ldc+lo:], ldc, C[lo*ldc+jr:], ldc, hi-lo, nr)
			}
		}
	}
}

// finish applies the kernel function to rows ir… of a tile starting at c.
func (w *worker[T]) finish(c []T, ldc, ir, jr, rows int) {
	e, mk := w.e, w.e.mk
	nr := mk.nr
	switch e.sp.kind {
	case kindRBF:
		nj := w.sb.norms[jr : jr+nr]
		for r := 0; r < rows; r++ {
			mk.rbf(c[r*ldc:r*ldc+nr], w.sa.norms[ir+r], nj, e.gamma)
		}
	case kindPoly:
		for r := 0; r < rows; r++ {
			mk.poly(c[r*ldc:r*ldc+nr], e.gamma, e.coef0, e.sp.degree)
		}
	}
}

// edge computes a tile that crosses the diagonal or the edge of the matrix
// in the scratch tile and copies its valid (and, if sym, lower) part.
func (w *worker[T]) edge(kl int, as, bs []T, ir, jr int, acc, last bool) {
	mk := w.e.mk
	mr, nr := mk.mr, mk.nr
	C, ldc, tmp := w.C, w.ldc, w.tmp
	rv, cv := min(mr, w.sa.n-ir), min(nr, w.sb.n-jr)
	cols := func(r int) int { // valid columns of row r
		if w.sym {
			return min(cv, ir+r-jr+1)
		}
		return cv
	}
	if acc {
		for r := 0; r < rv; r++ {
			if nc := cols(r); nc > 0 {
				copy(tmp[r*nr:r*nr+nc], C[(ir+r)*ldc+jr:])
			}
		}
	}
	mk.kern(kl, as, bs, tmp, nr, acc)
	if last {
		w.finish(tmp, nr, ir, jr, rv)
		if w.sym && w.e.sp.kind == kindRBF {
			for r := 0; r < rv; r++ {
				if c := ir + r - jr; c >= 0 && c < nr {
					tmp[r*nr+c] = 1
				}
			}
		}
	}
	for r := 0; r < rv; r++ {
		nc := cols(r)
		if nc <= 0 {
			continue
		}
		copy(C[(ir+r)*ldc+jr:][:nc], tmp[r*nr:])
		if last && w.sym {
			for c := 0; c < nc; c++ {
				C[(jr+c)*ldc+ir+r] = tmp[r*nr+c]
			}
		}
	}
}
