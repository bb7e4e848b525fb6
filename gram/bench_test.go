package gram

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// benchShapes are the (N, D) of the Gram benchmarks. The largest is left out of
// -short runs, and the generic path skips it.
var benchShapes = [][2]int{{512, 512}, {2048, 256}, {4096, 784}}

// BenchmarkGram measures the Gram matrix of an N×D data set, reporting
// GFLOP/s counted as N(N+1)·D (the multiply-adds of the triangle), for
// every implementation of this build ("auto" is the default choice), with 1
// and 2 goroutines, reusing the result matrix (ComputeInto). The comparison
// with gonum's Syrk and Gemm and vek32.MatMul in the same run is
// BenchmarkGram of the bench module (bench/gram_bench_test.go), which keeps
// those dependencies out of this module's go.mod.
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

// BenchmarkRowBatch measures kernel rows of a 10 000 × 784 float32 set (the
// size of the kernel perceptron's Fashion-MNIST benchmark) with the RBF
// kernel: one row by Rows.Row, and batches of 1, 16 and 256 rows by
// Rows.RowBatch, on 2 goroutines, reporting the time per row (ms/row).
//
//	go test -run '^$' -bench RowBatch ./gram/
func BenchmarkRowBatch(b *testing.B) {
	n, d := 10000, 784
	if testing.Short() {
		n = 2000
	}
	X := randData[float32](rand.New(rand.NewPCG(13, 14)), n, d)
	r, err := NewRows(X, d, RBF{Gamma: 1.0 / float64(d)}, &Options{Threads: 2})
	if err != nil {
		b.Fatal(err)
	}
	perRow := func(b *testing.B, rows int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N*rows), "ms/row")
	}
	b.Run(fmt.Sprintf("n=%d/d=%d/rows=1/Row", n, d), func(b *testing.B) {
		var dst []float32
		for i := 0; b.Loop(); i++ {
			dst = r.Row(dst, i%n)
		}
		perRow(b, 1)
	})
	for _, m := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("n=%d/d=%d/rows=%d/RowBatch", n, d, m), func(b *testing.B) {
			idx := make([]int, m)
			var dst [][]float32
			for k := 0; b.Loop(); k++ {
				for q := range idx {
					idx[q] = (k*m + q*37) % n
				}
				dst = r.RowBatch(dst, idx)
			}
			perRow(b, m)
		})
	}
}
