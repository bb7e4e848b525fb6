//go:build amd64 && !purego

package kernel

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkDotSparseLoops compares the sparse dot's assembly on each
// available amd64 path with the Go loops, from 8 to 100 non-zeros: 2²⁰
// float32/float64 weights, random sorted indices as in
// bench/sparse_bench_test.go. (At commit b2a653d it also measured
// VGATHERDPS/VGATHERDPD loops: bench/results/kernels/sparse-gather-vs-scalar-zen5.txt.)
func BenchmarkDotSparseLoops(b *testing.B) {
	benchDotSparseLoops[float32](b)
	benchDotSparseLoops[float64](b)
}

func benchDotSparseLoops[T Float](b *testing.B) {
	const d = 1 << 20
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]T, d)
	for i := range w {
		w[i] = T(rng.Float64() - 0.5)
	}
	var sink T
	for _, rows := range []int{1, 4096} {
		for _, nnz := range []int{8, 12, 16, 24, 32, 48, 100} {
			idx, val := sparseBenchRows[T](rng, rows, nnz, d)
			type loop struct {
				name string
				fn   func(idx []int32, val, w []T) T
			}
			loops := []loop{{"go", dotSparseGeneric[T]}, {"plain", func(idx []int32, val, w []T) T {
				var s T
				for i, j := range idx {
					s += val[i] * w[j]
				}
				return s
			}}}
			for _, im := range archImpls() {
				if im.available {
					loops = append(loops, loop{im.name, Kernels[T]{im: im}.DotSparse})
				}
			}
			for _, l := range loops {
				var z T
				b.Run(fmt.Sprintf("%T/rows=%d/nnz=%d/%s", z, rows, nnz, l.name), func(b *testing.B) {
					r := 0
					for range b.N {
						sink += l.fn(idx[r], val[r], w)
						if r++; r == rows {
							r = 0
						}
					}
				})
			}
		}
	}
	_ = sink
}

// BenchmarkAxpySparseLoops compares the scatter axpy's assembly with the
// Go loops (2²⁰ weights, sorted random indices).
func BenchmarkAxpySparseLoops(b *testing.B) {
	benchAxpySparseLoops[float32](b)
	benchAxpySparseLoops[float64](b)
}

func benchAxpySparseLoops[T Float](b *testing.B) {
	const d = 1 << 20
	rng := rand.New(rand.NewPCG(5, 6))
	y := make([]T, d)
	for _, rows := range []int{1, 4096} {
		for _, nnz := range []int{12, 100} {
			idx, val := sparseBenchRows[T](rng, rows, nnz, d)
			type loop struct {
				name string
				fn   func(a T, idx []int32, val, y []T)
			}
			loops := []loop{{"go", axpySparseGeneric[T]}, {"plain", func(a T, idx []int32, val, y []T) {
				for i, j := range idx {
					y[j] += a * val[i]
				}
			}}}
			for _, im := range archImpls() {
				if im.available {
					loops = append(loops, loop{im.name, Kernels[T]{im: im}.AxpySparse})
				}
			}
			for _, l := range loops {
				var z T
				b.Run(fmt.Sprintf("%T/rows=%d/nnz=%d/%s", z, rows, nnz, l.name), func(b *testing.B) {
					r := 0
					a := T(1e-3)
					for range b.N {
						l.fn(a, idx[r], val[r], y)
						a = -a
						if r++; r == rows {
							r = 0
						}
					}
				})
			}
		}
	}
}

// sparseBenchRows returns rows sparse vectors of nnz sorted random indices
// below d and values in [0, 1).
func sparseBenchRows[T Float](rng *rand.Rand, rows, nnz, d int) ([][]int32, [][]T) {
	idx := make([][]int32, rows)
	val := make([][]T, rows)
	for r := range rows {
		idx[r] = make([]int32, nnz)
		val[r] = make([]T, nnz)
		for i := range nnz {
			idx[r][i] = int32(rng.IntN(d))
			val[r][i] = T(rng.Float64())
		}
		slices.Sort(idx[r])
	}
	return idx, val
}
