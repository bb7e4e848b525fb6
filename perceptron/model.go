package perceptron

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/kernel"
)

// Kind is the shape of a model: how many weight vectors it has and how it
// turns scores into a label. It is stored in model files.
type Kind uint8

// The model kinds of this package. Values 16 and above are reserved for
// kernel (dual) models.
const (
	// KindBinary is one classifier with labels −1 and +1.
	KindBinary Kind = 1
	// KindOneVsRest is one binary classifier per class; the prediction is
	// the class with the highest score.
	KindOneVsRest Kind = 2
	// KindArgmax is the multiclass perceptron: one weight vector per class,
	// the prediction is the class with the highest score.
	KindArgmax Kind = 3
)

// String returns "binary", "ovr" or "argmax", or for the kernel models
// "kernel-binary", "kernel-ovr" or "kernel-argmax".
func (k Kind) String() string {
	switch k {
	case KindBinary:
		return "binary"
	case KindOneVsRest:
		return "ovr"
	case KindArgmax:
		return "argmax"
	case KindKernelBinary:
		return "kernel-binary"
	case KindKernelOneVsRest:
		return "kernel-ovr"
	case KindKernelArgmax:
		return "kernel-argmax"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Model is a trained linear classifier: binary, one-vs-rest or multiclass
// (argmax), plain or voted, for element type T.
//
// # Concurrency
//
// Predict, Scores, PredictBatch, ScoresBatch, Accuracy, the accessors and
// MarshalBinary/MarshalJSON are safe for concurrent use, including
// concurrently with Update. The weights live in an immutable snapshot held
// by an atomic.Pointer: readers load the pointer once per call and never see
// a half-written vector. Update is copy-on-write: under a mutex that orders
// the writers, it copies the snapshot's header and the arrays it changes
// (the weights, O(K·D), when the sample is a mistake; an averaged model's
// average on every sample; a voted model's counts, its vectors growing by
// append), applies the step to the copy and publishes it with one atomic
// store. A reader that loaded the old snapshot finishes with it; the next
// call sees the new one. UnmarshalBinary and UnmarshalJSON publish their
// result the same way. A Model must not be copied after first use.
type Model[T Float] struct {
	st atomic.Pointer[state[T]]
	mu sync.Mutex // serialises Update and Unmarshal*
}

// state is one immutable snapshot of a model. Nothing in it is written
// after it is published (Update may append to V and VB beyond the length
// of a published snapshot, which its readers never look at).
type state[T Float] struct {
	k       kernel.Kernels[T] // the active implementation, resolved once
	kind    Kind
	algo    Algorithm
	d       int
	labels  []int // KindBinary: {−1, +1}; else the sorted class labels
	bias    bool
	scaling Scaling
	eta     float64 // Update's step size

	// Linear models: rows×d weights and rows biases, rows = 1 for
	// KindBinary and len(labels) otherwise: the served ones (for
	// Averaged, the average). nil for voted models.
	W []T
	B []T

	// Voted models: vectors V (m×d), biases VB, survival counts VC;
	// class k owns vectors VOff[k] to VOff[k+1]-1, the last of which is
	// the running perceptron's current vector.
	V    []T
	VB   []T
	VC   []int64
	VOff []int

	// The training state that Update and Continue resume (model files of
	// version 2): steps is the number of samples visited, in training and
	// by Update since (0: unknown, a version-1 file); lambda the λ of an
	// SVM model; for Averaged, CW and CB are the running perceptron's
	// weights and biases and U, UB the averaging sums Σ t·η·y·x (and
	// Σ t·η·y) over its mistakes, t the number of samples visited before
	// each, so that W = CW − U/steps.
	steps  int64
	lambda float64
	CW, CB []T
	U, UB  []T
}

// hasState reports whether the snapshot holds the training state of its
// algorithm (not a model read from a version-1 file).
func (s *state[T]) hasState() bool { return s.steps > 0 }

func (s *state[T]) rows() int {
	if s.kind == KindBinary {
		return 1
	}
	return len(s.labels)
}

func (s *state[T]) voted() bool { return s.algo == Voted }

func newModel[T Float](s *state[T]) *Model[T] {
	s.k = kernelsFor[T](nil)
	m := new(Model[T])
	m.st.Store(s)
	return m
}

func (m *Model[T]) load() (*state[T], error) {
	s := m.st.Load()
	if s == nil {
		return nil, ErrUntrained
	}
	return s, nil
}

// Kind returns the model's kind (0 for an untrained Model).
func (m *Model[T]) Kind() Kind {
	if s := m.st.Load(); s != nil {
		return s.kind
	}
	return 0
}

// Algorithm returns the algorithm that trained the model.
func (m *Model[T]) Algorithm() Algorithm {
	if s := m.st.Load(); s != nil {
		return s.algo
	}
	return 0
}

// Dims returns the number of features a sample must have.
func (m *Model[T]) Dims() int {
	if s := m.st.Load(); s != nil {
		return s.d
	}
	return 0
}

// Classes returns the labels the model predicts, sorted: {−1, +1} for a
// binary model. It returns a copy.
func (m *Model[T]) Classes() []int {
	if s := m.st.Load(); s != nil {
		return slices.Clone(s.labels)
	}
	return nil
}

// Normalized reports whether the model scales samples before scoring them
// (Options.Normalize or NormalizeFeatures; Scaling says which).
func (m *Model[T]) Normalized() bool {
	return m.Scaling() != ScaleNone
}

// Scaling returns the transform the model applies to a sample before
// scoring it: ScaleAugmented for Options.Normalize, ScaleFeatures for
// NormalizeFeatures (and for Normalize in a version-1 model file).
func (m *Model[T]) Scaling() Scaling {
	if s := m.st.Load(); s != nil {
		return s.scaling
	}
	return ScaleNone
}

// Steps returns the number of samples the model's algorithm has visited:
// in training (every epoch's visits, with those of a warm start's model)
// and in Update since. It is 0 for a model read from a version-1 file,
// which does not record it.
func (m *Model[T]) Steps() int64 {
	if s := m.st.Load(); s != nil {
		return s.steps
	}
	return 0
}

// HasBias reports whether the model has a bias term.
func (m *Model[T]) HasBias() bool {
	s := m.st.Load()
	return s != nil && s.bias
}

// Weights returns a copy of the weight vector of score k (k = 0 for a
// binary model; k indexes Classes otherwise) and its bias. It returns nil
// for a voted model (see Voted) or an out-of-range k.
func (m *Model[T]) Weights(k int) ([]T, T) {
	s := m.st.Load()
	if s == nil || s.voted() || k < 0 || k >= s.rows() {
		return nil, 0
	}
	return slices.Clone(s.W[k*s.d : (k+1)*s.d]), s.B[k]
}

// Voted returns a copy of the vectors, biases and survival counts of a
// voted model's score k (k = 0 for binary). It returns nils for other
// models.
func (m *Model[T]) Voted(k int) (vectors [][]T, biases []T, counts []int64) {
	s := m.st.Load()
	if s == nil || !s.voted() || k < 0 || k >= s.rows() {
		return nil, nil, nil
	}
	for j := s.VOff[k]; j < s.VOff[k+1]; j++ {
		vectors = append(vectors, slices.Clone(s.V[j*s.d:(j+1)*s.d]))
	}
	return vectors, slices.Clone(s.VB[s.VOff[k]:s.VOff[k+1]]), slices.Clone(s.VC[s.VOff[k]:s.VOff[k+1]])
}

// sampleScale returns the factors of x's scores under the model's
// scaling: score = (w·x)·mul + b·bmul. They are (1, 1) without scaling,
// (s, s) with ScaleAugmented, s = 1/‖(x, 1)‖ as training computed it, and
// (1/‖x‖, 1) with ScaleFeatures (1 for x = 0). A NaN in x gives a NaN
// factor, which reaches the score. Only x's norm counts, so x may be the
// stored values of a sparse sample.
func (s *state[T]) sampleScale(x []T) (mul, bmul T) {
	switch s.scaling {
	case ScaleAugmented:
		f := T(augScaleOf(s.k, x, s.bias))
		return f, f
	case ScaleFeatures:
		nx := s.k.Dot(x, x)
		if nx > 0 {
			return T(1 / math.Sqrt(float64(nx))), 1
		}
		if nx != 0 { // NaN: let it reach the score
			return nx, 1
		}
	}
	return 1, 1
}

// augScaleOf returns ScaleAugmented's factor for x: augScale of ‖x‖², as
// training computes it from k.Dot, and where that overflows (a sample far
// larger than any training row) from a scaled sum, so that the factor is
// not 0.
func augScaleOf[T Float](k kernel.Kernels[T], x []T, bias bool) float64 {
	sq := float64(k.Dot(x, x))
	if !math.IsInf(sq, 1) {
		return augScale(sq, bias)
	}
	big := 0.0
	for _, v := range x {
		big = max(big, math.Abs(float64(v)))
	}
	if math.IsInf(big, 0) {
		return 0 // an Inf in x: the score is not finite either way
	}
	acc := 0.0
	for _, v := range x {
		r := float64(v) / big
		acc += r * r
	}
	if bias {
		acc += 1 / (big * big)
	}
	return 1 / (big * math.Sqrt(acc))
}

// score returns score k of x, with (mul, bmul) = s.sampleScale(x).
func (s *state[T]) score(k int, x []T, mul, bmul T) T {
	return s.scoreVec(k, vec[T]{val: x}, mul, bmul)
}

// scoreVec is score for a dense or sparse sample.
func (s *state[T]) scoreVec(k int, x vec[T], mul, bmul T) T {
	if s.voted() {
		var vote float64
		for j := s.VOff[k]; j < s.VOff[k+1]; j++ {
			a := dotv(s.k, x, s.V[j*s.d:(j+1)*s.d])*mul + s.VB[j]*bmul
			switch {
			case a > 0:
				vote += float64(s.VC[j])
			case a <= 0:
				vote -= float64(s.VC[j])
			default:
				return a // NaN
			}
		}
		return T(vote)
	}
	return dotv(s.k, x, s.W[k*s.d:(k+1)*s.d])*mul + s.B[k]*bmul
}

func finite[T Float](a T) bool {
	f := float64(a)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}

func (s *state[T]) checkLen(x []T) error {
	if len(x) != s.d {
		return fmt.Errorf("%w: sample has %d features, the model %d", ErrDims, len(x), s.d)
	}
	return nil
}

// Predict returns the label of sample x: for a binary model +1 if its score
// is > 0 and −1 otherwise (a zero score predicts −1); for a multiclass
// model the class with the highest score (ties go to the smaller label).
// It allocates nothing and is safe for concurrent use, also with Update.
// A sample of the wrong length is an error wrapping ErrDims; one whose
// score is not finite (a NaN or Inf in x) wraps ErrNonFinite.
func (m *Model[T]) Predict(x []T) (int, error) {
	s, err := m.load()
	if err != nil {
		return 0, err
	}
	if err := s.checkLen(x); err != nil {
		return 0, err
	}
	if s.kind == KindBinary && s.W != nil && s.scaling == ScaleNone {
		// The common case, kept short: one kernel call.
		a := s.k.Dot(s.W, x) + s.B[0]
		if a-a != 0 { // NaN or ±Inf
			return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if a > 0 {
			return 1, nil
		}
		return -1, nil
	}
	return s.predict(vec[T]{val: x})
}

// predict is Predict after the checks, for a dense or sparse sample.
func (s *state[T]) predict(x vec[T]) (int, error) {
	mul, bmul := s.sampleScale(x.val)
	if s.kind == KindBinary {
		a := s.scoreVec(0, x, mul, bmul)
		if !finite(a) {
			return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if a > 0 {
			return 1, nil
		}
		return -1, nil
	}
	best, bestK := T(0), 0
	for k := range s.labels {
		a := s.scoreVec(k, x, mul, bmul)
		if !finite(a) {
			return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if k == 0 || a > best {
			best, bestK = a, k
		}
	}
	return s.labels[bestK], nil
}

// NumScores returns the number of decision values Scores writes: 1 for a
// binary model, the number of classes otherwise.
func (m *Model[T]) NumScores() int {
	if s := m.st.Load(); s != nil {
		return s.rows()
	}
	return 0
}

// Scores writes the decision values of x to dst, which must have length
// NumScores: w·x + b of each score (for a normalising model, of the scaled
// sample: s·(w·x + b) with ScaleAugmented, w·x/‖x‖ + b with ScaleFeatures),
// or for a voted model the vote Σ cₖ·sign(wₖ·x + bₖ).
// It allocates nothing and is safe for concurrent use.
func (m *Model[T]) Scores(dst, x []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	if err := s.checkLen(x); err != nil {
		return err
	}
	return s.scores(dst, vec[T]{val: x})
}

// scores is Scores after the sample's checks, for a dense or sparse sample.
func (s *state[T]) scores(dst []T, x vec[T]) error {
	if len(dst) != s.rows() {
		return fmt.Errorf("%w: len(dst) = %d, the model has %d scores", ErrDims, len(dst), s.rows())
	}
	mul, bmul := s.sampleScale(x.val)
	for k := range dst {
		a := s.scoreVec(k, x, mul, bmul)
		if !finite(a) {
			return fmt.Errorf("%w: score %d is %v", ErrNonFinite, k, a)
		}
		dst[k] = a
	}
	return nil
}

// ScoresBatch writes the decision values of the row-major samples X to dst
// (NumScores values per sample, len(dst) = rows·NumScores, row-major).
// Linear models score the whole batch with kernel.MatVec (binary) or
// kernel.Dots (one call per sample for all classes).
func (m *Model[T]) ScoresBatch(dst, X []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	r := s.rows()
	if len(dst)%r != 0 {
		return fmt.Errorf("%w: len(dst) = %d is not a multiple of the %d scores", ErrDims, len(dst), r)
	}
	n := len(dst) / r
	if len(X) != n*s.d {
		return fmt.Errorf("%w: len(X) = %d, want %d rows × %d features", ErrDims, len(X), n, s.d)
	}
	switch {
	case s.voted():
		for i := range n {
			x := X[i*s.d : (i+1)*s.d]
			mul, bmul := s.sampleScale(x)
			for k := range r {
				dst[i*r+k] = s.score(k, x, mul, bmul)
			}
		}
	case r == 1:
		s.k.MatVec(dst, X, s.W)
	default:
		for i := range n {
			s.k.Dots(dst[i*r:(i+1)*r], s.W, X[i*s.d:(i+1)*s.d])
		}
	}
	return s.finishBatch(dst, n, func(i int) []T { return X[i*s.d : (i+1)*s.d] })
}

// finishBatch completes the products w·x of n samples in dst (for a voted
// model, the final scores) into the scores: the samples' scaling (vals(i)
// is sample i's values, all that its norm needs) and the biases; a
// non-finite score is ErrNonFinite.
func (s *state[T]) finishBatch(dst []T, n int, vals func(i int) []T) error {
	r := s.rows()
	if !s.voted() {
		for i := range n {
			mul, bmul := s.sampleScale(vals(i))
			for k := range r {
				dst[i*r+k] = dst[i*r+k]*mul + s.B[k]*bmul
			}
		}
	}
	for j, a := range dst {
		if !finite(a) {
			return fmt.Errorf("%w: score %d of row %d is %v", ErrNonFinite, j%r, j/r, a)
		}
	}
	return nil
}

// PredictBatch writes the labels of the row-major samples X to dst, one per
// row (len(X) must be len(dst)·Dims). It scores the batch with ScoresBatch
// and allocates one scratch slice of len(dst)·NumScores values.
func (m *Model[T]) PredictBatch(dst []int, X []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	r := s.rows()
	if len(X) != len(dst)*s.d {
		return fmt.Errorf("%w: len(X) = %d, want len(dst) = %d rows × %d features", ErrDims, len(X), len(dst), s.d)
	}
	sc := make([]T, len(dst)*r)
	if err := m.ScoresBatch(sc, X); err != nil {
		return err
	}
	for i := range dst {
		dst[i] = s.decide(sc[i*r : (i+1)*r])
	}
	return nil
}

// decide turns one sample's scores into a label.
func (s *state[T]) decide(sc []T) int {
	if s.kind == KindBinary {
		if sc[0] > 0 {
			return 1
		}
		return -1
	}
	bestK := 0
	for k, a := range sc {
		if a > sc[bestK] {
			bestK = k
		}
	}
	return s.labels[bestK]
}

// Accuracy returns the fraction of the row-major samples X whose predicted
// label equals y.
func (m *Model[T]) Accuracy(X []T, y []int) (float64, error) {
	if len(y) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatch(pred, X); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}

// fractionEqual returns the fraction of the predictions pred equal to the
// labels y (len(y) > 0).
func fractionEqual(pred, y []int) float64 {
	ok := 0
	for i, p := range pred {
		if p == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}
