package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/internal/usedcols"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Loss is the linear SVM's loss on the margin violation ξᵢ.
type Loss int

const (
	// Hinge is the L1-loss SVM, ½‖w‖² + C·Σ max(0, 1 − yᵢw·x̃ᵢ): the
	// soft-margin SVM (LIBLINEAR -s 3). Its dual has 0 ≤ αᵢ ≤ C.
	Hinge Loss = iota
	// SquaredHinge is the L2-loss SVM, ½‖w‖² + C·Σ max(0, 1 − yᵢw·x̃ᵢ)²
	// (LIBLINEAR -s 1, its default). Its dual has αᵢ ≥ 0 and Dᵢᵢ = 1/(2C).
	SquaredHinge
)

// String returns "hinge" or "squared-hinge".
func (l Loss) String() string {
	switch l {
	case Hinge:
		return "hinge"
	case SquaredHinge:
		return "squared-hinge"
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// LinearOptions configure FitLinear. The zero value is LIBLINEAR's
// -s 3 -c 1 -e 0.1 -B 1: hinge loss, C = 1, tolerance 0.1, and a bias
// feature of 1.
type LinearOptions struct {
	// C is the constant of ½‖w‖² + C·Σ loss (LIBLINEAR's and LIBSVM's
	// convention; in the form ‖θ‖² + C·Σ loss, C is twice it). 0 means DefaultC; +Inf trains
	// the hard-margin machine (see FitLinear). Negative or NaN values are
	// errors.
	C float64
	// Loss is Hinge (default) or SquaredHinge.
	Loss Loss
	// Tol is the stopping tolerance on PGmax − PGmin, the spread of the
	// projected gradient over a full pass; 0 means DefaultLinearTol (0.1,
	// LIBLINEAR's default for these solvers). With C = +Inf it is the
	// kernel solver's tolerance on m(α) − M(α) and 0 means DefaultTol.
	Tol float64
	// MaxIter caps the outer iterations (passes over the active rows) of
	// each machine; 0 means DefaultLinearMaxIter (1000, LIBLINEAR's).
	// Reaching it is not an error: the report's Converged is false.
	MaxIter int
	// BiasFeature is the value B of the constant feature appended to every row
	// (LIBLINEAR's -B): the model's bias is b = B·w_B, regularised with w.
	// 0 means 1. Negative or non-finite values are errors.
	BiasFeature float64
	// NoBias trains without a bias feature (LIBLINEAR's default -B -1):
	// the decision function is w·x.
	NoBias bool
	// Seed seeds the random order of the coordinate steps: the same data,
	// options and Seed give a bit-identical model, whatever Workers is.
	Seed uint64
	// Workers is the number of goroutines for one-vs-rest, between which
	// the classes are split; 0 means 1. The solver is bound by memory
	// traffic, not arithmetic: one goroutine visits each row once per pass
	// for all its classes, so splitting the classes between g goroutines
	// reads the data g times, and more goroutines help only on a machine
	// with memory bandwidth to spare (measured on a 2-vCPU Zen 5 in
	// bench/results/svm/svm-zen5.txt: one goroutine was faster).
	Workers int
	// Impl selects the kernel implementation (one of kernel.Impls()); nil
	// means kernel.ActiveImpl().
	Impl *kernel.Impl
}

type linConfig struct {
	c       float64
	loss    Loss
	tol     float64
	maxIter int
	B       float64
	seed    uint64
	threads int
	impl    *kernel.Impl
}

func (o LinearOptions) resolve() (linConfig, error) {
	c := linConfig{c: o.C, loss: o.Loss, tol: o.Tol, maxIter: o.MaxIter, B: o.BiasFeature, seed: o.Seed, threads: o.Workers, impl: o.Impl}
	switch {
	case c.c == 0:
		c.c = DefaultC
	case !(c.c > 0):
		return c, fmt.Errorf("%w: C = %v, want > 0 (or +Inf for the hard margin)", ErrOption, o.C)
	}
	if c.loss != Hinge && c.loss != SquaredHinge {
		return c, fmt.Errorf("%w: Loss = %d", ErrOption, int(o.Loss))
	}
	switch {
	case c.tol == 0 && math.IsInf(c.c, 1):
		c.tol = DefaultTol
	case c.tol == 0:
		c.tol = DefaultLinearTol
	case !(c.tol > 0) || math.IsInf(c.tol, 0):
		return c, fmt.Errorf("%w: Tol = %v, want finite > 0", ErrOption, o.Tol)
	}
	switch {
	case c.maxIter == 0:
		c.maxIter = DefaultLinearMaxIter
	case c.maxIter < 0:
		return c, fmt.Errorf("%w: MaxIter = %d, want ≥ 0", ErrOption, o.MaxIter)
	}
	switch {
	case o.NoBias:
		c.B = 0
	case c.B == 0:
		c.B = 1
	case !(c.B > 0) || math.IsInf(c.B, 0):
		return c, fmt.Errorf("%w: BiasFeature = %v, want finite > 0 (or NoBias)", ErrOption, o.BiasFeature)
	}
	if c.threads <= 0 {
		c.threads = 1
	}
	if c.impl == nil {
		c.impl = kernel.ActiveImpl()
	}
	if !c.impl.Available() {
		return c, fmt.Errorf("%w: implementation %s is not available on this CPU", ErrOption, c.impl.Name())
	}
	return c, nil
}

// trainLinearDense fits a linear SVM on the row-major data X (d features per
// row) by dual coordinate descent: binary for two labels, one-vs-rest for
// more. See trainLinearRows.
func trainLinearDense[T kernel.Float](X []T, d int, y []int, opts LinearOptions) (*linear.Model[T], *Info, error) {
	return trainLinearDenseContext(context.Background(), X, d, y, opts)
}

// trainLinearDenseContext is trainLinearDense with a context.
func trainLinearDenseContext[T kernel.Float](ctx context.Context, X []T, d int, y []int, opts LinearOptions) (*linear.Model[T], *Info, error) {
	if _, err := checkShape(X, d, y); err != nil {
		return nil, nil, err
	}
	cfg, err := opts.resolve()
	if err != nil {
		return nil, nil, err
	}
	if err := checkFinite(X, d); err != nil {
		return nil, nil, err
	}
	if math.IsInf(cfg.c, 1) {
		return trainLinearHard(ctx, X, d, y, cfg)
	}
	return trainLinear(ctx, newDense(X, d, cfg.impl), y, cfg)
}

// trainLinearRows is trainLinearDense on any Rows implementation, such as a
// sparse matrix. With C = +Inf it needs a dense matrix: use trainLinearDense.
//
// Cancelling ctx stops training at the end of the current pass over the
// data, and the error wraps the context's error. Errors wrap ErrEmpty,
// ErrDims, ErrNonFinite, ErrLabels (one class), ErrOption or, with
// C = +Inf, ErrNotSeparable. A machine that reaches MaxIter is not an
// error: the report's Converged is false.
func trainLinearRows[T kernel.Float](ctx context.Context, rows solverRows[T], y []int, opts LinearOptions) (*linear.Model[T], *Info, error) {
	cfg, err := opts.resolve()
	if err != nil {
		return nil, nil, err
	}
	if math.IsInf(cfg.c, 1) {
		return nil, nil, fmt.Errorf("%w: C = +Inf needs a dense matrix (trainLinearDense)", ErrOption)
	}
	return trainLinear(ctx, rows, y, cfg)
}

func trainLinear[T kernel.Float](ctx context.Context, rows solverRows[T], y []int, cfg linConfig) (*linear.Model[T], *Info, error) {
	sq, err := checkRows(rows, y)
	if err != nil {
		return nil, nil, err
	}
	labels, cls := classesOf(y)
	if len(labels) < 2 {
		return nil, nil, fmt.Errorf("%w: only one class (%d) in the labels", ErrLabels, labels[0])
	}
	n, d := rows.Len(), rows.Dim()
	scheme := fit.Binary
	classes := []int32{1}
	if len(labels) > 2 {
		scheme = fit.OneVsRest
		classes = make([]int32, len(labels))
		for c := range classes {
			classes[c] = int32(c)
		}
	}
	upper, diag := cfg.c, 0.0
	if cfg.loss == SquaredHinge {
		upper, diag = math.Inf(1), 0.5/cfg.c
	}
	workers := max(1, min(cfg.threads, len(classes)))
	ng := max(workers, (len(classes)+maxGroup-1)/maxGroup)
	// Sparse rows: the solver's weights span only the used columns (cols,
	// nil for all d), scattered into the model's at the end.
	var cols []int32
	solveRows := rows
	if cr, ok := rows.(*csrRows[T]); ok {
		solveRows, cols = cr.compact()
	}
	// Sparse one-vs-rest machines of short rows keep their weights
	// interleaved while they solve, in groups of at least interleaveMin
	// classes (dcdGroup.visitRow: the same machines, bit for bit). On
	// long rows or few classes the copies cost more than the cache misses
	// they save: on the manual pages (516 stored values a row, 6 classes)
	// the fit took 1.6× the time, on their NAME lines (18.8 a row, 6
	// classes) 1.1×, on the Debian package synopses (12.7 a row, 20
	// classes) 0.7×. A binary machine's weights are one vector anyway.
	interleave := cols != nil && scheme == fit.OneVsRest && solveRows.(*csrRows[T]).c.NNZ() <= interleaveRow*n
	groups := make([]*dcdGroup[T], ng)
	for gi := range groups {
		lo, hi := gi*len(classes)/ng, (gi+1)*len(classes)/ng
		groups[gi] = newDCDGroup(solveRows, cls, sq, classes[lo:hi], cfg.B, upper, diag, cfg.tol, cfg.maxIter, cfg.seed, interleave, ctx)
	}
	errs := make([]error, ng)
	var next atomic.Int64
	parallel.Run(workers, func(int) {
		for {
			gi := int(next.Add(1) - 1)
			if gi >= ng {
				return
			}
			errs[gi] = groups[gi].solve()
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, nil, fmt.Errorf("svm: training stopped: %w", err)
		}
	}
	r := len(classes)
	// The model's weights: dense rows of d, or for sparse rows the used
	// columns' alone (linmodel.CompactServed, each row's values then a
	// zero), which the model scores sparse samples with and forms dense
	// only for a dense one: no r×d array for text-sized d.
	var W, A []T
	if cols == nil {
		W = make([]T, r*d)
	} else {
		A = make([]T, r*(len(cols)+1))
	}
	B := make([]T, r)
	info := &Info{Converged: true, Problems: make([]Problem, r)}
	parallelGroups(groups, func(g *dcdGroup[T]) { g.finalize(cfg.c, cfg.loss) })
	for _, g := range groups {
		for c, cs := range g.cs {
			ri := int(cs.cls)
			if scheme == fit.Binary {
				ri = 0
			}
			if cols == nil {
				copy(W[ri*d:(ri+1)*d], g.W[c*d:(c+1)*d])
			} else {
				copy(A[ri*(len(cols)+1):], g.W[c*g.d:(c+1)*g.d])
			}
			B[ri] = T(g.wb[c] * cfg.B)
			pi := Problem{Positive: labels[cs.cls], Rows: n, Iterations: cs.iter, Converged: cs.conv, Gap: cs.gap, Bias: float64(B[ri])}
			if scheme == fit.Binary {
				pi.Negative = labels[0]
			} else {
				pi.Rest = true
			}
			g.objectives(c, cfg.c, cfg.loss, &pi)
			info.Problems[ri] = pi
			info.Converged = info.Converged && cs.conv
		}
	}
	var served *linmodel.CompactServed[T]
	if cols != nil {
		served = linmodel.NewCompactServed(usedcols.FromSorted(cols, d), A, d)
	}
	return linearModel(labels, d, cfg, W, B, served), info, nil
}

// linearModel returns the linear.Model (DualCD) of the weights W (r×d,
// or nil with served) and biases B of a fit with labels and options cfg:
// binary (a positive score predicts the larger label) for two labels,
// one-vs-rest for more. The model holds these arrays.
func linearModel[T kernel.Float](labels []int, d int, cfg linConfig, W, B []T, served *linmodel.CompactServed[T]) *linear.Model[T] {
	scheme := fit.OneVsRest
	if len(labels) == 2 {
		scheme = fit.Binary
	}
	return linmodel.Wrap[linear.Model[T]](&linmodel.Parts[T]{Scheme: scheme, Algorithm: uint8(linear.DualCD),
		Dims: d, Labels: labels, Bias: cfg.B > 0, BiasFeature: cfg.B, Eta: 1, W: W, B: B, Served: served, Impl: cfg.impl})
}

// interleaveRow is the most stored values a row has on average, and
// interleaveMin the fewest classes of a group, for which sparse
// one-vs-rest machines interleave their weights.
const (
	interleaveRow = 64
	interleaveMin = 8
)

// parallelGroups runs f on every group, each on a goroutine of its own.
func parallelGroups[T kernel.Float](groups []*dcdGroup[T], f func(*dcdGroup[T])) {
	parallel.Run(len(groups), func(t int) {
		if t < len(groups) {
			f(groups[t])
		}
	})
}

// trainLinearHard solves the hard-margin linear SVM on the augmented rows
// (xᵢ, B): the unbiased maximum-margin problem of the nearest-point solver
// with the linear kernel plus B² (see MaxMargin), one machine per class.
func trainLinearHard[T kernel.Float](ctx context.Context, X []T, d int, y []int, cfg linConfig) (*linear.Model[T], *Info, error) {
	labels, cls := classesOf(y)
	if len(labels) < 2 {
		return nil, nil, fmt.Errorf("%w: only one class (%d) in the labels", ErrLabels, labels[0])
	}
	scheme := fit.Binary
	if len(labels) > 2 {
		scheme = fit.OneVsRest
	}
	probs := makeProblems(scheme, len(labels), cls)
	r := len(probs)
	W, B := make([]T, r*d), make([]T, r)
	info := &Info{Converged: true}
	for ri, p := range probs {
		yy := make([]int, len(y))
		for i, c := range cls {
			yy[i] = -1
			if int(c) == p.pos {
				yy[i] = 1
			}
		}
		mg, err := maxMargin(ctx, X, d, yy, MarginOptions{Kernel: gram.Linear{}, NoBias: cfg.B == 0, BiasFeature: cfg.B, Tol: cfg.tol, Workers: cfg.threads, Impl: cfg.impl}, false)
		if err != nil {
			if errors.Is(err, ErrNotSeparable) && scheme == fit.Binary {
				return nil, nil, fmt.Errorf("class %d against %d: %w", labels[p.pos], labels[0], err)
			}
			if errors.Is(err, ErrNotSeparable) {
				return nil, nil, fmt.Errorf("class %d against the rest: %w", labels[p.pos], err)
			}
			return nil, nil, err
		}
		for j, v := range mg.W {
			W[ri*d+j] = T(v)
		}
		B[ri] = T(mg.Bias)
		pi := Problem{Positive: labels[p.pos], Rows: len(y), Iterations: mg.Iterations, Converged: mg.Converged, Gap: mg.Gap,
			Dual: -0.5 / (mg.Upper * mg.Upper), Primal: 0.5 / (mg.Upper * mg.Upper), Bias: mg.Bias, SV: len(mg.Support), Margin: mg.Upper}
		if scheme == fit.Binary {
			pi.Negative = labels[0]
		} else {
			pi.Rest = true
		}
		info.Problems = append(info.Problems, pi)
		info.Converged = info.Converged && mg.Converged
	}
	return linearModel(labels, d, cfg, W, B, nil), info, nil
}

// finalize recomputes every class's w = Σαᵢyᵢx̃ᵢ from α in one pass, so the
// model and the objectives carry no drift from the incremental updates.
func (g *dcdGroup[T]) finalize(c float64, loss Loss) {
	if g.W == nil {
		g.wi = nil // the solver's interleaved weights, recomputed here class by class
		g.W = make([]T, len(g.cs)*g.d)
	}
	clear(g.W)
	clear(g.wb)
	for i := range g.n {
		pos := math.Float64bits(g.state[i*g.stride+stPos])
		for ci := range g.cs {
			a := g.alpha(i, ci)
			if a == 0 {
				continue
			}
			dy := a
			if pos&(1<<ci) == 0 {
				dy = -a
			}
			g.rows.Axpy(i, T(dy), g.W[ci*g.d:(ci+1)*g.d])
			g.wb[ci] += dy * g.B
		}
	}
}

// objectives sets class c's dual and primal objectives, its margin
// 1/‖w̃‖ and its support vectors (all, and those at the bound C of the
// hinge loss) in p.
func (g *dcdGroup[T]) objectives(c int, C float64, loss Loss, p *Problem) {
	w := g.W[c*g.d : (c+1)*g.d]
	var wsq float64
	for _, v := range w {
		wsq += float64(v) * float64(v)
	}
	wsq += g.wb[c] * g.wb[c]
	var sa, sa2, loss1 float64
	for i := range g.n {
		a := g.alpha(i, c)
		if a > 0 {
			p.SV++
			sa += a
			sa2 += a * a
			if loss == Hinge && a >= C {
				p.BoundedSV++
			}
		}
		yi := -1.0
		if math.Float64bits(g.state[i*g.stride+stPos])&(1<<c) != 0 {
			yi = 1
		}
		xi := max(0, 1-yi*(float64(g.rows.Dot(i, w))+g.B*g.wb[c]))
		if loss == SquaredHinge {
			xi *= xi
		}
		loss1 += xi
	}
	p.Dual = wsq/2 + g.diag*sa2/2 - sa
	p.Primal = wsq/2 + C*loss1
	if wsq > 0 {
		p.Margin = 1 / math.Sqrt(wsq)
	}
}
