// The benchmarks measure CPU time with Linux calls (getrusage, the
// thread CPU clock): they build on Linux only, as the tests need not.

package ipm

import (
	"context"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/internal/fixtures"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// processCPU returns the CPU time (user + system) of this process: prism
// runs the job's workers in it, so this is the job's whole cost.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkThroughput measures the pipeline on prism, in this process,
// against the single-process trainers on the same LIBSVM files (4 parts
// of the first 10000 Fashion-MNIST training images, 784 features, 10
// classes, 3 epochs): the one-vs-rest averaged perceptron with the shards'
// evaluation pass skipped (prism) and made as Continue makes it by default
// (prism-eval), and the one-vs-rest linear SVM (C = 0.01) by CoCoA against
// svm.FitLinear's 3 passes of dual coordinate descent. Metrics:
// rows·epochs per second of wall time and per CPU second of the process.
//
//	cd beam && go test -c -o /tmp/ipm.test ./ipm && cd ipm &&
//	for i in 1 2 3; do flock /work/wt/bench.lock /tmp/ipm.test -test.run '^$' -test.bench Throughput -test.benchtime 1x; done
func BenchmarkThroughput(b *testing.B) {
	const rows, epochs = 10000, 3
	train, err := fixtures.FashionMNIST[float32]("", "train")
	if err != nil {
		b.Skip("Fashion-MNIST:", err)
	}
	train = train.Subset(rows)
	dir := b.TempDir()
	pattern := writeParts(b, dir, train, 4)
	load := func(b *testing.B) *dataset.Data[float32] {
		files, err := filepath.Glob(pattern)
		if err != nil {
			b.Fatal(err)
		}
		var all dataset.Data[float32]
		for _, f := range files {
			d, err := dataset.LoadLIBSVM[float32](f, dataset.LIBSVMOptions{Cols: train.Cols})
			if err != nil {
				b.Fatal(err)
			}
			all.X, all.Y, all.Rows, all.Cols = append(all.X, d.X...), append(all.Y, d.Y...), all.Rows+d.Rows, d.Cols
		}
		return &all
	}
	measure := func(b *testing.B, f func()) {
		cpu := processCPU()
		for b.Loop() {
			f()
		}
		b.ReportMetric(float64(rows*epochs*b.N)/b.Elapsed().Seconds(), "rows·epochs/s")
		b.ReportMetric(float64(rows*epochs*b.N)/(processCPU()-cpu).Seconds(), "rows·epochs/cpu-s")
	}
	b.Run("single", func(b *testing.B) {
		measure(b, func() {
			all := load(b)
			opt := Options(linear.Averaged, 1)
			opt.MaxIter, opt.SkipEvaluation = epochs, false
			if _, _, err := perceptron.Fit(context.Background(), all, all.Y, opt); err != nil {
				b.Fatal(err)
			}
		})
	})
	job := func(b *testing.B, alg linear.Algorithm, S int) {
		measure(b, func() {
			if _, err := Run(context.Background(), Config{Inputs: []string{pattern}, Dims: train.Cols, Algorithm: alg, C: 0.01,
				Shards: S, Epochs: epochs, Output: filepath.Join(dir, "model.bin"), Overwrite: true}, runPrism); err != nil {
				b.Fatal(err)
			}
		})
	}
	for _, S := range []int{1, 2, 4} {
		b.Run("prism/shards="+strconv.Itoa(S), func(b *testing.B) { job(b, linear.Averaged, S) })
		b.Run("prism-eval/shards="+strconv.Itoa(S), func(b *testing.B) {
			shardEvaluation = true
			defer func() { shardEvaluation = false }()
			job(b, linear.Averaged, S)
		})
	}
	b.Run("single-svm", func(b *testing.B) {
		measure(b, func() {
			all := load(b)
			if _, _, err := svm.FitLinear(context.Background(), all, all.Y, svm.LinearOptions{C: 0.01, MaxIter: epochs}); err != nil {
				b.Fatal(err)
			}
		})
	})
	for _, S := range []int{1, 2, 4} {
		b.Run("prism-svm/shards="+strconv.Itoa(S), func(b *testing.B) { job(b, linear.SVM, S) })
	}
}

// BenchmarkShardEpoch measures one shard's epoch as a worker runs it
// (decode the shard's row records, Continue the averaged one-vs-rest model
// one epoch, encode it) on a quarter of the 10000 Fashion-MNIST rows, with
// Continue's evaluation pass skipped (the pipeline's way) and made, and
// Continue alone both ways:
//
//	flock /work/wt/bench.lock sh -c 'for i in 1 2 3; do for e in false true; do
//	    /tmp/ipm.test -test.run "^$" -test.bench "ShardEpoch/(continue/)?evaluate=$e" -test.count 2; done; done'
func BenchmarkShardEpoch(b *testing.B) {
	train, err := fixtures.FashionMNIST[float32]("", "train")
	if err != nil {
		b.Skip("Fashion-MNIST:", err)
	}
	train = train.Subset(2500)
	c, err := dataset.FromDense(train)
	if err != nil {
		b.Fatal(err)
	}
	recs := make([][]byte, c.Rows)
	for i := range c.Rows {
		recs[i] = appendRow(nil, 0, i, c.Y[i], c.Row(i))
	}
	model, err := zeroModel[float32](train.Classes(), train.Cols, 1)
	if err != nil {
		b.Fatal(err)
	}
	// Start from the model after one epoch, as every epoch but the first.
	f := &epochFn{Type: "float32", Dims: train.Cols, Algorithm: int(linear.Averaged), Eta: 1}
	r, err := shardEpoch[float32](f, recs, model)
	if err != nil {
		b.Fatal(err)
	}
	for _, eval := range []bool{false, true} {
		b.Run("evaluate="+strconv.FormatBool(eval), func(b *testing.B) {
			shardEvaluation = eval
			defer func() { shardEvaluation = false }()
			runtime.LockOSThread() // the thread's CPU time is the shard's
			defer runtime.UnlockOSThread()
			cpu := cputime.Thread()
			for b.Loop() {
				if _, err := shardEpoch[float32](f, recs, r.Model); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cputime.Thread()-cpu)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(c.Rows*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
	// Fit continuing the model alone, on the shard's dense rows: the library's share.
	var m linear.Model[float32]
	if err := m.UnmarshalJSON(r.Model); err != nil {
		b.Fatal(err)
	}
	for _, eval := range []bool{false, true} {
		b.Run("continue/evaluate="+strconv.FormatBool(eval), func(b *testing.B) {
			opt := Options(linear.Averaged, 1)
			opt.SkipEvaluation, opt.Init = !eval, &m
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu := cputime.Thread()
			for b.Loop() {
				if _, _, err := perceptron.Fit(context.Background(), train, train.Y, opt); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cputime.Thread()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
