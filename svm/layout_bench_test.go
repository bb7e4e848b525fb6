package svm_test

import (
	"context"
	"math/rand/v2"
	"syscall"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// layoutData is a synthetic 4-class set: Gaussian blobs in 32 dimensions.
func layoutData(n int, seed uint64) ([]float32, []int) {
	const d, k = 32, 4
	r := rand.New(rand.NewPCG(seed, 7))
	X, y := make([]float32, n*d), make([]int, n)
	for i := range n {
		y[i] = i % k
		for j := range d {
			X[i*d+j] = float32(r.NormFloat64() + float64((y[i]+j)%k))
		}
	}
	return X, y
}

// cpuNow is the process's CPU time (user + system) in nanoseconds.
func cpuNow() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// loopCPU runs f b.N times and reports the process CPU time per call
// (cpu-ns/op): on a shared machine the wall time counts other programs.
func loopCPU(b *testing.B, f func() error) {
	c0 := cpuNow()
	for b.Loop() {
		if err := f(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuNow()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkLayout is the kernel SVM's fit (SMO, RBF, one-vs-one) and its
// single and batch prediction, and the kernel perceptron's (averaged,
// one-vs-rest), on 2,000 training and 4,000 test rows of layoutData: the
// paths the shared kernel-expansion model serves.
func BenchmarkLayout(b *testing.B) {
	X, y := layoutData(2000, 1)
	T, _ := layoutData(4000, 2)
	ctx := context.Background()
	opt := svm.Options{Kernel: gram.RBF{Gamma: 0.02}, C: 1}
	b.Run("svm/fit", func(b *testing.B) {
		loopCPU(b, func() error { _, _, err := svm.Fit(ctx, dataset.NewData(X, 32, y), y, opt); return err })
	})
	sm, _, err := svm.Fit(ctx, dataset.NewData(X, 32, y), y, opt)
	if err != nil {
		b.Fatal(err)
	}
	km, _, err := perceptron.FitKernel(ctx, dataset.NewData(X, 32, y), y, perceptron.KernelOptions{
		Options: perceptron.Options{Algorithm: linear.Averaged, MaxIter: 5, Shuffle: true, Seed: 1}, Kernel: gram.RBF{Gamma: 0.02}})
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]int, 4000)
	for name, m := range map[string]interface {
		Predict([]float32) (int, error)
		PredictBatch([]int, []float32) error
	}{"svm": sm, "kperceptron": km} {
		b.Run(name+"/predict-one", func(b *testing.B) {
			loopCPU(b, func() error { _, err := m.Predict(T[:32]); return err })
		})
		b.Run(name+"/predict-batch", func(b *testing.B) {
			loopCPU(b, func() error { return m.PredictBatch(dst, T) })
		})
	}
}
