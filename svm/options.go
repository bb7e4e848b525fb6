package svm

import (
	"fmt"
	"math"
	"runtime"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Default values of the options.
const (
	// DefaultC is the C of a zero Options.C (LIBSVM's and LIBLINEAR's -c 1).
	DefaultC = 1.0
	// DefaultTol is the kernel solver's stopping tolerance on
	// m(α) − M(α) (LIBSVM's -e 0.001).
	DefaultTol = 1e-3
	// DefaultLinearTol is the linear solver's stopping tolerance on the
	// spread of the projected gradient (LIBLINEAR's -e 0.1 for -s 1, -s 3).
	DefaultLinearTol = 0.1
	// DefaultLinearMaxIter is the linear solver's cap on passes over the
	// data (LIBLINEAR's 1000).
	DefaultLinearMaxIter = 1000
	// DefaultCacheBytes is the kernel column cache of a zero
	// Options.CacheBytes: 100 MiB, LIBSVM's -m 100.
	DefaultCacheBytes int64 = 100 << 20
)

// Options configure Fit. The zero value is LIBSVM's C-SVC with its
// defaults (C = 1, tolerance 10⁻³, shrinking, one-vs-one) and LIBSVM's
// default RBF kernel γ = 1/d.
type Options struct {
	// C is the soft-margin constant of ½‖w‖² + C·Σξᵢ (LIBSVM's
	// convention; in the form ‖θ‖² + C·Σξᵢ, C is twice it, see the package
	// documentation). 0 means DefaultC; +Inf (math.Inf(1)) trains the
	// hard-margin machine, an error wrapping ErrNotSeparable when the
	// classes cannot be separated. Negative or NaN values are errors.
	C float64
	// Kernel is the kernel function; nil means gram.RBF{Gamma: 1/d}
	// (LIBSVM's default). GammaScale computes scikit-learn's
	// gamma="scale".
	Kernel gram.Kernel
	// Tol is the stopping tolerance on the maximal violation
	// m(α) − M(α) of the KKT conditions; 0 means DefaultTol.
	Tol float64
	// Multiclass is the scheme for more than two classes: fit.OneVsOne
	// (LIBSVM's, the default: fit.Auto) or fit.OneVsRest. Two classes
	// always train one binary machine (fit.Binary, which asked for refuses
	// more classes). fit.Argmax is the multiclass perceptron's, refused
	// here (ErrOption).
	Multiclass fit.Scheme
	// NoShrinking turns off LIBSVM's shrinking heuristic (its -h 0).
	NoShrinking bool
	// NoBias drops the unregularised bias: each machine is f(x) = w·φ(x),
	// the problem min ½‖w‖² + C·Σξᵢ subject to yᵢ·w·φ(xᵢ) ≥ 1 − ξᵢ
	// (with C = +Inf the hard-margin θ·φ(x) without b), whose dual has no
	// equality constraint Σαᵢyᵢ = 0. It is solved by coordinate descent on
	// one αᵢ at a time, the one of largest projected gradient, to Tol on
	// that gradient (C = +Inf: the nearest-point solver without the bias).
	// Shrinking does not apply.
	NoBias bool
	// MaxIter caps the SMO iterations of each binary problem; 0 means
	// LIBSVM's max(10⁷, 100·l) for a problem of l rows. Reaching it is
	// not an error: the model is returned and Info.Converged is false.
	MaxIter int
	// GramBytes is the memory the solver may spend on precomputed kernel
	// matrices. One-vs-one takes the class blocks if they fit (each class
	// packed once with its kernel matrix, and one l×l matrix per goroutine
	// that each machine's matrix is assembled in: about 18 % of N² for ten
	// equal classes on two goroutines; only kernel values are counted: the
	// class-sorted and packed copies of the N×d rows that the blocks need
	// come on top), or the N×N matrix of all rows if
	// that is smaller (three classes) and fits; one-vs-rest and binary
	// problems the N×N matrix (gram.Compute, shared by every machine) when
	// N²·sizeof(T) fits. Otherwise a problem whose own l×l matrix fits in
	// GramBytes/workers gets that matrix, and any other computes kernel
	// rows on demand through an LRU cache of CacheBytes. Every path gives
	// the same model. 0 means gram.DefaultMaxBytes (2 GiB); a negative
	// value never precomputes.
	GramBytes int64
	// CacheBytes is the budget of the kernel row caches (split between
	// the goroutines); 0 means DefaultCacheBytes (LIBSVM's 100 MB). A
	// budget below one row is an error wrapping ErrBudget.
	CacheBytes int64
	// Workers is the number of goroutines (binary problems run in
	// parallel, and gram threads the kernel matrix); 0 means GOMAXPROCS.
	Workers int
	// Impl selects the kernel implementation (one of kernel.Impls()) for
	// the kernel matrices and the solver's vector operations; nil means
	// kernel.ActiveImpl(). Tests use it to compare the paths.
	Impl *kernel.Impl
}

// config is Options resolved against the data.
type config struct {
	c          float64
	kern       gram.Kernel
	tol        float64
	multi      fit.Scheme
	shrinking  bool
	noBias     bool
	maxIter    int
	gramBytes  int64
	cacheBytes int64
	threads    int
	impl       *kernel.Impl
}

func (o Options) resolve(d int) (config, error) {
	c := config{
		c: o.C, kern: o.Kernel, tol: o.Tol, multi: o.Multiclass, shrinking: !o.NoShrinking, noBias: o.NoBias,
		maxIter: o.MaxIter, gramBytes: o.GramBytes, cacheBytes: o.CacheBytes, threads: o.Workers, impl: o.Impl,
	}
	switch {
	case c.c == 0:
		c.c = DefaultC
	case !(c.c > 0):
		return c, fmt.Errorf("%w: C = %v, want > 0 (or +Inf for the hard margin)", ErrOption, o.C)
	}
	if c.kern == nil {
		c.kern = gram.RBF{Gamma: 1 / float64(d)}
	}
	if err := c.kern.Validate(); err != nil {
		return c, fmt.Errorf("%w: %w", ErrOption, err)
	}
	switch {
	case c.tol == 0:
		c.tol = DefaultTol
	case !(c.tol > 0) || math.IsInf(c.tol, 0):
		return c, fmt.Errorf("%w: Tol = %v, want finite > 0", ErrOption, o.Tol)
	}
	switch c.multi {
	case fit.Auto, fit.Binary, fit.OneVsRest, fit.OneVsOne:
	case fit.Argmax:
		return c, fmt.Errorf("%w: Multiclass = %v: the argmax scheme is the multiclass perceptron's (perceptron.FitKernel); the kernel SVM trains ovo or ovr", ErrOption, c.multi)
	default:
		return c, fmt.Errorf("%w: Multiclass = %v", ErrOption, c.multi)
	}
	if c.maxIter < 0 {
		return c, fmt.Errorf("%w: MaxIter = %d, want ≥ 0", ErrOption, o.MaxIter)
	}
	if c.gramBytes == 0 {
		c.gramBytes = gram.DefaultMaxBytes
	}
	switch {
	case c.cacheBytes == 0:
		c.cacheBytes = DefaultCacheBytes
	case c.cacheBytes < 0:
		return c, fmt.Errorf("%w: CacheBytes = %d, want ≥ 0", ErrOption, o.CacheBytes)
	}
	if c.threads <= 0 {
		c.threads = runtime.GOMAXPROCS(0)
	}
	if c.impl == nil {
		c.impl = kernel.ActiveImpl()
	}
	if !c.impl.Available() {
		return c, fmt.Errorf("%w: implementation %s is not available on this CPU", ErrOption, c.impl.Name())
	}
	return c, nil
}

// iterCap returns the iteration cap for a problem of l rows.
func (c *config) iterCap(l int) int {
	if c.maxIter > 0 {
		return c.maxIter
	}
	return max(10_000_000, 100*l)
}

// GammaScale returns scikit-learn's gamma="scale" for the data X:
// 1/(D·Var(X)), the variance taken over all N·D values of X (ddof 0; a
// CSR's unstored zeros included, as scikit-learn's on a sparse matrix), or
// 1 when the values are all equal. Use it as gram.RBF{Gamma:
// GammaScale(X)}. It returns 0 for empty X. On a CSR the sums run over the
// stored values and count the zeros at once, so the result may differ from
// that of its dense form in the last bits (a relative 1e-14 on small sets).
func GammaScale[T kernel.Float](X dataset.Rows[T]) float64 {
	switch x := X.(type) {
	case *dataset.Data[T]:
		if x == nil || checkData(x) != nil {
			return 0
		}
		return gammaScaleDense(x.X, x.Cols)
	case *dataset.CSR[T]:
		return gammaScaleSparse(x)
	}
	return 0
}

// gammaScaleDense is GammaScale of the row-major X of d columns.
func gammaScaleDense[T kernel.Float](X []T, d int) float64 {
	if len(X) == 0 || d < 1 {
		return 0
	}
	var s float64
	for _, v := range X {
		s += float64(v)
	}
	mean := s / float64(len(X))
	var q float64
	for _, v := range X {
		e := float64(v) - mean
		q += e * e
	}
	v := q / float64(len(X))
	if v == 0 {
		return 1
	}
	return 1 / (float64(d) * v)
}
