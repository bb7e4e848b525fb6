package perceptron

import (
	"fmt"
	"sync"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/fixtures"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Training benchmarks: one iteration is one whole fit. Each reports the
// test accuracy of the fitted model (test-acc) and the training throughput
// in samples × epochs per second (sample-epochs/s). Run them with e.g.
//
//	go test -run '^$' -bench 'trainBinary/data=fashion-mnist' -benchtime 3x ./perceptron

type benchSet struct {
	train, test *dataset.Data[float32]
}

var (
	benchOnce  sync.Map // name → *sync.Once
	benchCache sync.Map // name → *benchSet
)

func benchData(b *testing.B, name string) *benchSet {
	b.Helper()
	o, _ := benchOnce.LoadOrStore(name, new(sync.Once))
	o.(*sync.Once).Do(func() {
		var s benchSet
		switch name {
		case "fashion-mnist":
			s.train, s.test = loadFashion(b, "train"), loadFashion(b, "t10k")
		case "synth256":
			s.train, s.test = fixtures.Synth256(fixtures.Synth256Train, fixtures.Synth256Test)
		case "breast-cancer":
			s.train = loadSet[float32](b, "breast_cancer_std.train.libsvm", 30)
			s.test = loadSet[float32](b, "breast_cancer_std.test.libsvm", 30)
		case "digits":
			s.train = loadSet[float32](b, "digits.train.libsvm", 64)
			s.test = loadSet[float32](b, "digits.test.libsvm", 64)
		}
		benchCache.Store(name, &s)
	})
	s, ok := benchCache.Load(name)
	if !ok {
		b.Skipf("data set %s unavailable", name)
	}
	return s.(*benchSet)
}

type benchFit struct {
	algo  string
	multi bool
	opt   Options
}

func BenchmarkTrain(b *testing.B) {
	shuffled := func(a linear.Algorithm, s fit.Scheme, epochs int) Options {
		return Options{Algorithm: a, Multiclass: s, MaxIter: epochs, Shuffle: true, Seed: 1, Lambda: 1e-4}
	}
	sets := []struct {
		data string
		fits []benchFit
	}{
		{"fashion-mnist", []benchFit{
			{"averaged-ovr", true, shuffled(linear.Averaged, fit.OneVsRest, 10)},
			{"averaged-ovr-1goroutine", true, func() Options { o := shuffled(linear.Averaged, fit.OneVsRest, 10); o.Workers = 1; return o }()},
			{"averaged-argmax", true, shuffled(linear.Averaged, fit.Argmax, 10)},
			{"online-ovr", true, shuffled(linear.Online, fit.OneVsRest, 10)},
			{"svm-ovr", true, shuffled(linear.SVM, fit.OneVsRest, 10)},
		}},
		{"synth256", []benchFit{
			{"online", false, Options{Algorithm: linear.Online, MaxIter: 10, Stop: StopNever, NoBias: true, Workers: 1}},
			{"averaged", false, Options{Algorithm: linear.Averaged, MaxIter: 10, Stop: StopNever, NoBias: true, Workers: 1}},
		}},
	}
	for _, small := range []string{"breast-cancer", "digits"} {
		var fits []benchFit
		for a := linear.Online; a < numAlgorithms; a++ {
			fits = append(fits, benchFit{a.String(), small == "digits", shuffled(a, fit.OneVsRest, 20)})
		}
		sets = append(sets, struct {
			data string
			fits []benchFit
		}{small, fits})
	}
	for _, set := range sets {
		for _, f := range set.fits {
			b.Run(fmt.Sprintf("data=%s/algo=%s", set.data, f.algo), func(b *testing.B) {
				d := benchData(b, set.data)
				var m *linear.Model[float32]
				var diag *Diagnostics
				var err error
				sampleEpochs := 0.0
				for b.Loop() {
					if f.multi {
						m, diag, err = trainMulti(d.train.X, d.train.Cols, d.train.Y, f.opt)
					} else {
						m, diag, err = trainBinary(d.train.X, d.train.Cols, d.train.Y, f.opt)
					}
					if err != nil {
						b.Fatal(err)
					}
					sampleEpochs += float64(d.train.Rows * len(diag.Epochs))
				}
				acc, err := m.Accuracy(d.test.X, d.test.Y)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(acc, "test-acc")
				b.ReportMetric(sampleEpochs/b.Elapsed().Seconds(), "sample-epochs/s")
			})
		}
	}
	benchKernelTrain(b) // kernel_bench_test.go
}

// predictDims is the number of features of the prediction benchmarks (the
// Fashion-MNIST shape).
const predictDims = 784

// predictModels returns n random samples of predictDims float32 features
// (row-major, uniform in [0, 1)) and a binary and a 10-class one-vs-rest
// model trained for two epochs on the first 200 of them: the data and
// models of the prediction benchmarks and timing tests.
func predictModels(tb testing.TB, n int) (X []float32, bin, ovr *linear.Model[float32]) {
	tb.Helper()
	const d, m = predictDims, 200
	rng := newRand(1)
	X = make([]float32, n*d)
	for i := range X {
		X[i] = float32(rng.Float64())
	}
	yb, ym := make([]int, m), make([]int, m)
	for i := range yb {
		yb[i], ym[i] = 1-2*(i%2), i%10
	}
	bin, _, err := trainBinary(X[:m*d], d, yb, Options{MaxIter: 2})
	if err != nil {
		tb.Fatal(err)
	}
	ovr, _, err = trainMulti(X[:m*d], d, ym, Options{MaxIter: 2})
	if err != nil {
		tb.Fatal(err)
	}
	return X, bin, ovr
}

// BenchmarkPredict scores d = 784 float32 samples (the Fashion-MNIST
// shape) with a binary and a 10-class one-vs-rest model, in one run with
// the peers the targets of issue 13 are ratios to:
//
//   - kind=…/d=784: Predict of one sample (which must not allocate);
//   - peer=matvec10/d=784: one kernel.MatVec over the 10-class model's
//     10×784 weights, the floor of a 10-class Predict;
//   - kind=…-batch200/d=784: PredictBatch of 200 samples, ns/sample;
//   - kind=…-loop200/d=784: Predict of each of the same 200 samples in
//     turn, ns/sample (the batch's data, not one sample kept in L1).
//
// Run with
//
//	go test -run '^$' -bench '^BenchmarkPredict$' -count 6 ./perceptron
func BenchmarkPredict(b *testing.B) {
	const d, n = predictDims, 200
	X, bin, ovr := predictModels(b, n)
	x := X[3*d : 4*d]
	models := []struct {
		name string
		m    *linear.Model[float32]
	}{{"binary", bin}, {"ovr10", ovr}}
	for _, c := range models {
		b.Run("kind="+c.name+"/d=784", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.m.Predict(x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("peer=matvec10/d=784", func(b *testing.B) {
		W := snap(ovr).W
		dst := make([]float32, 10)
		b.ReportAllocs()
		for b.Loop() {
			kernel.MatVec(dst, W, x)
		}
	})
	for _, c := range models {
		b.Run("kind="+c.name+"-batch200/d=784", func(b *testing.B) {
			dst := make([]int, n)
			b.ReportAllocs()
			for b.Loop() {
				if err := c.m.PredictBatch(dst, X); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
		})
		b.Run("kind="+c.name+"-loop200/d=784", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range n {
					if _, err := c.m.Predict(X[i*d : (i+1)*d]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
		})
	}
}

// BenchmarkBatchProduct measures the two ways ScoresBatch can compute the
// products of 200 samples (d = 784, float32) with k weight vectors: one
// kernel.Dots per sample (path=dots) and one gram.CrossInto (path=gemm),
// both on one goroutine. gemmMinRows is where the second starts to win.
func BenchmarkBatchProduct(b *testing.B) {
	const d, n = 784, 200
	rng := newRand(1)
	X := make([]float32, n*d)
	W := make([]float32, 128*d)
	for i := range X {
		X[i] = float32(rng.Float64())
	}
	for i := range W {
		W[i] = float32(rng.Float64() - 0.5)
	}
	for _, k := range []int{10, 32, 128} {
		Wk := W[:k*d]
		dst := make([]float32, n*k)
		b.Run(fmt.Sprintf("k=%d/path=dots", k), func(b *testing.B) {
			for b.Loop() {
				for i := range n {
					kernel.Dots(dst[i*k:(i+1)*k], Wk, X[i*d:(i+1)*d])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
		})
		b.Run(fmt.Sprintf("k=%d/path=gemm", k), func(b *testing.B) {
			opts := &gram.Options{Threads: 1, MaxBytes: -1}
			for b.Loop() {
				if err := gram.CrossInto(dst, X, Wk, d, gram.Linear{}, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/sample")
		})
	}
}

// BenchmarkShuffledRead measures the memory floor of a shuffled
// one-vs-rest fit: one iteration reads the Fashion-MNIST training rows in
// the shuffled order of 10 epochs, blockRows at a time into a buffer with
// the trainer's gatherRows, and does no arithmetic. readers=2 is what
// two goroutines of a one-vs-rest fit do (each reads every sample for its
// own classes).
func BenchmarkShuffledRead(b *testing.B) {
	d := benchData(b, "fashion-mnist").train
	order := make([]int32, d.Rows)
	for i := range order {
		order[i] = int32(i)
	}
	rng := newRand(1)
	shuffle := func() { rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] }) }
	shuffle()
	for _, readers := range []int{1, 2} {
		b.Run(fmt.Sprintf("data=fashion-mnist/epochs=10/readers=%d", readers), func(b *testing.B) {
			for b.Loop() {
				var wg sync.WaitGroup
				for range readers {
					wg.Go(func() {
						buf := make([]float32, blockRows*d.Cols)
						for range 10 {
							for lo := 0; lo < d.Rows; lo += blockRows {
								hi := min(lo+blockRows, d.Rows)
								gatherRows(buf[:(hi-lo)*d.Cols], d.X, order[lo:hi], d.Cols)
							}
						}
					})
				}
				wg.Wait()
				shuffle()
			}
			b.ReportMetric(float64(readers*10*len(d.X)*4)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
}
