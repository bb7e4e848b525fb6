package interop

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/cputime"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

var (
	bigModelOnce sync.Once
	bigModel     []byte
)

// bigLIBSVMModel returns a LIBSVM model file of about 100 MB: a binary
// RBF C-SVC with 44 000 support vectors of 100 features, each value
// printed with 17 significant digits (as svm-train's %.17g), 2 % of them
// zeros left out as LIBSVM leaves them out.
func bigLIBSVMModel() []byte {
	bigModelOnce.Do(func() {
		r := rand.New(rand.NewPCG(1, 2))
		const s, d = 44000, 100
		b := make([]byte, 0, 110<<20)
		b = fmt.Appendf(b, "svm_type c_svc\nkernel_type rbf\ngamma 0.01\nnr_class 2\ntotal_sv %d\nrho 0.42\nlabel 1 -1\nnr_sv %d %d\nSV\n", s, s/2, s-s/2)
		for i := range s {
			c := r.Float64()
			if i >= s/2 {
				c = -c
			}
			b = strconv.AppendFloat(b, c, 'g', 17, 64)
			for j := 1; j <= d; j++ {
				if r.IntN(50) == 0 {
					continue
				}
				b = append(b, ' ')
				b = strconv.AppendInt(b, int64(j), 10)
				b = append(b, ':')
				b = strconv.AppendFloat(b, r.NormFloat64(), 'g', 17, 64)
			}
			b = append(b, '\n')
		}
		bigModel = b
	})
	return bigModel
}

// BenchmarkReadLIBSVM100MB reads a LIBSVM model file of about 100 MB
// (generated, see bigLIBSVMModel): MB/s of wall time (b.SetBytes), of the
// thread's CPU time (cpu-MB/s) and of the whole process's CPU time, the
// garbage collector's threads included (proc-cpu-MB/s, the figure to quote
// under load). With GOMAXPROCS > 1 the support vectors are parsed in parts
// on several goroutines, and cpu-MB/s counts only the calling thread's.
func BenchmarkReadLIBSVM100MB(b *testing.B) {
	data := bigLIBSVMModel()
	runtime.LockOSThread() // the thread's CPU time is of this goroutine's thread
	defer runtime.UnlockOSThread()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	cpu, proc := cputime.Thread(), processCPU()
	for b.Loop() {
		f, err := ReadLIBSVM(data, nil)
		if err != nil {
			b.Fatal(err)
		}
		if f.Model.NumSupport() != 44000 {
			b.Fatal(f.Model.NumSupport())
		}
	}
	ns := float64(cputime.Thread()-cpu) / float64(b.N)
	pns := float64(processCPU()-proc) / float64(b.N)
	b.ReportMetric(ns, "cpu-ns/op")
	b.ReportMetric(float64(len(data))/ns*1e3, "cpu-MB/s")
	b.ReportMetric(float64(len(data))/pns*1e3, "proc-cpu-MB/s")
	b.ReportMetric(float64(len(data))/1e6, "file-MB")
}

// BenchmarkONNXLinearPredictBatch predicts the rows of
// $ROSENBLATT_ONNX_BENCH/rows.libsvm with the ONNX-ML model
// $ROSENBLATT_ONNX_BENCH/model.onnx (bench/results/interop/sklearn-linear.sh
// writes both with scikit-learn): PredictBatch over all rows at once, as
// scikit-learn's predict is timed; proc-cpu-ns/row is the process's CPU
// time (PredictBatch spreads the rows over GOMAXPROCS goroutines, so the
// thread's alone would undercount). model=read is the model as ReadONNX
// returns it; model=linear is a linear.Model of the same weights (the
// perceptrons' model, whose multiclass batch scores two rows per
// modelkern.Dots2 call), checked to give the same labels.
func BenchmarkONNXLinearPredictBatch(b *testing.B) {
	dir := os.Getenv("ROSENBLATT_ONNX_BENCH")
	if dir == "" {
		b.Skip("ROSENBLATT_ONNX_BENCH is not set")
	}
	data, err := os.ReadFile(filepath.Join(dir, "model.onnx"))
	if err != nil {
		b.Fatal(err)
	}
	f, err := ReadONNX(data, nil)
	if err != nil {
		b.Fatal(err)
	}
	m := f.Model
	x := readRows(&testing.T{}, filepath.Join(dir, "rows.libsvm"), m.Dims())
	if x.Cols != m.Dims() {
		b.Fatalf("%d columns, the model has %d features", x.Cols, m.Dims())
	}
	lw, ok := m.(interface {
		NumScores() int
		Classes() []int
		Weights(int) ([]float64, float64)
	})
	if !ok || lw.NumScores() != len(lw.Classes()) {
		b.Fatalf("%T is not a one-vs-rest linear model", m)
	}
	var W, B []float64
	for r := range lw.NumScores() {
		w, bias := lw.Weights(r)
		W, B = append(W, w...), append(B, bias)
	}
	lm := linmodel.Wrap[linear.Model[float64]](&linmodel.Parts[float64]{Scheme: fit.OneVsRest,
		Dims: m.Dims(), Labels: lw.Classes(), Bias: true, BiasFeature: 1, W: W, B: B})
	want, got := make([]int, x.Rows), make([]int, x.Rows)
	if err := m.PredictBatch(want, x.X); err != nil {
		b.Fatal(err)
	}
	if err := lm.PredictBatch(got, x.X); err != nil {
		b.Fatal(err)
	}
	if !slices.Equal(got, want) {
		b.Fatal("the linear.Model of the same weights predicts other labels")
	}
	for _, c := range []struct {
		name string
		m    interface{ PredictBatch([]int, []float64) error }
	}{{"read", m}, {"linear", lm}} {
		b.Run("model="+c.name, func(b *testing.B) {
			dst := make([]int, x.Rows)
			cpu := processCPU()
			for b.Loop() {
				if err := c.m.PredictBatch(dst, x.X); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/float64(x.Rows), "proc-cpu-ns/row")
			b.ReportMetric(float64(x.Rows), "rows")
		})
	}
}

// processCPU returns the CPU time of the whole process (user + system,
// every thread), in nanoseconds.
func processCPU() int64 {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return u.Utime.Nano() + u.Stime.Nano()
}
