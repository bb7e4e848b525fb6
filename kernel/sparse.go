package kernel

// Sparse kernels: a sparse vector (idx, val), the values val[i] at the
// positions idx[i] and zeros elsewhere, against dense vectors. They are
// what the trainers run on CSR data (package dataset): a text sample has
// tens or hundreds of non-zeros among 10⁵–10⁷ features, so scoring it is
// a gather of that many weights, and updating it a scatter.
//
// Contracts, as for the dense kernels: len(idx) != len(val) (and the other
// length mismatches each function names) panics with a message naming the
// kernel; empty input is valid; nothing is modified but the destination.
// An index outside the dense vector (negative, or ≥ its length) panics
// with Go's index-out-of-range error, as indexing a slice does: every path
// is Go (below), whose bounds checks cost one compare per non-zero. The
// indices need not be sorted or distinct (a repeated index adds twice).
//
// Every implementation ID dispatches here, and every one runs the portable
// Go loops of this file: DotSparse unrolled by eight with eight partial
// sums. A sparse dot is a chain of dependent loads (index, then weight),
// and a plain Go loop already runs near the machine's rate for them. On the
// Zen 5 of the README (CPU time, fastest of 15 interleaved rounds,
// bench/results/sparse-dot-zen5.txt), 100 non-zeros into 2²⁰ float32
// weights take 41 ns against the plain loop's 59 ns (1.46×) with the
// weights in L1, and 97 ns against 101 ns (1.04×) spread over L2 and L3;
// 12 non-zeros take 9.8 ns against 7.3 ns (0.75×: the call through the
// Kernels method and the unrolled loop's set-up cost more than eight sums
// gain on 12 terms) and 19.6 ns against 14.8 ns cold. The 1.5× is
// not met. A prototype with AVX-512 gathers (vgatherdps, without the index
// checks; neither it nor its raw figures were kept) did no better where it
// matters: 1.39× at 100 hot non-zeros, 0.83× at 12, 1.15× cold. So
// there is no assembly for them; the Kernels methods keep the
// per-implementation entry point should a CPU's gathers win.
//
// Numerics: DotSparse, MatVecSparse and DotsSparse are reductions of
// n = len(idx) terms (per row), and obey the dense bound with the gathered
// products: |computed − exact| ≤ γₙ·Σ|val[i]·w[idx[i]]|. AxpySparse is
// element-wise, within one rounding per element of the plain loop as Axpy
// is (the compiler fuses the multiply-add on arm64, not on amd64).

// MatVecSparse sets dst[i] to the dot product of row i of the CSR matrix
// (ptr, idx, val) with the dense w, using the active implementation:
//
//	for i := range dst {
//		dst[i] = DotSparse(idx[ptr[i]:ptr[i+1]], val[ptr[i]:ptr[i+1]], w)
//	}
//
// the margins of a block of sparse samples in one call. It panics if
// len(ptr) != len(dst)+1, if len(idx) != len(val), if ptr is not a
// non-decreasing sequence of offsets into idx (as slicing does), or if an
// index is outside w (as indexing does).
func MatVecSparse[T Float](dst []T, ptr []int, idx []int32, val, w []T) {
	Kernels[T]{im: active}.MatVecSparse(dst, ptr, idx, val, w)
}

// DotsSparse sets dst[k] to the dot product of the sparse vector
// (idx, val) with row k of the row-major len(dst)×D matrix W,
// D = len(W)/len(dst), using the active implementation: the scores of every
// class for one sparse sample,
//
//	for k := range dst {
//		dst[k] = DotSparse(idx, val, W[k*D:(k+1)*D])
//	}
//
// It panics if len(idx) != len(val), if len(W) is not a multiple of
// len(dst), or, as indexing does, if an index is not below D.
func DotsSparse[T Float](dst, W []T, idx []int32, val []T) {
	Kernels[T]{im: active}.DotsSparse(dst, W, idx, val)
}

// MatVecSparse is the package-level MatVecSparse on k's implementation.
func (k Kernels[T]) MatVecSparse(dst []T, ptr []int, idx []int32, val, w []T) {
	if len(ptr) != len(dst)+1 {
		panicLen("MatVecSparse", "len(ptr)", len(ptr), "len(dst)+1", len(dst)+1)
	}
	if len(idx) != len(val) {
		panicLen("MatVecSparse", "len(idx)", len(idx), "len(val)", len(val))
	}
	for i := range dst {
		lo, hi := ptr[i], ptr[i+1]
		dst[i] = k.DotSparse(idx[lo:hi], val[lo:hi], w)
	}
}

// DotsSparse is the package-level DotsSparse on k's implementation.
func (k Kernels[T]) DotsSparse(dst, W []T, idx []int32, val []T) {
	if len(idx) != len(val) {
		panicLen("DotsSparse", "len(idx)", len(idx), "len(val)", len(val))
	}
	if len(dst) == 0 {
		return
	}
	if len(W)%len(dst) != 0 {
		panicLen("DotsSparse", "len(W)", len(W), "a multiple of len(dst)", len(dst))
	}
	d := len(W) / len(dst)
	for r := range dst {
		dst[r] = k.DotSparse(idx, val, W[r*d:(r+1)*d:(r+1)*d])
	}
}

// dotSparseGeneric keeps eight partial sums, so that the adds of eight
// non-zeros overlap instead of waiting on one another; the gathers are
// independent loads either way. The bounds check of each w[idx[i]] is the
// index check of the contract.
func dotSparseGeneric[T Float](idx []int32, val, w []T) T {
	val = val[:len(idx)]
	var s0, s1, s2, s3, s4, s5, s6, s7 T
	for len(idx) >= 8 {
		x, v := idx[:8:8], val[:8:8]
		s0 += v[0] * w[x[0]]
		s1 += v[1] * w[x[1]]
		s2 += v[2] * w[x[2]]
		s3 += v[3] * w[x[3]]
		s4 += v[4] * w[x[4]]
		s5 += v[5] * w[x[5]]
		s6 += v[6] * w[x[6]]
		s7 += v[7] * w[x[7]]
		idx, val = idx[8:], val[8:]
	}
	for len(idx) >= 4 {
		x, v := idx[:4:4], val[:4:4]
		s0 += v[0] * w[x[0]]
		s1 += v[1] * w[x[1]]
		s2 += v[2] * w[x[2]]
		s3 += v[3] * w[x[3]]
		idx, val = idx[4:], val[4:]
	}
	for i, j := range idx {
		s0 += val[i] * w[j]
	}
	return ((s0 + s4) + (s1 + s5)) + ((s2 + s6) + (s3 + s7))
}

// axpySparseGeneric updates y element by element, in order, so that a
// repeated index adds twice (loads and stores of four elements at once
// would lose an update there).
func axpySparseGeneric[T Float](a T, idx []int32, val, y []T) {
	val = val[:len(idx)]
	for len(idx) >= 4 {
		v := val[:4:4]
		y[idx[0]] += a * v[0]
		y[idx[1]] += a * v[1]
		y[idx[2]] += a * v[2]
		y[idx[3]] += a * v[3]
		idx, val = idx[4:], val[4:]
	}
	for i, j := range idx {
		y[j] += a * val[i]
	}
}
