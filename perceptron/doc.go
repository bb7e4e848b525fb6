// Package perceptron trains and serves linear classifiers on the
// rosenblatt SIMD kernels: Rosenblatt's online perceptron, the full-batch
// and mini-batch perceptron, the averaged and the voted perceptron, and a
// soft-margin linear SVM (Pegasos), for float32 and float64 data; and the
// dual and kernel perceptron (plain, averaged, voted; see Kernel models).
//
// # Calling it
//
// Fit takes the rows of a *dataset.Data (dense, row-major) or a
// *dataset.CSR (sparse) and one int label per row; labels −1 and +1 give
// a binary model, any other integers one-vs-rest or the multiclass
// perceptron. The rules and the model's other settings are package
// linear's (linear.Online, ..., linear.ScaleAugmented):
//
//	m, rep, err := perceptron.Fit(ctx, dataset.NewData(X, cols, y), y, perceptron.Options{
//		Algorithm: linear.Averaged, MaxIter: 10, Shuffle: true, Seed: 1,
//	})
//	label, err := m.Predict(x)
//
// Every error wraps an exported sentinel for errors.Is: this package's
// (ErrEmpty, ErrOneClass, ErrOption, ErrBudget, ErrStop) or, for the
// causes a model's own methods share, package linear's (linear.ErrDims,
// linear.ErrNonFinite, linear.ErrLabels, linear.ErrDiverged, ...). The
// caller's slices are never modified: Options.Normalize works on a copy.
//
// # The rules
//
// The algorithms follow Rosenblatt (1958), Novikoff (1962) and Freund and
// Schapire (1999) rule by rule (see linear.Algorithm):
// prediction sign(w·x + b); on a mistake y·(w·x + b) ≤ 0 the update
// w += η·y·x, b += η·y; epochs up to MaxIter, stopping after a clean one.
// Online visits the samples in turn, or draws them at random with repeats
// (Options.Sampling = SampleReplace); Batch sums the update over the
// misclassified set; MiniBatch draws a fresh random subset I of B samples
// at every step and adds τ/B·Σ_{i∈I, mistake} yᵢxᵢ. Training starts from
// given w₀, b₀ (Options.Init: Weights) or continues a saved
// model (Options.Init: a *linear.Model trained with its state). The bias is the augmented point's weight:
// Normalize scales (x, 1) to unit length (Options.BiasFeature B augments
// with B instead, as LIBLINEAR's -B). Diagnostics reports the loss
// (1/N)·Σ max(0, −y(w·x + b)), the mistakes per epoch, the geometric
// margin γ = min y(w·x + b)/‖w‖ with R = max ‖x‖, and the margin of the
// augmented points with their radius and Novikoff's bound R′²/γ′².
// Options.DataMargin adds the data's own maximum margin γ_D, from an exact
// hard-margin solve (package svm), and the tightest bound R′²/γ_D².
//
// The exact SVMs, kernel and linear, are package svm's; this package's SVM
// algorithm is Pegasos, a stochastic subgradient method for the same
// linear soft-margin problem (with the same C: ½‖w‖² + C·Σ hinge, the bias
// regularised as a weight on a constant 1), which learns online: use it
// for streams and Update, package svm for an exact solution.
//
// # Overflow
//
// Training never returns a model with a non-finite weight. Step sizes are
// checked in the element type (an Eta that overflows float32 is ErrOption
// for a float32 model), and a weight, bias, score, averaging sum or kernel
// decision value that overflows during training ends it with an error
// wrapping linear.ErrDiverged whose message names the epoch, the sample
// and (multiclass) the class where the first non-finite value appeared. A NaN
// score is never a correct prediction: training and the diagnostics count
// it as a mistake, and Predict returns an error wrapping ErrNonFinite for a
// sample whose score is not finite (a NaN or Inf in the sample). The voted
// perceptron, which keeps one vector per mistake, stops with ErrBudget
// before its kept vectors exceed Options.VotedMaxBytes (default 1 GiB).
//
// # Tie rule
//
// Training counts a score of exactly zero as a mistake: the perceptrons
// update when y·(w·x + b) ≤ 0, so the first sample always triggers an
// update from w = 0. The multiclass perceptron likewise updates unless the
// true class scores strictly higher than every other. Predict maps a zero
// score to −1 (and a tie between classes to the smaller label).
//
// # Speed
//
// The hot loops run on package kernel only: kernel.Dot scores one sample
// (a binary perceptron's epoch is one Dot per sample, and an Axpy per
// mistake), kernel.Axpy applies an update, kernel.MatVec scores a batch of
// rows, and kernel.Dots scores one sample against a block of class weight
// vectors (a multiclass Predict reads the sample once for all classes).
// PredictBatch scores two samples per modelkern.Dots2 call (2×5 register
// tiles of samples and classes); against many weight vectors (64 or more
// classes, or a voted model's vectors) it is one matrix product on gram's
// micro-kernels (gram.CrossInto). One-vs-rest perceptrons work on blocks
// of four samples, copied once into a contiguous buffer and scored for each
// class by one MatVec, with the scores of later samples corrected after an
// update by the samples' dot product; so each goroutine reads a sample once
// per epoch for all its classes, and a class's weights once per block. The
// averaged perceptron keeps a second, step-weighted sum u
// (the cached-weights trick) and returns w − u/steps, so averaging costs
// O(D) per mistake, not per sample. Pegasos keeps w = s·v with a scalar s so
// the shrink step is O(1).
//
// # Reproducibility
//
// The random sampling and Shuffle's order come only from Seed: the same
// data, options and Seed give a bit-identical model. For integer-valued data (and η, τ/B
// powers of two) the perceptrons are exact, and the model is bit-identical
// on every kernel implementation (AVX2, NEON, generic Go): the tests check
// this on every implementation the CPU has.
//
// # Serving
//
// Predict and Scores allocate nothing and are safe for concurrent use. A
// model accepts Update(x, y) while other goroutines predict: the weights
// are an immutable snapshot behind an atomic.Pointer, and Update copies,
// modifies and republishes it (copy-on-write, see linear.Model). Update continues
// the algorithm that trained the model: an averaged model keeps averaging
// (its file keeps the running weights and the averaging sums), a voted one
// adds vectors, an SVM takes the next Pegasos step.
//
// # Kernel models
//
// FitKernel trains the dual perceptron,
// f(x) = Σᵢ αᵢ·η·yᵢ·K(xᵢ, x) + b, with any kernel of package gram
// (gram.Linear, gram.Polynomial, gram.RBF), plain (Online), Averaged or
// Voted, binary, one-vs-rest or as the multiclass kernel perceptron
// (Argmax), and return the kernel expansion shared with the kernel SVM,
// *expansion.Model:
//
//	m, rep, err := perceptron.FitKernel(ctx, dataset.NewData(X, cols, y), y, perceptron.KernelOptions{
//		Options: perceptron.Options{Algorithm: linear.Averaged, MaxIter: 10, Shuffle: true, Seed: 1},
//		Kernel:  gram.RBF{Gamma: 0.013},
//	})
//
// The Gram matrix is computed once (in parallel, shared by all classes of
// one-vs-rest, whose classes then train on parallel goroutines), and the
// trainer keeps the decision values of every training sample: a correct
// sample costs O(1), a mistake on sample j one kernel.Axpy of η·yⱼ·G[j, :].
// With the linear kernel the dual perceptron makes the primal perceptron's
// mistakes in the same order (exactly, on integer-valued data, on every
// kernel implementation: the tests check it). Above KernelOptions.MaxBytes
// the trainer keeps an LRU cache of kernel rows instead of the matrix and
// trains the same model bit for bit. The model keeps copies of the
// support vectors (the training rows with α ≠ 0) and their coefficients
// (the voted perceptron: its mistakes and kept functions,
// expansion.Voted); Predict computes one kernel row against them and
// allocates nothing, PredictBatch computes the kernel rows of a batch a
// block at a time with gram.Rows.RowsOfEach, as the kernel SVM does.
// Kernel perceptron files keep their kinds 16 to 18 (see
// expansion.Model.MarshalBinary). The trainer's own state (α counts,
// decision values, the averaging sums) is not kept: a warm start takes
// KernelOptions.Init's Dual{Alpha, B}.
//
// # Model files
//
// The models are package linear's and package expansion's, and so are
// their files (MarshalBinary/UnmarshalBinary, a versioned, checksummed
// little-endian format whose header names the element type and the model
// kind; MarshalJSON/UnmarshalJSON the same content as JSON). Package model
// loads any of them by content, and model.Inspect reads a file's header.
package perceptron
