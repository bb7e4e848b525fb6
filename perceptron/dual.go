package perceptron

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
)

// KernelOptions configures the dual (kernel) perceptron of FitKernel.
// The zero value is valid: the dual perceptron with
// the linear kernel, with Options' defaults.
type KernelOptions struct {
	// Options are the settings shared with the linear models. Algorithm
	// must be Online (the dual perceptron), Averaged or Voted (ErrOption
	// otherwise); Multiclass is fit.OneVsRest (any of the three) or fit.Argmax (the
	// multiclass kernel perceptron; Online or Averaged). MaxIter, Eta,
	// Sampling (SampleSweep or SampleReplace), Shuffle, Seed, Stop,
	// Normalize, NormalizeFeatures, NoBias, VotedMaxBytes, Callback and
	// Workers mean what they mean for the linear models, and so does
	// BiasFeature B (1 by default: a mistake moves b by η·y·B²). Normalize
	// scales each sample by s = 1/‖(x, B)‖ before the kernel sees it, and
	// s·B is the bias's feature: f(x) = Σᵢ αᵢ·η·yᵢ·K(s(xᵢ)·xᵢ, s(x)·x) +
	// b·s(x), the primal perceptron on the normalised augmented points for
	// the linear kernel. VotedMaxBytes bounds the voted kernel
	// perceptron's record of its mistakes and kept functions. Tau,
	// BatchSize, Lambda, C and Tol are ignored. Init is a Dual (α₀, b₀),
	// or nil for α = 0, b = 0.
	// Workers is also the number of goroutines that compute the Gram
	// matrix.
	Options

	// Kernel is the kernel function: gram.Linear{}, gram.Polynomial{...}
	// or gram.RBF{...} (or pointers to them). nil means gram.Linear{}.
	// Invalid parameters are an error wrapping ErrOption and
	// gram.ErrInvalidKernel.
	Kernel gram.Kernel

	// MaxBytes is the memory budget for kernel values. If the whole N×N
	// Gram matrix fits (N²·sizeof(T) ≤ MaxBytes) it is computed once, in
	// parallel; otherwise training computes the rows it needs on demand and
	// keeps the most recently used ones in an LRU cache (gram.Cache) of
	// MaxBytes. Both give bit-identical models; the cache trades memory for
	// recomputation. A budget smaller than one row (N·sizeof(T)) is an
	// error wrapping ErrBudget. 0 means gram.DefaultMaxBytes; negative
	// means no limit (always the full matrix). The budget does not count
	// the packed copy of the data the cache keeps (N·D values), the
	// working memory of its batches (see gram.Rows.RowBatch) or the
	// trainer's O(N·K) state.
	MaxBytes int64

	// trace, if not nil, is called on every mistake with the score row
	// (the true class for Argmax) and the training row (tests).
	trace func(c, i int)
}

// kernelKind returns whether a multiclass kernel fit is Argmax, and its
// model's scheme.
func (cfg *config) kernelKind() (argmax bool, scheme fit.Scheme) {
	if cfg.strategy == fit.Argmax {
		return true, fit.Argmax
	}
	return false, fit.OneVsRest
}

// resolveKernel checks the options of a kernel training call.
func (o *KernelOptions) resolveKernel(multi bool) (config, gram.Kernel, error) {
	cfg, err := o.resolve()
	if err != nil {
		return cfg, nil, err
	}
	switch cfg.algo {
	case linear.Online, linear.Averaged, linear.Voted:
	default:
		return cfg, nil, fmt.Errorf("%w: the kernel perceptron supports the Online, Averaged and Voted algorithms, not %v", ErrOption, cfg.algo)
	}
	if multi && cfg.strategy == fit.Argmax && cfg.algo == linear.Voted {
		return cfg, nil, fmt.Errorf("%w: the Argmax scheme supports the Online and Averaged algorithms, not %v", ErrOption, cfg.algo)
	}
	if cfg.w0 != nil || (cfg.b0 != nil && !cfg.dual) {
		return cfg, nil, fmt.Errorf("%w: the kernel perceptron takes no Weights (its warm start is Dual)", ErrOption)
	}
	if cfg.dual && (cfg.algo == linear.Voted || (multi && cfg.strategy == fit.Argmax)) {
		return cfg, nil, fmt.Errorf("%w: a Dual warm start is for the binary and one-vs-rest Online and Averaged kernel perceptrons", ErrOption)
	}
	if cfg.margin && cfg.scaling == linear.ScaleAugmented {
		return cfg, nil, fmt.Errorf("%w: DataMargin on a kernel model with Normalize (its points (φ(x), B)/‖(φ(x), B)‖ are no kernel's); use NormalizeFeatures or no normalisation", ErrOption)
	}
	k, err := canonicalKernel(o.Kernel)
	if err != nil {
		return cfg, nil, err
	}
	return cfg, k, nil
}

// canonicalKernel returns k as a gram kernel value (nil → Linear), checking
// its parameters.
func canonicalKernel(k gram.Kernel) (gram.Kernel, error) {
	var out gram.Kernel
	switch v := k.(type) {
	case nil:
		return gram.Linear{}, nil
	case gram.Linear, gram.Polynomial, gram.RBF:
		out = v
	case *gram.Linear:
		if v != nil {
			out = *v
		}
	case *gram.Polynomial:
		if v != nil {
			out = *v
		}
	case *gram.RBF:
		if v != nil {
			out = *v
		}
	default:
		return nil, fmt.Errorf("%w: unsupported kernel type %T", ErrOption, k)
	}
	if out == nil {
		return nil, fmt.Errorf("%w: %w: nil %T", ErrOption, gram.ErrInvalidKernel, k)
	}
	if err := out.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrOption, err)
	}
	return out, nil
}

// gramError translates an error of package gram on training or query data
// into this package's sentinels (keeping the gram error wrapped too).
func gramError(err error) error {
	switch {
	case errors.Is(err, gram.ErrNonFinite), errors.Is(err, gram.ErrOverflow):
		return fmt.Errorf("%w: %w", linear.ErrNonFinite, err)
	case errors.Is(err, gram.ErrBudget):
		return fmt.Errorf("%w: %w", ErrBudget, err)
	case errors.Is(err, gram.ErrShape):
		return fmt.Errorf("%w: %w", linear.ErrDims, err)
	case errors.Is(err, gram.ErrEmpty):
		return fmt.Errorf("%w: %w", ErrEmpty, err)
	case errors.Is(err, gram.ErrInvalidKernel), errors.Is(err, gram.ErrImpl):
		return fmt.Errorf("%w: %w", ErrOption, err)
	}
	return err
}

// dualVoted is one score row's voted-perceptron record: the mistakes in
// order (training row and step η·y), and the kept decision functions as
// prefixes of that sequence with their bias and survival count.
type dualVoted[T kernel.Float] struct {
	seq  []int32 // training row of each mistake
	step []T     // its step η·y
	pre  []int32 // kept function k = the sum of the first pre[k] mistakes
	vb   []T     // its bias
	vc   []int64 // its survival count
	cnt  int64   // survival count of the current function
}

// dualTrainer trains K dual perceptrons on one kernel matrix: one for a
// binary problem, one per class for one-vs-rest, or the K class functions
// of the multiclass kernel perceptron (argmax).
type dualTrainer[T kernel.Float] struct {
	k      modelkern.Kernels[T]
	cfg    *config
	dt     *data[T]
	cls    []int32
	K      int
	argmax bool
	trace  func(c, i int)

	G       *gram.Matrix[T] // the full Gram matrix, or nil
	cache   *gram.Cache[T]  // the row cache when G is nil
	batch   []int           // rows the cache computes on a miss
	fetched [][]T           // their rows

	F     []T     // K×N decision values without the bias, f_c(xⱼ) − b_c
	A     []T     // K×N dual coefficients Σ η·y over the mistakes
	alpha []int32 // K×N mistakes per row (α), for the support set
	B     []T     // K biases
	U     []T     // Averaged: K×N Σ step·η·y per row
	UF    []T     // Averaged: K×N Σ step·η·y·G[j, :], the averaged decision values' correction
	UB    []T     // Averaged: K Σ step·η·y for the bias
	vot   []dualVoted[T]
	bud   *votedBudget // Voted: the budget of the kept state

	// beta is each row's factor of the bias feature under ScaleAugmented,
	// sⱼ = 1/‖(xⱼ, B)‖ (the rows are scaled by it too); nil means 1. The
	// feature itself is sⱼ·B: the score's bias term is b·sⱼ, a step's
	// share of b is step·sⱼ·B² (b = B·w_B).
	beta []T

	step int64 // samples visited so far (all epochs)
	smp  sampler

	// Divergence (see diverge.go): checked makes every update check the
	// values it changed. The Argmax epoch reports in divState's nonFinite
	// and first; one-vs-rest classes in their classStats.
	divState
}

// Bytes of the voted kernel perceptron's kept state: per mistake its row
// (int32) and step (T), per kept function its prefix length (int32), bias
// (T) and count (int64).
func votedQBytes[T kernel.Float]() int64 { var z T; return 4 + int64(unsafe.Sizeof(z)) }
func votedVBytes[T kernel.Float]() int64 { var z T; return 12 + int64(unsafe.Sizeof(z)) }

// newDualTrainerOn is newDualTrainer on prepared data (dense or sparse).
func newDualTrainerOn[T kernel.Float](cfg *config, kern gram.Kernel, maxBytes int64, trace func(c, i int), k modelkern.Kernels[T], dt *data[T], cls []int32, K int, argmax bool) (*dualTrainer[T], error) {
	n := dt.n
	t := &dualTrainer[T]{k: k, cfg: cfg, dt: dt, cls: cls, K: K, argmax: argmax, trace: trace}
	if dt.scale != nil && cfg.bias {
		t.beta = make([]T, n)
		for j, v := range dt.scale {
			t.beta[j] = T(v)
		}
	}
	if err := t.setupKernel(kern, maxBytes); err != nil {
		return nil, err
	}
	t.F = make([]T, K*n)
	t.A = make([]T, K*n)
	t.alpha = make([]int32, K*n)
	t.B = make([]T, K)
	switch cfg.algo {
	case linear.Averaged:
		t.U = make([]T, K*n)
		t.UF = make([]T, K*n)
		t.UB = make([]T, K)
	case linear.Voted:
		t.vot = make([]dualVoted[T], K)
		t.bud = &votedBudget{max: cfg.votedMax}
	}
	t.smp = newSampler(n, 1, cfg.sampling, cfg.shuffle, cfg.seed)
	t.reset()
	if cfg.a0 != nil || cfg.b0 != nil {
		if err := t.warmStart(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// warmStart sets the decision functions to the Dual start of the options:
// αⱼ mistakes on each row j (per score function c, K×N of them), so
// f_c = Σⱼ αⱼ·η·y_cj·K(xⱼ, ·) + b_c, as if training had made them.
func (t *dualTrainer[T]) warmStart() error {
	n, cfg := t.dt.n, t.cfg
	if cfg.a0 != nil && len(cfg.a0) != t.K*n {
		return fmt.Errorf("%w: Dual.Alpha has %d values, want %d (%d score functions of %d rows)", ErrOption, len(cfg.a0), t.K*n, t.K, n)
	}
	if cfg.b0 != nil && len(cfg.b0) != t.K {
		return fmt.Errorf("%w: Dual.B has %d values, want %d", ErrOption, len(cfg.b0), t.K)
	}
	if cfg.b0 != nil && !cfg.bias {
		return fmt.Errorf("%w: Dual.B with NoBias", ErrOption)
	}
	for c, b := range cfg.b0 {
		if t.B[c] = T(b); !finite(t.B[c]) {
			return fmt.Errorf("%w: Dual.B[%d] = %v is not finite in %s", ErrOption, c, b, linmodel.TypeName[T]())
		}
	}
	eta := T(cfg.eta)
	for i, a := range cfg.a0 {
		if !(a >= 0 && a < math.MaxInt32) || a != math.Trunc(a) {
			return fmt.Errorf("%w: Dual.Alpha[%d] = %v; want a mistake count (an integer ≥ 0)", ErrOption, i, a)
		}
		if a == 0 {
			continue
		}
		c, j := i/n, i%n
		y := T(-1)
		if t.cls[j] == int32(c) {
			y = 1
		}
		step := eta * y * T(a)
		t.k.Axpy(step, t.row(j, 0), t.F[c*n:(c+1)*n])
		t.A[i] = step
		t.alpha[i] = int32(a)
	}
	for c := range t.K {
		if !linmodel.AllFinite(t.F[c*n : (c+1)*n]) {
			return fmt.Errorf("%w: the Dual start's decision values overflow %s", linear.ErrDiverged, linmodel.TypeName[T]())
		}
	}
	return nil
}

// bf returns row j's factor of the bias: 1, or sⱼ under ScaleAugmented.
func (t *dualTrainer[T]) bf(j int) T {
	if t.beta == nil {
		return 1
	}
	return t.beta[j]
}

// reset puts the trainer in its initial state: no mistakes, the shuffling
// generator freshly seeded, no kept functions (and their budget reserving
// room for each class's final one). The kernel values stay.
func (t *dualTrainer[T]) reset() {
	clear(t.F)
	clear(t.A)
	clear(t.alpha)
	clear(t.B)
	clear(t.U)
	clear(t.UF)
	clear(t.UB)
	for c := range t.vot {
		v := &t.vot[c]
		*v = dualVoted[T]{seq: v.seq[:0], step: v.step[:0], pre: v.pre[:0], vb: v.vb[:0], vc: v.vc[:0]}
	}
	if t.bud != nil {
		t.bud.used.Store(int64(t.K) * votedVBytes[T]())
		t.bud.over.Store(false)
	}
	t.step = 0
	t.smp.reset()
}

// setupKernel computes the Gram matrix if it fits in the budget, else
// prepares the row cache.
func (t *dualTrainer[T]) setupKernel(kern gram.Kernel, maxBytes int64) error {
	n, d := t.dt.n, t.dt.d
	var zero T
	size := int64(unsafe.Sizeof(zero))
	if maxBytes == 0 {
		maxBytes = gram.DefaultMaxBytes
	}
	opts := &gram.Options{Impl: t.k.Impl(), Threads: t.cfg.workers, MaxBytes: -1}
	rowBytes := int64(n) * size
	full := maxBytes < 0 || (int64(n) <= maxBytes/rowBytes && int64(n) <= math.MaxInt32)
	if t.dt.sp != nil {
		return t.setupSparseKernel(kern, maxBytes, rowBytes, full, opts)
	}
	if full {
		// Huge pages where the system has them: a 60 000-row matrix is
		// 14 GB, 3.5 million 4 KiB page faults against 7000 huge ones.
		G := &gram.Matrix[T]{Data: dataset.Alloc[T](n * n)[:0]}
		G, err := gram.ComputeInto(G, t.dt.X, d, kern, opts)
		if err != nil {
			return gramError(err)
		}
		t.G = G
		return nil
	}
	if maxBytes < rowBytes {
		return fmt.Errorf("%w: MaxBytes = %d is less than one kernel row (%d samples × %d bytes = %d bytes); training needs at least one", ErrBudget, maxBytes, n, size, rowBytes)
	}
	c, err := gram.NewCache(t.dt.X, d, kern, maxBytes, opts)
	if err != nil {
		return gramError(err)
	}
	t.cache = c
	return nil
}

// row returns K(xⱼ, X) for row j, visited at position jj of the epoch: a
// row of the full matrix, or of the row cache (valid until the next call).
func (t *dualTrainer[T]) row(j, jj int) []T {
	if t.G != nil {
		return t.G.Row(j)
	}
	return t.cachedRow(j, jj)
}

// Lookahead of the row cache, tuned on Fashion-MNIST (10 000 rows, a cache
// of a quarter of the matrix): fills of up to cacheBatch rows chosen among
// the next cacheWindow·cacheBatch samples. Longer windows and larger
// batches evicted prefetched rows before their use; shorter ones made
// more, smaller batches, each of which streams all of X's packed copy.
const (
	cacheBatch  = 256
	cacheWindow = 8
)

// cachedRow returns row j, visited at position jj of the epoch, from the
// row cache. Rows computed one at a time cost far more than rows computed
// together at full tile efficiency on all Workers (for a 10 000 × 784
// float32 set on Zen 5, 0.75 ms for one row, 0.066 ms per row for 256: see
// gram.Rows.RowBatch). So on a miss
// the trainer asks for the missing row together with the rows of the next
// samples that its current decision values get wrong (about a third of
// them turn out to be mistakes on Fashion-MNIST, which still beats
// computing them one by one), and the cache computes them with one Fill.
// A batch takes at most a quarter of the cache, so that the rows computed
// ahead survive until they are used. Every row is gram.Compute's, bit for
// bit, so the model does not depend on the budget.
func (t *dualTrainer[T]) cachedRow(j, jj int) []T {
	c := t.cache
	if c.Contains(j) {
		return c.Row(j)
	}
	most := min(cacheBatch, c.Capacity()/4)
	js := append(t.batch[:0], j)
	for k := jj + 1; k < t.smp.visits && k <= jj+cacheWindow*most && len(js) < most; k++ {
		if j2 := t.rowAt(k); !c.Contains(j2) && t.wrongNow(j2) && !slices.Contains(js, j2) {
			js = append(js, j2)
		}
	}
	t.batch = js
	t.fetched = c.Fill(t.fetched, js)
	return t.fetched[0]
}

// wrongNow reports whether the current decision values misclassify row j
// for some score row (by the trainer's mistake rule).
func (t *dualTrainer[T]) wrongNow(j int) bool {
	n := t.dt.n
	y := int(t.cls[j])
	bj := t.bf(j)
	if t.argmax {
		sy := t.F[y*n+j] + t.B[y]*bj
		for c := range t.K {
			if c != y && !(sy > t.F[c*n+j]+t.B[c]*bj) {
				return true
			}
		}
		return false
	}
	for c := range t.K {
		a := t.F[c*n+j] + t.B[c]*bj
		if c != y {
			a = -a
		}
		if !(a > 0) {
			return true
		}
	}
	return false
}

func (t *dualTrainer[T]) rowAt(j int) int { return t.smp.at(j) }

func (t *dualTrainer[T]) run(kern gram.Kernel, scheme fit.Scheme, labels []int) (*expansion.Model[T], *Diagnostics, error) {
	cfg, n := t.cfg, t.dt.n
	diag := &Diagnostics{}
	if t.K > 1 && !t.argmax {
		diag.Classes = make([]Diagnostics, t.K)
	}
	// One-vs-rest on the full matrix splits the classes among goroutines;
	// the row cache is not safe for concurrent use, so with it one
	// goroutine visits each sample for all classes (and fetches its row at
	// most once per visit).
	grp := t.groups()
	stats := make([]classStats, t.K)
	if err := t.checkBudget(0); err != nil {
		return nil, nil, err
	}
	epochs := 0
	visits := float64(t.smp.visits)
	for ep := 1; ep <= cfg.epochs; ep++ {
		e := Epoch{Epoch: ep, Samples: t.smp.visits, Steps: t.smp.visits}
		t.epoch(&e, stats, grp)
		epochs = ep
		if err := t.checkBudget(ep); err != nil {
			return nil, nil, err
		}
		if t.diverged(stats) {
			return nil, nil, t.locate(ep, stats, grp, labels)
		}
		if t.argmax {
			e.Updates = e.Mistakes
			e.Loss /= visits
			e.Accuracy = 1 - float64(e.Mistakes)/visits
		} else {
			for c := range stats {
				e.Mistakes += stats[c].mistakes
				e.Updates += stats[c].updates
				e.Loss += stats[c].loss / visits
			}
			e.Accuracy = 1 - float64(e.Mistakes)/(visits*float64(t.K))
		}
		// A clean epoch of random draws need not have seen every sample:
		// check the decision values of all of them (O(N·K)).
		clean := e.Mistakes == 0
		var wrong []bool // per class, with random draws
		if clean && t.smp.random() {
			wrong = make([]bool, t.K)
			for j := range n {
				if t.argmax {
					clean = clean && !t.wrongNow(j)
					continue
				}
				for c := range t.K {
					a := t.F[c*n+j] + t.B[c]*t.bf(j)
					if int(t.cls[j]) != c {
						a = -a
					}
					if !(a > 0) {
						wrong[c], clean = true, false
					}
				}
			}
		}
		if !t.argmax && t.K > 1 {
			for c := range stats {
				cd := &diag.Classes[c]
				cd.Epochs = append(cd.Epochs, Epoch{Epoch: ep, Samples: e.Samples, Steps: e.Steps, Mistakes: stats[c].mistakes, Updates: stats[c].updates,
					Loss: stats[c].loss / visits, Accuracy: 1 - float64(stats[c].mistakes)/visits})
				cd.Updates += stats[c].updates
				cd.Converged = stats[c].mistakes == 0 && (wrong == nil || !wrong[c])
			}
		}
		done, err := diag.endEpoch(ep, e, clean, cfg.stopClean, cfg.callback)
		if err != nil {
			return nil, nil, err
		}
		if done {
			break
		}
	}
	t.diagnose(kern, diag)
	if cfg.margin {
		dataMargins(cfg, t.dt.X, t.dt.d, t.cls, t.K, kern, cfg.bias, diag)
	}
	p := t.finish(kern, scheme, labels)
	if !linmodel.AllFinite(p.Coef) || !linmodel.AllFinite(p.Bias) {
		// Only the averages a − u/c and b − ub/c are formed here, from
		// finite values.
		return nil, nil, divergedErr[T](divEvent{}, epochs, "averaged coefficients", false, nil)
	}
	m, err := expansion.Build(p, nil)
	if err != nil {
		if errors.Is(err, expansion.ErrNonFinite) {
			return nil, nil, fmt.Errorf("%w: %w", linear.ErrNonFinite, err)
		}
		return nil, nil, fmt.Errorf("%w: %w", ErrOption, err)
	}
	return m, diag, nil
}

// groups splits the classes among goroutines: one-vs-rest on the full
// matrix only (the row cache is not safe for concurrent use).
func (t *dualTrainer[T]) groups() [][2]int {
	if !t.argmax && t.G != nil {
		return groups(t.K, t.cfg.workers)
	}
	return [][2]int{{0, t.K}}
}

// epoch shuffles and runs one epoch, with its statistics in e (Argmax) or
// stats (the binary perceptrons).
func (t *dualTrainer[T]) epoch(e *Epoch, stats []classStats, grp [][2]int) {
	t.smp.next()
	clear(stats)
	t.nonFinite = false
	switch {
	case t.argmax:
		t.epochArgmax(e)
	default:
		// One group runs on the caller; a worker's panic is re-raised
		// on the caller (see package parallel).
		parallel.Run(len(grp), func(g int) { t.epochClasses(grp[g][0], grp[g][1], stats) })
	}
	t.step += int64(t.smp.visits)
}

// diverged reports whether the epoch just run produced a non-finite value
// (see linTrainer's notes on divergence): a flagged score, or a
// non-finite decision value, coefficient, bias or averaging sum. The check
// of the state is O(K·N), as is the epoch's own loop.
func (t *dualTrainer[T]) diverged(stats []classStats) bool {
	if t.nonFinite {
		return true
	}
	for c := range stats {
		if stats[c].nonFinite {
			return true
		}
	}
	return anyNonFinite(t.F, t.A, t.B, t.U, t.UF, t.UB)
}

// locate trains again from the start up to epoch ep (on the same kernel
// values), checking every value epoch ep changes, and returns the
// *divergedError of the first non-finite one.
func (t *dualTrainer[T]) locate(ep int, stats []classStats, grp [][2]int, labels []int) error {
	trace := t.trace
	t.trace = nil
	defer func() { t.trace = trace }()
	ev, _ := t.divState.locate(ep, stats, t.reset, func() error {
		t.epoch(&Epoch{}, stats, grp)
		return nil
	})
	return divergedErr[T](ev, ep, "decision values", t.K > 1, labels)
}

// check records, in a checked epoch, the first non-finite value among
// class c's decision values, coefficient of row j, bias and averaging sums
// after an update on row j at position pos (and a mistake count at its
// maximum).
func (t *dualTrainer[T]) check(c, j, pos int, first *divEvent) {
	n := t.dt.n
	bad := ""
	switch {
	case !linmodel.AllFinite(t.F[c*n : (c+1)*n]):
		bad = "decision values"
	case !finite(t.A[c*n+j]):
		bad = "coefficients"
	case !finite(t.B[c]):
		bad = "bias"
	case t.U != nil && (!finite(t.U[c*n+j]) || !linmodel.AllFinite(t.UF[c*n:(c+1)*n]) || !finite(t.UB[c])):
		bad = "averaging sum"
	case t.alpha[c*n+j] == math.MaxInt32:
		bad = "mistake count"
	default:
		return
	}
	first.record(pos, j, c, bad)
}

// checkBudget returns the ErrBudget error of a voted kernel perceptron
// whose kept state would exceed the budget (ep 0: before training, when
// the final functions do not fit).
func (t *dualTrainer[T]) checkBudget(ep int) error {
	b := t.bud
	if b == nil || b.max < 0 {
		return nil
	}
	if ep == 0 {
		if need := b.used.Load(); need > b.max {
			return fmt.Errorf("%w: VotedMaxBytes = %d bytes is less than one kept function per class (%d × %d bytes)", ErrBudget, b.max, t.K, votedVBytes[T]())
		}
		return nil
	}
	if !b.over.Load() {
		return nil
	}
	mistakes, kept := 0, 0
	for c := range t.vot {
		mistakes += len(t.vot[c].seq)
		kept += len(t.vot[c].vc)
	}
	return fmt.Errorf("%w: in epoch %d the voted kernel perceptron has kept %d mistakes and %d decision functions (%d bytes, with the final function of each class reserved); one more would exceed VotedMaxBytes = %d bytes (run fewer epochs, raise VotedMaxBytes, or use Averaged)",
		ErrBudget, ep, mistakes, kept, b.used.Load(), b.max)
}

// epochClasses runs one epoch of the binary perceptrons c0..c1-1 (one-vs-rest
// classes, or the single binary problem): for each sample in order, each
// class compares its kept decision value with the label (O(1)); on a
// mistake the sample's kernel row is added to the class's decision values
// with one Axpy. A class's decision values, coefficients and bias are only
// touched by the goroutine that owns the class.
func (t *dualTrainer[T]) epochClasses(c0, c1 int, stats []classStats) {
	n := t.dt.n
	eta := T(t.cfg.eta)
	bias := t.cfg.bias
	bsq := T(t.cfg.biasSq()) // B²: the bias feature is bⱼ·B, its weight b/B
	for c := c0; c < c1; c++ {
		stats[c].minMargin = math.Inf(1)
	}
	for jj := range t.smp.visits {
		j := t.rowAt(jj)
		bj := t.bf(j)
		var row []T
		for c := c0; c < c1; c++ {
			f := t.F[c*n : (c+1)*n : (c+1)*n]
			a := f[j] + t.B[c]*bj
			y := T(-1)
			if t.cls[j] == int32(c) {
				y = 1
			}
			m := y * a
			s := &stats[c]
			if a-a != 0 { // ±Inf or NaN: a mistake, and divergence
				s.nonFinite = true
				if t.checked {
					s.first.record(jj, j, c, "score")
				}
			} else if m > 0 {
				s.minMargin = min(s.minMargin, float64(m))
				if t.vot != nil {
					t.vot[c].cnt++
				}
				continue
			}
			s.mistakes++
			s.updates++
			s.loss -= float64(m)
			if row == nil {
				row = t.row(j, jj)
			}
			step := eta * y
			if t.vot != nil {
				// Keep the mistake (and close the current function), if
				// the budget allows (else the epoch ends with ErrBudget).
				v := &t.vot[c]
				need := votedQBytes[T]()
				if v.cnt > 0 {
					need += votedVBytes[T]()
				}
				if t.bud.take(need) {
					if v.cnt > 0 {
						v.pre = append(v.pre, int32(len(v.seq)))
						v.vb = append(v.vb, t.B[c])
						v.vc = append(v.vc, v.cnt)
					}
					v.seq = append(v.seq, int32(j))
					v.step = append(v.step, step)
				}
				v.cnt = 1
			}
			t.k.Axpy(step, row, f)
			t.A[c*n+j] += step
			if t.alpha[c*n+j]++; t.alpha[c*n+j] == math.MaxInt32 {
				s.nonFinite = true // one more would wrap
			}
			if bias {
				t.B[c] += step * bj * bsq
			}
			if t.U != nil {
				ca := T(t.step+int64(jj)) * step
				t.U[c*n+j] += ca
				t.k.Axpy(ca, row, t.UF[c*n:(c+1)*n])
				if bias {
					t.UB[c] += ca * bj * bsq
				}
			}
			if t.checked {
				t.check(c, j, jj, &s.first)
			}
			if t.trace != nil {
				t.trace(c, j)
			}
		}
	}
}

// epochArgmax runs one epoch of the multiclass kernel perceptron.
func (t *dualTrainer[T]) epochArgmax(e *Epoch) {
	n, K := t.dt.n, t.K
	eta := T(t.cfg.eta)
	bias := t.cfg.bias
	bsq := T(t.cfg.biasSq()) // B²: the bias feature is bⱼ·B, its weight b/B
	for jj := range t.smp.visits {
		j := t.rowAt(jj)
		bj := t.bf(j)
		y := int(t.cls[j])
		p, sp := -1, T(0)
		var bad T // stays 0 while the scores are finite
		for c := range K {
			a := t.F[c*n+j] + t.B[c]*bj
			bad += a - a
			if c != y && (p < 0 || a > sp) {
				p, sp = c, a
			}
		}
		if bad != 0 { // a NaN makes mg NaN, a mistake; the epoch diverged
			t.nonFinite = true
			if t.checked {
				for c := range K {
					if a := t.F[c*n+j] + t.B[c]*bj; a-a != 0 {
						t.first.record(jj, j, c, "score")
					}
				}
			}
		}
		mg := t.F[y*n+j] + t.B[y]*bj - sp
		if mg > 0 {
			continue
		}
		e.Mistakes++
		e.Loss -= float64(mg)
		row := t.row(j, jj)
		t.k.Axpy(eta, row, t.F[y*n:(y+1)*n])
		t.k.Axpy(-eta, row, t.F[p*n:(p+1)*n])
		t.A[y*n+j] += eta
		t.A[p*n+j] -= eta
		t.alpha[y*n+j]++
		t.alpha[p*n+j]++
		if t.alpha[y*n+j] == math.MaxInt32 || t.alpha[p*n+j] == math.MaxInt32 {
			t.nonFinite = true // one more would wrap
		}
		if bias {
			t.B[y] += eta * bj * bsq
			t.B[p] -= eta * bj * bsq
		}
		if t.U != nil {
			ca := T(t.step+int64(jj)) * eta
			t.U[y*n+j] += ca
			t.U[p*n+j] -= ca
			t.k.Axpy(ca, row, t.UF[y*n:(y+1)*n])
			t.k.Axpy(-ca, row, t.UF[p*n:(p+1)*n])
			if bias {
				t.UB[y] += ca * bj * bsq
				t.UB[p] -= ca * bj * bsq
			}
		}
		if t.checked {
			t.check(y, j, jj, &t.first)
			t.check(p, j, jj, &t.first)
		}
		if t.trace != nil {
			t.trace(y, j)
		}
	}
}

// kdiag returns K(xᵢ, xᵢ) from the squared norm of xᵢ.
func kdiag(kern gram.Kernel, sq float64) float64 {
	switch k := kern.(type) {
	case gram.Polynomial:
		return math.Pow(k.Gamma*sq+k.Coef0, float64(k.Degree))
	case gram.RBF:
		return 1
	}
	return sq
}

// diagnose fills the model-level diagnostics from the kept decision values:
// for the plain perceptron they are the final model's, for the averaged one
// F − UF/steps (and b − UB/steps); no pass over the data is needed. The
// margins are those of the kernel's feature space,
// ‖w‖² = Σⱼ coefⱼ·(f(xⱼ) − b) = coefᵀ·G·coef, with the rows as the kernel
// sees them (scaled by sⱼ under Normalize, whose bias feature is then sⱼ):
// Margin and Radius of the points φ(xⱼ)/sⱼ, the augmented pair of
// (φ(xⱼ), bias feature). Voted models are not evaluated, as for the linear
// models.
func (t *dualTrainer[T]) diagnose(kern gram.Kernel, diag *Diagnostics) {
	n := t.dt.n
	scale := func(j int) float64 {
		if t.dt.scale == nil {
			return 1
		}
		return t.dt.scale[j]
	}
	beta := func(j int) float64 { // the bias feature: bⱼ·B
		if !t.cfg.bias {
			return 0
		}
		return float64(t.bf(j)) * t.cfg.bfeat
	}
	r2, r2aug := 0.0, 0.0
	for j, v := range t.dt.sq {
		kd, sj, bj := kdiag(kern, v), scale(j), beta(j)
		r2 = max(r2, kd/(sj*sj))
		r2aug = max(r2aug, kd+bj*bj)
	}
	diag.Radius, diag.RadiusAugmented = math.Sqrt(r2), math.Sqrt(r2aug)
	for c := range diag.Classes {
		diag.Classes[c].Radius, diag.Classes[c].RadiusAugmented = diag.Radius, diag.RadiusAugmented
	}
	if t.vot != nil {
		return
	}
	steps := float64(t.step)
	fval := func(c, j int) float64 { // decision value without bias
		v := float64(t.F[c*n+j])
		if t.U != nil {
			v -= float64(t.UF[c*n+j]) / steps
		}
		return v
	}
	coef := func(c, j int) float64 {
		v := float64(t.A[c*n+j])
		if t.U != nil {
			v -= float64(t.U[c*n+j]) / steps
		}
		return v
	}
	bias := func(c int) float64 {
		v := float64(t.B[c])
		if t.U != nil {
			v -= float64(t.UB[c]) / steps
		}
		return v
	}
	scores := make([]float64, t.K)
	ok, mcLoss := 0, 0.0
	type acc struct {
		mistakes    int
		loss, norm2 float64
		ev          evalClass
	}
	cs := make([]acc, t.K)
	for c := range cs {
		cs[c].ev.minMargin, cs[c].ev.minRaw = math.Inf(1), math.Inf(1)
	}
	for j := range n {
		yc := int(t.cls[j])
		best, nan := 0, false
		for c := range t.K {
			f := fval(c, j)
			scores[c] = f + bias(c)*float64(t.bf(j))
			if scores[c] > scores[best] {
				best = c
			}
			nan = nan || math.IsNaN(scores[c])
			if a := coef(c, j); a != 0 {
				cs[c].norm2 += a * f
			}
			m := scores[c]
			if yc != c {
				m = -m
			}
			if !(m > 0) { // a NaN score is a mistake
				cs[c].mistakes++
				cs[c].loss -= m
			}
			cs[c].ev.minMargin = min(cs[c].ev.minMargin, m)
			cs[c].ev.minRaw = min(cs[c].ev.minRaw, m/scale(j))
		}
		if t.K == 1 {
			continue
		}
		if best == yc && !nan {
			ok++
		}
		other := math.Inf(-1)
		for c := range t.K {
			if c != yc {
				other = max(other, scores[c])
			}
		}
		mcLoss += max(0, other-scores[yc])
	}
	fill := func(dg *Diagnostics, c int) {
		a := cs[c]
		dg.Evaluated = true
		dg.TrainAccuracy = 1 - float64(a.mistakes)/float64(n)
		dg.TrainLoss = a.loss / float64(n)
		nb := 0.0
		if t.cfg.bias {
			b := bias(c) / t.cfg.bfeat // the bias feature's weight
			nb = b * b
		}
		dg.setMargins(a.ev, max(0, a.norm2), nb, r2, r2aug)
	}
	switch {
	case t.argmax:
		diag.Evaluated = true
		diag.TrainAccuracy = float64(ok) / float64(n)
		diag.TrainLoss = mcLoss / float64(n)
	case t.K == 1:
		fill(diag, 0)
	default:
		for c := range t.K {
			fill(&diag.Classes[c], c)
		}
		diag.Evaluated = true
		diag.TrainAccuracy = float64(ok) / float64(n)
		for c := range t.K {
			diag.TrainLoss += cs[c].loss / float64(n)
		}
	}
}

// finish builds the model's parts: the support set is every training row
// with α ≠ 0 for some score row, copied (so the caller's X can be freed).
func (t *dualTrainer[T]) finish(kern gram.Kernel, scheme fit.Scheme, labels []int) expansion.Parts[T] {
	n, d, K := t.dt.n, t.dt.d, t.K
	svOf := make([]int32, n)
	var idx []int
	for j := range n {
		svOf[j] = -1
		for c := range K {
			if t.alpha[c*n+j] != 0 {
				svOf[j] = int32(len(idx))
				idx = append(idx, j)
				break
			}
		}
	}
	S := len(idx)
	pc := &expansion.Perceptron[T]{Algorithm: t.cfg.algo, Eta: t.cfg.eta, HasBias: t.cfg.bias, BiasFeature: t.cfg.bfeat,
		Scaling: t.cfg.scaling}
	p := expansion.Parts[T]{Kernel: kern, Dims: d, Labels: labels, Scheme: scheme, Index: idx, Perceptron: pc}
	if t.dt.sp != nil {
		p.Sparse = t.sparseSupport(idx)
	} else {
		p.SV = make([]T, S*d)
		for i, j := range idx {
			copy(p.SV[i*d:(i+1)*d], t.dt.row(j))
		}
	}
	if t.vot != nil {
		v := &expansion.Voted[T]{QOff: make([]int, K+1), VOff: make([]int, K+1)}
		for c := range t.vot {
			tv := &t.vot[c]
			if tv.cnt > 0 {
				tv.pre = append(tv.pre, int32(len(tv.seq)))
				tv.vb = append(tv.vb, t.B[c])
				tv.vc = append(tv.vc, tv.cnt)
				tv.cnt = 0
			}
			for _, j := range tv.seq {
				v.QIdx = append(v.QIdx, svOf[j])
			}
			v.QStep = append(v.QStep, tv.step...)
			v.VPre = append(v.VPre, tv.pre...)
			v.VB = append(v.VB, tv.vb...)
			v.VC = append(v.VC, tv.vc...)
			v.QOff[c+1] = len(v.QIdx)
			v.VOff[c+1] = len(v.VC)
		}
		pc.Voted = v
		return p
	}
	p.Coef = make([]T, K*S)
	p.Bias = make([]T, K)
	copy(p.Bias, t.B)
	steps := T(t.step)
	for c := range K {
		for i, j := range idx {
			a := t.A[c*n+j]
			if t.U != nil {
				a -= t.U[c*n+j] / steps
			}
			p.Coef[c*S+i] = a
		}
		if t.U != nil {
			p.Bias[c] -= t.UB[c] / steps
		}
	}
	return p
}
