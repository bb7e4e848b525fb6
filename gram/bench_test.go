package gram

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

// benchShapes are the (N, D) of the issue. The largest is left out of
// -short runs, and the generic path skips it.
var benchShapes = [][2]int{{512, 512}, {2048, 256}, {4096, 784}}

// BenchmarkGram measures the Gram matrix of an N×D data set, reporting
// GFLOP/s counted as N(N+1)·D (the multiply-adds of the triangle), for
// every path of this build ("auto" is the default choice), against gonum's
// blas32/blas64 Syrk and Gemm and vek32.MatMul (with the transpose made
// outside the timing), with 1 and 2 goroutines (GOMAXPROCS is set to the
// same number for the peers, which spread their work over it). Like the
// peers, which write into a preallocated C, ours reuse the result matrix
// (ComputeInto).
//
//	go test -run '^$' -bench 'Gram/.*/n=512/' ./gram/
func BenchmarkGram(b *testing.B) {
	var names []string
	for _, im := range kernel.Impls() {
		if im.Available() {
			names = append(names, im.Name())
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, sh := range benchShapes {
		n, d := sh[0], sh[1]
		if testing.Short() && n*n*d > 1<<30 {
			continue
		}
		x32 := randData[float32](rng, n, d)
		x64 := randData[float64](rng, n, d)
		for _, c := range benchCases(names, d) {
			if c.impl == "generic" && n*n*d > 1<<30 {
				continue // portable Go at 1-3 GFLOP/s: tens of seconds per run
			}
			for _, threads := range []int{1, 2} {
				name := fmt.Sprintf("impl=%s/type=%%s/threads=%d/n=%d/d=%d%s", c.impl, threads, n, d, c.kernel)
				if c.f32 != nil {
					b.Run(fmt.Sprintf(name, "f32"), func(b *testing.B) { benchOne(b, threads, n, d, c.f32(x32, n, d, threads)) })
				}
				if c.f64 != nil {
					b.Run(fmt.Sprintf(name, "f64"), func(b *testing.B) { benchOne(b, threads, n, d, c.f64(x64, n, d, threads)) })
				}
			}
		}
	}
}

func benchOne(b *testing.B, threads, n, d int, run func()) {
	old := runtime.GOMAXPROCS(threads)
	defer runtime.GOMAXPROCS(old)
	run() // warm up: page in the result and the packed buffers
	b.ResetTimer()
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(n)*float64(n+1)*float64(d)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
}

type benchCase struct {
	impl   string
	typ    string
	kernel string
	f32    func(X []float32, n, d, threads int) func()
	f64    func(X []float64, n, d, threads int) func()
}

func ours[T kernel.Float](impl string, k Kernel) func(X []T, n, d, threads int) func() {
	var im *kernel.Impl // nil: "auto"
	for _, c := range kernel.Impls() {
		if c.Name() == impl {
			im = c
		}
	}
	return func(X []T, n, d, threads int) func() {
		opts := &Options{Impl: im, Threads: threads}
		m := &Matrix[T]{Data: make([]T, n*n)}
		return func() {
			if _, err := ComputeInto(m, X, d, k, opts); err != nil {
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

func benchCases(paths []string, d int) []benchCase {
	var cs []benchCase
	names := append([]string{"auto"}, paths...)
	for _, k := range []Kernel{Linear{}, RBF{Gamma: 1 / float64(d)}} {
		kname := ""
		if _, ok := k.(RBF); ok {
			kname = "/kernel=rbf"
		}
		for _, name := range names {
			p := name
			if p == "auto" {
				p = ""
			}
			cs = append(cs, benchCase{impl: name, kernel: kname, f32: ours[float32](p, k), f64: ours[float64](p, k)})
		}
	}
	cs = append(cs,
		benchCase{impl: "gonum-syrk",
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
		benchCase{impl: "gonum-gemm",
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
		benchCase{impl: "vek",
			f32: func(X []float32, n, d, _ int) func() {
				xt := transpose(X, n, d)
				dst := make([]float32, n*n)
				return func() { vek32.MatMul_Into(dst, X, xt, d) }
			}},
	)
	return cs
}

// BenchmarkMicroKernel measures one path's micro-kernel alone on panels in
// the L1 cache (KC = 256): the ceiling of the blocked computation. GFLOP/s
// counts 2 per multiply-add.
func BenchmarkMicroKernel(b *testing.B) {
	for _, im := range kernel.Impls() {
		if !im.Available() {
			continue
		}
		b.Run("impl="+im.Name()+"/type=f32", func(b *testing.B) { benchMicro(b, microOf[float32](im)) })
		b.Run("impl="+im.Name()+"/type=f64", func(b *testing.B) { benchMicro(b, microOf[float64](im)) })
	}
}

func benchMicro[T kernel.Float](b *testing.B, mk *micro[T]) {
	const kc = 256
	a, bb, c := make([]T, kc*mk.mr), make([]T, kc*mk.nr), make([]T, mk.mr*mk.nr)
	for b.Loop() {
		mk.kern(kc, a, bb, c, mk.nr, true)
	}
	b.ReportMetric(2*float64(kc*mk.mr*mk.nr)*float64(b.N)/float64(b.Elapsed().Nanoseconds()), "GFLOP/s")
}
