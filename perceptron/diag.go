package perceptron

import "github.com/rosenblatt-go/rosenblatt/svm"

// Epoch holds the statistics of one training epoch. The perceptron
// algorithms compute them on the fly, with the weights in force when each
// sample was visited (the epoch's starting weights for Batch, the step's
// for MiniBatch), so they cost no extra pass over the data; they describe
// the training run, not the final model (see Diagnostics for that). They
// count visits: under SampleSubsets and SampleReplace a sample drawn twice
// counts twice, and one not drawn not at all.
type Epoch struct {
	// Epoch is the 1-based epoch number.
	Epoch int
	// Samples is the number of visits of the epoch: N for SampleSweep,
	// ⌈N/B⌉·B for MiniBatch's random samplings, N for SampleReplace.
	Samples int
	// Steps is the number of update steps k in the epoch:
	// one per visit for the online algorithms, ⌈N/B⌉ for MiniBatch, 1 for
	// Batch.
	Steps int
	// Mistakes counts samples with y·(w·x + b) ≤ 0 (a zero score is a
	// mistake, and so would be a NaN one: the test is !(y·(w·x + b) > 0);
	// training that meets a non-finite score ends with ErrDiverged). For
	// one-vs-rest it is summed over the classes; for the Argmax scheme it
	// counts samples whose true class did not score strictly highest.
	Mistakes int
	// Updates counts weight updates: the mistakes for the perceptrons, the
	// margin violations y·(w·x + b) < 1 for SVM, summed over classes.
	Updates int
	// Loss is the perceptron loss (1/N)·Σ max(0, −y·(w·x + b)) over the
	// epoch's visits (N = Samples), summed over the classes for
	// one-vs-rest; for Argmax it is (1/N)·Σ max(0, max_{k≠y} sₖ − s_y).
	Loss float64
	// Accuracy is the fraction of correct decisions, 1 − Mistakes/Samples
	// (over Samples·K binary decisions for one-vs-rest).
	Accuracy float64
	// Objective is the SVM primal objective after the epoch (summed over
	// the classes for one-vs-rest), computed with an extra pass over the
	// data; 0 for the other algorithms.
	Objective float64
}

// Diagnostics describes a training run and the model it returned. It is
// designed to serve every model of this package (linear and, later,
// kernel models): fields that do not apply to a model are zero.
type Diagnostics struct {
	// Epochs has one entry per epoch run.
	Epochs []Epoch
	// Converged reports that training ended on its own criterion: an epoch
	// without mistakes (perceptrons) or an objective change below Tol (SVM).
	Converged bool
	// Stopped reports that the Callback ended training with ErrStop.
	Stopped bool
	// Updates is the total number of weight updates.
	Updates int

	// Evaluated reports that the fields below were computed by a final
	// pass of the returned model over the training data. It is false for
	// voted models, whose exact evaluation costs one dot product per kept
	// vector and sample.
	Evaluated bool
	// TrainAccuracy is the returned model's accuracy on the training data,
	// counting a zero score as wrong as the training rule does (so it can
	// be slightly below what Predict gives, which maps a zero score to −1),
	// and a NaN score as wrong too.
	TrainAccuracy float64
	// TrainLoss is the returned model's perceptron loss on the training data.
	TrainLoss float64

	// Separable reports that the returned (binary, linear or kernel)
	// model separates the training data: every y·(w·x + b) > 0.
	Separable bool

	// The model's margin and the data's radius come in two pairs. The
	// usual geometric margin measures distances in the space of the
	// samples, with b the offset of the hyperplane; the augmented pair
	// treats b as one more weight, on the constant feature 1 of the
	// augmented points (x, 1), which is what the perceptron's update adds
	// (w += η·y·x, b += η·y) and what Novikoff's theorem is about. With
	// Options.BiasFeature B the points are (x, B) and the weight is b/B
	// (the update adds η·y·B² to b): read (x, B) for (x, 1) and (w, b/B)
	// for (w, b) below.

	// Margin is the geometric margin of the model's hyperplane,
	// γ = minᵢ yᵢ(w·xᵢ + b)/‖w‖, the smallest signed distance of a
	// training sample to {x : w·x + b = 0}, for the samples as given
	// (Normalize never moves a sample to the other side; with
	// NormalizeFeatures, the unit samples xᵢ/‖xᵢ‖; for kernel models in
	// the kernel's feature space). Negative if the model does not separate
	// them; 0 if w = 0.
	Margin float64
	// Radius is R = maxᵢ ‖xᵢ‖ over the same samples.
	Radius float64
	// Bound is Radius²/Margin² when Separable (and Margin > 0), else 0.
	// Without a bias and without Normalize the two pairs coincide and it is
	// Novikoff's bound; with a bias it is at most BoundAugmented, and not a
	// bound on the perceptron's mistakes (the theorem's is BoundAugmented).
	Bound float64

	// MarginAugmented is the margin in the bias-augmented space,
	// γ′ = minᵢ yᵢ⟨(w, b), zᵢ⟩/‖(w, b)‖, over the points zᵢ the perceptron
	// trains on: the augmented zᵢ = (xᵢ, 1), scaled to unit length with
	// Normalize (zᵢ = xᵢ and b = 0 with NoBias; (φ(xᵢ), 1) for kernel
	// models). ⟨(w, b), zᵢ⟩ is the score training computes; without
	// Normalize, MarginAugmented = Margin·‖w‖/‖(w, b)‖.
	MarginAugmented float64
	// RadiusAugmented is R′ = maxᵢ ‖zᵢ‖: √(Radius² + B²) with a bias (B the
	// BiasFeature, 1 by default), 1 with Normalize.
	RadiusAugmented float64
	// BoundAugmented is R′²/γ′² when Separable, else 0: Novikoff's theorem
	// for Rosenblatt's perceptron on the augmented points. Started from
	// w = 0, b = 0, Rosenblatt's perceptron makes at most R′²/γ′² mistakes
	// on the data for the margin γ′ of any separator, so at most this many
	// for the model's own (the best separator gives the tightest bound).
	// With Normalize, R′ = 1 and the bound is 1/γ′².
	BoundAugmented float64

	// DataMargin is the training data's own maximum margin γ_D, when
	// Options.DataMargin asked for it and the data are separable (nil
	// otherwise, and for a one-vs-rest model, whose classes have theirs):
	// γ_D = sup minᵢ yᵢ⟨(w, b/B), zᵢ⟩/‖(w, b/B)‖ over every separator
	// (w, b) of the points zᵢ the perceptron trains on, the augmented
	// (xᵢ, B) (B = 1 but with Options.BiasFeature, as in Novikoff's
	// theorem), the space of MarginAugmented. It comes from an exact
	// hard-margin solve in float64 (svm.MaxMargin with the BiasFeature B), so
	// Gamma ≤ γ_D ≤ Upper agree to about 10⁻⁶ relative; Radius is
	// RadiusAugmented and Bound = R′²/Gamma² bounds the mistakes of
	// Rosenblatt's perceptron started from 0, in any order of visits.
	DataMargin *svm.Margin
	// DataMarginErr is why DataMargin is nil when Options.DataMargin asked
	// for it: it wraps svm.ErrNotSeparable (a *svm.NotSeparableError,
	// errors.As, whose Upper bounds the margin of every separator) when the
	// data are not separable.
	DataMarginErr error

	// Classes holds the per-class diagnostics of a one-vs-rest model, in the
	// order of Model.Classes.
	Classes []Diagnostics
}
