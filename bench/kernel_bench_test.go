package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// ladder is the size ladder of the kernel benchmarks: from one element through L1, L2
// and L3 to DRAM.
var ladder = []int{1, 4, 16, 64, 256, 1024, 4096, 65536, 1 << 20}

// sinks keep results alive so the compiler cannot drop a call.
var sink32 float32
var sink64 float64

func is32[T kernel.Float]() bool {
	var z T
	return unsafe.Sizeof(z) == 4
}

func typeName[T kernel.Float]() string {
	if is32[T]() {
		return "f32"
	}
	return "f64"
}

func randSlice[T kernel.Float](n int, seed uint64) []T {
	rng := rand.New(rand.NewPCG(seed, 99))
	s := make([]T, n)
	for i := range s {
		s[i] = T(rng.Float64()*2 - 1)
	}
	return s
}

// paths returns the kernel implementations to measure: the dispatched
// package-level functions as "auto", then every implementation this CPU runs.
func paths[T kernel.Float]() (names []string, ks []kernel.Kernels[T]) {
	for _, im := range kernel.Impls() {
		if im.Available() {
			names = append(names, im.Name())
			ks = append(ks, kernel.On[T](im))
		}
	}
	return names, ks
}

// reportGFLOPS reports flopsPerOp·b.N floating-point operations over the
// benchmark's elapsed time.
func reportGFLOPS(b *testing.B, flopsPerOp float64) {
	if s := b.Elapsed().Seconds(); s > 0 {
		b.ReportMetric(flopsPerOp*float64(b.N)/s/1e9, "GFLOP/s")
	}
}

// candidate is one implementation under test. Every fn is a closure that
// calls the library's public function the way user code would, so each
// candidate pays the same one indirect call in the benchmark loop.
type candidate[F any] struct {
	name string
	fn   F // nil when the peer has no such operation for this type
}

func run[F any](b *testing.B, kernelName string, typ string, sizes []int, cands []candidate[F], body func(b *testing.B, n int, fn F)) {
	for _, c := range cands {
		if any(c.fn) == nil {
			continue
		}
		for _, n := range sizes {
			b.Run(fmt.Sprintf("impl=%s/type=%s/n=%d", c.name, typ, n), func(b *testing.B) {
				body(b, n, c.fn)
			})
		}
	}
}

// ---- Dot -------------------------------------------------------------------

type dotFn[T kernel.Float] func(x, y []T) T

func dotCandidates[T kernel.Float]() []candidate[dotFn[T]] {
	c := []candidate[dotFn[T]]{{"auto", func(x, y []T) T { return kernel.Dot(x, y) }}}
	names, ks := paths[T]()
	for i := range ks {
		k := ks[i]
		c = append(c, candidate[dotFn[T]]{names[i], func(x, y []T) T { return k.Dot(x, y) }})
	}
	var v, g dotFn[T]
	if is32[T]() {
		v = asFn[dotFn[T]](func(x, y []float32) float32 { return vek32.Dot(x, y) })
		g = asFn[dotFn[T]](func(x, y []float32) float32 {
			return blas32.Dot(blas32.Vector{N: len(x), Data: x, Inc: 1}, blas32.Vector{N: len(y), Data: y, Inc: 1})
		})
	} else {
		v = asFn[dotFn[T]](func(x, y []float64) float64 { return vek.Dot(x, y) })
		g = asFn[dotFn[T]](func(x, y []float64) float64 {
			return blas64.Dot(blas64.Vector{N: len(x), Data: x, Inc: 1}, blas64.Vector{N: len(y), Data: y, Inc: 1})
		})
	}
	return append(c, candidate[dotFn[T]]{"vek", v}, candidate[dotFn[T]]{"gonum", g}, candidate[dotFn[T]]{"plain", plainDot[T]})
}

// asFn converts a function on float32 or float64 to the same function typed
// on T, for T of that size: the peers have no generic API.
func asFn[F any, G any](g G) F { return *(*F)(unsafe.Pointer(&g)) }

func plainDot[T kernel.Float](x, y []T) T {
	var s T
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

func benchDot[T kernel.Float](b *testing.B, sizes []int) {
	run(b, "Dot", typeName[T](), sizes, dotCandidates[T](), func(b *testing.B, n int, fn dotFn[T]) {
		x, y := randSlice[T](n, 1), randSlice[T](n, 2)
		var s T
		b.ResetTimer()
		for range b.N {
			s += fn(x, y)
		}
		sink64 += float64(s)
		reportGFLOPS(b, 2*float64(n))
	})
}

// dotSameWorkingSet is the Dot length whose two vectors occupy as many bytes
// as the 4096×784 matrix of BenchmarkMatVec's shape=4096x784.
const dotSameWorkingSet = 4096 * 784 / 2

func BenchmarkDot(b *testing.B) {
	benchDot[float32](b, append(ladder[:len(ladder):len(ladder)], dotSameWorkingSet))
	benchDot[float64](b, ladder)
}

// ---- SqDist ----------------------------------------------------------------

func sqdistCandidates[T kernel.Float]() []candidate[dotFn[T]] {
	c := []candidate[dotFn[T]]{{"auto", func(x, y []T) T { return kernel.SqDist(x, y) }}}
	names, ks := paths[T]()
	for i := range ks {
		k := ks[i]
		c = append(c, candidate[dotFn[T]]{names[i], func(x, y []T) T { return k.SqDist(x, y) }})
	}
	// vek has only the Euclidean distance (a square root more); gonum has
	// no float32 distance and floats.Distance is not unit-stride assembly.
	var v dotFn[T]
	if is32[T]() {
		v = asFn[dotFn[T]](func(x, y []float32) float32 { return vek32.Distance(x, y) })
	} else {
		v = asFn[dotFn[T]](func(x, y []float64) float64 { return vek.Distance(x, y) })
	}
	return append(c, candidate[dotFn[T]]{"vek", v}, candidate[dotFn[T]]{"plain", plainSqDist[T]})
}

func plainSqDist[T kernel.Float](x, y []T) T {
	var s T
	for i := range x {
		d := x[i] - y[i]
		s += d * d
	}
	return s
}

func benchSqDist[T kernel.Float](b *testing.B) {
	run(b, "SqDist", typeName[T](), ladder, sqdistCandidates[T](), func(b *testing.B, n int, fn dotFn[T]) {
		x, y := randSlice[T](n, 1), randSlice[T](n, 2)
		var s T
		b.ResetTimer()
		for range b.N {
			s += fn(x, y)
		}
		sink64 += float64(s)
		reportGFLOPS(b, 3*float64(n))
	})
}

func BenchmarkSqDist(b *testing.B) {
	benchSqDist[float32](b)
	benchSqDist[float64](b)
}

// ---- Axpy ------------------------------------------------------------------

type axpyFn[T kernel.Float] func(a T, x, y []T)

func axpyCandidates[T kernel.Float]() []candidate[axpyFn[T]] {
	c := []candidate[axpyFn[T]]{{"auto", func(a T, x, y []T) { kernel.Axpy(a, x, y) }}}
	names, ks := paths[T]()
	for i := range ks {
		c = append(c, candidate[axpyFn[T]]{names[i], ks[i].Axpy})
	}
	// vek has no axpy (only separate multiply and add passes).
	var g axpyFn[T]
	if is32[T]() {
		g = asFn[axpyFn[T]](func(a float32, x, y []float32) {
			blas32.Axpy(a, blas32.Vector{N: len(x), Data: x, Inc: 1}, blas32.Vector{N: len(y), Data: y, Inc: 1})
		})
	} else {
		g = asFn[axpyFn[T]](func(a float64, x, y []float64) {
			blas64.Axpy(a, blas64.Vector{N: len(x), Data: x, Inc: 1}, blas64.Vector{N: len(y), Data: y, Inc: 1})
		})
	}
	return append(c, candidate[axpyFn[T]]{"gonum", g}, candidate[axpyFn[T]]{"plain", plainAxpy[T]})
}

func plainAxpy[T kernel.Float](a T, x, y []T) {
	for i := range x {
		y[i] += a * x[i]
	}
}

func benchAxpy[T kernel.Float](b *testing.B) {
	run(b, "Axpy", typeName[T](), ladder, axpyCandidates[T](), func(b *testing.B, n int, fn axpyFn[T]) {
		x, y := randSlice[T](n, 1), randSlice[T](n, 2)
		b.ResetTimer()
		for i := range b.N {
			// Alternate the sign so y stays bounded however long it runs.
			a := T(1e-3)
			if i&1 == 1 {
				a = -a
			}
			fn(a, x, y)
		}
		reportGFLOPS(b, 2*float64(n))
	})
}

func BenchmarkAxpy(b *testing.B) {
	benchAxpy[float32](b)
	benchAxpy[float64](b)
}

// ---- Scale -----------------------------------------------------------------

type scaleFn[T kernel.Float] func(a T, x []T)

func scaleCandidates[T kernel.Float]() []candidate[scaleFn[T]] {
	c := []candidate[scaleFn[T]]{{"auto", func(a T, x []T) { kernel.Scale(a, x) }}}
	names, ks := paths[T]()
	for i := range ks {
		c = append(c, candidate[scaleFn[T]]{names[i], ks[i].Scale})
	}
	var v, g scaleFn[T]
	if is32[T]() {
		v = asFn[scaleFn[T]](func(a float32, x []float32) { vek32.MulNumber_Inplace(x, a) })
		g = asFn[scaleFn[T]](func(a float32, x []float32) { blas32.Scal(a, blas32.Vector{N: len(x), Data: x, Inc: 1}) })
	} else {
		v = asFn[scaleFn[T]](func(a float64, x []float64) { vek.MulNumber_Inplace(x, a) })
		g = asFn[scaleFn[T]](func(a float64, x []float64) { blas64.Scal(a, blas64.Vector{N: len(x), Data: x, Inc: 1}) })
	}
	return append(c, candidate[scaleFn[T]]{"vek", v}, candidate[scaleFn[T]]{"gonum", g}, candidate[scaleFn[T]]{"plain", plainScale[T]})
}

func plainScale[T kernel.Float](a T, x []T) {
	for i := range x {
		x[i] *= a
	}
}

func benchScale[T kernel.Float](b *testing.B) {
	run(b, "Scale", typeName[T](), ladder, scaleCandidates[T](), func(b *testing.B, n int, fn scaleFn[T]) {
		x := randSlice[T](n, 1)
		b.ResetTimer()
		for range b.N {
			fn(-1, x) // exact and bounded: no drift into subnormals or overflow
		}
		reportGFLOPS(b, float64(n))
	})
}

func BenchmarkScale(b *testing.B) {
	benchScale[float32](b)
	benchScale[float64](b)
}

// ---- MatVec and Dots ---------------------------------------------------------

type matvecFn[T kernel.Float] func(dst, m, w []T)

func matvecCandidates[T kernel.Float](dots bool) []candidate[matvecFn[T]] {
	auto := func(dst, m, w []T) { kernel.MatVec(dst, m, w) }
	if dots {
		auto = func(dst, m, w []T) { kernel.Dots(dst, m, w) }
	}
	c := []candidate[matvecFn[T]]{{"auto", auto}}
	names, ks := paths[T]()
	for i := range ks {
		f := ks[i].MatVec
		if dots {
			f = ks[i].Dots
		}
		c = append(c, candidate[matvecFn[T]]{names[i], f})
	}
	var v, g matvecFn[T]
	if is32[T]() {
		v = asFn[matvecFn[T]](func(dst, m, w []float32) { vek32.MatMul_Into(dst, m, w, len(w)) })
		g = asFn[matvecFn[T]](func(dst, m, w []float32) {
			blas32.Gemv(blas.NoTrans, 1, blas32.General{Rows: len(dst), Cols: len(w), Stride: len(w), Data: m},
				blas32.Vector{N: len(w), Data: w, Inc: 1}, 0, blas32.Vector{N: len(dst), Data: dst, Inc: 1})
		})
	} else {
		v = asFn[matvecFn[T]](func(dst, m, w []float64) { vek.MatMul_Into(dst, m, w, len(w)) })
		g = asFn[matvecFn[T]](func(dst, m, w []float64) {
			blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: len(dst), Cols: len(w), Stride: len(w), Data: m},
				blas64.Vector{N: len(w), Data: w, Inc: 1}, 0, blas64.Vector{N: len(dst), Data: dst, Inc: 1})
		})
	}
	return append(c, candidate[matvecFn[T]]{"vek", v}, candidate[matvecFn[T]]{"gonum", g}, candidate[matvecFn[T]]{"plain", plainMatVec[T]})
}

func plainMatVec[T kernel.Float](dst, m, w []T) {
	d := len(w)
	for i := range dst {
		dst[i] = plainDot(m[i*d:i*d+d], w)
	}
}

type shape struct {
	label   string
	rows, d int
}

// matvecShapes: the ladder by matrix size with rows of 256 (shorter rows
// for the smallest sizes), and the 4096×784 shape of Fashion-MNIST margins.
func matvecShapes() []shape {
	var s []shape
	for _, n := range ladder {
		d := min(n, 256)
		s = append(s, shape{fmt.Sprintf("n=%d", n), n / d, d})
	}
	return append(s, shape{"n=4096x784", 4096, 784})
}

// dotsShapes: ten classes scored against one sample of the ladder's length.
func dotsShapes() []shape {
	var s []shape
	for _, n := range ladder {
		s = append(s, shape{fmt.Sprintf("n=%d", n), 10, n})
	}
	return s
}

func benchMatVec[T kernel.Float](b *testing.B, dots bool, shapes []shape) {
	for _, c := range matvecCandidates[T](dots) {
		for _, sh := range shapes {
			b.Run(fmt.Sprintf("impl=%s/type=%s/%s", c.name, typeName[T](), sh.label), func(b *testing.B) {
				m, w := randSlice[T](sh.rows*sh.d, 1), randSlice[T](sh.d, 2)
				dst := make([]T, sh.rows)
				b.ResetTimer()
				for range b.N {
					c.fn(dst, m, w)
				}
				reportGFLOPS(b, 2*float64(sh.rows*sh.d))
			})
		}
	}
}

func BenchmarkMatVec(b *testing.B) {
	benchMatVec[float32](b, false, matvecShapes())
	benchMatVec[float64](b, false, matvecShapes())
}

func BenchmarkDots(b *testing.B) {
	benchMatVec[float32](b, true, dotsShapes())
	benchMatVec[float64](b, true, dotsShapes())
}
