package perceptron

import (
	"fmt"
	"math"
	"runtime"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/linear"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// numAlgorithms bounds the algorithms this package trains: every
// linear.Algorithm up to linear.SVM (linear.DualCD is package svm's).
const numAlgorithms = linear.SVM + 1

// enumName returns names[v], or typ(v) for a v past the names.
func enumName[E ~uint8](names []string, v E, typ string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}

// parseEnum returns the E whose name is name, or an error wrapping
// ErrOption for an unknown what.
func parseEnum[E ~uint8](names []string, name, what string) (E, error) {
	for i, s := range names {
		if s == name {
			return E(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown %s %q", ErrOption, what, name)
}

// Stopping says when training stops before Options.MaxIter epochs
// (Options.Stop).
type Stopping uint8

const (
	// StopDefault is StopNever for Averaged and Voted, StopClean for the
	// other algorithms.
	StopDefault Stopping = iota
	// StopClean stops after an epoch without a mistake.
	StopClean
	// StopNever runs all MaxIter epochs.
	StopNever
	numStoppings
)

// Sampling selects the samples each epoch visits (Options.Sampling).
type Sampling uint8

const (
	// SampleDefault is SampleSubsets for MiniBatch and SampleSweep for the
	// other algorithms.
	SampleDefault Sampling = iota
	// SampleSweep visits every sample once per epoch: in storage order, or
	// with Options.Shuffle in a fresh random permutation. MiniBatch cuts
	// the epoch's order into consecutive batches of B (the epoch
	// permutation scheme; the last batch is shorter when B does not divide
	// N, and is still stepped with τ/B). Batch always sums over all
	// samples.
	SampleSweep
	// SampleSubsets is the stochastic mini-batch sampling, for MiniBatch only:
	// every step draws a fresh subset of B distinct samples, uniformly
	// among all B-subsets of {1..N} and independently of the other steps.
	// An epoch is ⌈N/B⌉ steps, so ⌈N/B⌉·B visits; a sample may be visited
	// in several steps of an epoch, or in none.
	SampleSubsets
	// SampleReplace draws every visit's sample uniformly from {1..N},
	// independently, repeats allowed: the stochastic online perceptron that
	// "picks a point at random". An epoch is N visits (MiniBatch: ⌈N/B⌉
	// steps of B draws). For every algorithm but Batch.
	SampleReplace
	numSamplings
)

var samplingNames = [...]string{"default", "sweep", "subsets", "replace"}

// String returns "default", "sweep", "subsets" or "replace".
func (s Sampling) String() string { return enumName(samplingNames[:], s, "Sampling") }

// ParseSampling returns the Sampling whose String is name. Unknown names
// are an error wrapping ErrOption.
func ParseSampling(name string) (Sampling, error) {
	return parseEnum[Sampling](samplingNames[:], name, "sampling")
}

// Options configures training. The zero value is valid and means: Online,
// 100 epochs, η = 1, no shuffling, stop after an epoch without mistakes,
// bias on, no normalisation, start from w = 0 and b = 0, one goroutine per
// CPU.
type Options struct {
	// Algorithm is the training rule; the default is Online.
	Algorithm linear.Algorithm
	// Multiclass is the scheme for labels other than ±1: fit.OneVsRest
	// (the default, fit.Auto: one binary perceptron per class against the
	// rest, every Algorithm; the classes train in parallel goroutines that
	// each read every sample once per epoch for all of their classes) or
	// fit.Argmax (the multiclass perceptron: one weight vector per class,
	// on a mistake the true class's vector moves towards the sample and
	// the highest-scoring wrong class's away from it; Online and Averaged,
	// and it applies to ±1 labels too). fit.Binary accepts only ±1 labels;
	// fit.OneVsOne is the kernel SVM's (ErrOption).
	Multiclass fit.Scheme

	// MaxIter is the maximum number of epochs. An epoch is one pass over
	// the data (SampleSweep), or as many visits drawn at random
	// (SampleReplace: N visits; SampleSubsets: ⌈N/B⌉ mini-batch steps of B
	// samples). 0 means 100; negative is an error.
	MaxIter int
	// Eta is the step size η of Online, Batch, Averaged, Voted and the
	// Argmax scheme, and of Model.Update (a MiniBatch model's Update
	// steps by its Tau). 0 means 1; negative, NaN or infinite is an error,
	// and so is a value that overflows the element type or rounds to 0 in
	// it (1e39 or 1e-50 for float32). From w = 0, without normalisation,
	// Online, Averaged and Voted models trained with different η differ
	// only by that factor, so they predict alike; with a warm start
	// (Options.Init) or Normalize they do not.
	Eta float64
	// Tau is the step size τ of MiniBatch. 0 means 1; negative, NaN or
	// infinite is an error, and for MiniBatch so is a τ or τ/B that
	// overflows the element type or rounds to 0 in it.
	Tau float64
	// BatchSize is B, the mini-batch size of MiniBatch. 0 means 32;
	// negative is an error; a B larger than the data is cut to its size.
	BatchSize int

	// Sampling selects which samples an epoch visits: SampleDefault
	// (SampleSubsets for MiniBatch, SampleSweep otherwise), SampleSweep,
	// SampleSubsets (MiniBatch only) or SampleReplace (not Batch). Every
	// random choice comes from Seed only: the same data, options and Seed
	// train a bit-identical model. With the random samplings an epoch
	// without a mistake need not have seen every sample, so training
	// checks the weights on all of them (one pass) before it stops on it
	// and reports convergence.
	Sampling Sampling
	// Shuffle visits the samples in a new random order every epoch under
	// SampleSweep (Online, MiniBatch, Averaged, Voted, SVM and Argmax;
	// Batch sums over all samples and ignores it, and the random
	// samplings do not need it).
	Shuffle bool
	// Seed seeds the random sampling and shuffling (a PCG generator).
	Seed uint64

	// Stop says whether the perceptrons stop before MaxIter epochs, after
	// an epoch without a mistake (StopClean) or never (StopNever). The
	// default (StopDefault) is StopNever for Averaged and Voted, whose
	// model is an average or vote over every visit of every epoch, as in
	// Freund and Schapire's algorithm: stopping at the first clean epoch
	// would change it (the average keeps drifting towards the final
	// vector, and each kept vector's vote keeps growing). For Online,
	// Batch, MiniBatch and the Argmax scheme it is StopClean: their
	// weights cannot change after a clean epoch. SVM never stops on that
	// criterion; see Tol. On sparse data Online, Averaged and Voted under
	// SampleSweep count the epochs after a clean one instead of running
	// them: every visit would be right again, with the same bits. The
	// model and the diagnostics are those of running them; only the time
	// is saved.
	Stop Stopping
	// Normalize is the normalisation of Novikoff's bound: every augmented sample (x, 1)
	// ((x, B) with BiasFeature) is scaled to unit Euclidean length (x
	// alone with NoBias; a zero row
	// stays zero), on a copy: the caller's data is never modified. The
	// perceptron then trains on points of norm 1, so the radius R of
	// Novikoff's bound (Diagnostics.RadiusAugmented) is 1. The model
	// remembers it (Model.Scaling) and scales the samples it scores the
	// same way, which changes their scores but never their sign.
	Normalize bool
	// NormalizeFeatures scales x to unit length and then adds the bias
	// (ScaleFeatures): a different, data-dependent transform, kept for
	// models trained with Normalize before model file version 2. Set at
	// most one of Normalize and NormalizeFeatures.
	NormalizeFeatures bool
	// NoBias trains without the bias term b (b stays 0).
	NoBias bool
	// BiasFeature is the value B of the constant feature that carries the
	// bias (LIBLINEAR's -B): the model trains on the augmented points
	// (x, B), so a mistake's step moves b = B·w_B by η·y·B² instead of
	// η·y, Normalize scales (x, B) to unit length, the SVM's ‖θ‖² counts
	// (b/B)², and Novikoff's radius is that of the (x, B). A small B damps
	// the bias's steps against the weights', as scikit-learn's SGD damps
	// its intercept on sparse data (B = 0.1 matches its factor 0.01); on
	// text, whose rows have unit norm, that often predicts better. 0 means
	// 1, the plain augmented point (x, 1); negative, NaN or infinite is an error, and so
	// is a B whose square overflows the element type or rounds to 0 in it.
	// Not with NoBias. The model remembers it (Model.BiasFeature) for
	// Update, a continuation (Options.Init) and the samples it scores. With Normalize the
	// trainer keeps w_B = b/B as the weight of the normalised points' last
	// column, so a warm start (Options.Init) divides b by B and
	// the model multiplies back: for a B that is not a power of two the
	// round trip can move b by a rounding.
	BiasFeature float64

	// Init is the warm start of Fit (Weights, or a *linear.Model[T] to continue)
	// and of FitKernel (Dual). nil starts from 0. See Start.
	Init Start

	// Lambda is the SVM's regularisation λ > 0. Set Lambda or C, not both;
	// if neither is set λ = 1e-4. Other algorithms ignore it. The first
	// Pegasos step is 1/λ: a λ for which it overflows the element type is
	// an error (ErrOption), and so is a C for which λ = 1/(C·N) is 0 or
	// infinite.
	Lambda float64
	// C is the SVM's soft-margin constant of the form
	// ½‖w‖² + C·Σ hinge; it is converted to λ = 1/(C·N).
	C float64
	// Tol stops SVM training when an epoch lowers the primal objective by
	// less than Tol relative to its value (and counts as converged). 0 runs
	// all MaxIter epochs. Other algorithms ignore it.
	Tol float64

	// VotedMaxBytes is the memory budget of the Voted algorithm's kept
	// vectors (linear models: each kept weight vector with its bias and
	// count; kernel models: each mistake's row and step, each kept
	// function's prefix length, bias and count), over all classes. The
	// voted perceptron keeps one more of them per mistake, so on data it
	// does not separate its size grows with every epoch: training returns
	// an error wrapping ErrBudget, naming how many were kept, before the
	// kept state would exceed the budget (room for every class's final
	// vector is reserved from the start). 0 means DefaultVotedMaxBytes;
	// negative means no limit. A linear trainer stores its kept vectors in
	// chunks that are never reallocated, so the memory they take is the
	// counted bytes plus at most 1 MiB of unused chunk per class and list;
	// the model's one array of vectors is assembled from them at the end
	// (briefly a second copy). Other algorithms ignore it.
	VotedMaxBytes int64

	// DataMargin asks for the training data's own maximum margin γ_D, next
	// to the model's: after training, the hard-margin SVM is solved
	// exactly (svm.MaxMargin) on the points the perceptron trained on —
	// the augmented (x, B) with a bias (B = BiasFeature, 1 by default),
	// scaled as Normalize or NormalizeFeatures scale them, (φ(x), B) for a
	// kernel model — and
	// Diagnostics.DataMargin (for one-vs-rest each class's, against the
	// rest) brackets γ_D and gives R′²/γ_D², the tightest mistake bound
	// Novikoff's theorem gives (BoundAugmented uses the returned model's
	// own margin, which is at most γ_D). It costs about a kernel SVM fit
	// per binary problem: an N×N kernel matrix when it fits 2 GiB, rows on
	// demand otherwise. Not with the Argmax scheme, nor for a kernel
	// model with Normalize (ErrOption).
	DataMargin bool

	// SkipEvaluation skips the final pass of a linear model over the
	// training data that fills Diagnostics.TrainAccuracy, TrainLoss and the
	// margins (Evaluated stays false; the radii are still set): for a caller
	// that wants the model only, such as a shard of iterative parameter
	// mixing, for which that pass costs about as much as an Online epoch.
	// The model is the same. Kernel models are always evaluated (their
	// kept decision values make it cheap).
	SkipEvaluation bool
	// Resumable keeps the training state in the model's files
	// (MarshalBinary, MarshalJSON): the step count, Pegasos's λ, and an
	// averaged model's running weights and sums, which a continuation and
	// Update need to go on exactly as the fit would have. Without it a
	// file holds the served model alone (an averaged model's is a third
	// of the size); read back, it predicts the same, and an averaged or
	// Pegasos model refuses to continue (ErrUnsupported). The model in memory
	// keeps its state either way, and a model read from a file with the
	// state writes it again.
	Resumable bool

	// Callback, if not nil, is called after every epoch with its
	// statistics, on the goroutine that called Fit or FitKernel. Returning ErrStop
	// ends training with the model so far; any other error aborts it.
	Callback func(Epoch) error

	// Workers is the number of goroutines of one-vs-rest training (the
	// classes are split among them) and of the diagnostic passes. 0 means
	// runtime.GOMAXPROCS(0). Binary training of one model is sequential by
	// nature and uses one. A one-vs-rest model trained by Online, Averaged
	// or Voted does not depend on Workers. With Batch, MiniBatch and SVM
	// each goroutine scores a sample for all of its classes with one
	// kernel.Dots call, whose rounding can depend on the block of classes,
	// so for data that is not integer-valued the exact bits of the model can
	// depend on Workers; with the same Workers they are reproducible.
	Workers int

	// impl, when not nil, selects the kernel implementation (tests walk
	// every implementation with it). nil means the active one.
	impl *kernel.Impl
}

// DefaultVotedMaxBytes is the voted perceptron's memory budget when
// Options.VotedMaxBytes is 0: 1 GiB.
const DefaultVotedMaxBytes int64 = 1 << 30

// config is Options resolved and checked.
type config struct {
	algo      linear.Algorithm
	strategy  fit.Scheme
	epochs    int
	eta, tau  float64
	batch     int
	shuffle   bool
	seed      uint64
	stopClean bool
	sampling  Sampling // resolved: never SampleDefault
	scaling   linear.Scaling
	bias      bool
	bfeat     float64   // BiasFeature B (1 by default; 0 with NoBias)
	w0, b0    []float64 // Init: Weights
	a0        []float64 // Init: Dual's Alpha (b0 its B)
	dual      bool      // Init is a Dual
	lambda    float64
	c         float64
	tol       float64
	callback  func(epochStats) error
	workers   int
	impl      *kernel.Impl
	votedMax  int64 // bytes; < 0: no limit
	margin    bool  // DataMargin
	noEval    bool  // SkipEvaluation
	resumable bool  // Resumable
}

// biasSq is B², the square of the bias feature, by which a mistake's step
// moves the bias (0 without a bias).
func (c *config) biasSq() float64 { return c.bfeat * c.bfeat }

func (o *Options) resolve() (config, error) {
	c := config{
		algo:      o.Algorithm,
		strategy:  o.Multiclass,
		epochs:    o.MaxIter,
		eta:       o.Eta,
		tau:       o.Tau,
		batch:     o.BatchSize,
		shuffle:   o.Shuffle,
		seed:      o.Seed,
		stopClean: o.Stop == StopClean || (o.Stop == StopDefault && o.Algorithm != linear.Averaged && o.Algorithm != linear.Voted),
		sampling:  o.Sampling,
		bias:      !o.NoBias,
		lambda:    o.Lambda,
		c:         o.C,
		tol:       o.Tol,
		workers:   o.Workers,
		impl:      o.impl,
		votedMax:  o.VotedMaxBytes,
		margin:    o.DataMargin,
		noEval:    o.SkipEvaluation,
		resumable: o.Resumable,
	}
	if cb := o.Callback; cb != nil {
		c.callback = func(e epochStats) error { return cb(toEpoch(e)) }
	}
	if o.Stop >= numStoppings {
		return c, fmt.Errorf("%w: unknown Stop %d", ErrOption, uint8(o.Stop))
	}
	if c.algo >= numAlgorithms {
		return c, fmt.Errorf("%w: unknown algorithm %d", ErrOption, uint8(c.algo))
	}
	switch c.strategy {
	case fit.Auto, fit.Binary, fit.OneVsRest, fit.Argmax:
	case fit.OneVsOne:
		return c, fmt.Errorf("%w: Multiclass = %v: one-vs-one is the kernel SVM's (svm.Fit); the perceptrons train ovr or argmax", ErrOption, c.strategy)
	default:
		return c, fmt.Errorf("%w: Multiclass = %v", ErrOption, c.strategy)
	}
	if c.epochs < 0 {
		return c, fmt.Errorf("%w: MaxIter = %d < 0", ErrOption, c.epochs)
	}
	if c.epochs == 0 {
		c.epochs = 100
	}
	var err error
	if c.eta, err = stepOption("Eta", c.eta); err != nil {
		return c, err
	}
	if c.tau, err = stepOption("Tau", c.tau); err != nil {
		return c, err
	}
	if c.batch < 0 {
		return c, fmt.Errorf("%w: BatchSize B = %d < 1", ErrOption, c.batch)
	}
	if c.batch == 0 {
		c.batch = 32
	}
	switch {
	case c.sampling >= numSamplings:
		return c, fmt.Errorf("%w: unknown sampling %d", ErrOption, uint8(c.sampling))
	case c.sampling == SampleDefault && c.algo == linear.MiniBatch:
		c.sampling = SampleSubsets
	case c.sampling == SampleDefault:
		c.sampling = SampleSweep
	case c.sampling == SampleSubsets && c.algo != linear.MiniBatch:
		return c, fmt.Errorf("%w: SampleSubsets draws mini-batches; it is for the MiniBatch algorithm, not %v (SampleReplace draws single samples)", ErrOption, c.algo)
	case c.sampling == SampleReplace && c.algo == linear.Batch:
		return c, fmt.Errorf("%w: the Batch algorithm sums over all samples; it takes no SampleReplace", ErrOption)
	}
	switch b := o.BiasFeature; {
	case b != 0 && !linmodel.FinitePositive(b):
		return c, fmt.Errorf("%w: BiasFeature = %v, want a finite value > 0 (0 for 1)", ErrOption, b)
	case b != 0 && !c.bias:
		return c, fmt.Errorf("%w: BiasFeature with NoBias", ErrOption)
	case !c.bias:
		c.bfeat = 0
	case b == 0:
		c.bfeat = 1
	default:
		c.bfeat = b
	}
	switch {
	case o.Normalize && o.NormalizeFeatures:
		return c, fmt.Errorf("%w: set Normalize or NormalizeFeatures, not both", ErrOption)
	case o.Normalize:
		c.scaling = linear.ScaleAugmented
	case o.NormalizeFeatures:
		c.scaling = linear.ScaleFeatures
	}
	switch v := o.Init.(type) {
	case Weights:
		c.w0, c.b0 = v.W, v.B
	case Dual:
		c.a0, c.b0, c.dual = v.Alpha, v.B, true
	}
	if c.w0 != nil || c.b0 != nil {
		if c.algo == linear.SVM {
			return c, fmt.Errorf("%w: SVM starts from 0 (its first Pegasos step multiplies w by 1 − 1/1 = 0); it takes no initial Weights", ErrOption)
		}
		if c.b0 != nil && !c.bias {
			return c, fmt.Errorf("%w: an initial bias (Weights.B) with NoBias", ErrOption)
		}
	}
	if c.lambda < 0 || math.IsNaN(c.lambda) || math.IsInf(c.lambda, 0) {
		return c, fmt.Errorf("%w: Lambda = %v, want > 0", ErrOption, c.lambda)
	}
	if c.c < 0 || math.IsNaN(c.c) || math.IsInf(c.c, 0) {
		return c, fmt.Errorf("%w: C = %v, want > 0", ErrOption, c.c)
	}
	if c.lambda != 0 && c.c != 0 {
		return c, fmt.Errorf("%w: set Lambda or C, not both", ErrOption)
	}
	if c.lambda == 0 && c.c == 0 {
		c.lambda = 1e-4
	}
	if c.tol < 0 || math.IsNaN(c.tol) || math.IsInf(c.tol, 0) {
		return c, fmt.Errorf("%w: Tol = %v, want ≥ 0", ErrOption, c.tol)
	}
	if c.workers < 0 {
		return c, fmt.Errorf("%w: Workers = %d < 0", ErrOption, c.workers)
	}
	if c.workers == 0 {
		c.workers = runtime.GOMAXPROCS(0)
	}
	switch {
	case c.votedMax == 0:
		c.votedMax = DefaultVotedMaxBytes
	case c.votedMax < 0:
		c.votedMax = -1
	}
	if c.margin && c.strategy == fit.Argmax {
		return c, fmt.Errorf("%w: DataMargin measures binary problems; it is for binary and one-vs-rest models, not the Argmax scheme", ErrOption)
	}
	if c.impl != nil && !c.impl.Available() {
		return c, fmt.Errorf("%w: kernel %s is not available on this CPU", ErrOption, c.impl.Name())
	}
	return c, nil
}

func stepOption(name string, v float64) (float64, error) {
	if v == 0 {
		return 1, nil
	}
	if !linmodel.FinitePositive(v) {
		return 0, fmt.Errorf("%w: %s = %v, want a finite value > 0", ErrOption, name, v)
	}
	return v, nil
}

// checkElem checks the options that become values of T in T itself: a
// step size finite in float64 can be +Inf, or 0, in float32. Eta (every
// algorithm, and Model.Update) and Tau/B (MiniBatch) must be finite and
// nonzero in T; for SVM, λ (from Lambda, or from C and the n training
// rows) must be finite and positive and the size of the first Pegasos step,
// 1/λ, finite in T. Combinations with the data (η·x overflowing T) are not
// checked here: they would need the largest |x| before training, a pass of
// its own for the fits that check the data in their first epoch; training
// detects them when they happen (ErrDiverged), at no cost to the others.
func checkElem[T kernel.Float](c *config, n int) error {
	typ := linmodel.TypeName[T]()
	step := func(name string, v float64) error {
		switch t := float64(T(v)); {
		case math.IsInf(t, 0):
			return fmt.Errorf("%w: %s = %v overflows %s", ErrOption, name, v, typ)
		case t == 0:
			return fmt.Errorf("%w: %s = %v is 0 in %s", ErrOption, name, v, typ)
		}
		return nil
	}
	if err := step("Eta", c.eta); err != nil {
		return err
	}
	if c.bfeat != 1 && c.bias {
		if err := step(fmt.Sprintf("BiasFeature² (BiasFeature = %v)", c.bfeat), c.biasSq()); err != nil {
			return err
		}
	}
	switch c.algo {
	case linear.MiniBatch:
		if err := step("Tau", c.tau); err != nil {
			return err
		}
		b := min(c.batch, n)
		if err := step(fmt.Sprintf("Tau/B (B = %d)", b), c.tau/float64(b)); err != nil {
			return err
		}
	case linear.SVM:
		lam, name := c.lambda, fmt.Sprintf("Lambda = %v", c.lambda)
		if c.c != 0 {
			lam, name = 1/(c.c*float64(n)), fmt.Sprintf("C = %v (λ = 1/(C·N), N = %d)", c.c, n)
		}
		if !linmodel.FinitePositive(lam) {
			return fmt.Errorf("%w: %s gives λ = %v; want a finite λ > 0", ErrOption, name, lam)
		}
		if t := float64(T(1 / lam)); math.IsInf(t, 0) {
			return fmt.Errorf("%w: %s: the first step 1/λ = %v overflows %s", ErrOption, name, 1/lam, typ)
		}
	}
	return nil
}

// checksInFirstEpoch reports whether a binary fit with this configuration
// checks its data and computes the row norms in its first epoch
// (prepareLazy) instead of in a pass of its own: when every epoch scores
// the samples one at a time with linTrainer.epochSeq (batch size 1) and
// nothing needs the norms before that (normalisation, the SVM's step), and
// the first epoch visits every sample (SampleSweep).
func (c *config) checksInFirstEpoch() bool {
	if c.scaling != linear.ScaleNone || c.sampling != SampleSweep {
		return false
	}
	switch c.algo {
	case linear.Online, linear.Averaged, linear.Voted:
		return true
	case linear.MiniBatch:
		return c.batch == 1
	}
	return false
}
