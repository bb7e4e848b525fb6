package kernelperceptron

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/expansion"
	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/perceptrontrain"
	"github.com/rosenblatt-go/rosenblatt/kernel"
	"github.com/rosenblatt-go/rosenblatt/linear"
)

// Config is a kernel perceptron fit's options, resolved and checked by
// package perceptron (see perceptron.KernelOptions for their meaning).
type Config struct {
	Algorithm linear.Algorithm // Online, Averaged or Voted
	// Argmax trains the multiclass kernel perceptron (K class functions);
	// otherwise each of the K score rows is a binary perceptron (one for a
	// binary problem, one per class for one-vs-rest).
	Argmax   bool
	Kernel   gram.Kernel // a valid gram kernel value
	MaxBytes int64       // the budget of kernel values (0: gram.DefaultMaxBytes; < 0: no limit)
	Epochs   int         // MaxIter, at least 1
	Eta      float64     // the step size η, finite and nonzero in T
	// Bias: the model has a bias b, on the constant feature BiasFeature
	// (B; 0 without a bias).
	Bias          bool
	BiasFeature   float64
	Scaling       linear.Scaling // how the rows were scaled (Data), kept in the model
	Sampling      perceptrontrain.Sampling
	Shuffle       bool
	Seed          uint64
	StopClean     bool  // stop after an epoch without a mistake
	VotedMaxBytes int64 // Voted: the budget of the kept state (< 0: none)
	DataMargin    bool  // measure the data's own margin (dense rows only)
	Workers       int   // goroutines of the Gram matrix, the classes and DataMargin
	Impl          *kernel.Impl
	// Callback, if not nil, is called after every epoch (see
	// perceptrontrain.Diagnostics.EndEpoch).
	Callback func(perceptrontrain.Epoch) error
	// Alpha and B are the warm start (perceptron.Dual), or nil.
	Alpha, B []float64
	// Trace, if not nil, is called on every mistake with the score row
	// (the true class for Argmax) and the training row (tests).
	Trace func(c, i int)
}

// biasSq is B², the square of the bias feature, by which a mistake's step
// moves the bias (0 without a bias).
func (c *Config) biasSq() float64 { return c.BiasFeature * c.BiasFeature }

// Data is the training rows as the kernel sees them (checked, and scaled
// by perceptron): dense (X, N rows of D values) or sparse (CSR).
type Data[T kernel.Float] struct {
	N, D  int
	X     []T             // dense rows, row-major; nil for sparse data
	CSR   *dataset.CSR[T] // sparse rows; nil for dense data
	Scale []float64       // ScaleAugmented's factor sⱼ = 1/‖(xⱼ, B)‖ of each row, or nil
	Sq    []float64       // each row's squared norm as trained on
}

func (dt *Data[T]) row(i int) []T { return dt.X[i*dt.D : i*dt.D+dt.D : i*dt.D+dt.D] }

// Fit trains the kernel perceptron of cfg on dt, with cls the class
// (score row) of each row (for a binary problem 0 is the positive class,
// −1 the negative), K score rows, and returns the kernel expansion of the
// given scheme and labels and the run's diagnostics.
func Fit[T kernel.Float](k modelkern.Kernels[T], cfg *Config, dt *Data[T], cls []int32, K int, scheme fit.Scheme, labels []int) (*expansion.Model[T], *perceptrontrain.Diagnostics, error) {
	t, err := New(k, cfg, dt, cls, K)
	if err != nil {
		return nil, nil, err
	}
	return t.run(scheme, labels)
}

// New sets up a trainer for Fit: the kernel values (the Gram matrix or its
// row cache) and the warm start.
func New[T kernel.Float](k modelkern.Kernels[T], cfg *Config, dt *Data[T], cls []int32, K int) (*Trainer[T], error) {
	n := dt.N
	t := &Trainer[T]{k: k, cfg: cfg, dt: dt, cls: cls, K: K, argmax: cfg.Argmax, trace: cfg.Trace}
	if dt.Scale != nil && cfg.Bias {
		t.beta = make([]T, n)
		for j, v := range dt.Scale {
			t.beta[j] = T(v)
		}
	}
	if err := t.setupKernel(cfg.Kernel, cfg.MaxBytes); err != nil {
		return nil, err
	}
	t.F = make([]T, K*n)
	t.A = make([]T, K*n)
	t.alpha = make([]int32, K*n)
	t.B = make([]T, K)
	switch cfg.Algorithm {
	case linear.Averaged:
		t.U = make([]T, K*n)
		t.UF = make([]T, K*n)
		t.UB = make([]T, K)
	case linear.Voted:
		t.vot = make([]dualVoted[T], K)
		t.bud = &perceptrontrain.VotedBudget{Max: cfg.VotedMaxBytes}
	}
	t.smp = perceptrontrain.NewSampler(n, 1, cfg.Sampling, cfg.Shuffle, cfg.Seed)
	t.reset()
	if cfg.Alpha != nil || cfg.B != nil {
		if err := t.warmStart(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// CheckedEpochs runs up to epochs epochs from the start with every update
// checked (the slow mode Fit's divergence check uses for the one epoch
// that diverged) and returns the first epoch with a non-finite value and
// that value, or 0.
func (t *Trainer[T]) CheckedEpochs(epochs int) (int, perceptrontrain.DivEvent) {
	t.Checked = true
	defer func() { t.Checked = false }()
	grp, stats := t.groups(), make([]perceptrontrain.ClassStats, t.K)
	for ep := 1; ep <= epochs; ep++ {
		t.epoch(&perceptrontrain.Epoch{}, stats, grp)
		if ev := t.First.Merge(stats); ev.Found {
			return ep, ev
		}
	}
	return 0, perceptrontrain.DivEvent{}
}

// gramError translates an error of package gram on training or query data
// into this package's sentinels (keeping the gram error wrapped too).
func gramError(err error) error {
	switch {
	case errors.Is(err, gram.ErrNonFinite), errors.Is(err, gram.ErrOverflow):
		return fmt.Errorf("%w: %w", linear.ErrNonFinite, err)
	case errors.Is(err, gram.ErrBudget):
		return fmt.Errorf("%w: %w", perceptrontrain.ErrBudget, err)
	case errors.Is(err, gram.ErrShape):
		return fmt.Errorf("%w: %w", linear.ErrDims, err)
	case errors.Is(err, gram.ErrEmpty):
		return fmt.Errorf("%w: %w", perceptrontrain.ErrEmpty, err)
	case errors.Is(err, gram.ErrInvalidKernel), errors.Is(err, gram.ErrImpl):
		return fmt.Errorf("%w: %w", perceptrontrain.ErrOption, err)
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

// Trainer trains K dual perceptrons on one kernel matrix: one for a
// binary problem, one per class for one-vs-rest, or the K class functions
// of the multiclass kernel perceptron (argmax).
type Trainer[T kernel.Float] struct {
	k      modelkern.Kernels[T]
	cfg    *Config
	dt     *Data[T]
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
	bud   *perceptrontrain.VotedBudget // Voted: the budget of the kept state

	// beta is each row's factor of the bias feature under ScaleAugmented,
	// sⱼ = 1/‖(xⱼ, B)‖ (the rows are scaled by it too); nil means 1. The
	// feature itself is sⱼ·B: the score's bias term is b·sⱼ, a step's
	// share of b is step·sⱼ·B² (b = B·w_B).
	beta []T

	step int64 // samples visited so far (all epochs)
	smp  perceptrontrain.Sampler

	// Divergence (see perceptrontrain.Locate): Checked makes every update
	// check the values it changed. The Argmax epoch reports in DivState's
	// NonFinite and First; one-vs-rest classes in their ClassStats.
	perceptrontrain.DivState
}

// Bytes of the voted kernel perceptron's kept state: per mistake its row
// (int32) and step (T), per kept function its prefix length (int32), bias
// (T) and count (int64).
func votedQBytes[T kernel.Float]() int64 { var z T; return 4 + int64(unsafe.Sizeof(z)) }
func votedVBytes[T kernel.Float]() int64 { var z T; return 12 + int64(unsafe.Sizeof(z)) }

// warmStart sets the decision functions to the Dual start of the options:
// αⱼ mistakes on each row j (per score function c, K×N of them), so
// f_c = Σⱼ αⱼ·η·y_cj·K(xⱼ, ·) + b_c, as if training had made them.
func (t *Trainer[T]) warmStart() error {
	n, cfg := t.dt.N, t.cfg
	if cfg.Alpha != nil && len(cfg.Alpha) != t.K*n {
		return fmt.Errorf("%w: Dual.Alpha has %d values, want %d (%d score functions of %d rows)", perceptrontrain.ErrOption, len(cfg.Alpha), t.K*n, t.K, n)
	}
	if cfg.B != nil && len(cfg.B) != t.K {
		return fmt.Errorf("%w: Dual.B has %d values, want %d", perceptrontrain.ErrOption, len(cfg.B), t.K)
	}
	if cfg.B != nil && !cfg.Bias {
		return fmt.Errorf("%w: Dual.B with NoBias", perceptrontrain.ErrOption)
	}
	for c, b := range cfg.B {
		if t.B[c] = T(b); !perceptrontrain.Finite(t.B[c]) {
			return fmt.Errorf("%w: Dual.B[%d] = %v is not finite in %s", perceptrontrain.ErrOption, c, b, linmodel.TypeName[T]())
		}
	}
	eta := T(cfg.Eta)
	for i, a := range cfg.Alpha {
		if !(a >= 0 && a < math.MaxInt32) || a != math.Trunc(a) {
			return fmt.Errorf("%w: Dual.Alpha[%d] = %v; want a mistake count (an integer ≥ 0)", perceptrontrain.ErrOption, i, a)
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
func (t *Trainer[T]) bf(j int) T {
	if t.beta == nil {
		return 1
	}
	return t.beta[j]
}

// reset puts the trainer in its initial state: no mistakes, the shuffling
// generator freshly seeded, no kept functions (and their budget reserving
// room for each class's final one). The kernel values stay.
func (t *Trainer[T]) reset() {
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
		t.bud.Used.Store(int64(t.K) * votedVBytes[T]())
		t.bud.Over.Store(false)
	}
	t.step = 0
	t.smp.Reset()
}

// setupKernel computes the Gram matrix if it fits in the budget, else
// prepares the row cache.
func (t *Trainer[T]) setupKernel(kern gram.Kernel, maxBytes int64) error {
	n, d := t.dt.N, t.dt.D
	var zero T
	size := int64(unsafe.Sizeof(zero))
	if maxBytes == 0 {
		maxBytes = gram.DefaultMaxBytes
	}
	opts := &gram.Options{Impl: t.k.Impl(), Threads: t.cfg.Workers, MaxBytes: -1}
	rowBytes := int64(n) * size
	full := maxBytes < 0 || (int64(n) <= maxBytes/rowBytes && int64(n) <= math.MaxInt32)
	if t.dt.CSR != nil {
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
		return fmt.Errorf("%w: MaxBytes = %d is less than one kernel row (%d samples × %d bytes = %d bytes); training needs at least one", perceptrontrain.ErrBudget, maxBytes, n, size, rowBytes)
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
func (t *Trainer[T]) row(j, jj int) []T {
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
func (t *Trainer[T]) cachedRow(j, jj int) []T {
	c := t.cache
	if c.Contains(j) {
		return c.Row(j)
	}
	most := min(cacheBatch, c.Capacity()/4)
	js := append(t.batch[:0], j)
	for k := jj + 1; k < t.smp.Visits && k <= jj+cacheWindow*most && len(js) < most; k++ {
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
func (t *Trainer[T]) wrongNow(j int) bool {
	n := t.dt.N
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

func (t *Trainer[T]) rowAt(j int) int { return t.smp.At(j) }
