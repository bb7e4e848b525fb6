package ipm

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

// BenchmarkThroughput measures the pipeline on prism, in this process,
// against the single-process trainer on the same LIBSVM files (4 parts of
// the first 10000 Fashion-MNIST training images, 784 features, one-vs-rest
// averaged perceptron, 10 classes, 3 epochs): rows·epochs/s for both.
//
//	for i in 1 2 3; do flock /work/wt/bench.lock go test -run '^$' -bench Throughput -benchtime 1x ./ipm; done
func BenchmarkThroughput(b *testing.B) {
	const rows, epochs = 10000, 3
	train, err := dataset.FashionMNIST[float32]("", "train")
	if err != nil {
		b.Skip("Fashion-MNIST:", err)
	}
	train = train.Subset(rows)
	dir := b.TempDir()
	pattern := writeParts(b, dir, train, 4)
	b.Run("single", func(b *testing.B) {
		for b.Loop() {
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
			opt := Options(perceptron.Averaged, 1)
			opt.MaxIter = epochs
			if _, _, err := perceptron.TrainMulticlass(all.X, all.Cols, all.Y, opt); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(rows*epochs*b.N)/b.Elapsed().Seconds(), "rows·epochs/s")
	})
	for _, S := range []int{1, 2, 4} {
		b.Run("prism/shards="+strconv.Itoa(S), func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), Config{Inputs: []string{pattern}, Dims: train.Cols, Algorithm: perceptron.Averaged,
					Shards: S, Epochs: epochs, Output: filepath.Join(dir, "model.bin"), Overwrite: true}, runPrism); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(rows*epochs*b.N)/b.Elapsed().Seconds(), "rows·epochs/s")
		})
	}
}
