package svm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
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

// LinearOptions configure trainLinearDense. The zero value is LIBLINEAR's
// -s 3 -c 1 -e 0.1 -B 1: hinge loss, C = 1, tolerance 0.1, and a bias
// feature of 1.
type LinearOptions struct {
	// C is the constant of ½‖w‖² + C·Σ loss (LIBLINEAR's and LIBSVM's
	// convention; in the form ‖θ‖² + C·Σ loss, C is twice it). 0 means DefaultC; +Inf trains
	// the hard-margin machine (see trainLinearDense). Negative or NaN values are
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
	// Reaching it is not an error: LinearInfo.Converged is false.
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

// LinearInfo describes a linear training run.
type LinearInfo struct {
	// Problems has one entry per machine, in the order of the model's
	// decision functions.
	Problems []LinearProblemInfo
	// Converged reports that every machine met the tolerance.
	Converged bool
}

// LinearProblemInfo describes one linear machine.
type LinearProblemInfo struct {
	// Positive is the label of the machine's y = +1 rows; Negative that of
	// its y = −1 rows, unless Rest is set (one-vs-rest).
	Positive, Negative int
	Rest               bool
	// Iterations is the number of outer iterations (passes).
	Iterations int
	// Converged reports PGmax − PGmin ≤ Tol on the full set.
	Converged bool
	// Gap is PGmax − PGmin of the last pass.
	Gap float64
	// Dual is the dual objective ½‖w‖² + ½Σ Dᵢᵢαᵢ² − Σαᵢ (LIBLINEAR's
	// "Objective value"; minimised, ≤ 0), with w = Σαᵢyᵢx̃ᵢ recomputed from
	// α at the end.
	Dual float64
	// Primal is ½‖w‖² + C·Σ loss at the returned w; Primal + Dual ≥ 0 is
	// the duality gap.
	Primal float64
	// SV counts the rows with αᵢ > 0.
	SV int
}

// LinearModel is a trained linear SVM: binary or one-vs-rest, with
// decision functions f_r(x) = w_r·x + b_r. It is immutable and safe for
// concurrent use.
type LinearModel[T Float] struct {
	d      int
	labels []int
	scheme Scheme
	w      []T // R×d
	b      []T // R
	k      kernel.Kernels[T]
}

// NewLinearModel builds a linear model from weights W (R×d, row-major),
// biases b (R) and the sorted labels: R = 1 (Binary, two labels; a
// positive value predicts the larger) or R = len(labels) (OneVsRest). It
// copies its arguments; inconsistent sizes, unsorted labels and non-finite
// values are errors wrapping ErrModel.
func NewLinearModel[T Float](W []T, d int, b []T, labels []int) (*LinearModel[T], error) {
	if d < 1 || len(labels) < 2 {
		return nil, fmt.Errorf("%w: d = %d, %d labels", ErrModel, d, len(labels))
	}
	for i := 1; i < len(labels); i++ {
		if labels[i] <= labels[i-1] {
			return nil, fmt.Errorf("%w: labels not strictly increasing", ErrModel)
		}
	}
	r := len(b)
	scheme := OneVsRest
	switch {
	case r == 1 && len(labels) == 2:
		scheme = Binary
	case r != len(labels):
		return nil, fmt.Errorf("%w: %d biases for %d labels", ErrModel, r, len(labels))
	}
	if len(W) != r*d {
		return nil, fmt.Errorf("%w: len(W) = %d, want %d·%d", ErrModel, len(W), r, d)
	}
	if !finite(W) || !finite(b) {
		return nil, fmt.Errorf("%w: NaN or infinite weight", ErrModel)
	}
	return &LinearModel[T]{d: d, labels: slices.Clone(labels), scheme: scheme, w: slices.Clone(W), b: slices.Clone(b), k: kernel.On[T](kernel.ActiveImpl())}, nil
}

// Dims returns the number of features.
func (m *LinearModel[T]) Dims() int { return m.d }

// Classes returns the sorted labels (a copy).
func (m *LinearModel[T]) Classes() []int { return slices.Clone(m.labels) }

// Scheme returns Binary or OneVsRest.
func (m *LinearModel[T]) Scheme() Scheme { return m.scheme }

// NumScores returns the number of decision functions.
func (m *LinearModel[T]) NumScores() int { return len(m.b) }

// Weights returns a copy of decision function r's weights and its bias.
// It panics if r is out of range.
func (m *LinearModel[T]) Weights(r int) ([]T, T) {
	return slices.Clone(m.w[r*m.d : (r+1)*m.d]), m.b[r]
}

func (m *LinearModel[T]) checkSample(x []T) error {
	if m == nil || m.d == 0 {
		return fmt.Errorf("%w: untrained model", ErrModel)
	}
	if len(x) != m.d {
		return fmt.Errorf("%w: sample has %d values, model has %d features", ErrDims, len(x), m.d)
	}
	if !finite(x) {
		return fmt.Errorf("%w: sample", ErrNonFinite)
	}
	return nil
}

func (m *LinearModel[T]) scores(dst, x []T) {
	m.k.Dots(dst, m.w, x)
	for r, b := range m.b {
		dst[r] += b
	}
}

func (m *LinearModel[T]) decide(sc []T) int {
	if m.scheme == Binary {
		if sc[0] > 0 {
			return m.labels[1]
		}
		return m.labels[0]
	}
	best := 0
	for r, v := range sc {
		if v > sc[best] {
			best = r
		}
	}
	return m.labels[best]
}

// Scores writes the decision values of x into dst (NumScores values).
func (m *LinearModel[T]) Scores(dst, x []T) error {
	if err := m.checkSample(x); err != nil {
		return err
	}
	if len(dst) != len(m.b) {
		return fmt.Errorf("%w: len(dst) = %d, want %d", ErrDims, len(dst), len(m.b))
	}
	m.scores(dst, x)
	return nil
}

// Predict returns the predicted label of x. It allocates nothing for up
// to 64 classes.
func (m *LinearModel[T]) Predict(x []T) (int, error) {
	if err := m.checkSample(x); err != nil {
		return 0, err
	}
	var buf [64]T
	sc := buf[:0]
	if len(m.b) <= len(buf) {
		sc = buf[:len(m.b)]
	} else {
		sc = make([]T, len(m.b))
	}
	m.scores(sc, x)
	return m.decide(sc), nil
}

// PredictBatch writes the predicted label of each row of X into dst.
func (m *LinearModel[T]) PredictBatch(dst []int, X []T) error {
	if m == nil || m.d == 0 {
		return fmt.Errorf("%w: untrained model", ErrModel)
	}
	if len(X)%m.d != 0 || len(dst) != len(X)/m.d {
		return fmt.Errorf("%w: len(X) = %d and len(dst) = %d for %d features", ErrDims, len(X), len(dst), m.d)
	}
	r := len(m.b)
	var bad atomic.Bool
	parallelRows(len(dst), func(lo, hi int) {
		sc := make([]T, r)
		for i := lo; i < hi; i++ {
			x := X[i*m.d : (i+1)*m.d]
			m.scores(sc, x)
			if !scoresFinite(sc, x) {
				bad.Store(true)
				return
			}
			dst[i] = m.decide(sc)
		}
	})
	if bad.Load() {
		return fmt.Errorf("%w: samples", ErrNonFinite)
	}
	return nil
}

// scoresFinite reports whether the sample x, whose decision values are sc,
// is finite. A NaN or infinite feature makes every decision value NaN or
// infinite (its product with a zero weight is NaN), so the r values are
// checked first and the d features only when one of them is not finite
// (a finite sample may overflow): one pass over the batch, not two.
func scoresFinite[T Float](sc, x []T) bool {
	return finite(sc) || finite(x)
}

// ScoresBatch writes the decision values of the rows of X (row-major,
// Dims columns) into dst, NumScores per row.
func (m *LinearModel[T]) ScoresBatch(dst, X []T) error {
	if m == nil || m.d == 0 {
		return fmt.Errorf("%w: untrained model", ErrModel)
	}
	r := len(m.b)
	if len(X)%m.d != 0 || len(dst) != len(X)/m.d*r {
		return fmt.Errorf("%w: len(X) = %d and len(dst) = %d for %d features and %d scores", ErrDims, len(X), len(dst), m.d, r)
	}
	var bad atomic.Bool
	parallelRows(len(X)/m.d, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x := X[i*m.d : (i+1)*m.d]
			m.scores(dst[i*r:(i+1)*r], x)
			if !scoresFinite(dst[i*r:(i+1)*r], x) {
				bad.Store(true)
				return
			}
		}
	})
	if bad.Load() {
		return fmt.Errorf("%w: samples", ErrNonFinite)
	}
	return nil
}

// Accuracy returns the fraction of rows of X whose predicted label is y.
func (m *LinearModel[T]) Accuracy(X []T, y []int) (float64, error) {
	if m == nil || m.d == 0 {
		return 0, fmt.Errorf("%w: untrained model", ErrModel)
	}
	if len(y) == 0 || len(X) != len(y)*m.d {
		return 0, fmt.Errorf("%w: len(X) = %d and len(y) = %d for %d features", ErrDims, len(X), len(y), m.d)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatch(pred, X); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}

// trainLinearDense fits a linear SVM on the row-major data X (d features per
// row) by dual coordinate descent: binary for two labels, one-vs-rest for
// more. See trainLinearRows.
func trainLinearDense[T Float](X []T, d int, y []int, opts LinearOptions) (*LinearModel[T], *LinearInfo, error) {
	return trainLinearDenseContext(context.Background(), X, d, y, opts)
}

// trainLinearDenseContext is trainLinearDense with a context.
func trainLinearDenseContext[T Float](ctx context.Context, X []T, d int, y []int, opts LinearOptions) (*LinearModel[T], *LinearInfo, error) {
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
// error: LinearInfo.Converged is false.
func trainLinearRows[T Float](ctx context.Context, rows solverRows[T], y []int, opts LinearOptions) (*LinearModel[T], *LinearInfo, error) {
	cfg, err := opts.resolve()
	if err != nil {
		return nil, nil, err
	}
	if math.IsInf(cfg.c, 1) {
		return nil, nil, fmt.Errorf("%w: C = +Inf needs a dense matrix (trainLinearDense)", ErrOption)
	}
	return trainLinear(ctx, rows, y, cfg)
}

func trainLinear[T Float](ctx context.Context, rows solverRows[T], y []int, cfg linConfig) (*LinearModel[T], *LinearInfo, error) {
	sq, err := checkRows(rows, y)
	if err != nil {
		return nil, nil, err
	}
	labels, cls := classesOf(y)
	if len(labels) < 2 {
		return nil, nil, fmt.Errorf("%w: only one class (%d) in the labels", ErrLabels, labels[0])
	}
	n, d := rows.Len(), rows.Dim()
	scheme := Binary
	classes := []int32{1}
	if len(labels) > 2 {
		scheme = OneVsRest
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
	interleave := cols != nil && scheme == OneVsRest && solveRows.(*csrRows[T]).c.NNZ() <= interleaveRow*n
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
	m := &LinearModel[T]{d: d, labels: labels, scheme: scheme, w: make([]T, r*d), b: make([]T, r), k: kernel.On[T](cfg.impl)}
	info := &LinearInfo{Converged: true, Problems: make([]LinearProblemInfo, r)}
	parallelGroups(groups, func(g *dcdGroup[T]) { g.finalize(cfg.c, cfg.loss) })
	for _, g := range groups {
		for c, cs := range g.cs {
			ri := int(cs.cls)
			if scheme == Binary {
				ri = 0
			}
			if cols == nil {
				copy(m.w[ri*d:(ri+1)*d], g.W[c*d:(c+1)*d])
			} else {
				w, gw := m.w[ri*d:(ri+1)*d], g.W[c*g.d:(c+1)*g.d]
				for r, j := range cols {
					w[j] = gw[r]
				}
			}
			m.b[ri] = T(g.wb[c] * cfg.B)
			pi := LinearProblemInfo{Positive: labels[cs.cls], Iterations: cs.iter, Converged: cs.conv, Gap: cs.gap}
			if scheme == Binary {
				pi.Negative = labels[0]
			} else {
				pi.Rest = true
			}
			pi.Dual, pi.Primal, pi.SV = g.objectives(c, cfg.c, cfg.loss)
			info.Problems[ri] = pi
			info.Converged = info.Converged && cs.conv
		}
	}
	_ = n
	return m, info, nil
}

// interleaveRow is the most stored values a row has on average, and
// interleaveMin the fewest classes of a group, for which sparse
// one-vs-rest machines interleave their weights.
const (
	interleaveRow = 64
	interleaveMin = 8
)

// parallelGroups runs f on every group, each on a goroutine of its own.
func parallelGroups[T Float](groups []*dcdGroup[T], f func(*dcdGroup[T])) {
	parallel.Run(len(groups), func(t int) {
		if t < len(groups) {
			f(groups[t])
		}
	})
}

// trainLinearHard solves the hard-margin linear SVM on the augmented rows
// (xᵢ, B): the unbiased maximum-margin problem of the nearest-point solver
// with the linear kernel plus B² (see MaxMargin), one machine per class.
func trainLinearHard[T Float](ctx context.Context, X []T, d int, y []int, cfg linConfig) (*LinearModel[T], *LinearInfo, error) {
	labels, cls := classesOf(y)
	if len(labels) < 2 {
		return nil, nil, fmt.Errorf("%w: only one class (%d) in the labels", ErrLabels, labels[0])
	}
	scheme := Binary
	if len(labels) > 2 {
		scheme = OneVsRest
	}
	probs := makeProblems(scheme, len(labels), cls)
	r := len(probs)
	m := &LinearModel[T]{d: d, labels: labels, scheme: scheme, w: make([]T, r*d), b: make([]T, r), k: kernel.On[T](cfg.impl)}
	info := &LinearInfo{Converged: true}
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
			if errors.Is(err, ErrNotSeparable) && scheme == Binary {
				return nil, nil, fmt.Errorf("class %d against %d: %w", labels[p.pos], labels[0], err)
			}
			if errors.Is(err, ErrNotSeparable) {
				return nil, nil, fmt.Errorf("class %d against the rest: %w", labels[p.pos], err)
			}
			return nil, nil, err
		}
		for j, v := range mg.W {
			m.w[ri*d+j] = T(v)
		}
		m.b[ri] = T(mg.Bias)
		pi := LinearProblemInfo{Positive: labels[p.pos], Iterations: mg.Iterations, Converged: mg.Converged, Gap: mg.Gap,
			Dual: -0.5 / (mg.Upper * mg.Upper), Primal: 0.5 / (mg.Upper * mg.Upper), SV: len(mg.Support)}
		if scheme == Binary {
			pi.Negative = labels[0]
		} else {
			pi.Rest = true
		}
		info.Problems = append(info.Problems, pi)
		info.Converged = info.Converged && mg.Converged
	}
	return m, info, nil
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

// objectives returns class c's dual and primal objectives and its number
// of support vectors.
func (g *dcdGroup[T]) objectives(c int, C float64, loss Loss) (dual, primal float64, nsv int) {
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
			nsv++
			sa += a
			sa2 += a * a
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
	dual = wsq/2 + g.diag*sa2/2 - sa
	primal = wsq/2 + C*loss1
	return dual, primal, nsv
}
