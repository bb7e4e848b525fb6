package perceptron

import (
	"fmt"
	"math"
	"runtime"
	"unsafe"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Algorithm selects the training rule.
type Algorithm uint8

// The training rules. Every rule starts from w = 0, b = 0 and, except SVM,
// counts a score of exactly zero as a mistake (see the package
// documentation for the tie rule).
const (
	// Online is Rosenblatt's perceptron: for each sample, if y·(w·x + b) ≤ 0
	// then w += η·y·x and b += η·y.
	Online Algorithm = iota
	// Batch is the full-batch perceptron: each epoch computes every margin
	// with the epoch's starting weights, then w += η·Σ_M yᵢxᵢ over the set M
	// of misclassified samples (and b += η·Σ_M yᵢ).
	Batch
	// MiniBatch is the mini-batch stochastic subgradient method: the epoch
	// is cut into batches of B samples (random ones with Shuffle), and after
	// each batch w += (τ/B)·Σ_{M∩batch} yᵢxᵢ, all margins of the batch being
	// computed with the batch's starting weights. B is the actual size of
	// the batch, so a smaller last batch takes a proportionally larger step.
	MiniBatch
	// Averaged is the averaged perceptron: Online's updates, but the model
	// returned is the average of the weight vectors after every sample of
	// every epoch, computed with the cached-weights trick (O(D) work per
	// mistake only).
	Averaged
	// Voted is Freund and Schapire's voted perceptron: every weight vector
	// wₖ of the Online run is kept with its survival count cₖ (the number
	// of samples it was in force for), and the prediction is
	// sign(Σₖ cₖ·sign(wₖ·x + bₖ)). The model grows by one vector per
	// mistake.
	Voted
	// SVM is the soft-margin linear support vector machine, trained with
	// Pegasos (Shalev-Shwartz et al.): the primal objective
	// λ/2·(‖w‖² + b²) + (1/N)·Σ max(0, 1 − yᵢ(w·xᵢ + b)) is minimised by
	// stochastic subgradient steps of size 1/(λt) with the projection onto
	// the ball ‖(w,b)‖ ≤ 1/√λ. The bias, when on, is regularised like the
	// weights (as an extra constant feature 1).
	SVM
	numAlgorithms
)

var algorithmNames = [...]string{"online", "batch", "minibatch", "averaged", "voted", "svm"}

// String returns the algorithm's lower-case name ("online", "batch",
// "minibatch", "averaged", "voted", "svm").
func (a Algorithm) String() string {
	if a < numAlgorithms {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// ParseAlgorithm returns the Algorithm whose String is name. Unknown names
// are an error wrapping ErrOption.
func ParseAlgorithm(name string) (Algorithm, error) {
	for i, s := range algorithmNames {
		if s == name {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown algorithm %q", ErrOption, name)
}

// Strategy selects how TrainMulticlass handles more than two classes.
type Strategy uint8

const (
	// OneVsRest trains one binary model per class (the class against all
	// others) with the chosen Algorithm, the classes split among parallel
	// goroutines that each read every sample once per epoch for all of
	// their classes, and predicts the class with the highest score. It
	// supports every Algorithm.
	OneVsRest Strategy = iota
	// Argmax is the multiclass perceptron: one weight vector per class,
	// prediction by the highest score, and on a mistake (the true class's
	// score not strictly above every other) the true class's vector moves
	// towards the sample and the highest-scoring wrong class's away from it.
	// It supports the Online and Averaged algorithms.
	Argmax
	numStrategies
)

var strategyNames = [...]string{"ovr", "argmax"}

// String returns "ovr" or "argmax".
func (s Strategy) String() string {
	if s < numStrategies {
		return strategyNames[s]
	}
	return fmt.Sprintf("Strategy(%d)", uint8(s))
}

// Options configures training. The zero value is valid and means: Online,
// 100 epochs, η = 1, no shuffling, stop after an epoch without mistakes,
// bias on, no normalisation, one goroutine per CPU.
type Options struct {
	// Algorithm is the training rule; the default is Online.
	Algorithm Algorithm
	// Multiclass is the strategy of TrainMulticlass; Train ignores it.
	Multiclass Strategy

	// MaxIter is the maximum number of epochs (passes over the data).
	// 0 means 100; negative is an error.
	MaxIter int
	// Eta is the step size η of Online, Batch, Averaged, Voted and the
	// Argmax strategy, and of Model.Update. 0 means 1; negative, NaN or
	// infinite is an error, and so is a value that overflows the element
	// type or rounds to 0 in it (1e39 or 1e-50 for float32). (For Online,
	// Averaged and Voted without normalisation η only scales the model, it
	// does not change its predictions.)
	Eta float64
	// Tau is the step size τ of MiniBatch. 0 means 1; negative, NaN or
	// infinite is an error, and for MiniBatch so is a τ or τ/B that
	// overflows the element type or rounds to 0 in it.
	Tau float64
	// BatchSize is B, the mini-batch size of MiniBatch. 0 means 32;
	// negative is an error; a B larger than the data is cut to its size.
	BatchSize int

	// Shuffle visits the samples in a new random order every epoch (Online,
	// MiniBatch, Averaged, Voted, SVM and Argmax; Batch sums over all
	// samples and ignores it). The order comes from Seed only: the same
	// data, options and Seed train a bit-identical model.
	Shuffle bool
	// Seed seeds the shuffling (a PCG generator).
	Seed uint64

	// RunAllEpochs keeps training for MaxIter epochs even after an epoch
	// without a mistake. By default the perceptrons stop after such an
	// epoch (their weights could not change any more, except an average's
	// drift towards the final vector). SVM never stops on that criterion;
	// see Tol.
	RunAllEpochs bool
	// Normalize scales every sample to unit Euclidean norm (zero rows stay
	// zero) before training, on a copy: the caller's data is never
	// modified. The model remembers it and normalises the samples it
	// scores the same way.
	Normalize bool
	// NoBias trains without the bias term b (b stays 0).
	NoBias bool

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
	// negative means no limit. The budget counts the stored values, not
	// the spare capacity of growing slices, and a multiclass model's
	// vectors are gathered into one array once at the end (briefly a
	// second copy). Other algorithms ignore it.
	VotedMaxBytes int64

	// Callback, if not nil, is called after every epoch with its
	// statistics, on the goroutine that called Train. Returning ErrStop
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
	algo      Algorithm
	strategy  Strategy
	epochs    int
	eta, tau  float64
	batch     int
	shuffle   bool
	seed      uint64
	stopClean bool
	normalize bool
	bias      bool
	lambda    float64
	c         float64
	tol       float64
	callback  func(Epoch) error
	workers   int
	impl      *kernel.Impl
	votedMax  int64 // bytes; < 0: no limit
}

func finitePositive(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

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
		stopClean: !o.RunAllEpochs,
		normalize: o.Normalize,
		bias:      !o.NoBias,
		lambda:    o.Lambda,
		c:         o.C,
		tol:       o.Tol,
		callback:  o.Callback,
		workers:   o.Workers,
		impl:      o.impl,
		votedMax:  o.VotedMaxBytes,
	}
	if c.algo >= numAlgorithms {
		return c, fmt.Errorf("%w: unknown algorithm %d", ErrOption, uint8(c.algo))
	}
	if c.strategy >= numStrategies {
		return c, fmt.Errorf("%w: unknown multiclass strategy %d", ErrOption, uint8(c.strategy))
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
	if c.impl != nil && !c.impl.Available() {
		return c, fmt.Errorf("%w: kernel %s is not available on this CPU", ErrOption, c.impl.Name())
	}
	return c, nil
}

func stepOption(name string, v float64) (float64, error) {
	if v == 0 {
		return 1, nil
	}
	if !finitePositive(v) {
		return 0, fmt.Errorf("%w: %s = %v, want a finite value > 0", ErrOption, name, v)
	}
	return v, nil
}

// elemType returns "float32" or "float64", the name of T's underlying
// type.
func elemType[T Float]() string {
	var z T
	if unsafe.Sizeof(z) == 4 {
		return "float32"
	}
	return "float64"
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
func checkElem[T Float](c *config, n int) error {
	typ := elemType[T]()
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
	switch c.algo {
	case MiniBatch:
		if err := step("Tau", c.tau); err != nil {
			return err
		}
		b := min(c.batch, n)
		if err := step(fmt.Sprintf("Tau/B (B = %d)", b), c.tau/float64(b)); err != nil {
			return err
		}
	case SVM:
		lam, name := c.lambda, fmt.Sprintf("Lambda = %v", c.lambda)
		if c.c != 0 {
			lam, name = 1/(c.c*float64(n)), fmt.Sprintf("C = %v (λ = 1/(C·N), N = %d)", c.c, n)
		}
		if !finitePositive(lam) {
			return fmt.Errorf("%w: %s gives λ = %v; want a finite λ > 0", ErrOption, name, lam)
		}
		if t := float64(T(1 / lam)); math.IsInf(t, 0) {
			return fmt.Errorf("%w: %s: the first step 1/λ = %v overflows %s", ErrOption, name, 1/lam, typ)
		}
	}
	return nil
}

// kernels returns the kernels training runs on.
func kernelsFor[T Float](impl *kernel.Impl) kernel.Kernels[T] {
	if impl == nil {
		impl = kernel.ActiveImpl()
	}
	return kernel.On[T](impl)
}

// checksInFirstEpoch reports whether a binary fit with this configuration
// checks its data and computes the row norms in its first epoch
// (prepareLazy) instead of in a pass of its own: when every epoch scores
// the samples one at a time with linTrainer.epochSeq (batch size 1) and
// nothing needs the norms before that (normalisation, the SVM's step).
func (c *config) checksInFirstEpoch() bool {
	switch c.algo {
	case Online, Averaged, Voted:
		return !c.normalize
	case MiniBatch:
		return !c.normalize && c.batch == 1
	}
	return false
}
