package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// ---- sparse kernels ----------------------------------------------------------
//
// A text sample against a hashed feature space: nnz non-zeros (12 for a
// short text, 100 for a paragraph) into a weight vector of 2²⁰ values.
// rows=1 scores the same sample again and again (its weights stay in L1);
// rows=4096 cycles through 4096 different samples, whose gathers spread over
// the whole 4 or 8 MB vector (L2/L3), as an epoch's do.

const sparseDim = 1 << 20

type sparseRows[T kernel.Float] struct {
	idx [][]int32
	val [][]T
}

func newSparseRows[T kernel.Float](rows, nnz int) sparseRows[T] {
	rng := rand.New(rand.NewPCG(uint64(rows), uint64(nnz)))
	s := sparseRows[T]{idx: make([][]int32, rows), val: make([][]T, rows)}
	for r := range rows {
		idx := make([]int32, nnz)
		for i := range idx {
			idx[i] = int32(rng.IntN(sparseDim))
		}
		slices.Sort(idx)
		s.idx[r] = idx
		s.val[r] = randSlice[T](nnz, uint64(r))
	}
	return s
}

type dotSparseFn[T kernel.Float] func(idx []int32, val, w []T) T

// closureLoop makes n calls of fn, on the rows of rs in turn, and returns
// the sum of the results.
func closureLoop[T kernel.Float](fn dotSparseFn[T], n int, rs sparseRows[T], w []T) T {
	var s T
	r := 0
	for range n {
		s += fn(rs.idx[r], rs.val[r], w)
		if r++; r == len(rs.idx) {
			r = 0
		}
	}
	return s
}

func plainDotSparse[T kernel.Float](idx []int32, val, w []T) T {
	var s T
	for i, j := range idx {
		s += val[i] * w[j]
	}
	return s
}

// dotSparseCandidates are the paths and the plain loop. kernel.DotSparse
// and the plain loop are called the way user code calls them, as
// dotCandidates calls Dot: a closure whose body is the call, which the
// compiler inlines (DotSparse's Go side is one call of the assembly
// dotSparseAuto; the plain loop is inlined whole). The paths are the method
// values of their Kernels.
func dotSparseCandidates[T kernel.Float]() []candidate[dotSparseFn[T]] {
	c := []candidate[dotSparseFn[T]]{{"auto", func(idx []int32, val, w []T) T { return kernel.DotSparse(idx, val, w) }}}
	names, ks := paths[T]()
	for i := range ks {
		c = append(c, candidate[dotSparseFn[T]]{names[i], ks[i].DotSparse})
	}
	return append(c, candidate[dotSparseFn[T]]{"plain", func(idx []int32, val, w []T) T { return plainDotSparse(idx, val, w) }})
}

func benchDotSparse[T kernel.Float](b *testing.B) {
	w := randSlice[T](sparseDim, 7)
	for _, rows := range []int{1, 4096} {
		for _, nnz := range []int{12, 100} {
			rs := newSparseRows[T](rows, nnz)
			for _, c := range dotSparseCandidates[T]() {
				b.Run(fmt.Sprintf("impl=%s/type=%s/rows=%d/nnz=%d", c.name, typeName[T](), rows, nnz), func(b *testing.B) {
					sink64 += float64(closureLoop(c.fn, b.N, rs, w))
					reportGFLOPS(b, 2*float64(nnz))
				})
			}
		}
	}
}

// BenchmarkDotSparse is the sparse dot of text classification: 12 and 100 non-zeros
// into 2²⁰ weights, every implementation against a plain Go loop.
func BenchmarkDotSparse(b *testing.B) {
	benchDotSparse[float32](b)
	benchDotSparse[float64](b)
}

type axpySparseFn[T kernel.Float] func(a T, idx []int32, val, y []T)

func plainAxpySparse[T kernel.Float](a T, idx []int32, val, y []T) {
	for i, j := range idx {
		y[j] += a * val[i]
	}
}

func benchAxpySparse[T kernel.Float](b *testing.B) {
	y := randSlice[T](sparseDim, 8)
	cands := []candidate[axpySparseFn[T]]{{"auto", kernel.AxpySparse[T]}}
	names, ks := paths[T]()
	for i := range ks {
		cands = append(cands, candidate[axpySparseFn[T]]{names[i], ks[i].AxpySparse})
	}
	cands = append(cands, candidate[axpySparseFn[T]]{"plain", plainAxpySparse[T]})
	for _, rows := range []int{1, 4096} {
		for _, nnz := range []int{12, 100} {
			rs := newSparseRows[T](rows, nnz)
			for _, c := range cands {
				b.Run(fmt.Sprintf("impl=%s/type=%s/rows=%d/nnz=%d", c.name, typeName[T](), rows, nnz), func(b *testing.B) {
					r := 0
					a := T(1e-3)
					for range b.N {
						c.fn(a, rs.idx[r], rs.val[r], y)
						a = -a // keep y bounded
						if r++; r == rows {
							r = 0
						}
					}
					reportGFLOPS(b, 2*float64(nnz))
				})
			}
		}
	}
}

// BenchmarkAxpySparse is the scatter update of a perceptron mistake on a
// sparse sample.
func BenchmarkAxpySparse(b *testing.B) {
	benchAxpySparse[float32](b)
	benchAxpySparse[float64](b)
}
