package linear

import "fmt"

// Algorithm selects the training rule.
type Algorithm uint8

// The training rules. Every rule starts from w₀, b₀ (Options.Init,
// zero by default; SVM always starts from 0) and, except
// SVM, counts a score of exactly zero as a mistake (see the package
// documentation for the tie rule). The rules are stated for one sample x
// with label y; with the bias trick x stands for the augmented point (x, 1)
// (scaled to unit length with Options.Normalize) and w for (w, b).
const (
	// Online is Rosenblatt's perceptron: for each sample, if y·(w·x + b) ≤ 0
	// then w += η·y·x and b += η·y. The samples come in turn (SampleSweep)
	// or drawn at random with repeats (SampleReplace).
	Online Algorithm = iota
	// Batch is the full-batch perceptron: each epoch computes every margin
	// with the epoch's starting weights, then w += η·Σ_M yᵢxᵢ over the set M
	// of misclassified samples (and b += η·Σ_M yᵢ).
	Batch
	// MiniBatch is the mini-batch stochastic subgradient method: step k
	// draws a fresh random subset I ⊂ {1..N} of B distinct samples
	// (Options.Sampling, SampleSubsets by default), scores all of them with
	// the step's starting weights, and then
	// w += (τ/B)·Σ_{i∈I, yᵢ(w·xᵢ+b) ≤ 0} yᵢxᵢ (and b += (τ/B)·Σ yᵢ). An
	// epoch is ⌈N/B⌉ steps. The step is always τ/B, also for the short last
	// batch of an epoch under SampleSweep.
	MiniBatch
	// Averaged is the averaged perceptron: Online's updates, but the model
	// returned is the average of the weight vectors after every sample of
	// every epoch, computed with the cached-weights trick: on a mistake at
	// visit c (c samples visited before it) u += c·η·y·x as well, and the
	// model is w − u/c after the last visit, never a second pass (O(D) work
	// per mistake only). The model keeps w, u and c, so that Update and
	// Model.continueDense go on averaging.
	Averaged
	// Voted is Freund and Schapire's voted perceptron: every weight vector
	// wₖ of the Online run is kept with its survival count cₖ (the number
	// of samples it was in force for), and the prediction is
	// sign(Σₖ cₖ·sign(wₖ·x + bₖ)). The model grows by one vector per
	// mistake; its last vector is the running perceptron's.
	Voted
	// SVM is the soft-margin linear support vector machine, trained with
	// Pegasos (Shalev-Shwartz et al.): the primal objective
	// λ/2·(‖w‖² + (b/B)²) + (1/N)·Σ max(0, 1 − yᵢ(w·xᵢ + b)) is minimised
	// by stochastic subgradient steps of size 1/(λt) with the projection
	// onto the ball ‖(w, b/B)‖ ≤ 1/√λ. The bias, when on, is regularised
	// like the weights, as the weight b/B of an extra constant feature B
	// (Options.BiasFeature, 1 by default).
	SVM

	// DualCD is the linear SVM of package svm, trained by dual coordinate
	// descent (Hsieh et al. 2008): L2-regularised hinge or squared-hinge
	// loss, binary or one-vs-rest. Its model has no online rule: Update is
	// ErrUnsupported (train again, or continue with svm.FitLinear).
	DualCD
	numAlgorithms
)

var algorithmNames = [...]string{"online", "batch", "minibatch", "averaged", "voted", "svm", "dcd"}

// String returns the algorithm's lower-case name ("online", "batch",
// "minibatch", "averaged", "voted", "svm", "dcd").
func (a Algorithm) String() string {
	if int(a) < len(algorithmNames) {
		return algorithmNames[a]
	}
	return fmt.Sprintf("Algorithm(%d)", uint8(a))
}

// ParseAlgorithm returns the Algorithm whose String is name. An unknown
// name is an error wrapping ErrOption. (Package perceptron trains Online
// to SVM, package svm DualCD.)
func ParseAlgorithm(name string) (Algorithm, error) {
	for i, s := range algorithmNames {
		if s == name {
			return Algorithm(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown algorithm %q", ErrOption, name)
}

// Scaling is the transform a model applies to every sample before scoring
// it (and training applied to the training samples).
type Scaling uint8

const (
	// ScaleNone scores x as it is.
	ScaleNone Scaling = iota
	// ScaleAugmented is the normalisation of Options.Normalize: the
	// augmented point (x, 1) is scaled to unit length, so the model scores
	// s·x with bias feature s·B, s = 1/‖(x, 1)‖ (1/‖(x, B)‖ with the bias
	// feature B of Options.BiasFeature, 1/‖x‖ without a bias, and
	// s = 1 for x = 0). The score is s·(w·x + b): scaling never moves a
	// point to the other side of a hyperplane.
	ScaleAugmented
	// ScaleFeatures (Options.NormalizeFeatures) scales x to unit length and
	// then adds the bias: the score is w·x/‖x‖ + b. A different,
	// data-dependent transform; it was Normalize's meaning in model files
	// of version 1.
	ScaleFeatures
)

// String returns "none", "augmented" or "features".
func (s Scaling) String() string {
	switch s {
	case ScaleNone:
		return "none"
	case ScaleAugmented:
		return "augmented"
	case ScaleFeatures:
		return "features"
	}
	return fmt.Sprintf("Scaling(%d)", uint8(s))
}
