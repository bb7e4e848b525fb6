package bench

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/internal/fixtures"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

// processCPU returns the CPU time the process has used (all threads).
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestSVMFashionCPUTime fits the kernel SVM of svm's BenchmarkSVM (the
// first 10 000 Fashion-MNIST training images, RBF with scikit-learn's
// gamma="scale", C = 1, one-vs-one as SVC) and scores the 10 000 test
// images, printing per round the wall time and the process's CPU time of
// each, on the active implementation (ROSENBLATT_KERNEL caps it) and
// GOMAXPROCS threads: on a machine shared with other processes the CPU
// time is the figure to compare with scikit-learn's (bench/results/svm/
// svc-cputime.py). It prints and asserts nothing:
//
//	ROSENBLATT_KERNEL=avx2 ROSENBLATT_CPUTIME_ROUNDS=2 go -C bench test -run TestSVMFashionCPUTime -v .
func TestSVMFashionCPUTime(t *testing.T) {
	rounds := cputime.Rounds(t)
	train, err := fixtures.FashionMNIST[float32]("", "train")
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("Fashion-MNIST not installed (apt-get install dataset-fashion-mnist)")
	}
	if err != nil {
		t.Fatal(err)
	}
	test, err := fixtures.FashionMNIST[float32]("", "t10k")
	if err != nil {
		t.Fatal(err)
	}
	sub := train.Subset(10000)
	opts := svm.Options{Kernel: gram.RBF{Gamma: svm.GammaScale(sub)}, C: 1, Multiclass: fit.OneVsOne}
	for r := 0; r < rounds; r++ {
		runtime.GC()
		w0, c0 := time.Now(), processCPU()
		m, _, err := svm.Fit(context.Background(), sub, sub.Y, opts)
		if err != nil {
			t.Fatal(err)
		}
		w1, c1 := time.Now(), processCPU()
		acc, err := m.Accuracy(test.X, test.Y)
		if err != nil {
			t.Fatal(err)
		}
		w2, c2 := time.Now(), processCPU()
		fmt.Printf("rosenblatt svm %s GOMAXPROCS=%d ovo rbf: fit wall %.3f s cpu %.3f s, predict wall %.3f s cpu %.3f s, test accuracy %.4f, support vectors %d\n",
			kernel.ActiveImpl().Name(), runtime.GOMAXPROCS(0), w1.Sub(w0).Seconds(), (c1 - c0).Seconds(), w2.Sub(w1).Seconds(), (c2 - c1).Seconds(), acc, m.NumSupport())
	}
}
