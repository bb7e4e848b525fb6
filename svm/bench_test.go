package svm

import (
	"errors"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/fixtures"
)

// The benchmarks train on Fashion-MNIST from Debian's dataset-fashion-mnist
// (/usr/share/datasets/fashion-mnist; pixels/255, float32) and are skipped
// when it is not installed. Each iteration fits a model and predicts the
// 10 000 test images; besides ns/op (fit + predict) they report the fit
// and predict times separately, the test accuracy and the support
// vectors. The peers measured in the same session (scikit-learn's SVC,
// liblinear-train) are scripted in bench/peers; bench/results holds the
// figures.

var fashion struct {
	once        sync.Once
	train, test *dataset.Data[float32]
	err         error
}

func loadFashion(b *testing.B) (train, test *dataset.Data[float32]) {
	b.Helper()
	fashion.once.Do(func() {
		fashion.train, fashion.err = fixtures.FashionMNIST[float32]("", "train")
		if fashion.err == nil {
			fashion.test, fashion.err = fixtures.FashionMNIST[float32]("", "t10k")
		}
	})
	if errors.Is(fashion.err, fs.ErrNotExist) {
		b.Skip("Fashion-MNIST not installed (apt-get install dataset-fashion-mnist)")
	}
	if fashion.err != nil {
		b.Fatal(fashion.err)
	}
	return fashion.train, fashion.test
}

// BenchmarkSVM: the kernel SVM on the first 10 000 training images, RBF
// with scikit-learn's gamma="scale" and C = 1, one-vs-one (SVC's method)
// and one-vs-rest.
func BenchmarkSVM(b *testing.B) {
	for _, sch := range []fit.Scheme{fit.OneVsOne, fit.OneVsRest} {
		b.Run("data=fashion-mnist-10k/kernel=rbf/multiclass="+sch.String(), func(b *testing.B) {
			train, test := loadFashion(b)
			sub := train.Subset(10000)
			opts := Options{Kernel: gram.RBF{Gamma: GammaScale(sub)}, C: 1, Multiclass: sch}
			var fit, pred time.Duration
			var acc float64
			var nsv int
			for b.Loop() {
				t0 := time.Now()
				m, _, err := trainDense(sub.X, sub.Cols, sub.Y, opts)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				acc, err = m.Accuracy(test.X, test.Y)
				if err != nil {
					b.Fatal(err)
				}
				fit += t1.Sub(t0)
				pred += time.Since(t1)
				nsv = m.NumSupport()
			}
			b.ReportMetric(fit.Seconds()/float64(b.N), "fit-s")
			b.ReportMetric(pred.Seconds()/float64(b.N), "predict-s")
			b.ReportMetric(acc, "test-acc")
			b.ReportMetric(float64(nsv), "support-vectors")
		})
	}
}

// BenchmarkLinearSVM: the linear SVM (hinge loss, LIBLINEAR's -s 3 -c 1
// -B 1 with its default tolerance 0.1 and 1000 passes at most) on all
// 60 000 training images, one-vs-rest, on one goroutine (the default) and
// with the classes split between two. It reports the sum of the ten
// machines' dual objectives for comparison with liblinear-train's.
func BenchmarkLinearSVM(b *testing.B) {
	for _, th := range []struct {
		name    string
		threads int
	}{{"", 0}, {"/threads=2", 2}} {
		b.Run("data=fashion-mnist"+th.name, func(b *testing.B) {
			train, test := loadFashion(b)
			opts := LinearOptions{C: 1, Workers: th.threads, Seed: 1}
			var fit, pred time.Duration
			var acc, dual float64
			var last *Info
			conv := 0
			for b.Loop() {
				t0 := time.Now()
				m, info, err := trainLinearDense(train.X, train.Cols, train.Y, opts)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				acc, err = m.Accuracy(test.X, test.Y)
				if err != nil {
					b.Fatal(err)
				}
				fit += t1.Sub(t0)
				pred += time.Since(t1)
				dual, conv, last = 0, 0, info
				for _, p := range info.Problems {
					dual += p.Dual
					if p.Converged {
						conv++
					}
				}
			}
			b.ReportMetric(fit.Seconds()/float64(b.N), "fit-s")
			b.ReportMetric(pred.Seconds()/float64(b.N), "predict-s")
			b.ReportMetric(acc, "test-acc")
			for _, p := range last.Problems {
				b.Logf("class %d: dual %.6f, %d passes, converged %v, %d SV", p.Positive, p.Dual, p.Iterations, p.Converged, p.SV)
			}
			b.ReportMetric(dual, "dual-sum")
			b.ReportMetric(float64(conv), "converged")
		})
	}
}
