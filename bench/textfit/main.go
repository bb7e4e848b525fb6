// Command textfit times rosenblatt's averaged one-vs-rest perceptron on a
// sparse text set (bench/textset's LIBSVM files), the peer of
// bench/peers/mantext.py (scikit-learn's Perceptron on the same files):
//
//	go -C bench run ./textfit [-workers 1,2] [-noeval] /tmp/mantext/mantext [rounds]
//	go -C bench run ./textfit -svm /tmp/mantext/mantext [rounds]
//	go -C bench run ./textfit -seeds 8 /tmp/mantext/mantext
//
// It reads PREFIX.train.libsvm and PREFIX.test.libsvm as CSR float32
// matrices of 2²⁰ features (not timed), then per round trains 10 epochs
// (every epoch run, shuffled; no bias: the rows are unit-norm tf-idf, and a
// bias moving by 1 per mistake outweighs their values, where scikit-learn
// damps its intercept's steps on sparse data by 0.01,
// SPARSE_INTERCEPT_DECAY) with Workers 1 (one goroutine, as
// scikit-learn's n_jobs=None) and 2, and prints the wall time and the CPU
// time of the process during the fit (on a machine shared with other
// processes the CPU time is the steadier figure; the peer prints both too)
// and the test accuracy, and the page faults of the fit (and, apart, of its scoring)
// (getrusage's minor faults: fresh memory, at about 18 µs each on the
// Zen 5 KVM guest of docs/benchmarks/text.md); -noeval sets SkipEvaluation (the final pass
// over the training data for the diagnostics, which scikit-learn's fit
// has no counterpart of). With -svm it trains the linear SVM instead
// (svm.FitLinear on the CSR, one-vs-rest, hinge loss, C = 1,
// bias feature 1, tolerance 0.1: liblinear-train -s 3 -c 1 -B 1's
// problem) with Threads 1 and 2, and also prints the time to read the training file, which
// liblinear-train's time includes. With -seeds N it prints the test
// accuracy of the perceptron's fit with each seed 1..N and their mean, and
// times nothing; -constant B first gives every row a feature of value B
// (a bias feature, as liblinear's -B, in a fit without a bias term). -B
// gives the perceptron a bias on the feature B (Options.BiasFeature;
// B = 0.1 steps the bias by 0.01·η·y, as scikit-learn's SGD damps its
// intercept on sparse data); without it the perceptron has no bias.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// faults returns the process's minor page faults so far.
func faults() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Minflt
}

func main() {
	useSVM := flag.Bool("svm", false, "train the linear SVM (liblinear-train -s 3's problem)")
	prof := flag.String("cpuprofile", "", "write a CPU profile of the fits to this file")
	workers := flag.String("workers", "1,2", "the perceptron's Workers (comma-separated) to time in each round")
	noEval := flag.Bool("noeval", false, "set the perceptron's SkipEvaluation (no final pass for the training diagnostics)")
	seeds := flag.Int("seeds", 0, "instead of timing, print the test accuracy of one fit for each of the seeds 1..N, and their mean")
	constant := flag.Float64("constant", 0, "with -seeds: first append to every training and test row a feature of this value (one more column), as liblinear's -B does: a bias feature")
	flag.Float64Var(&biasFeature, "B", 0, "the perceptron's bias feature (Options.BiasFeature); 0: no bias")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: textfit [-svm] PREFIX [rounds]")
		os.Exit(2)
	}
	prefix := flag.Arg(0)
	rounds := 1
	if flag.NArg() > 1 {
		rounds, _ = strconv.Atoi(flag.Arg(1))
	}
	opts := dataset.LIBSVMOptions{Cols: 1 << 20}
	r0 := time.Now()
	tr, err := dataset.LoadLIBSVMSparse[float32](prefix+".train.libsvm", opts)
	read := time.Since(r0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	te, err := dataset.LoadLIBSVMSparse[float32](prefix+".test.libsvm", opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("train %dx%d nnz %d, test %d; reading the training file took %.3f s\n", tr.Rows, tr.Cols, tr.NNZ(), te.Rows, read.Seconds())
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *useSVM {
		fitSVM(tr, te, rounds)
		return
	}
	if *constant != 0 && *seeds == 0 {
		fmt.Fprintln(os.Stderr, "-constant goes with -seeds")
		os.Exit(2)
	}
	if *seeds > 0 {
		if *constant != 0 {
			tr, te = withConstant(tr, float32(*constant)), withConstant(te, float32(*constant))
			fmt.Printf("every row has a constant feature %v (column %d)\n", *constant, tr.Cols-1)
		}
		accuracies(tr, te, *seeds)
		return
	}
	for range rounds {
		for _, f := range strings.Split(*workers, ",") {
			w, err := strconv.Atoi(f)
			if err != nil {
				fmt.Fprintln(os.Stderr, "-workers:", err)
				os.Exit(2)
			}
			o := fitOptions(1)
			o.Workers, o.SkipEvaluation = w, *noEval
			wall, c, acc, ff, sf := fitAndScore(tr, te, o)
			tag := ""
			if *noEval {
				tag = " noeval"
			}
			fmt.Printf("rosenblatt averaged ovr 10 epochs %s%s workers=%d fit %.4f s wall %.4f s cpu  test accuracy %.4f  page faults %d (scoring %d)\n", biasTag(), tag, w, wall.Seconds(), c.Seconds(), acc, ff, sf)
		}
	}
}

// biasFeature is -B: the fits' bias feature, 0 for no bias.
var biasFeature float64

// fitOptions are the timed fit's options with seed s, Workers 1: 10
// shuffled epochs, every one run, no bias unless -B.
func fitOptions(s uint64) perceptron.Options {
	return perceptron.Options{Algorithm: linear.Averaged, MaxIter: 10, Stop: perceptron.StopNever, Shuffle: true, Seed: s,
		NoBias: biasFeature == 0, BiasFeature: biasFeature, Workers: 1}
}

// biasTag describes the fits' bias: "nobias" or "B=0.1".
func biasTag() string {
	if biasFeature == 0 {
		return "nobias"
	}
	return fmt.Sprintf("B=%g", biasFeature)
}

// fitAndScore trains with o, and returns the fit's wall and process CPU
// time and the model's test accuracy; it exits on an error.
func fitAndScore(tr, te *dataset.CSR[float32], o perceptron.Options) (wall, c time.Duration, acc float64, fitFaults, scoreFaults int64) {
	f0, c0, t0 := faults(), cpu(), time.Now()
	m, _, err := perceptron.Fit(context.Background(), tr, tr.Y, o)
	wall, c, f1 := time.Since(t0), cpu()-c0, faults()
	if err == nil {
		acc, err = m.AccuracySparse(te, te.Y)
	}
	fitFaults, scoreFaults = f1-f0, faults()-f1
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return wall, c, acc, fitFaults, scoreFaults
}

// accuracies prints the test accuracy of the timed fit (Workers 1) with
// each of the seeds 1..n, and their mean: a single fit's accuracy moves
// by a few test pages with the shuffling.
func accuracies(tr, te *dataset.CSR[float32], n int) {
	sum := 0.0
	for s := 1; s <= n; s++ {
		_, _, acc, _, _ := fitAndScore(tr, te, fitOptions(uint64(s)))
		sum += acc
		fmt.Printf("rosenblatt averaged ovr 10 epochs %s seed %d test accuracy %.4f\n", biasTag(), s, acc)
	}
	fmt.Printf("rosenblatt averaged ovr 10 epochs %s seeds 1..%d mean test accuracy %.4f\n", biasTag(), n, sum/float64(n))
}

// withConstant returns c with one more column, holding v in every row.
func withConstant(c *dataset.CSR[float32], v float32) *dataset.CSR[float32] {
	o := &dataset.CSR[float32]{Rows: c.Rows, Cols: c.Cols + 1, Ptr: make([]int, 1, c.Rows+1), Y: c.Y}
	for i := range c.Rows {
		r := c.Row(i)
		o.Idx = append(append(o.Idx, r.Idx...), int32(c.Cols))
		o.Val = append(append(o.Val, r.Val...), v)
		o.Ptr = append(o.Ptr, len(o.Idx))
	}
	return o
}

// fitSVM trains and scores the linear SVM rounds times.
func fitSVM(tr, te *dataset.CSR[float32], rounds int) {
	for range rounds {
		for _, threads := range []int{1, 2} {
			fitSVMOnce(tr, te, threads)
		}
	}
}

// fitSVMOnce trains and scores the linear SVM on threads goroutines.
func fitSVMOnce(tr, te *dataset.CSR[float32], threads int) {
	{
		o := svm.LinearOptions{C: 1, Tol: 0.1, BiasFeature: 1, Workers: threads}
		c0, t0 := cpu(), time.Now()
		m, _, err := svm.FitLinear(context.Background(), tr, tr.Y, o)
		wall, c := time.Since(t0), cpu()-c0
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		ok := 0
		x := make([]float32, tr.Cols) // the linear SVM model predicts dense samples
		for i := range te.Rows {
			r := te.Row(i)
			for k, j := range r.Idx {
				x[j] = r.Val[k]
			}
			p, err := m.Predict(x)
			for _, j := range r.Idx {
				x[j] = 0
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if p == te.Y[i] {
				ok++
			}
		}
		fmt.Printf("rosenblatt svm.FitLinear(CSR) C=1 B=1 tol 0.1 threads=%d fit %.4f s wall %.4f s cpu  test accuracy %.4f\n", threads, wall.Seconds(), c.Seconds(), float64(ok)/float64(te.Rows))
	}
}
