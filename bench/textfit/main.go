// Command textfit times rosenblatt's averaged one-vs-rest perceptron on a
// sparse text set (bench/textset's LIBSVM files), the peer of
// bench/peers/mantext.py (scikit-learn's Perceptron on the same files):
//
//	go -C bench run ./textfit /tmp/mantext/mantext [rounds]
//
// It reads PREFIX.train.libsvm and PREFIX.test.libsvm as CSR float32
// matrices of 2²⁰ features (not timed), then per round trains 10 epochs
// (every epoch run, shuffled) with Workers 1 (one goroutine, as
// scikit-learn's n_jobs=None) and 2, and prints the wall time and the CPU
// time of the process during the fit (on a machine shared with other
// processes the CPU time is the steadier figure; the peer prints both too)
// and the test accuracy.
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: textfit PREFIX [rounds]")
		os.Exit(2)
	}
	prefix := os.Args[1]
	rounds := 1
	if len(os.Args) > 2 {
		rounds, _ = strconv.Atoi(os.Args[2])
	}
	opts := dataset.LIBSVMOptions{Cols: 1 << 20}
	tr, err := dataset.LoadLIBSVMSparse[float32](prefix+".train.libsvm", opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	te, err := dataset.LoadLIBSVMSparse[float32](prefix+".test.libsvm", opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("train %dx%d nnz %d, test %d\n", tr.Rows, tr.Cols, tr.NNZ(), te.Rows)
	for range rounds {
		for _, w := range []int{1, 2} {
			o := perceptron.Options{Algorithm: perceptron.Averaged, MaxIter: 10, RunAllEpochs: true, Shuffle: true, Seed: 1, Workers: w}
			c0, t0 := cpu(), time.Now()
			m, _, err := perceptron.TrainMulticlassSparse(tr, tr.Y, o)
			wall, c := time.Since(t0), cpu()-c0
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			acc, err := m.AccuracySparse(te, te.Y)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			fmt.Printf("rosenblatt averaged ovr 10 epochs workers=%d fit %.3f s wall %.3f s cpu  test accuracy %.4f\n", w, wall.Seconds(), c.Seconds(), acc)
		}
	}
}
