package bench

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// ---- the sparse dot at few non-zeros: is a Go small path worth it? -----------
//
// BenchmarkDotSparseSmall asks whether kernel.DotSparse should run a Go
// loop below some number of non-zeros instead of calling its assembly. It
// measures, against the plain loop, the two forms such a path could take:
//
//   - go4-call: a non-generic Go function per element type (nine words of
//     arguments, all in registers: what DotSparse, whose inliner budget the
//     assembly call already fills, would call below the threshold), with
//     four partial sums and the bounds checks of four non-zeros in one;
//   - go4-inline: the same loop written into the caller, the best any Go
//     small path can do (no call at all).
//
// Each in two harnesses: loop=closure calls every candidate through a
// closure, as BenchmarkDotSparse does (both sides pay one indirect call);
// loop=direct calls kernel.DotSparse, or runs the loop, in the benchmark
// loop itself, as a trainer's loop over samples does.

// dotSparse4F32 and dotSparse4F64 keep four partial sums; one bounds check
// covers idx and val of four non-zeros (the gathers are checked each).
func dotSparse4F32(idx []int32, val, w []float32) float32 {
	val = val[:len(idx)]
	var s0, s1, s2, s3 float32
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
	return (s0 + s1) + (s2 + s3)
}

func dotSparse4F64(idx []int32, val, w []float64) float64 {
	val = val[:len(idx)]
	var s0, s1, s2, s3 float64
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
	return (s0 + s1) + (s2 + s3)
}

// asF32 and asF64 view a []T as the slice of its type (T's size picks
// which, the test folding away where T is known), as package kernel does.
func asF32[T kernel.Float](s []T) []float32 { return *(*[]float32)(unsafe.Pointer(&s)) }
func asF64[T kernel.Float](s []T) []float64 { return *(*[]float64)(unsafe.Pointer(&s)) }
func is4[T kernel.Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

// The direct harness: one loop of n calls per candidate, each call or loop
// written out in it.

func directAuto[T kernel.Float](n int, rs sparseRows[T], w []T) T {
	var s T
	r := 0
	for range n {
		s += kernel.DotSparse(rs.idx[r], rs.val[r], w)
		if r++; r == len(rs.idx) {
			r = 0
		}
	}
	return s
}

func directGo4Call[T kernel.Float](n int, rs sparseRows[T], w []T) T {
	var s T
	r := 0
	for range n {
		if is4[T]() {
			s += T(dotSparse4F32(rs.idx[r], asF32(rs.val[r]), asF32(w)))
		} else {
			s += T(dotSparse4F64(rs.idx[r], asF64(rs.val[r]), asF64(w)))
		}
		if r++; r == len(rs.idx) {
			r = 0
		}
	}
	return s
}

func directGo4Inline[T kernel.Float](n int, rs sparseRows[T], w []T) T {
	var s T
	r := 0
	for range n {
		idx, val := rs.idx[r], rs.val[r]
		val = val[:len(idx)]
		var s0, s1, s2, s3 T
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
		s += (s0 + s1) + (s2 + s3)
		if r++; r == len(rs.idx) {
			r = 0
		}
	}
	return s
}

func directPlain[T kernel.Float](n int, rs sparseRows[T], w []T) T {
	var s T
	r := 0
	for range n {
		idx, val := rs.idx[r], rs.val[r]
		var t T
		for k, j := range idx {
			t += val[k] * w[j]
		}
		s += t
		if r++; r == len(rs.idx) {
			r = 0
		}
	}
	return s
}

func smallClosures[T kernel.Float]() []candidate[dotSparseFn[T]] {
	return []candidate[dotSparseFn[T]]{
		{"auto", func(idx []int32, val, w []T) T { return kernel.DotSparse(idx, val, w) }},
		{"go4-call", func(idx []int32, val, w []T) T {
			if is4[T]() {
				return T(dotSparse4F32(idx, asF32(val), asF32(w)))
			}
			return T(dotSparse4F64(idx, asF64(val), asF64(w)))
		}},
		{"go4-inline", func(idx []int32, val, w []T) T {
			val = val[:len(idx)]
			var s0, s1, s2, s3 T
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
			return (s0 + s1) + (s2 + s3)
		}},
		{"plain", func(idx []int32, val, w []T) T { return plainDotSparse(idx, val, w) }},
	}
}

type directFn[T kernel.Float] func(n int, rs sparseRows[T], w []T) T

func smallDirect[T kernel.Float]() []candidate[directFn[T]] {
	return []candidate[directFn[T]]{
		{"auto", directAuto[T]}, {"go4-call", directGo4Call[T]}, {"go4-inline", directGo4Inline[T]}, {"plain", directPlain[T]},
	}
}

func benchDotSparseSmall[T kernel.Float](b *testing.B) {
	w := randSlice[T](sparseDim, 7)
	closure, direct := smallClosures[T](), smallDirect[T]()
	for _, rows := range []int{1, 4096} {
		for _, nnz := range []int{4, 12, 16, 100} {
			rs := newSparseRows[T](rows, nnz)
			for _, c := range closure {
				b.Run(fmt.Sprintf("loop=closure/type=%s/rows=%d/nnz=%d/impl=%s", typeName[T](), rows, nnz, c.name), func(b *testing.B) {
					sink64 += float64(closureLoop(c.fn, b.N, rs, w))
				})
			}
			for _, c := range direct {
				b.Run(fmt.Sprintf("loop=direct/type=%s/rows=%d/nnz=%d/impl=%s", typeName[T](), rows, nnz, c.name), func(b *testing.B) {
					sink64 += float64(c.fn(b.N, rs, w))
				})
			}
		}
	}
}

// BenchmarkDotSparseSmall compares kernel.DotSparse with the Go small
// paths it could take, and with the plain loop, at 4 to 100 non-zeros.
func BenchmarkDotSparseSmall(b *testing.B) {
	benchDotSparseSmall[float32](b)
	benchDotSparseSmall[float64](b)
}

// TestDotSparseSmallCandidates checks the candidates against the plain loop
// on small integers, where every order of summation is exact.
func TestDotSparseSmallCandidates(t *testing.T) {
	testDotSparseSmallCandidates[float32](t)
	testDotSparseSmallCandidates[float64](t)
}

func testDotSparseSmallCandidates[T kernel.Float](t *testing.T) {
	w := make([]T, 1000)
	for i := range w {
		w[i] = T(i%9) - 4
	}
	for nnz := range 40 {
		idx, val := make([]int32, nnz), make([]T, nnz)
		for i := range idx {
			idx[i], val[i] = int32(i*37%1000), T(i%5)-2
		}
		want := plainDotSparse(idx, val, w)
		for _, c := range smallClosures[T]() {
			if got := c.fn(idx, val, w); got != want {
				t.Fatalf("%s nnz=%d: %s %v, want %v", typeName[T](), nnz, c.name, got, want)
			}
		}
		for _, c := range smallDirect[T]() {
			rs := sparseRows[T]{idx: [][]int32{idx}, val: [][]T{val}}
			if got := c.fn(1, rs, w); got != want {
				t.Fatalf("%s nnz=%d: direct %s %v, want %v", typeName[T](), nnz, c.name, got, want)
			}
		}
	}
}
