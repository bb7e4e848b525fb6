package perceptron

import (
	"context"
	"fmt"
	"time"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/kernelperceptron"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
)

// Start is a warm start for Fit and FitKernel (Options.Init). It is one of:
//
//   - Weights: the starting weights w₀ and biases b₀ of Fit's linear
//     perceptrons;
//   - *linear.Model[T]: a trained linear model that Fit continues (see Fit);
//   - Dual: the starting mistake counts α₀ and biases b₀ of FitKernel's
//     kernel perceptron.
//
// Any other value is an error wrapping ErrOption.
type Start any

// Weights is the warm start (w₀, b₀) of a linear perceptron: W holds D
// values for a binary model, K·D for a multiclass one (row k for the k-th
// smallest label, the order of Model.Classes); B holds 1 or K biases. nil
// means 0. Each value must be finite in the element type; the slices are
// copied, never modified. With Normalize, w₀ weighs the scaled points. SVM
// (Pegasos) takes no warm start: its first step multiplies w by 0.
type Weights struct {
	W []float64
	B []float64
}

// Dual is the warm start (α₀, b₀) of the binary and one-vs-rest Online and
// Averaged kernel perceptrons (FitKernel): Alpha holds the starting
// mistake count αⱼ (an integer ≥ 0) of every training row j, N values for
// a binary model and K·N for one-vs-rest (score function c first, in the
// order of the model's Classes); B holds 1 or K biases. nil means 0.
// Training starts from f_c(x) = Σⱼ αⱼ·η·y_cj·K(xⱼ, x) + b_c, as if it had
// made those mistakes; the Averaged run averages from there.
type Dual struct {
	Alpha []float64
	B     []float64
}

// Fit trains a linear classifier on the rows of X (a dense *dataset.Data
// or a sparse *dataset.CSR) with labels y, by the rule opt.Algorithm:
// Rosenblatt's perceptron (Online), Batch, MiniBatch, Averaged, Voted or
// Pegasos (SVM). Labels that are all −1 or +1 give a binary model (a
// score above 0 predicts +1); any other integers a multiclass one by
// opt.Multiclass: fit.OneVsRest, the default (fit.Auto) (every algorithm; the classes
// train in parallel goroutines, each reading a sample once per epoch for
// all of its classes) or fit.Argmax (the multiclass perceptron; Online or
// Averaged), which applies to ±1 labels too. fit.Binary refuses other
// labels than ±1, and fit.OneVsOne is the kernel SVM's (both ErrOption). Sparse rows train at O(nnz)
// per epoch (one-vs-rest interleaves up to eight classes' weights by
// feature and keeps only the columns the data uses); on integer-valued
// data the sparse fit is the dense fit's model bit for bit.
//
// opt.Init is the warm start: Weights (w₀, b₀), or a *linear.Model[T] to
// continue. Continuing a model trains a new one starting from it and
// leaves it unchanged (it may keep serving): its scheme decides the problem
// (binary, one-vs-rest or argmax over its classes, opt.Multiclass fit.Auto
// or the same; every label of y must
// be one of them), X must have its Dims, and the options must scale
// samples as it does (Normalize, NormalizeFeatures, NoBias; BiasFeature 0
// keeps the model's). With opt.Algorithm the model's own, training resumes
// its state: the averaging sums of Averaged (two epochs equal one epoch
// continued for one more, bit for bit on integer-valued data), the kept
// vectors of Voted, the step count and λ of SVM. Another algorithm starts
// from the model's served weights (a voted model has none; SVM starts
// from 0). An averaged or SVM model read from a file written without
// Options.Resumable has no state to resume (ErrUnsupported).
//
// ctx is checked after every epoch: cancelling it ends training with an
// error wrapping the context's. The report's Detail is the run's
// *Diagnostics.
//
// Bad input is an error wrapping one of the sentinels: ErrEmpty (no rows),
// linear.ErrDims (a shape that does not add up, an inconsistent CSR),
// linear.ErrNonFinite (a NaN or Inf in X), linear.ErrLabels, ErrOneClass
// (one label only), ErrOption (a bad option, or a step size that
// overflows T), linear.ErrDiverged (a value overflowed T during training;
// the message names the epoch and the sample), ErrBudget (Voted: the kept vectors would exceed
// Options.VotedMaxBytes). The model returned has finite weights. X and y
// are never modified.
func Fit[T kernel.Float](ctx context.Context, X dataset.Rows[T], y []int, opt Options) (*linear.Model[T], *fit.Report, error) {
	t0 := time.Now()
	if err := withContext(ctx, &opt); err != nil {
		return nil, nil, err
	}
	var (
		m    *linear.Model[T]
		diag *Diagnostics
		err  error
	)
	switch init := opt.Init.(type) {
	case nil, Weights:
	case *linear.Model[T]:
		opt.Init = nil
		m, diag, err = continueFrom(init, X, y, opt)
		return m, linReport(diag, t0), err
	default:
		return nil, nil, fmt.Errorf("%w: Init is a %T; Fit takes Weights or a *linear.Model[%s]", ErrOption, opt.Init, linmodel.TypeName[T]())
	}
	if x, ok := X.(*dataset.Data[T]); ok {
		if err := checkData(x); err != nil {
			return nil, nil, err
		}
	}
	m, diag, err = train(X, y, opt.Multiclass != fit.Argmax && plusMinusOne(y), opt)
	return m, linReport(diag, t0), err
}

// FitKernel trains a kernel perceptron on the rows of X (dense or sparse)
// with labels y: the dual perceptron (Freund and Schapire, 1999),
//
//	f(x) = Σᵢ αᵢ·η·yᵢ·K(xᵢ, x) + b,
//
// where αᵢ counts the mistakes made on sample i and b += η·yᵢ·B² with each
// of them (B the Options.BiasFeature, 1 by default). Training keeps the
// decision values of every training sample, so a correct sample costs
// O(1) and a mistake O(N). With gram.Linear{} it makes exactly the
// mistakes, in the same order, that Fit's Online perceptron makes (up to
// rounding; exactly on integer-valued data). Averaged returns the average
// of the decision functions after every sample, Voted the voted perceptron
// of them. Labels that are all ±1 give a binary model; others one kernel
// perceptron per class against the rest on one shared Gram matrix
// (fit.OneVsRest) or the multiclass kernel perceptron (fit.Argmax: on a mistake
// f_y += η·K(xⱼ, ·) and f_p −= η·K(xⱼ, ·) for the highest-scoring wrong
// class p). Sparse rows keep sparse support vectors and never densify a
// row. ctx is checked after every epoch. The report's Detail is the run's
// *Diagnostics; its SupportVectors the model's.
//
// Errors are those of Fit, plus ErrOption for an invalid kernel or an
// unsupported Algorithm, ErrBudget for a MaxBytes below one kernel row and
// ErrNonFinite for data whose kernel values would overflow T. X and y are
// never modified; the model keeps copies of the support vectors only.
func FitKernel[T kernel.Float](ctx context.Context, X dataset.Rows[T], y []int, opt KernelOptions) (*expansion.Model[T], *fit.Report, error) {
	t0 := time.Now()
	if err := withContext(ctx, &opt.Options); err != nil {
		return nil, nil, err
	}
	var (
		m    *expansion.Model[T]
		diag *Diagnostics
		err  error
	)
	if x, ok := X.(*dataset.Data[T]); ok {
		if err := checkData(x); err != nil {
			return nil, nil, err
		}
	}
	m, diag, err = trainKernel(X, y, opt.Multiclass != fit.Argmax && plusMinusOne(y), opt)
	rep := linReport(diag, t0)
	if rep != nil && m != nil {
		rep.SupportVectors = m.NumSupport()
	}
	return m, rep, err
}

// train is Fit from zero or from Weights: binary (labels ±1, one model)
// or multiclass by opt.Multiclass, on dense or CSR rows.
func train[T kernel.Float](X dataset.Rows[T], y []int, binary bool, opt Options) (*linear.Model[T], *Diagnostics, error) {
	cfg, err := opt.resolve()
	if err != nil {
		return nil, nil, err
	}
	if !binary && cfg.strategy == fit.Argmax && cfg.algo != linear.Online && cfg.algo != linear.Averaged {
		return nil, nil, fmt.Errorf("%w: the Argmax scheme supports the Online and Averaged algorithms, not %v", ErrOption, cfg.algo)
	}
	n, cols, err := checkRows(X, y)
	if err != nil {
		return nil, nil, err
	}
	if err := checkBinary(&cfg, y, binary); err != nil {
		return nil, nil, err
	}
	labels, cls, K, err := classesOf(y, binary)
	if err != nil {
		return nil, nil, err
	}
	if err := checkElem[T](&cfg, n); err != nil {
		return nil, nil, err
	}
	k := linmodel.KernelsFor[T](cfg.impl)
	var dt *data[T]
	if x, ok := X.(*dataset.Data[T]); ok && binary && cfg.checksInFirstEpoch() {
		dt = prepareLazy(x.X, n, cols)
	} else if dt, err = prepareRows(k, X, n, &cfg, true, cfg.algo != linear.SVM); err != nil {
		return nil, nil, err
	}
	start, err := initialStart[T](&cfg, dt, K, cols)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case binary:
		return newLinTrainer(k, &cfg, dt, cls, 1, start).run(fit.Binary, labels)
	case cfg.strategy == fit.Argmax:
		return newArgmaxTrainer(k, &cfg, dt, cls, K, start).run(labels)
	}
	return newLinTrainer(k, &cfg, dt, cls, K, start).run(fit.OneVsRest, labels)
}

// trainKernel is FitKernel: binary (labels ±1, one decision function) or
// multiclass by opt.Multiclass, on dense or CSR rows.
func trainKernel[T kernel.Float](X dataset.Rows[T], y []int, binary bool, opt KernelOptions) (*expansion.Model[T], *Diagnostics, error) {
	cfg, kern, err := opt.resolveKernel(!binary)
	if err != nil {
		return nil, nil, err
	}
	n, _, err := checkRows(X, y)
	if err != nil {
		return nil, nil, err
	}
	if err := checkBinary(&cfg, y, binary); err != nil {
		return nil, nil, err
	}
	labels, cls, K, err := classesOf(y, binary)
	if err != nil {
		return nil, nil, err
	}
	argmax, scheme := false, fit.Binary
	if !binary {
		argmax, scheme = cfg.kernelKind()
	}
	if _, sparse := X.(*dataset.CSR[T]); sparse && cfg.margin {
		return nil, nil, fmt.Errorf("%w: DataMargin solves the hard-margin SVM on dense rows; not on a CSR matrix", ErrOption)
	}
	if err := checkElem[T](&cfg, n); err != nil {
		return nil, nil, err
	}
	k := linmodel.KernelsFor[T](cfg.impl)
	dt, err := prepareRows(k, X, n, &cfg, false, false)
	if err != nil {
		return nil, nil, err
	}
	m, diag, err := kernelperceptron.Fit(k, cfg.kernel(kern, opt.MaxBytes, argmax, opt.trace), kernelData(dt), cls, K, scheme, labels)
	return m, toDiagnostics(diag), err
}

// kernel is the kernel perceptron trainer's configuration of c.
func (c *config) kernel(kern gram.Kernel, maxBytes int64, argmax bool, trace func(c, i int)) *kernelperceptron.Config {
	return &kernelperceptron.Config{Algorithm: c.algo, Argmax: argmax, Kernel: kern, MaxBytes: maxBytes, Epochs: c.epochs,
		Eta: c.eta, Bias: c.bias, BiasFeature: c.bfeat, Scaling: c.scaling, Sampling: perceptrontrain.Sampling(c.sampling),
		Shuffle: c.shuffle, Seed: c.seed, StopClean: c.stopClean, VotedMaxBytes: c.votedMax, DataMargin: c.margin,
		Workers: c.workers, Impl: c.impl, Callback: c.callback, Alpha: c.a0, B: c.b0, Trace: trace}
}

// kernelData is dt as the kernel perceptron's trainer takes it (sharing
// its arrays).
func kernelData[T kernel.Float](dt *data[T]) *kernelperceptron.Data[T] {
	kd := &kernelperceptron.Data[T]{N: dt.n, D: dt.d, X: dt.X, Scale: dt.scale, Sq: dt.sq}
	if sp := dt.sp; sp != nil {
		kd.CSR = &dataset.CSR[T]{Ptr: sp.ptr, Idx: sp.idx, Val: sp.val, Rows: dt.n, Cols: dt.d, Y: make([]int, dt.n)}
	}
	return kd
}

// checkRows checks the shape of dense or CSR rows and their labels, and
// returns the rows and the columns.
func checkRows[T kernel.Float](X dataset.Rows[T], y []int) (n, cols int, err error) {
	switch x := X.(type) {
	case *dataset.Data[T]:
		if x == nil {
			return 0, 0, fmt.Errorf("%w: nil data", ErrEmpty)
		}
		n, err = checkShape(x.X, x.Cols, y)
		return n, x.Cols, err
	case *dataset.CSR[T]:
		n, err = checkCSR(x, y)
		if x != nil {
			cols = x.Cols
		}
		return n, cols, err
	}
	return 0, 0, errRows(X)
}

// prepareRows is prepare or prepareSparse for rows checkRows accepted.
func prepareRows[T kernel.Float](k modelkern.Kernels[T], X dataset.Rows[T], n int, cfg *config, column, normsForChecks bool) (*data[T], error) {
	if x, ok := X.(*dataset.CSR[T]); ok {
		return prepareSparse(k, x, cfg.scaling, cfg.bfeat, column, normsForChecks)
	}
	x := X.(*dataset.Data[T])
	return prepare(k, x.X, n, x.Cols, cfg.scaling, cfg.bfeat, column)
}

// classesOf returns the labels, each row's class and the number of score
// functions: ±1 labels and one for binary, else multiClasses's.
func classesOf(y []int, binary bool) (labels []int, cls []int32, K int, err error) {
	if binary {
		cls, err = binaryClasses(y)
		return []int{-1, 1}, cls, 1, err
	}
	labels, cls, err = multiClasses(y)
	return labels, cls, len(labels), err
}

// withContext checks ctx and makes opt's callback end training with ctx's
// error once it is done.
func withContext(ctx context.Context, opt *Options) error {
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrOption)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("perceptron: %w", err)
	}
	if ctx.Done() == nil {
		return nil
	}
	cb := opt.Callback
	opt.Callback = func(e Epoch) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if cb != nil {
			return cb(e)
		}
		return nil
	}
	return nil
}

// plusMinusOne reports whether every label is −1 or +1 (and there is one).
// checkBinary refuses labels other than ±1 under the Binary scheme: binary
// is whether the fit is binary.
func checkBinary(cfg *config, y []int, binary bool) error {
	if cfg.strategy != fit.Binary || binary {
		return nil
	}
	for i, v := range y {
		if v != 1 && v != -1 {
			return fmt.Errorf("%w: Multiclass = %v takes labels −1 and +1, not y[%d] = %d", ErrOption, cfg.strategy, i, v)
		}
	}
	return nil
}

func plusMinusOne(y []int) bool {
	for _, v := range y {
		if v != 1 && v != -1 {
			return false
		}
	}
	return len(y) > 0
}

func errRows(X any) error {
	if X == nil {
		return fmt.Errorf("%w: nil data", ErrEmpty)
	}
	return fmt.Errorf("%w: rows of type %T; want a *dataset.Data or *dataset.CSR", linear.ErrDims, X)
}

// linReport summarises d (nil for nil).
func linReport(d *Diagnostics, t0 time.Time) *fit.Report {
	if d == nil {
		return nil
	}
	r := &fit.Report{Epochs: len(d.Epochs), Iterations: d.Updates, Converged: d.Converged, Stopped: d.Stopped,
		Time: time.Since(t0), Detail: d}
	for _, e := range d.Epochs {
		r.Mistakes += e.Mistakes
	}
	if n := len(d.Epochs); n > 0 {
		r.Objective = d.Epochs[n-1].Objective
	}
	return r
}

// checkData checks that a dense matrix is not nil and holds Rows·Cols
// values.
func checkData[T kernel.Float](x *dataset.Data[T]) error {
	if x == nil {
		return fmt.Errorf("%w: nil data", ErrEmpty)
	}
	if x.Rows < 0 || x.Cols < 0 || len(x.X) != x.Rows*x.Cols {
		return fmt.Errorf("%w: %d values for %d rows of %d columns", linear.ErrDims, len(x.X), x.Rows, x.Cols)
	}
	return nil
}

// newModel returns the linear model of the parts p, holding p's arrays
// (package internal/linmodel's bridge: nothing is copied).
func newModel[T kernel.Float](p *linmodel.Parts[T]) *linear.Model[T] {
	return linmodel.Wrap[linear.Model[T]](p)
}
