package linear

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/fit"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/freelist"
	"github.com/rosenblatt-go/rosenblatt/internal/linmodel"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
	"github.com/rosenblatt-go/rosenblatt/internal/parallel"
	"github.com/rosenblatt-go/rosenblatt/kernel"
)

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
	k       modelkern.Kernels[T] // the active implementation, resolved once
	scheme  fit.Scheme           // Binary, OneVsRest or Argmax
	algo    Algorithm
	d       int
	labels  []int // the sorted class labels (fit.Binary: two; {−1, +1} but for a linear SVM)
	bias    bool
	bfeat   float64 // the bias feature B (Options.BiasFeature): 1 by default, 0 without a bias
	scaling Scaling
	eta     float64 // Update's step size

	// Linear models: rows×d weights and rows biases, rows = 1 for
	// fit.Binary and len(labels) otherwise: the served ones (for
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

	// The training state that Update and continueDense resume (model files of
	// version 2): steps is the number of samples visited, in training and
	// by Update since (0: unknown, a version-1 file); lambda the λ of an
	// SVM model; for Averaged, CW and CB are the running perceptron's
	// weights and biases and U, UB the averaging sums Σ t·η·y·x (and
	// Σ t·η·y) over its mistakes, t the number of samples visited before
	// each, so that W = CW − U/steps.
	steps  int64
	lambda float64
	// resumable: the files of the model hold the state (Options.Resumable,
	// or read from a file that held it).
	resumable bool
	CW, CB    []T
	U, UB     []T
	// avg, if not nil, holds CW and U compactly (CW and U are then nil):
	// see compactAvg and averaging.
	avg *linmodel.CompactAvg[T]
	// cs, if not nil, holds the served weights compactly (W is then nil):
	// see compactServed. Only the sparse methods read it (loadSparse);
	// load gives everything else a snapshot with W formed (dense).
	cs *linmodel.CompactServed[T]
}

// hasState reports whether the snapshot holds the training state of its
// algorithm (not a model read from a version-1 file).
func (s *state[T]) hasState() bool { return s.steps > 0 }

// fileState reports whether the model's files hold its training state.
func (s *state[T]) fileState() bool { return s.resumable && s.hasState() }

// biasSq is B², the square of the model's bias feature (0 without a bias).
func (s *state[T]) biasSq() float64 { return s.bfeat * s.bfeat }

func (s *state[T]) rows() int {
	if s.scheme == fit.Binary {
		return 1
	}
	return len(s.labels)
}

func (s *state[T]) voted() bool { return s.algo == Voted }

func newModel[T Float](s *state[T]) *Model[T] { return newModelOn(nil, s) }

// newModelOn returns the model of s predicting on implementation impl
// (nil: the active one).
func newModelOn[T Float](impl *kernel.Impl, s *state[T]) *Model[T] {
	s.k = kernelsFor[T](impl)
	m := new(Model[T])
	m.st.Store(s)
	return m
}

// load returns the model's snapshot, with its weights W formed: a
// compact model's (compactServed) are formed dense on the first call that
// needs them, and the model publishes the dense snapshot, unless an Update
// published another first.
func (m *Model[T]) load() (*state[T], error) {
	s := m.st.Load()
	if s == nil {
		return nil, ErrUntrained
	}
	if s.cs != nil {
		return m.dense(s), nil
	}
	return s, nil
}

// loadSparse is load for the sparse methods, which score a compact
// model's weights as they are.
func (m *Model[T]) loadSparse() (*state[T], error) {
	s := m.st.Load()
	if s == nil {
		return nil, ErrUntrained
	}
	return s, nil
}

// dense returns s, a snapshot with compact served weights, with its
// weights formed dense (once, however many goroutines ask) and no compact
// weights, and publishes it if s is still the model's.
func (m *Model[T]) dense(s *state[T]) *state[T] {
	ns := *s
	ns.W, ns.cs = s.cs.DenseW(), nil
	m.st.CompareAndSwap(s, &ns)
	return &ns
}

// Scheme returns how the model's scores make a prediction: fit.Binary,
// fit.OneVsRest or fit.Argmax (fit.Auto for an untrained Model).
func (m *Model[T]) Scheme() fit.Scheme {
	if s := m.st.Load(); s != nil {
		return s.scheme
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
// binary perceptron; a binary linear SVM keeps its data's two labels. It
// returns a copy.
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
// and in Update since. It is 0 for a model read from a file without its
// training state (written without Options.Resumable, or of version 1).
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

// BiasFeature returns the value B of the constant feature that carries
// the model's bias (Options.BiasFeature): 1 unless it was trained with
// another, 0 for a model without a bias. The scores are w·x + b all the
// same; B sets the bias's steps (η·y·B²) in Update and continueDense, and the
// augmented length ‖(x, B)‖ that Normalize scales by.
func (m *Model[T]) BiasFeature() float64 {
	if s := m.st.Load(); s != nil {
		return s.bfeat
	}
	return 0
}

// Weights returns a copy of the weight vector of score k (k = 0 for a
// binary model; k indexes Classes otherwise) and its bias. It returns nil
// for a voted model (see Voted) or an out-of-range k.
func (m *Model[T]) Weights(k int) ([]T, T) {
	s := m.st.Load()
	if s == nil || s.voted() || k < 0 || k >= s.rows() {
		return nil, 0
	}
	if s.cs != nil { // the row alone, not the model's dense weights
		w := make([]T, s.d)
		s.cs.ScatterRow(w, k)
		return w, s.B[k]
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
// (s, s) with ScaleAugmented, s = 1/‖(x, B)‖ as training computed it, and
// (1/‖x‖, 1) with ScaleFeatures (1 for x = 0). A NaN in x gives a NaN
// factor, which reaches the score.
func (s *state[T]) sampleScale(x []T) (mul, bmul T) {
	switch s.scaling {
	case ScaleAugmented:
		f := T(augScaleOf(s.k, x, s.bfeat))
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

// augScaleOf returns ScaleAugmented's factor for x with the bias feature
// bf (0 without a bias): augScale of ‖x‖², as
// training computes it from k.Dot, and where that overflows (a sample far
// larger than any training row) from a scaled sum, so that the factor is
// not 0.
func augScaleOf[T Float](k modelkern.Kernels[T], x []T, bf float64) float64 {
	sq := float64(k.Dot(x, x))
	if !math.IsInf(sq, 1) {
		return augScale(sq, bf)
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
	if bf > 0 {
		acc += (bf / big) * (bf / big)
	}
	return 1 / (big * math.Sqrt(acc))
}

// scoreChunk is the number of weight vectors one kernel.Dots call of
// Predict and Scores scores, into a buffer on the stack.
const scoreChunk = 64

// scoresInto writes the scores of classes k0 … k0+len(dst)−1 of x to dst,
// with (mul, bmul) = s.sampleScale(x). The sample is read once per block of
// weight vectors (kernel.Dots, register-blocked over the rows), not once
// per class; a voted model's vectors are scored the same way, class by
// class.
func (s *state[T]) scoresInto(dst []T, k0 int, x []T, mul, bmul T) {
	d := s.d
	if !s.voted() {
		s.k.Dots(dst, s.W[k0*d:(k0+len(dst))*d], x)
		for k := range dst {
			// Each product rounded (the conversions): no fused
			// multiply-add, which the compiler may form on arm64, so
			// that biasRows' batch scores are these bits.
			dst[k] = T(dst[k]*mul) + T(s.B[k0+k]*bmul)
		}
		return
	}
	var buf [scoreChunk]T
	for k := range dst {
		var vote float64
		for j, end := s.VOff[k0+k], s.VOff[k0+k+1]; j < end; j += scoreChunk {
			c := min(scoreChunk, end-j)
			s.k.Dots(buf[:c], s.V[j*d:(j+c)*d], x)
			vote += s.vote(buf[:c], j, mul, bmul)
		}
		dst[k] = T(vote)
	}
}

// vote returns Σₜ VC[j0+t]·sign(dots[t]·mul + VB[j0+t]·bmul) over the
// products dots[t] = V[j0+t]·x of a voted model's vectors (a zero score
// votes −1), or NaN if a score is NaN or infinite (a NaN or Inf in x), so
// that such a sample is an error as for the other models.
func (s *state[T]) vote(dots []T, j0 int, mul, bmul T) float64 {
	var vote float64
	for t, p := range dots {
		a := p*mul + s.VB[j0+t]*bmul
		switch {
		case a-a != 0:
			return math.NaN()
		case a > 0:
			vote += float64(s.VC[j0+t])
		default:
			vote -= float64(s.VC[j0+t])
		}
	}
	return vote
}

// finite reports whether a is neither NaN nor ±Inf: a − a is 0 exactly
// for a finite a and NaN otherwise (one subtraction, where math.IsNaN and
// math.IsInf are two tests of the converted value).
func finite[T Float](a T) bool {
	return a-a == 0
}

func (s *state[T]) checkLen(x []T) error {
	if len(x) != s.d {
		return fmt.Errorf("%w: sample has %d features, the model %d", ErrDims, len(x), s.d)
	}
	return nil
}

// Predict returns the label of sample x: for a binary model +1 if its score
// is > 0 and −1 otherwise (for a linear SVM trained on two other labels,
// the larger and the smaller; a zero score predicts −1; training and Update
// count a zero score as a mistake for either label, Rosenblatt's rule that
// lets a perceptron start from w = 0); for a multiclass model the class
// with the highest score (ties go to the smaller label).
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
	if s.scheme == fit.Binary && s.W != nil && s.scaling == ScaleNone {
		// The common case, kept short: one kernel call.
		a := s.k.Dot(s.W, x) + s.B[0]
		if a-a != 0 { // NaN or ±Inf
			return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if a > 0 {
			return s.labels[1], nil
		}
		return s.labels[0], nil
	}
	var buf [scoreChunk]T
	if r := len(s.labels); r <= scoreChunk && s.W != nil && s.scaling == ScaleNone && s.scheme != fit.Binary {
		// The common multiclass case, kept short: one kernel call reads
		// the sample once for all classes.
		sc := buf[:r]
		s.k.Dots(sc, s.W, x)
		best, bestK := sc[0]+s.B[0], 0
		bad := best - best
		for k := 1; k < r; k++ {
			a := sc[k] + s.B[k]
			bad += a - a
			if a > best {
				best, bestK = a, k
			}
		}
		if bad != 0 { // NaN: a score is NaN or ±Inf
			return 0, fmt.Errorf("%w: a score of the sample is not finite", ErrNonFinite)
		}
		return s.labels[bestK], nil
	}
	mul, bmul := s.sampleScale(x)
	if s.scheme == fit.Binary {
		s.scoresInto(buf[:1], 0, x, mul, bmul)
		a := buf[0]
		if !finite(a) {
			return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
		}
		if a > 0 {
			return s.labels[1], nil
		}
		return s.labels[0], nil
	}
	best, bestK := T(0), 0
	for k0 := 0; k0 < len(s.labels); k0 += scoreChunk {
		sc := buf[:min(scoreChunk, len(s.labels)-k0)]
		s.scoresInto(sc, k0, x, mul, bmul)
		for t, a := range sc {
			if !finite(a) {
				return 0, fmt.Errorf("%w: score %v", ErrNonFinite, a)
			}
			if k := k0 + t; k == 0 || a > best {
				best, bestK = a, k
			}
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
	if len(dst) != s.rows() {
		return fmt.Errorf("%w: len(dst) = %d, the model has %d scores", ErrDims, len(dst), s.rows())
	}
	mul, bmul := s.sampleScale(x)
	s.scoresInto(dst, 0, x, mul, bmul)
	for k, a := range dst {
		if !finite(a) {
			return fmt.Errorf("%w: score %d is %v", ErrNonFinite, k, a)
		}
	}
	return nil
}

// ScoresBatch writes the decision values of the row-major samples X to dst
// (NumScores values per sample, len(dst) = rows·NumScores, row-major), the
// values Scores gives each row up to rounding (within the bound of package
// kernel; they do not depend on GOMAXPROCS). A model with many weight
// vectors (64 or more classes, or a voted model's vectors) scores the batch
// as one matrix product of the samples and its vectors on gram's
// register-tiled micro-kernels (gram.CrossInto), which reads each vector
// once per tile of samples instead of once per sample; with fewer, for
// which packing the samples for the product costs more than it saves, a
// binary model scores the rows with kernel.MatVec and a multiclass one two
// rows at a time with modelkern.Dots2 (2×5 register tiles over samples and
// classes: each weight load serves two samples); a linear SVM's (DualCD)
// scores each row as Scores does, whatever its classes. Either way a batch is
// split over one goroutine per full 2²¹ multiply-adds (so from 2²² on),
// up to GOMAXPROCS and one per 4 rows. It
// allocates only the packed copies of the product (and, for a voted model,
// the products of a chunk of rows with its vectors) and the goroutines.
func (m *Model[T]) ScoresBatch(dst, X []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	r := s.rows()
	if len(dst)%r != 0 {
		return fmt.Errorf("%w: len(dst) = %d is not a multiple of the %d scores", ErrDims, len(dst), r)
	}
	return s.scoresBatch(dst, X)
}

// gemmMinRows is the number of weight vectors from which ScoresBatch
// computes the products as one matrix product with gram.CrossInto rather
// than two samples at a time with modelkern.Dots2. The product packs the
// samples first, a pass over the batch that costs more than scoring them
// against a few vectors; measured in CPU time on Zen 5 (d = 784, 200
// samples, TestPredictCPUTime, bench/results/perceptron/predict-batch-zen5.txt), Dots2
// is 6, 2.3 and 1.3 times faster for 10, 16 and 32 vectors, the two are
// even at 64, and the product 1.2 times faster at 128.
const gemmMinRows = 64

// useGEMM reports whether ScoresBatch multiplies by vectors weight vectors
// with gram.CrossInto.
func (s *state[T]) useGEMM(vectors int) bool { return vectors >= gemmMinRows && !s.rowwise() }

// rowwise reports whether the batch methods score each row as Scores
// does, with one kernel.Dots call: a linear SVM's model (DualCD), whose
// batch scores are those of package svm's earlier model type bit for bit
// (files of kinds 40 and 41 predict as they did), and equal Scores'.
func (s *state[T]) rowwise() bool { return s.algo == DualCD }

// votedChunk bounds the products of samples and vectors one step of a
// voted model's ScoresBatch holds (4 Mi values).
const votedChunk = 1 << 22

// workers returns the number of goroutines a batch of n rows of work
// multiply-adds each is split over: one per full linmodel.ParallelMinWork
// multiply-adds of the batch (n·work/ParallelMinWork, so a batch is split
// from 2·ParallelMinWork on), at most GOMAXPROCS and n/4 (ranges of at
// least 4 rows), at least one.
func workers(n, work int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/4, n*work/linmodel.ParallelMinWork))
}

// rangeOf returns the rows [lo, hi) of part t of w of a batch of n rows:
// contiguous ranges that start at multiples of 4, so that kernel.MatVec
// blocks and modelkern.Dots2 pairs the same rows whatever the split and a
// row's scores do not depend on it.
func rangeOf(n, t, w int) (lo, hi int) {
	quads := (n + 3) / 4
	return min(n, 4*(quads*t/w)), min(n, 4*(quads*(t+1)/w))
}

// parallelRows runs f over [0, n) split into workers(n, work) ranges (see
// rangeOf), one per goroutine, the first on the caller's (a panic in any
// is re-raised on the caller once all have ended; see package parallel).
func parallelRows(n, work int, f func(lo, hi int)) {
	w := workers(n, work)
	if w <= 1 {
		f(0, n)
		return
	}
	parallel.Run(w, func(t int) { f(rangeOf(n, t, w)) })
}

// scoresBatch is ScoresBatch on snapshot s; len(dst) is a multiple of
// s.rows().
func (s *state[T]) scoresBatch(dst, X []T) error {
	r, d := s.rows(), s.d
	n := len(dst) / r
	if len(X) != n*d {
		return fmt.Errorf("%w: len(X) = %d, want %d rows × %d features", ErrDims, len(X), n, d)
	}
	if n == 0 {
		return nil
	}
	vectors := r
	if s.voted() {
		vectors = len(s.VB)
	}
	switch {
	case !s.useGEMM(vectors) && !s.voted():
		parallelRows(n, vectors*d, func(lo, hi int) {
			s.scoreRows(dst[lo*r:hi*r], X, lo, hi)
		})
	case !s.useGEMM(vectors):
		parallelRows(n, vectors*d, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				x := X[i*d : (i+1)*d]
				mul, bmul := s.sampleScale(x)
				s.scoresInto(dst[i*r:(i+1)*r], 0, x, mul, bmul)
			}
		})
	case s.voted():
		nv := vectors
		chunk := max(1, min(n, votedChunk/nv))
		G := make([]T, chunk*nv)
		for lo := 0; lo < n; lo += chunk {
			hi := min(lo+chunk, n)
			g := G[:(hi-lo)*nv]
			if err := s.cross(g, X[lo*d:hi*d], s.V[:nv*d], lo); err != nil {
				return err
			}
			for i := lo; i < hi; i++ {
				mul, bmul := s.sampleScale(X[i*d : (i+1)*d])
				gi := g[(i-lo)*nv : (i-lo+1)*nv]
				for k := range r {
					j0, j1 := s.VOff[k], s.VOff[k+1]
					dst[i*r+k] = T(s.vote(gi[j0:j1], j0, mul, bmul))
				}
			}
		}
	default:
		if err := s.cross(dst, X, s.W, 0); err != nil {
			return err
		}
		return s.finishBatch(dst, n, func(i int) []T { return X[i*d : (i+1)*d] })
	}
	return finiteScores(dst, r)
}

// scoreRows writes the scores of rows lo … hi−1 of the batch X to dst
// ((hi−lo)·r values) for a model with a few weight vectors that is not
// voted: one kernel.MatVec over the rows for a binary model (each load of
// w shared by four rows), modelkern.Dots2 for two rows at a time otherwise
// (each load of a weight vector shared by the two samples, 2×5 register
// tiles), then the scaling and the biases. Dots2 pairs rows 2j and 2j+1 of
// the batch; an odd last row is scored with its predecessor (Dots2 sums a
// sample's products in the same order whatever its partner), so a row's
// scores do not depend on how the batch is split; only a batch of one row
// is scored by kernel.Dots, as by Scores. ScoresBatch and PredictBatch
// both score with it, so they agree exactly.
func (s *state[T]) scoreRows(dst, X []T, lo, hi int) {
	s.productRows(dst, X, lo, hi)
	s.biasRows(dst, X, lo, hi)
}

// productRows writes the products w·x of rows lo … hi−1 of X with the
// weight vectors to dst, as scoreRows describes.
func (s *state[T]) productRows(dst, X []T, lo, hi int) {
	r, d := s.rows(), s.d
	switch {
	case s.rowwise():
		for i := lo; i < hi; i++ {
			s.k.Dots(dst[(i-lo)*r:(i-lo+1)*r], s.W, X[i*d:(i+1)*d])
		}
	case r == 1:
		s.k.MatVec(dst, X[lo*d:hi*d], s.W)
	case len(X) == d:
		s.k.Dots(dst, s.W, X)
	default:
		i := lo
		for ; i+2 <= hi; i += 2 {
			s.k.Dots2(dst[(i-lo)*r:(i-lo+2)*r], s.W, X[i*d:(i+2)*d])
		}
		if i < hi {
			var buf [2 * scoreChunk]T
			j := max(i-1, 0) // i − 1, or 0 for i = 0 (then row 1 exists)
			if j == i {
				s.k.Dots2(buf[:2*r], s.W, X[i*d:(i+2)*d])
				copy(dst[(i-lo)*r:], buf[:r])
			} else {
				s.k.Dots2(buf[:2*r], s.W, X[j*d:(j+2)*d])
				copy(dst[(i-lo)*r:], buf[r:2*r])
			}
		}
	}
}

// biasRows turns the products of rows lo … hi−1 in dst into their scores:
// the scaling and the biases.
func (s *state[T]) biasRows(dst, X []T, lo, hi int) {
	r, d := s.rows(), s.d
	n := hi - lo
	if s.scaling == ScaleNone {
		for i := range n {
			sc := dst[i*r : (i+1)*r]
			for k := range sc {
				sc[k] += s.B[k]
			}
		}
		return
	}
	for i := range n {
		mul, bmul := s.sampleScale(X[(lo+i)*d : (lo+i+1)*d])
		sc := dst[i*r : (i+1)*r]
		for k := range sc {
			sc[k] = T(sc[k]*mul) + T(s.B[k]*bmul) // as scoresInto rounds it
		}
	}
}

// cross sets dst[i·k+j] = X[i]·W[j] for the len(W)/d = k vectors W with
// gram.CrossInto on the model's implementation; row0 is the index of X's
// first row in the caller's batch, for the error messages. Where gram's
// overflow check (a quarter of T's range for a squared norm) rejects the
// data, it computes the products with kernel.Dots instead: the scores'
// own finiteness check then judges them, as for Predict.
func (s *state[T]) cross(dst, X, W []T, row0 int) error {
	d := s.d
	err := gram.CrossInto(dst, X, W, d, gram.Linear{}, &gram.Options{Impl: s.k.Impl(), MaxBytes: -1})
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gram.ErrOverflow):
		k := len(W) / d
		for i := range len(X) / d {
			s.k.Dots(dst[i*k:(i+1)*k], W, X[i*d:(i+1)*d])
		}
		return nil
	case errors.Is(err, gram.ErrNonFinite):
		for i := range len(X) / d {
			if x := X[i*d : (i+1)*d]; !finiteSlice(x) {
				return nonFiniteRow(x, row0+i)
			}
		}
	}
	return gramError(err)
}

// PredictBatch writes the labels of the row-major samples X to dst, one per
// row (len(X) must be len(dst)·Dims). It scores the batch as ScoresBatch
// does, with the same values; a label can differ from Predict's only where
// two scores are within rounding of each other (or of 0, for a binary
// model). A model with fewer than 64 weight vectors (not voted) scores
// blocks of samples into a buffer on the stack, two samples per
// modelkern.Dots2 call (one kernel.MatVec per block for a binary model), and
// allocates nothing when the batch runs on one goroutine; a batch is split
// over one goroutine per full 2²¹ multiply-adds (so from 2²² on), up to
// GOMAXPROCS and one per 4 rows (a few allocations each, whatever the
// batch size). The other models take the
// scores (len(dst)·NumScores values) from a bounded free list that
// survives garbage collections.
func (m *Model[T]) PredictBatch(dst []int, X []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	r := s.rows()
	if len(X) != len(dst)*s.d {
		return fmt.Errorf("%w: len(X) = %d, want len(dst) = %d rows × %d features", ErrDims, len(X), len(dst), s.d)
	}
	if len(dst) == 0 {
		return nil
	}
	if !s.useGEMM(r) && !s.voted() {
		return s.predictRows(dst, X)
	}
	sc := getScores[T](len(dst) * r)
	defer putScores(sc)
	if err := s.scoresBatch(sc, X); err != nil {
		return err
	}
	for i := range dst {
		dst[i] = s.decide(sc[i*r : (i+1)*r])
	}
	return nil
}

// predictBlock is the number of scores predictRows keeps on the stack.
const predictBlock = 256

// predictRows is PredictBatch for a model that scoreRows scores, on
// workers' goroutines (none started for one). Of the rows with a
// non-finite score it reports the first.
func (s *state[T]) predictRows(dst []int, X []T) error {
	n := len(dst)
	bad := -1
	if w := workers(n, s.rows()*s.d); w <= 1 {
		bad = s.predictRange(dst, X, 0, n)
	} else {
		bads := make([]int, w)
		parallel.Run(w, func(t int) {
			lo, hi := rangeOf(n, t, w)
			bads[t] = s.predictRange(dst, X, lo, hi)
		})
		for _, b := range bads {
			if b >= 0 {
				bad = b
				break
			}
		}
	}
	if bad >= 0 {
		d := s.d
		row := X[bad*d : (bad+1)*d]
		if !finiteSlice(row) {
			return nonFiniteRow(row, bad)
		}
		return fmt.Errorf("%w: a score of row %d is not finite", ErrNonFinite, bad)
	}
	return nil
}

// predictRange labels rows lo … hi−1 (lo a multiple of 4), blocks of them scored into
// a buffer on the stack, and returns the first row with a non-finite
// score, or −1.
func (s *state[T]) predictRange(dst []int, X []T, lo, hi int) int {
	r := s.rows()
	per := max(4, predictBlock/r) &^ 3 // rows per block, a multiple of 4 (see rangeOf)
	var buf [predictBlock]T
	for b := lo; b < hi; b += per {
		e := min(b+per, hi)
		sc := buf[:(e-b)*r]
		if s.scaling == ScaleNone {
			// The biases added while deciding, as Predict does: the same
			// sums as biasRows', in one pass.
			s.productRows(sc, X, b, e)
			if bad := s.decideRows(dst[b:e], sc); bad >= 0 {
				return b + bad
			}
			continue
		}
		s.scoreRows(sc, X, b, e)
		for i := b; i < e; i++ {
			row := sc[(i-b)*r : (i-b+1)*r]
			var z T
			for _, a := range row {
				z += a - a
			}
			if z != 0 { // NaN: a score is NaN or ±Inf
				return i
			}
			dst[i] = s.decide(row)
		}
	}
	return -1
}

// decideRows sets dst[i] to the label of the products sc[i·r:(i+1)·r]
// plus the biases (a model without scaling) and returns the first row
// with a non-finite score, or −1.
func (s *state[T]) decideRows(dst []int, sc []T) int {
	r := s.rows()
	if r == 1 {
		b, lo, hi := s.B[0], s.labels[0], s.labels[1]
		for i, p := range sc {
			a := p + b
			if a-a != 0 {
				return i
			}
			dst[i] = lo
			if a > 0 {
				dst[i] = hi
			}
		}
		return -1
	}
	B := s.B[:r]
	for i := range dst {
		row := sc[i*r : (i+1)*r]
		best, bestK := row[0]+B[0], 0
		bad := best - best
		for k := 1; k < r; k++ {
			a := row[k] + B[k]
			bad += a - a
			if a > best {
				best, bestK = a, k
			}
		}
		if bad != 0 { // NaN: a score is NaN or ±Inf
			return i
		}
		dst[i] = s.labels[bestK]
	}
	return -1
}

// scores recycles the score buffers of PredictBatch for the
// models predictRows does not take (and of expansion.Model.PredictBatch): a
// fresh buffer per call would cost page faults whenever the runtime has
// returned the freed pages to the system (on Zen 5, d = 784, 10 classes:
// 400 ns per sample instead of 150, measured in CPU time by
// TestPredictCPUTime). Unlike a sync.Pool it survives garbage
// collections; it keeps at most 8 buffers and 2²² values per type.
var scores = freelist.NewFloats(8, 1<<22)

// getScores returns a buffer of n values; hand it back with putScores.
func getScores[T Float](n int) []T { return freelist.GetFloat[T](scores, n) }

// putScores hands a buffer from getScores back.
func putScores[T Float](b []T) { freelist.PutFloat(scores, b) }

// decide turns one sample's scores into a label (see decideLabel).
func (s *state[T]) decide(sc []T) int { return decideLabel(s.scheme == fit.Binary, s.labels, sc) }

// decideLabel is the decision rule of every model of the package, linear
// or kernel: for a binary model the sign of its one score (> 0: the larger
// label, +1 for a perceptron; 0 or less: the smaller), else
// the label of the highest score, the first on a tie (labels are sorted, so
// the smaller label). It inlines into the decide methods and their callers.
func decideLabel[T Float](binary bool, labels []int, sc []T) int {
	if binary {
		if sc[0] > 0 {
			return labels[1]
		}
		return labels[0]
	}
	best := 0
	for k, a := range sc {
		if a > sc[best] {
			best = k
		}
	}
	return labels[best]
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
