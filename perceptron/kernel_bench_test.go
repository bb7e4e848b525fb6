package perceptron

import (
	"fmt"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
)

// Kernel training benchmarks, sub-benchmarks of BenchmarkTrain: one
// iteration is one whole fit, Gram matrix included. Run them with e.g.
//
//	go test -run '^$' -bench 'trainBinary/data=fashion-mnist-10k' -benchtime 1x ./perceptron
//
// fashion-mnist-10k is the first 10 000 training images (pixels in [0, 1])
// and the full 10 000-image test set, with the RBF kernel of
// γ = 1/(784·var(X)) (sklearn's gamma='scale'). "-cache-quarter" trains the
// same model (bit for bit) with a row cache of a quarter of the Gram
// matrix's size instead of the full matrix. The benchmarks skip when
// Fashion-MNIST is not installed.

// fashion10k returns the first 10 000 Fashion-MNIST training images, the
// test set and sklearn's 'scale' γ for them.
func fashion10k(b *testing.B) (*benchSet, float64) {
	b.Helper()
	s := benchData(b, "fashion-mnist")
	return &benchSet{train: s.train.Subset(10000), test: s.test}, scaleGamma(s.train.Subset(10000).X)
}

// scaleGamma is sklearn's gamma='scale': 1/(D·var(X)) over all values.
func scaleGamma[T kernel.Float](X []T) float64 {
	return 1 / (784 * variance(X))
}

func variance[T kernel.Float](X []T) float64 {
	var s, s2 float64
	for _, v := range X {
		s += float64(v)
		s2 += float64(v) * float64(v)
	}
	n := float64(len(X))
	return s2/n - (s/n)*(s/n)
}

type kernelFit struct {
	algo    string
	opt     KernelOptions
	quarter bool // a row cache of a quarter of the Gram matrix
}

// benchKernelTrain adds the kernel perceptron's fits to BenchmarkTrain.
func benchKernelTrain(b *testing.B) {
	avg := func(s fit.Scheme, epochs int) KernelOptions {
		return KernelOptions{Options: Options{Algorithm: linear.Averaged, Multiclass: s, MaxIter: epochs, Shuffle: true, Seed: 1}}
	}
	fits := []kernelFit{
		{algo: "kernel-rbf-ovr", opt: avg(fit.OneVsRest, 10)},
		{algo: "kernel-rbf-ovr-cache-quarter", opt: avg(fit.OneVsRest, 10), quarter: true},
		{algo: "kernel-rbf-argmax", opt: avg(fit.Argmax, 10)},
	}
	for _, f := range fits {
		b.Run(fmt.Sprintf("data=fashion-mnist-10k/algo=%s", f.algo), func(b *testing.B) {
			d, gamma := fashion10k(b)
			opt := f.opt
			opt.Kernel = gram.RBF{Gamma: gamma}
			if f.quarter {
				n := int64(d.train.Rows)
				opt.MaxBytes = n * n * 4 / 4
			}
			runKernelFit(b, d, opt)
		})
	}
	for _, small := range []string{"breast-cancer", "digits"} {
		b.Run(fmt.Sprintf("data=%s/algo=kernel-rbf-averaged", small), func(b *testing.B) {
			d := benchData(b, small)
			opt := avg(fit.OneVsRest, 20)
			opt.Kernel = gram.RBF{Gamma: 1 / (float64(d.train.Cols) * variance(d.train.X))}
			runKernelFit(b, d, opt)
		})
	}
}

func runKernelFit(b *testing.B, d *benchSet, opt KernelOptions) {
	var m *expansion.Model[float32]
	var diag *Diagnostics
	var err error
	for b.Loop() {
		m, diag, err = trainKernelMulti(d.train.X, d.train.Cols, d.train.Y, opt)
		if err != nil {
			b.Fatal(err)
		}
	}
	acc, err := m.Accuracy(d.test.X, d.test.Y)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(acc, "test-acc")
	b.ReportMetric(float64(len(diag.Epochs)), "epochs")
	b.ReportMetric(float64(m.NumSupport()), "support-vectors")
}

// BenchmarkKernelPredict scores Fashion-MNIST test images with the
// 10-class RBF one-vs-rest model of fashion-mnist-10k: one image with
// Predict (which must not allocate) and all 10 000 with PredictBatch.
func BenchmarkKernelPredict(b *testing.B) {
	d, gamma := fashion10k(b)
	m, _, err := trainKernelMulti(d.train.X, d.train.Cols, d.train.Y, KernelOptions{
		Options: Options{Algorithm: linear.Averaged, MaxIter: 10, Shuffle: true, Seed: 1}, Kernel: gram.RBF{Gamma: gamma}})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("data=fashion-mnist-10k/kind=kernel-ovr/n=1", func(b *testing.B) {
		x := d.test.Row(0)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.Predict(x); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("data=fashion-mnist-10k/kind=kernel-ovr/n=%d", d.test.Rows), func(b *testing.B) {
		dst := make([]int, d.test.Rows)
		for b.Loop() {
			if err := m.PredictBatch(dst, d.test.X); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(m.NumSupport()), "support-vectors")
	})
}

// BenchmarkKernelScoreOne scores one iris sample, dense and sparse, with
// the small one-vs-rest polynomial model of kernelModels: the per-call
// cost around the kernel row (snapshot, scratch pool, checks) shows here.
func BenchmarkKernelScoreOne(b *testing.B) {
	models, X, d := kernelModels[float32](b)
	m := models["ovr-averaged"]
	x := X[5*d : 6*d]
	xs := dataset.SparseRow[float32]{Idx: []int32{0, 1, 2, 3}, Val: x}
	dst := make([]float32, m.NumScores())
	for _, bc := range []struct {
		name string
		f    func() error
	}{
		{"Predict", func() error { _, err := m.Predict(x); return err }},
		{"Scores", func() error { return m.Scores(dst, x) }},
		{"PredictSparse", func() error { _, err := m.PredictSparse(xs); return err }},
		{"ScoresSparse", func() error { return m.ScoresSparse(dst, xs) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := bc.f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
