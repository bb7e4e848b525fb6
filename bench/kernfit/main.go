// Command kernfit times rosenblatt's kernel machines on CSR rows: the
// kernel SVM (svm.Fit on the CSR: SMO, one-vs-one, RBF with scikit-learn's
// gamma="scale", C = 1, tolerance 1e-3) and the kernel perceptron
// (perceptron.FitKernel on the CSR: averaged, one-vs-rest, RBF with
// the same γ, 10 epochs), on a slice of the manual-page text set
// (bench/textset), the peer of bench/peers/svc_mantext.py (scikit-learn's
// SVC on the same rows):
//
//	go -C bench run ./kernfit /tmp/mantext/mantext [rounds]
//
// It reads PREFIX.train.libsvm and PREFIX.test.libsvm as CSR float32
// matrices of 2²⁰ features (not timed) and keeps every -stride-th
// training row and every -test-stride-th test row (the files are ordered by
// manual section, so a stride keeps the classes' proportions). Per round it
// prints the fit's wall time, the process CPU time during the fit, the
// support vectors and the test accuracy, and the time to predict the test
// rows.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/linear"
	"github.com/rosenblatt-go/rosenblatt/perceptron"
	"github.com/rosenblatt-go/rosenblatt/svm"
)

func cpu() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// every returns the rows 0, k, 2k, … of c.
func every(c *dataset.CSR[float32], k int) *dataset.CSR[float32] {
	out := &dataset.CSR[float32]{Cols: c.Cols, Ptr: []int{0}}
	for i := 0; i < c.Rows; i += k {
		r := c.Row(i)
		out.Idx = append(out.Idx, r.Idx...)
		out.Val = append(out.Val, r.Val...)
		out.Ptr = append(out.Ptr, len(out.Idx))
		out.Y = append(out.Y, c.Y[i])
		out.Rows++
	}
	return out
}

func main() {
	stride := flag.Int("stride", 4, "keep every `k`-th training row")
	testStride := flag.Int("test-stride", 2, "keep every `k`-th test row")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: kernfit [-stride k] [-test-stride k] PREFIX [rounds]")
		os.Exit(2)
	}
	prefix := flag.Arg(0)
	rounds := 1
	if flag.NArg() > 1 {
		rounds, _ = strconv.Atoi(flag.Arg(1))
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
	tr, te = every(tr, *stride), every(te, *testStride)
	gamma := svm.GammaScale(tr)
	fmt.Printf("train %dx%d nnz %d, test %d, gamma scale %.6g\n", tr.Rows, tr.Cols, tr.NNZ(), te.Rows, gamma)
	kern := gram.RBF{Gamma: gamma}
	pred := make([]int, te.Rows)
	acc := func(p []int) float64 {
		ok := 0
		for i, v := range p {
			if v == te.Y[i] {
				ok++
			}
		}
		return float64(ok) / float64(len(p))
	}
	for range rounds {
		t0, c0 := time.Now(), cpu()
		m, _, err := svm.Fit(context.Background(), tr, tr.Y, svm.Options{Kernel: kern, C: 1, Tol: 1e-3})
		fit, fitCPU := time.Since(t0), cpu()-c0
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		t1 := time.Now()
		if err := m.PredictBatchSparse(pred, te); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("rosenblatt svm.Fit rbf ovo fit %.3f s wall %.3f s cpu  %d SV  test accuracy %.4f  predict %.3f s\n",
			fit.Seconds(), fitCPU.Seconds(), m.NumSupport(), acc(pred), time.Since(t1).Seconds())

		t0, c0 = time.Now(), cpu()
		km, _, err := perceptron.FitKernel(context.Background(), tr, tr.Y, perceptron.KernelOptions{
			Options: perceptron.Options{Algorithm: linear.Averaged, MaxIter: 10, Shuffle: true, Seed: 1, Stop: perceptron.StopNever}, Kernel: kern})
		fit, fitCPU = time.Since(t0), cpu()-c0
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		t1 = time.Now()
		if err := km.PredictBatchSparse(pred, te); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("rosenblatt perceptron.FitKernel rbf averaged ovr 10 epochs fit %.3f s wall %.3f s cpu  %d SV  test accuracy %.4f  predict %.3f s\n",
			fit.Seconds(), fitCPU.Seconds(), km.NumSupport(), acc(pred), time.Since(t1).Seconds())
	}
}
