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
// the writers, it copies the snapshot (O(K·D), only when the sample is a
// mistake and the weights change), applies the step to the copy and
// publishes it with one atomic store. A reader that loaded the old snapshot
// finishes with it; the next call sees the new one. UnmarshalBinary and
// UnmarshalJSON publish their result the same way. A Model must not be
// copied after first use.
type Model[T Float] struct {
	st atomic.Pointer[state[T]]
	mu sync.Mutex // serialises Update and Unmarshal*
}

// state is one immutable snapshot of a model. Nothing in it is written
// after it is published.
type state[T Float] struct {
	k         kernel.Kernels[T] // the active implementation, resolved once
	kind      Kind
	algo      Algorithm
	d         int
	labels    []int // KindBinary: {−1, +1}; else the sorted class labels
	bias      bool
	normalize bool
	eta       float64 // Update's step size

	// Linear models: rows×d weights and rows biases, rows = 1 for
	// KindBinary and len(labels) otherwise. nil for voted models.
	W []T
	B []T

	// Voted models: vectors V (m×d), biases VB, survival counts VC;
	// class k owns vectors VOff[k] to VOff[k+1]-1.
	V    []T
	VB   []T
	VC   []int64
	VOff []int
}

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

// Normalized reports whether the model scales samples to unit norm before
// scoring them (Options.Normalize).
func (m *Model[T]) Normalized() bool {
	s := m.st.Load()
	return s != nil && s.normalize
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

// invNorm returns 1/‖x‖ for a normalising model (1 for others, and for x = 0).
func (s *state[T]) invNorm(x []T) T {
	if !s.normalize {
		return 1
	}
	nx := s.k.Dot(x, x)
	if nx > 0 {
		return T(1 / math.Sqrt(float64(nx)))
	}
	if nx != 0 { // NaN: let it reach the score
		return nx
	}
	return 1
}

// score returns score k of x, with inv = s.invNorm(x).
func (s *state[T]) score(k int, x []T, inv T) T {
	if s.voted() {
		var vote float64
		for j := s.VOff[k]; j < s.VOff[k+1]; j++ {
			a := s.k.Dot(s.V[j*s.d:(j+1)*s.d], x)*inv + s.VB[j]
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
	return s.k.Dot(s.W[k*s.d:(k+1)*s.d], x)*inv + s.B[k]
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
	if s.kind == KindBinary && s.W != nil && !s.normalize {
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
	inv := s.invNorm(x)
	if s.kind == KindBinary {
		a := s.score(0, x, inv)
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
		a := s.score(k, x, inv)
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
// NumScores: w·x + b of each score (x scaled to unit norm first for a
// normalising model), or for a voted model the vote Σ cₖ·sign(wₖ·x + bₖ).
// It allocates nothing and is safe for concurrent use.
func (m *Model[T]) Scores(dst, x []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	if err := s.checkLen(x); err != nil {
		return err
	}
	if len(dst) != s.rows() {
		return fmt.Errorf("%w: len(dst) = %d, the model has %d scores", ErrDims, len(dst), s.rows())
	}
	inv := s.invNorm(x)
	for k := range dst {
		a := s.score(k, x, inv)
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
			inv := s.invNorm(x)
			for k := range r {
				dst[i*r+k] = s.score(k, x, inv)
			}
		}
	case r == 1:
		s.k.MatVec(dst, X, s.W)
	default:
		for i := range n {
			s.k.Dots(dst[i*r:(i+1)*r], s.W, X[i*s.d:(i+1)*s.d])
		}
	}
	if !s.voted() {
		for i := range n {
			inv := s.invNorm(X[i*s.d : (i+1)*s.d])
			for k := range r {
				dst[i*r+k] = dst[i*r+k]*inv + s.B[k]
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
	ok := 0
	for i, p := range pred {
		if p == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y)), nil
}

// Update trains the model online on one more sample (x, y) and reports
// whether the weights changed. It applies the perceptron rule with step η
// (Options.Eta of training) to the served weights, whatever algorithm
// trained them: for a binary model, if y·(w·x + b) ≤ 0 then w += η·y·x and
// b += η·y; for one-vs-rest, the same for every class's binary problem; for
// the Argmax kind, the multiclass perceptron step. For a normalising model
// x is taken at unit norm.
//
// Update is safe to call while other goroutines predict (see the Model's
// concurrency notes); concurrent Updates are serialised. y must be −1 or
// +1 for a binary model and one of Classes otherwise (ErrLabels); a voted
// model cannot be updated (ErrUnsupported); an update that would make a
// weight or bias non-finite is refused (ErrDiverged), leaving the model as
// it was. x is not modified.
func (m *Model[T]) Update(x []T, y int) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, err := m.load()
	if err != nil {
		return false, err
	}
	if s.voted() {
		return false, fmt.Errorf("%w: Update on a voted model", ErrUnsupported)
	}
	if err := s.checkLen(x); err != nil {
		return false, err
	}
	yk := -1 // index of y among the scores' classes
	if s.kind == KindBinary {
		if y != 1 && y != -1 {
			return false, fmt.Errorf("%w: label %d; a binary model takes −1 or +1", ErrLabels, y)
		}
	} else {
		i, ok := slices.BinarySearch(s.labels, y)
		if !ok {
			return false, fmt.Errorf("%w: label %d is not one of the model's classes", ErrLabels, y)
		}
		yk = i
	}
	inv := s.invNorm(x)
	r := s.rows()
	// One score per row; no allocation unless the weights change.
	var ns *state[T]
	step := func(k int, sign T) {
		if ns == nil {
			c := *s
			c.W = slices.Clone(s.W)
			c.B = slices.Clone(s.B)
			ns = &c
		}
		a := T(s.eta) * sign
		s.k.Axpy(a*inv, x, ns.W[k*s.d:(k+1)*s.d])
		if s.bias {
			ns.B[k] += a
		}
	}
	switch s.kind {
	case KindBinary:
		a := s.score(0, x, inv)
		if !finite(a) {
			return false, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if T(y)*a <= 0 {
			step(0, T(y))
		}
	case KindOneVsRest:
		for k := range r {
			if !finite(s.score(k, x, inv)) {
				return false, fmt.Errorf("%w: score %d", ErrNonFinite, k)
			}
		}
		for k := range r {
			sign := T(-1)
			if k == yk {
				sign = 1
			}
			if sign*s.score(k, x, inv) <= 0 {
				step(k, sign)
			}
		}
	case KindArgmax:
		sy := s.score(yk, x, inv)
		if !finite(sy) {
			return false, fmt.Errorf("%w: score %d", ErrNonFinite, yk)
		}
		p, sp := -1, T(0)
		for k := range r {
			if k == yk {
				continue
			}
			a := s.score(k, x, inv)
			if !finite(a) {
				return false, fmt.Errorf("%w: score %d", ErrNonFinite, k)
			}
			if p < 0 || a > sp {
				p, sp = k, a
			}
		}
		if sy <= sp {
			step(yk, 1)
			step(p, -1)
		}
	default:
		return false, fmt.Errorf("%w: Update on a %v model", ErrUnsupported, s.kind)
	}
	if ns == nil {
		return false, nil
	}
	if !allFinite(ns.W) || !allFinite(ns.B) {
		return false, fmt.Errorf("%w: Update: the step η·y·x (η = %v) makes the weights non-finite in %s; the model is unchanged", ErrDiverged, s.eta, elemType[T]())
	}
	m.st.Store(ns)
	return true, nil
}
