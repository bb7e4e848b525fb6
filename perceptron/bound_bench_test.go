package perceptron

import (
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/internal/roofline"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// BenchmarkPredictBound puts PredictBatch (200 × 784 float32, a binary and
// a 10-class one-vs-rest model) next to its peers and to the roofs that
// bound it, all in one run so that every ratio is a same-run ratio (issue
// 13's target: PredictBatch per sample ≤ 0.5× the single-sample Predict).
// The kind= sub-benchmarks and roof=l2read report ns/sample:
//
//   - kind=…/op=predict1: Predict of one sample, kept hot in L1 (the
//     issue's baseline);
//   - kind=…/op=loop200: Predict of each of the 200 distinct samples in
//     turn (the per-request baseline: the samples come from L2);
//   - kind=…/op=batch200: PredictBatch of the 200 samples;
//   - kind=…/op=batch200split2: PredictBatch split over two goroutines
//     (linmodel.ParallelMinWork lowered: by default a batch this small runs on one);
//   - kind=…/op=batch100x2: two goroutines, each locked to its thread,
//     each calling PredictBatch on its own half of the batch in a loop
//     (the aggregate rate: what two cores give when nothing is started,
//     joined or moved between their caches);
//   - kind=…/op=kernel100x2: the same with the kernel calls alone;
//   - kind=…/op=kernel200: the kernel calls PredictBatch makes, alone
//     (kernel.MatVec over the batch, modelkern.Dots2 over its pairs);
//   - roof=fma/threads=1|2: the FMA peak of the active implementation
//     (roofline's FMA loop, on one goroutine, then on two at once),
//     expressed as the time of one sample's multiply-adds (784 for binary
//     in ns/binary-sample, 7840 in ns/ovr10-sample) at that rate, and in
//     GFLOP/s;
//   - roof=l2read/threads=1|2: roofline's streaming read loop over the
//     batch's 627 200 bytes (one thread reading all of it, or two threads
//     one half each, as a split batch would), as ns per sample's 3136
//     bytes, and in GB/s;
//   - roof=forkjoin/threads=1|2: two parts of 1024 FMA-loop iterations,
//     one after the other or by parallel.Run on two goroutines (a split's
//     start and join), in ns/op;
//   - roof=clock: the clock the core runs at (roofline.Chain), in GHz.
//
// Run with (see bench/results/perceptron/predict-bound-zen5.txt)
//
//	go test -run '^$' -bench '^BenchmarkPredictBound$' -count 10 ./perceptron
func BenchmarkPredictBound(b *testing.B) {
	const d, n = predictDims, 200
	X, bin, ovr := predictModels(b, n)
	perSample := func(b *testing.B, samples int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*samples), "ns/sample")
	}
	// runOn runs op on one goroutine, or on t goroutines at once
	// (b.RunParallel with GOMAXPROCS of them, each locked to its thread),
	// giving each its index.
	runOn := func(b *testing.B, t int, op func(id int)) {
		if t == 1 {
			for b.Loop() {
				op(0)
			}
			return
		}
		b.SetParallelism(1)
		var next atomic.Int32
		b.RunParallel(func(pb *testing.PB) {
			runtime.LockOSThread() // each goroutine keeps its core's L2
			defer runtime.UnlockOSThread()
			id := int(next.Add(1) - 1)
			for pb.Next() {
				op(id)
			}
		})
	}
	x := X[3*d : 4*d]
	for _, c := range []struct {
		name string
		m    *linear.Model[float32]
	}{{"binary", bin}, {"ovr10", ovr}} {
		b.Run("kind="+c.name+"/op=predict1", func(b *testing.B) {
			for b.Loop() {
				if _, err := c.m.Predict(x); err != nil {
					b.Fatal(err)
				}
			}
			perSample(b, 1)
		})
		b.Run("kind="+c.name+"/op=loop200", func(b *testing.B) {
			for b.Loop() {
				for i := range n {
					if _, err := c.m.Predict(X[i*d : (i+1)*d]); err != nil {
						b.Fatal(err)
					}
				}
			}
			perSample(b, n)
		})
		b.Run("kind="+c.name+"/op=batch200", func(b *testing.B) {
			dst := make([]int, n)
			for b.Loop() {
				if err := c.m.PredictBatch(dst, X); err != nil {
					b.Fatal(err)
				}
			}
			perSample(b, n)
		})
		b.Run("kind="+c.name+"/op=batch200split2", func(b *testing.B) {
			if runtime.GOMAXPROCS(0) < 2 {
				b.Skip("GOMAXPROCS < 2")
			}
			defer func(w int) { linmodel.ParallelMinWork = w }(linmodel.ParallelMinWork)
			linmodel.ParallelMinWork = 1 // workers = min(GOMAXPROCS, n/4, …) = 2
			dst := make([]int, n)
			for b.Loop() {
				if err := c.m.PredictBatch(dst, X); err != nil {
					b.Fatal(err)
				}
			}
			perSample(b, n)
		})
		b.Run("kind="+c.name+"/op=batch100x2", func(b *testing.B) {
			// Two goroutines, each locked to its thread, each labelling
			// its own half of the batch over and over: what two cores
			// give without a split's start, join and data movement.
			if runtime.GOMAXPROCS(0) != 2 {
				b.Skipf("GOMAXPROCS is %d", runtime.GOMAXPROCS(0))
			}
			dsts := [2][]int{make([]int, n/2), make([]int, n/2)}
			runOn(b, 2, func(id int) {
				if err := c.m.PredictBatch(dsts[id], X[id*n/2*d:(id+1)*n/2*d]); err != nil {
					b.Error(err) // not Fatal: off the benchmark's goroutine
				}
			})
			perSample(b, n/2)
		})
		b.Run("kind="+c.name+"/op=kernel100x2", func(b *testing.B) {
			if runtime.GOMAXPROCS(0) != 2 {
				b.Skipf("GOMAXPROCS is %d", runtime.GOMAXPROCS(0))
			}
			W := snap(c.m).W
			r := len(W) / d
			dsts := [2][]float32{make([]float32, n/2*r), make([]float32, n/2*r)}
			runOn(b, 2, func(id int) {
				dst, Xh := dsts[id], X[id*n/2*d:(id+1)*n/2*d]
				if r == 1 {
					kernel.MatVec(dst, Xh, W)
					return
				}
				for i := 0; i < n/2; i += 2 {
					modelkern.Dots2(dst[i*r:(i+2)*r], W, Xh[i*d:(i+2)*d])
				}
			})
			perSample(b, n/2)
		})
		b.Run("kind="+c.name+"/op=kernel200", func(b *testing.B) {
			W := snap(c.m).W
			r := len(W) / d
			dst := make([]float32, n*r)
			for b.Loop() {
				if r == 1 {
					kernel.MatVec(dst, X, W)
					continue
				}
				for i := 0; i < n; i += 2 {
					modelkern.Dots2(dst[i*r:(i+2)*r], W, X[i*d:(i+2)*d])
				}
			}
			perSample(b, n)
		})
	}

	l := roofline.For(kernel.ActiveImpl())
	if l == nil {
		b.Skip("no roofline loops for implementation", kernel.ActiveImpl().Name())
	}
	threads := []int{1}
	if runtime.GOMAXPROCS(0) >= 2 {
		threads = append(threads, 2)
	}
	for _, t := range threads {
		b.Run("roof=fma/threads="+strconv.Itoa(t), func(b *testing.B) {
			if t > 1 && runtime.GOMAXPROCS(0) != t {
				b.Skipf("GOMAXPROCS is %d", runtime.GOMAXPROCS(0))
			}
			const iters = 4096
			var sinks [2]float32
			runOn(b, t, func(id int) { sinks[id%2] += l.FMA32(iters, 1) })
			lanes := float64(l.Lanes(4))
			fmas := float64(b.N) * iters * float64(l.FMAChains) * lanes // multiply-adds (lanes)
			ns := float64(b.Elapsed().Nanoseconds())
			b.ReportMetric(ns/fmas*d, "ns/binary-sample")
			b.ReportMetric(ns/fmas*10*d, "ns/ovr10-sample")
			b.ReportMetric(2*fmas/ns, "GFLOP/s")
		})
	}
	buf := make([]uint64, n*d/2) // the batch's bytes
	copy(roofline.Float32s(buf), X)
	for _, t := range threads {
		b.Run("roof=l2read/threads="+strconv.Itoa(t), func(b *testing.B) {
			if t > 1 && runtime.GOMAXPROCS(0) != t {
				b.Skipf("GOMAXPROCS is %d", runtime.GOMAXPROCS(0))
			}
			part := len(buf) / t
			var sinks [2]uint64
			runOn(b, t, func(id int) { sinks[id%2] += l.Read(buf[id*part:(id+1)*part], 1) })
			ns := float64(b.Elapsed().Nanoseconds())
			bytes := float64(b.N) * float64(part*8)
			b.ReportMetric(ns/bytes*4*d, "ns/sample")
			b.ReportMetric(bytes/ns, "GB/s")
		})
	}
	for _, t := range threads {
		b.Run("roof=forkjoin/threads="+strconv.Itoa(t), func(b *testing.B) {
			// What a split pays on top of its work: two parts of 1024
			// iterations of the FMA loop each (some 3.7 µs), run one after
			// the other (threads=1) or by parallel.Run on two goroutines
			// (threads=2), as a split batch's parts are.
			const iters = 1024
			var sinks [2]float32
			for b.Loop() {
				if t == 1 {
					sinks[0] += l.FMA32(iters, 1)
					sinks[1] += l.FMA32(iters, 1)
					continue
				}
				parallel.Run(2, func(id int) { sinks[id] += l.FMA32(iters, 1) })
			}
		})
	}
	b.Run("roof=clock", func(b *testing.B) {
		const iters = 4096
		var sink uint64
		for b.Loop() {
			sink += roofline.Chain(iters)
		}
		b.ReportMetric(float64(b.N)*iters*roofline.ChainSteps/float64(b.Elapsed().Nanoseconds()), "GHz")
	})
}
