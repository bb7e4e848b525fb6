package bench

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// gramShapes are the (N, D) of gram's BenchmarkGram. The largest is left
// out of -short runs.
var gramShapes = [][2]int{{512, 512}, {2048, 256}, {4096, 784}}

// BenchmarkGram measures the Gram matrix of an N×D data set, reporting
// GFLOP/s counted as N(N+1)·D (the multiply-adds of the triangle), for
// gram.ComputeInto on the active implementation ("auto"; gram's own
// BenchmarkGram walks every implementation) against gonum's blas32/blas64
// Syrk and Gemm and vek32.MatMul (with the transpose made outside the
// timing), with 1 and 2 goroutines (GOMAXPROCS is set to the same number
// for the peers, which spread their work over it). Like the peers, which
// write into a preallocated C, ours reuses the result matrix.
//
//	cd bench && go test -run '^$' -bench 'Gram/.*/n=512/' .
func BenchmarkGram(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sh := range gramShapes {
		n, d := sh[0], sh[1]
		if testing.Short() && n*n*d > 1<<30 {
			continue
		}
		x32 := randGram[float32](rng, n, d)
		x64 := randGram[float64](rng, n, d)
		for _, c := range gramCases(d) {
			for _, threads := range []int{1, 2} {
				name := fmt.Sprintf("impl=%s/type=%%s/threads=%d/n=%d/d=%d%s", c.impl, threads, n, d, c.kernel)
				if c.f32 != nil {
					b.Run(fmt.Sprintf(name, "f32"), func(b *testing.B) { benchGramOne(b, threads, n, d, c.f32(x32, n, d, threads)) })
				}
				if c.f64 != nil {
					b.Run(fmt.Sprintf(name, "f64"), func(b *testing.B) { benchGramOne(b, threads, n, d, c.f64(x64, n, d, threads)) })
				}
			}
		}
	}
}

func randGram[T kernel.Float](rng *rand.Rand, n, d int) []T {
	x := make([]T, n*d)
	for i := range x {
		x[i] = T(rng.Float64()*2 - 1)
	}
	return x
}

func benchGramOne(b *testing.B, threads, n, d int, run func()) {
	old := runtime.GOMAXPROCS(threads)
	defer runtime.GOMAXPROCS(old)
	run() // warm up: page in the result and the packed buffers
	b.ResetTimer()
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(n)*float64(n+1)*float64(d)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
}

type gramCase struct {
	impl   string
	kernel string
	f32    func(X []float32, n, d, threads int) func()
	f64    func(X []float64, n, d, threads int) func()
}

func oursGram[T kernel.Float](k gram.Kernel) func(X []T, n, d, threads int) func() {
	return func(X []T, n, d, threads int) func() {
		opts := &gram.Options{Threads: threads}
		m := &gram.Matrix[T]{Data: make([]T, n*n)}
		return func() {
			if _, err := gram.ComputeInto(m, X, d, k, opts); err != nil {
				panic(err)
			}
		}
	}
}

func transpose[T kernel.Float](X []T, n, d int) []T {
	t := make([]T, len(X))
	for i := 0; i < n; i++ {
		for k := 0; k < d; k++ {
			t[k*n+i] = X[i*d+k]
		}
	}
	return t
}

func gramCases(d int) []gramCase {
	return []gramCase{
		{impl: "auto", f32: oursGram[float32](gram.Linear{}), f64: oursGram[float64](gram.Linear{})},
		{impl: "auto", kernel: "/kernel=rbf", f32: oursGram[float32](gram.RBF{Gamma: 1 / float64(d)}), f64: oursGram[float64](gram.RBF{Gamma: 1 / float64(d)})},
		{impl: "gonum-syrk",
			f32: func(X []float32, n, d, _ int) func() {
				c := blas32.Symmetric{N: n, Stride: n, Data: make([]float32, n*n), Uplo: blas.Lower}
				a := blas32.General{Rows: n, Cols: d, Stride: d, Data: X}
				return func() { blas32.Syrk(blas.NoTrans, 1, a, 0, c) }
			},
			f64: func(X []float64, n, d, _ int) func() {
				c := blas64.Symmetric{N: n, Stride: n, Data: make([]float64, n*n), Uplo: blas.Lower}
				a := blas64.General{Rows: n, Cols: d, Stride: d, Data: X}
				return func() { blas64.Syrk(blas.NoTrans, 1, a, 0, c) }
			}},
		{impl: "gonum-gemm",
			f32: func(X []float32, n, d, _ int) func() {
				c := blas32.General{Rows: n, Cols: n, Stride: n, Data: make([]float32, n*n)}
				a := blas32.General{Rows: n, Cols: d, Stride: d, Data: X}
				return func() { blas32.Gemm(blas.NoTrans, blas.Trans, 1, a, a, 0, c) }
			},
			f64: func(X []float64, n, d, _ int) func() {
				c := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
				a := blas64.General{Rows: n, Cols: d, Stride: d, Data: X}
				return func() { blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, a, 0, c) }
			}},
		{impl: "vek",
			f32: func(X []float32, n, d, _ int) func() {
				xt := transpose(X, n, d)
				dst := make([]float32, n*n)
				return func() { vek32.MatMul_Into(dst, X, xt, d) }
			}},
	}
}
