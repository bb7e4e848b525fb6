package perceptron

import (
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/internal/roofline"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// BenchmarkPredictBound puts PredictBatch (200 × 784 float32, a binary and
// a 10-class one-vs-rest model) next to its peers and to the roofs that
// bound it, all in one run so that every ratio is a same-run ratio (issue
// 13's target: PredictBatch per sample ≤ 0.5× the single-sample Predict).
// Every sub-benchmark reports ns/sample:
//
//   - kind=…/op=predict1: Predict of one sample, kept hot in L1 (the
//     issue's baseline);
//   - kind=…/op=loop200: Predict of each of the 200 distinct samples in
//     turn (the per-request baseline: the samples come from L2);
//   - kind=…/op=batch200: PredictBatch of the 200 samples;
//   - kind=…/op=kernel200: the kernel calls PredictBatch makes, alone
//     (kernel.MatVec over the batch, kernel.Dots2 over its pairs);
//   - roof=fma/threads=1|2: the FMA peak of the active implementation
//     (roofline's FMA loop, on one goroutine, then on two at once),
//     expressed as the time of one sample's multiply-adds (784 for binary
//     in ns/binary-sample, 7840 in ns/ovr10-sample) at that rate, and in
//     GFLOP/s;
//   - roof=l2read/threads=1|2: roofline's streaming read loop over the
//     batch's 627 200 bytes (one thread reading all of it, or two threads
//     one half each, as a split batch would), as ns per sample's 3136
//     bytes, and in GB/s;
//   - roof=clock: the clock the core runs at (roofline.Chain), in GHz.
//
// Run with (see bench/results/predict-bound-zen5.txt)
//
//	go test -run '^$' -bench '^BenchmarkPredictBound$' -count 10 ./perceptron
func BenchmarkPredictBound(b *testing.B) {
	const d, n = 784, 200
	rng := newRand(1)
	X := make([]float32, n*d)
	yb := make([]int, n)
	ym := make([]int, n)
	for i := range X {
		X[i] = float32(rng.Float64())
	}
	for i := range yb {
		yb[i] = 1 - 2*(i%2)
		ym[i] = i % 10
	}
	bin, _, err := Train(X, d, yb, Options{MaxIter: 2})
	if err != nil {
		b.Fatal(err)
	}
	ovr, _, err := TrainMulticlass(X, d, ym, Options{MaxIter: 2})
	if err != nil {
		b.Fatal(err)
	}
	perSample := func(b *testing.B, samples int) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*samples), "ns/sample")
	}
	x := X[3*d : 4*d]
	for _, c := range []struct {
		name string
		m    *Model[float32]
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
		b.Run("kind="+c.name+"/op=kernel200", func(b *testing.B) {
			W := c.m.st.Load().W
			r := len(W) / d
			dst := make([]float32, n*r)
			for b.Loop() {
				if r == 1 {
					kernel.MatVec(dst, X, W)
					continue
				}
				for i := 0; i < n; i += 2 {
					kernel.Dots2(dst[i*r:(i+2)*r], W, X[i*d:(i+2)*d])
				}
			}
			perSample(b, n)
		})
	}

	l := roofline.For(kernel.ActiveImpl())
	if l == nil {
		b.Skip("no roofline loops for implementation", kernel.Active())
	}
	threads := []int{1}
	if runtime.GOMAXPROCS(0) >= 2 {
		threads = append(threads, 2)
	}
	// parallel runs op on one goroutine, or on t goroutines at once
	// (b.RunParallel with GOMAXPROCS of them), giving each its index.
	parallel := func(b *testing.B, t int, op func(id int)) {
		if t == 1 {
			for b.Loop() {
				op(0)
			}
			return
		}
		b.SetParallelism(1)
		var next atomic.Int32
		b.RunParallel(func(pb *testing.PB) {
			id := int(next.Add(1) - 1)
			for pb.Next() {
				op(id)
			}
		})
	}
	for _, t := range threads {
		b.Run("roof=fma/threads="+strconv.Itoa(t), func(b *testing.B) {
			if t > 1 && runtime.GOMAXPROCS(0) != t {
				b.Skipf("GOMAXPROCS is %d", runtime.GOMAXPROCS(0))
			}
			const iters = 4096
			var sinks [2]float32
			parallel(b, t, func(id int) { sinks[id%2] += l.FMA32(iters, 1) })
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
			parallel(b, t, func(id int) { sinks[id%2] += l.Read(buf[id*part:(id+1)*part], 1) })
			ns := float64(b.Elapsed().Nanoseconds())
			bytes := float64(b.N) * float64(part*8)
			b.ReportMetric(ns/bytes*4*d, "ns/sample")
			b.ReportMetric(bytes/ns, "GB/s")
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
