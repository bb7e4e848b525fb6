package svm

import (
	"context"
	"fmt"
	"math"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// MarginOptions configure MaxMargin.
type MarginOptions struct {
	// Kernel is the kernel function; nil means gram.Linear{}.
	Kernel gram.Kernel
	// How the separator may shift its hyperplane. By default
	// f(x) = w·φ(x) + b with b free and unregularised: the geometric
	// maximum margin, half the distance between the classes' convex hulls
	// (the hard-margin machine of Fit and LIBSVM).
	//
	// NoBias drops b: f(x) = w·φ(x), hyperplanes through the origin,
	// min ‖θ‖² subject to yᵢθ·xᵢ ≥ 1 (as Options.NoBias).
	//
	// BiasFeature B > 0 makes the bias the weight of a constant feature B
	// appended to every row, regularised with w: f(x) = w·φ(x) + w_B·B
	// (LIBLINEAR's -B, as LinearOptions.BiasFeature; and the perceptron's
	// margin and radius, which treat b as a weight on a constant feature
	// 1). It is NoBias on the augmented rows (xᵢ, B), and with B = 1 and
	// the linear kernel its Radius and Bound are exactly those of
	// Novikoff's theorem for a perceptron with a bias. Not with NoBias.
	NoBias      bool
	BiasFeature float64
	// Tol is the stopping tolerance on the KKT violation m(α) − M(α) of
	// the hard-margin dual, which bounds the relative gap between Gamma
	// and Upper; 0 means 10⁻⁶ for float64 and 10⁻⁴ for float32 data.
	Tol float64
	// MaxIter caps the solver's iterations; 0 means max(10⁷, 100·N).
	MaxIter int
	// GramBytes, CacheBytes, Workers and Impl are as in Options.
	GramBytes  int64
	CacheBytes int64
	Workers    int
	Impl       *kernel.Impl
}

// Margin is the result of MaxMargin: the data set's maximum margin γ_D,
// bracketed by Gamma ≤ γ_D ≤ Upper.
type Margin struct {
	// Gamma is the geometric margin minᵢ yᵢf(xᵢ)/‖w‖ of the separator
	// found (‖w‖ includes w_B with a BiasFeature): a margin some separator
	// achieves, so γ_D ≥ Gamma. It is computed in float64 from the
	// kernel values.
	Gamma float64
	// Upper is the dual bound √D/2 (a free bias) or √D (otherwise), with
	// D = ‖Σλᵢyᵢφ(xᵢ)‖² of the solver's convex combination λ: no
	// separator has a larger margin. Upper − Gamma is about Tol·Gamma.
	Upper float64
	// Radius is R = maxᵢ ‖φ(xᵢ)‖ in the space the margin is measured in
	// (‖(xᵢ, B)‖ with a BiasFeature and the linear kernel).
	Radius float64
	// Bound is R²/Gamma², an upper bound on R²/γ_D² (Novikoff's mistake
	// bound, with NoBias or a BiasFeature).
	Bound float64
	// Support lists the rows with αᵢ > 0, increasing.
	Support []int
	// Alpha holds the hard-margin dual solution αᵢ of every row.
	Alpha []float64
	// W is the weight vector Σαᵢyᵢxᵢ (d values) for the linear kernel,
	// nil otherwise.
	W []float64
	// Bias is the separator's offset: b (a free bias), w_B·B (a
	// BiasFeature) or 0 (NoBias), so that f(x) = w·φ(x) + Bias.
	Bias float64
	// Iterations, Converged and Gap describe the solve.
	Iterations int
	Converged  bool
	Gap        float64
}

// MaxMargin computes the maximum margin γ_D = sup_w minᵢ yᵢf(xᵢ)/‖w‖ of a
// binary data set X (dense rows, a *dataset.Data; the two labels y may be
// any integers, the larger is the positive class) by solving the
// hard-margin problem exactly, in its nearest-point form (see the package
// documentation, "Hard margin"). It costs a training run. Cancelling ctx
// stops the solve within about a thousand iterations, and the error wraps
// the context's error. Data that are not separable give an error wrapping
// ErrNotSeparable whose message bounds the margin; more or fewer than two
// labels wrap ErrLabels; a CSR matrix ErrOption (the solve is on dense
// rows).
func MaxMargin[T kernel.Float](ctx context.Context, X dataset.Rows[T], y []int, opts MarginOptions) (*Margin, error) {
	switch x := X.(type) {
	case *dataset.Data[T]:
		if err := checkData(x); err != nil {
			return nil, err
		}
		return maxMargin(ctx, x.X, x.Cols, y, opts, true)
	case *dataset.CSR[T]:
		return nil, fmt.Errorf("%w: MaxMargin solves on dense rows; not on a CSR matrix (densify it with ToDense)", ErrOption)
	}
	return nil, errRows(X)
}

func maxMargin[T kernel.Float](ctx context.Context, X []T, d int, y []int, opts MarginOptions, check bool) (*Margin, error) {
	n, err := checkShape(X, d, y)
	if err != nil {
		return nil, err
	}
	kern := opts.Kernel
	if kern == nil {
		kern = gram.Linear{}
	}
	tol := opts.Tol
	if tol == 0 {
		tol = 1e-6
		if is32[T]() {
			tol = 1e-4
		}
	}
	B := opts.BiasFeature
	switch {
	case B != 0 && (!(B > 0) || math.IsInf(B, 0)):
		return nil, fmt.Errorf("%w: BiasFeature = %v, want a finite value > 0 (0 for none)", ErrOption, B)
	case B != 0 && opts.NoBias:
		return nil, fmt.Errorf("%w: BiasFeature with NoBias", ErrOption)
	}
	cfg, err := Options{C: math.Inf(1), Kernel: kern, Tol: tol, MaxIter: opts.MaxIter, GramBytes: opts.GramBytes,
		CacheBytes: opts.CacheBytes, Workers: opts.Workers, Impl: opts.Impl}.resolve(d)
	if err != nil {
		return nil, err
	}
	if check {
		if err := checkFinite(X, d); err != nil {
			return nil, err
		}
	}
	labels, cls := classesOf(y)
	if len(labels) != 2 {
		return nil, fmt.Errorf("%w: %d classes, MaxMargin needs exactly 2", ErrLabels, len(labels))
	}
	tr := &trainer[T]{cfg: cfg, X: X, d: d, n: n, k: kernel.On[T](cfg.impl), workers: 1}
	if cfg.gramBytes >= 0 && int64(n)*int64(n)*int64(sizeOf[T]()) <= cfg.gramBytes {
		G, err := gram.Compute(X, d, kern, &gram.Options{Impl: cfg.impl, Threads: cfg.threads, MaxBytes: -1})
		if err != nil {
			return nil, gramErr(err)
		}
		tr.G = G
	}
	p := makeProblems(fit.Binary, 2, cls)[0]
	src, gidx, kd, err := tr.source(&p, new(workerState[T]))
	if err != nil {
		return nil, err
	}
	off := B * B
	r2 := 0.0
	for q := range kd {
		kd[q] += off
		r2 = max(r2, kd[q])
	}
	biased := !opts.NoBias && B == 0 // a free, unregularised b
	l := len(p.rows)
	nr := newNearest(tr.k, src, p.y, gidx, kd, biased, off, tol, floorD[T](d, r2), cfg.iterCap(l), ctx)
	res, err := nr.solve()
	if err != nil {
		return nil, fmt.Errorf("svm: margin computation stopped: %w", err)
	}
	if !res.separable {
		if is32[T]() && res.iter < cfg.iterCap(l) {
			// float32 could not resolve the margin: float64 decides, as in
			// trainDense.
			X64 := make([]float64, len(X))
			for i, v := range X {
				X64[i] = float64(v)
			}
			if opts.Tol == 0 {
				opts.Tol = tol
			}
			return maxMargin(ctx, X64, d, y, opts, false)
		}
		return nil, notSeparable(res, biased, cfg.iterCap(l))
	}
	mg := &Margin{Alpha: make([]float64, n), Bias: res.bias, Iterations: res.iter, Converged: res.converged, Gap: res.gap,
		Radius: math.Sqrt(r2)}
	// Decision values in float64 from the kernel columns of the support
	// vectors: fᵢ = Σⱼ αⱼyⱼ(Kᵢⱼ + B²).
	f := make([]float64, l)
	col := make([]T, l)
	var sumAlpha float64
	for q, a := range res.alpha {
		if a <= 0 {
			continue
		}
		sumAlpha += a
		row := src.row(gidx[q])
		for t, g := range gidx {
			col[t] = row[g]
		}
		ay := a * float64(p.y[q])
		for t, v := range col {
			f[t] += ay * (float64(v) + off)
		}
	}
	var wsq float64
	for q, a := range res.alpha {
		if a > 0 {
			wsq += a * float64(p.y[q]) * f[q]
		}
	}
	b := 0.0
	if biased {
		b = res.bias
	}
	norm := math.Sqrt(wsq)
	mg.Gamma = math.Inf(1)
	for q := range f {
		mg.Gamma = min(mg.Gamma, float64(p.y[q])*(f[q]+b)/norm)
	}
	// ‖Σλᵢyᵢφᵢ‖ = ‖w‖/c and Σαᵢ = c·Σλᵢ = 2c (biased) or c, so the
	// bound √D/2 (or √D) is ‖w‖/Σαᵢ either way.
	mg.Upper = norm / sumAlpha
	mg.Bound = r2 / (mg.Gamma * mg.Gamma)
	for q, a := range res.alpha {
		mg.Alpha[p.rows[q]] = a
	}
	for i, a := range mg.Alpha {
		if a > 0 {
			mg.Support = append(mg.Support, i)
		}
	}
	if _, ok := kern.(gram.Linear); ok {
		mg.W = make([]float64, d)
		for i, a := range mg.Alpha {
			if a > 0 {
				ay := a
				if int(cls[i]) == 0 {
					ay = -a
				}
				for j, v := range X[i*d : (i+1)*d] {
					mg.W[j] += ay * float64(v)
				}
			}
		}
	}
	return mg, nil
}
