package perceptron

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/rosenblatt-go/rosenblatt/dataset"
	"github.com/rosenblatt-go/rosenblatt/gram"
	"github.com/rosenblatt-go/rosenblatt/internal/modelkern"
)

// The kinds of kernel (dual) models. Their files share the linear models'
// framing (see KernelModel.MarshalBinary); Inspect reports them with an
// error wrapping ErrMismatch, and KernelModel.UnmarshalBinary reads them.
const (
	// KindKernelBinary is one kernel perceptron with labels −1 and +1.
	KindKernelBinary Kind = 16
	// KindKernelOneVsRest is one kernel perceptron per class on shared
	// support vectors; the prediction is the class with the highest score.
	KindKernelOneVsRest Kind = 17
	// KindKernelArgmax is the multiclass kernel perceptron: one decision
	// function per class, the prediction is the class with the highest
	// score.
	KindKernelArgmax Kind = 18
)

// IsKernel reports whether k is the kind of a kernel model (KernelModel)
// rather than a linear one (Model).
func (k Kind) IsKernel() bool { return k >= 16 }

// KernelModel is a trained kernel perceptron: binary, one-vs-rest or
// multiclass (argmax), plain, averaged or voted, for element type T. It
// keeps the support vectors (copies of the training rows with α ≠ 0), their
// coefficients per score, the biases and the kernel:
//
//	score_k(x) = Σᵢ coef[k][i]·K(svᵢ, x) + b_k
//
// or, for a voted model, the vote Σⱼ cⱼ·sign(fⱼ(x)) of the kept decision
// functions fⱼ, each a prefix of the sequence of mistakes.
//
// # Concurrency
//
// A trained KernelModel is immutable: Predict, Scores, PredictBatch,
// ScoresBatch, Accuracy, the accessors and the Marshal methods are safe for
// concurrent use. Predict and Scores allocate nothing: each call borrows a
// scratch buffer (the sample's kernel row against the support vectors, N_SV
// values, plus the normalised sample if the model normalises) from a
// sync.Pool owned by the model and returns it, so concurrent calls use
// different buffers and a steady stream of calls reuses them. UnmarshalBinary
// and UnmarshalJSON publish the decoded model with one atomic pointer store;
// a call that is running finishes with the model it started with. A
// KernelModel must not be copied after first use.
type KernelModel[T Float] struct {
	st atomic.Pointer[kstate[T]]
	mu sync.Mutex // serialises Unmarshal*
}

// kstate is one immutable kernel model.
type kstate[T Float] struct {
	k       modelkern.Kernels[T]
	kind    Kind
	algo    Algorithm
	d       int
	labels  []int
	bias    bool
	bfeat   float64 // the bias feature B: 1 by default, 0 without a bias
	scaling Scaling
	eta     float64
	kern    gram.Kernel

	idx []int           // training row of each support vector
	SV  []T             // S×d support vectors (nil when ssv holds them)
	ssv *dataset.CSR[T] // sparse support vectors (kernel_sparse.go), or nil

	// Plain and averaged models: R×S coefficients and R biases.
	Coef []T
	B    []T

	// Voted models, per score row r: mistakes QOff[r]..QOff[r+1]-1 (support
	// vector QIdx, step QStep) and kept functions VOff[r]..VOff[r+1]-1
	// (prefix length VPre within the row's mistakes, bias VB, count VC).
	QOff  []int
	QIdx  []int32
	QStep []T
	VOff  []int
	VPre  []int32
	VB    []T
	VC    []int64

	rows  *gram.Rows[T]       // the support vectors prepared for kernel rows
	srows *gram.SparseRows[T] // or the sparse ones
	pool  sync.Pool           // *kscratch[T]
}

type kscratch[T Float] struct {
	kr  []T // K(x, SV)
	x   []T // the normalised sample
	out []T // R scores

	xd   []T     // a sparse sample densified (dense support vectors)
	val  []T     // a sparse sample's values normalised (sparse support vectors)
	sidx []int32 // a dense sample's non-zeros (sparse support vectors)
	sval []T
}

// init prepares a checked state for scoring. Its error is package gram's
// (data whose kernel values overflow T, a γ out of T's range).
func (s *kstate[T]) init() error {
	s.k = kernelsFor[T](nil)
	if s.ssv != nil {
		r, err := gram.NewSparseRows(s.ssv, s.kern, &gram.Options{MaxBytes: -1})
		if err != nil {
			return err
		}
		s.srows = r
		return nil
	}
	r, err := gram.NewRows(s.SV, s.d, s.kern, &gram.Options{MaxBytes: -1})
	if err != nil {
		return err
	}
	s.rows = r
	return nil
}

func (s *kstate[T]) nsv() int    { return len(s.idx) }
func (s *kstate[T]) voted() bool { return s.algo == Voted }

func (s *kstate[T]) nrows() int {
	if s.kind == KindKernelBinary {
		return 1
	}
	return len(s.labels)
}

func (s *kstate[T]) get() *kscratch[T] {
	if sc, ok := s.pool.Get().(*kscratch[T]); ok {
		return sc
	}
	sc := &kscratch[T]{kr: make([]T, s.nsv()), out: make([]T, s.nrows())}
	if s.scaling != ScaleNone && s.ssv == nil {
		sc.x = make([]T, s.d)
	}
	return sc
}

func newKernelModel[T Float](s *kstate[T]) *KernelModel[T] {
	m := new(KernelModel[T])
	m.st.Store(s)
	return m
}

func (m *KernelModel[T]) load() (*kstate[T], error) {
	s := m.st.Load()
	if s == nil {
		return nil, ErrUntrained
	}
	return s, nil
}

// Kind returns the model's kind (0 for an untrained KernelModel).
func (m *KernelModel[T]) Kind() Kind {
	if s := m.st.Load(); s != nil {
		return s.kind
	}
	return 0
}

// Algorithm returns the algorithm that trained the model.
func (m *KernelModel[T]) Algorithm() Algorithm {
	if s := m.st.Load(); s != nil {
		return s.algo
	}
	return 0
}

// Kernel returns the model's kernel function (nil for an untrained model).
func (m *KernelModel[T]) Kernel() gram.Kernel {
	if s := m.st.Load(); s != nil {
		return s.kern
	}
	return nil
}

// Dims returns the number of features a sample must have.
func (m *KernelModel[T]) Dims() int {
	if s := m.st.Load(); s != nil {
		return s.d
	}
	return 0
}

// Classes returns the labels the model predicts, sorted: {−1, +1} for a
// binary model. It returns a copy.
func (m *KernelModel[T]) Classes() []int {
	if s := m.st.Load(); s != nil {
		return slices.Clone(s.labels)
	}
	return nil
}

// NumScores returns the number of decision values Scores writes: 1 for a
// binary model, the number of classes otherwise.
func (m *KernelModel[T]) NumScores() int {
	if s := m.st.Load(); s != nil {
		return s.nrows()
	}
	return 0
}

// Normalized reports whether the model scales samples before the kernel
// sees them (Options.Normalize or NormalizeFeatures; Scaling says which).
func (m *KernelModel[T]) Normalized() bool {
	return m.Scaling() != ScaleNone
}

// Scaling returns the transform the model applies to a sample before the
// kernel sees it: ScaleAugmented (Options.Normalize: the sample is scaled
// by s = 1/‖(x, B)‖, B = BiasFeature(), and so is the bias's feature), ScaleFeatures
// (NormalizeFeatures, and Normalize in a version-1 file) or ScaleNone.
func (m *KernelModel[T]) Scaling() Scaling {
	if s := m.st.Load(); s != nil {
		return s.scaling
	}
	return ScaleNone
}

// HasBias reports whether the model has bias terms.
func (m *KernelModel[T]) HasBias() bool {
	s := m.st.Load()
	return s != nil && s.bias
}

// BiasFeature returns the value B of the constant feature that carries
// the model's bias (Options.BiasFeature; see Model.BiasFeature): 1 unless
// it was trained with another, 0 for a model without a bias.
func (m *KernelModel[T]) BiasFeature() float64 {
	if s := m.st.Load(); s != nil {
		return s.bfeat
	}
	return 0
}

// NumSupport returns the number of support vectors, the training rows with
// α ≠ 0 (for any class).
func (m *KernelModel[T]) NumSupport() int {
	if s := m.st.Load(); s != nil {
		return s.nsv()
	}
	return 0
}

// SupportVectors returns copies of the support vectors, in the order of
// their training rows (as trained on: unit-norm for a normalising model);
// nil for a model with sparse support vectors (see SparseSupport).
func (m *KernelModel[T]) SupportVectors() [][]T {
	s := m.st.Load()
	if s == nil {
		return nil
	}
	if s.ssv != nil {
		return nil
	}
	out := make([][]T, s.nsv())
	for i := range out {
		out[i] = slices.Clone(s.SV[i*s.d : (i+1)*s.d])
	}
	return out
}

// SupportIndices returns the training row index of each support vector,
// increasing.
func (m *KernelModel[T]) SupportIndices() []int {
	if s := m.st.Load(); s != nil {
		return slices.Clone(s.idx)
	}
	return nil
}

// Coefficients returns a copy of the dual coefficients of score k (k = 0 for
// a binary model; k indexes Classes otherwise), one per support vector, and
// the bias: score_k(x) = Σᵢ coef[i]·K(svᵢ, x) + b. For the Online algorithm
// coef[i] = η·αᵢ·yᵢ, with αᵢ the number of mistakes on support vector i
// (for Argmax, the sum of ±η over the mistakes that moved class k). It
// returns nil for a voted model or an out-of-range k.
func (m *KernelModel[T]) Coefficients(k int) ([]T, T) {
	s := m.st.Load()
	if s == nil || s.voted() || k < 0 || k >= s.nrows() {
		return nil, 0
	}
	S := s.nsv()
	return slices.Clone(s.Coef[k*S : (k+1)*S]), s.B[k]
}

// combine turns a sample's kernel row kr = K(x, SV) into its R scores,
// with bf the sample's bias feature (1, or s under ScaleAugmented).
func (s *kstate[T]) combine(dst, kr []T, bf T) {
	if !s.voted() {
		if len(dst) == 1 {
			dst[0] = s.k.Dot(s.Coef, kr) + s.B[0]*bf
			return
		}
		s.k.Dots(dst, s.Coef, kr)
		for r := range dst {
			dst[r] += s.B[r] * bf
		}
		return
	}
	for r := range dst {
		var f T
		var vote float64
		q := s.QOff[r]
		for v := s.VOff[r]; v < s.VOff[r+1]; v++ {
			for end := s.QOff[r] + int(s.VPre[v]); q < end; q++ {
				f += s.QStep[q] * kr[s.QIdx[q]]
			}
			a := f + s.VB[v]*bf
			switch {
			case a > 0:
				vote += float64(s.VC[v])
			case a <= 0:
				vote -= float64(s.VC[v])
			default: // NaN
				vote = math.NaN()
			}
		}
		dst[r] = T(vote)
	}
}

// normalized returns x as the kernel sees it, and its bias feature: x and
// 1, or for a normalising model its scaled copy in buf (as training scaled
// its rows) and 1 (ScaleFeatures) or s (ScaleAugmented).
func (s *kstate[T]) normalized(buf, x []T) ([]T, T) {
	switch s.scaling {
	case ScaleFeatures:
		copy(buf, x)
		if nx := float64(s.k.Dot(buf, buf)); nx > 0 && !math.IsInf(nx, 0) {
			s.k.Scale(T(1/math.Sqrt(nx)), buf)
		}
		return buf, 1
	case ScaleAugmented:
		copy(buf, x)
		f := T(augScaleOf(s.k, x, s.bfeat))
		s.k.Scale(f, buf)
		return buf, f
	}
	return x, 1
}

// scores writes the R scores of x to dst using the scratch sc.
func (s *kstate[T]) scores(sc *kscratch[T], dst, x []T) error {
	if len(x) != s.d {
		return fmt.Errorf("%w: sample has %d features, the model %d", ErrDims, len(x), s.d)
	}
	if s.srows != nil {
		return s.scoresSparse(sc, dst, sc.sparseOf(x))
	}
	xs, bf := s.normalized(sc.x, x)
	kr, err := s.rows.RowOf(sc.kr, xs)
	if err != nil {
		for j, v := range x {
			if !finite(v) {
				return fmt.Errorf("%w: x[%d] = %v", ErrNonFinite, j, v)
			}
		}
		return gramError(err)
	}
	s.combine(dst, kr, bf)
	for r, a := range dst {
		if !finite(a) {
			return fmt.Errorf("%w: score %d is %v", ErrNonFinite, r, a)
		}
	}
	return nil
}

// decide turns one sample's scores into a label: the sign for a binary
// model (0 → −1), else the class with the highest score (ties to the
// smaller label), by the linear models' rule (decideLabel).
func (s *kstate[T]) decide(sc []T) int {
	return decideLabel(s.kind == KindKernelBinary, s.labels, sc)
}

// Predict returns the label of sample x: for a binary model +1 if its score
// is > 0 and −1 otherwise; for a multiclass model the class with the highest
// score (ties go to the smaller label). It computes the kernel row of x
// against the support vectors with gram.Rows.RowOf (the same values
// gram.Cross gives, so Predict and PredictBatch agree exactly), allocates
// nothing and is safe for concurrent use (see KernelModel). A sample of the
// wrong length wraps ErrDims; a NaN or Inf in x, or a non-finite score,
// wraps ErrNonFinite.
func (m *KernelModel[T]) Predict(x []T) (int, error) {
	s, err := m.load()
	if err != nil {
		return 0, err
	}
	sc := s.get()
	defer s.pool.Put(sc)
	if err := s.scores(sc, sc.out, x); err != nil {
		return 0, err
	}
	return s.decide(sc.out), nil
}

// Scores writes the decision values of x to dst, which must have length
// NumScores: Σᵢ coefᵢ·K(svᵢ, x) + b per score, or for a voted model the
// vote Σⱼ cⱼ·sign(fⱼ(x)). It allocates nothing and is safe for concurrent
// use.
func (m *KernelModel[T]) Scores(dst, x []T) error {
	s, sc, err := m.scoring(dst)
	if err != nil {
		return err
	}
	defer s.pool.Put(sc)
	return s.scores(sc, dst, x)
}

// scoring is the start Scores and ScoresSparse share: the model's
// snapshot, dst's length checked against its scores, and a scratch of its
// pool, which the caller puts back.
func (m *KernelModel[T]) scoring(dst []T) (*kstate[T], *kscratch[T], error) {
	s, err := m.load()
	if err != nil {
		return nil, nil, err
	}
	if len(dst) != s.nrows() {
		return nil, nil, fmt.Errorf("%w: len(dst) = %d, the model has %d scores", ErrDims, len(dst), s.nrows())
	}
	return s, s.get(), nil
}

// crossChunk bounds the kernel values one gram.Rows.RowsOf call of
// ScoresBatch holds (16 Mi values, 64 MiB of float32).
const crossChunk = 1 << 24

// ScoresBatch writes the decision values of the row-major samples X to dst
// (NumScores values per sample, len(dst) = rows·NumScores, row-major). It
// computes the kernel values of the samples against the support vectors
// with gram.Rows.RowsOf on the model's packed support vectors (a matrix
// product on gram's register-tiled micro-kernels, on GOMAXPROCS
// goroutines), in chunks of rows that bound its memory to 16 Mi values of
// T, and combines each row with the coefficients (kernel.Dot for a binary
// model, kernel.Dots, blocked over the classes, otherwise). The values are
// identical to Scores'.
func (m *KernelModel[T]) ScoresBatch(dst, X []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	return s.scoresBatch(dst, X)
}

// scoresBatch is ScoresBatch on snapshot s.
func (s *kstate[T]) scoresBatch(dst, X []T) error {
	r, d := s.nrows(), s.d
	if len(dst)%r != 0 {
		return fmt.Errorf("%w: len(dst) = %d is not a multiple of the %d scores", ErrDims, len(dst), r)
	}
	n := len(dst) / r
	if len(X) != n*d {
		return fmt.Errorf("%w: len(X) = %d, want %d rows × %d features", ErrDims, len(X), n, d)
	}
	if n == 0 {
		return nil
	}
	if s.srows != nil {
		return s.rowsParallel(n, func(sc *kscratch[T], i int) error {
			if err := s.scores(sc, dst[i*r:(i+1)*r], X[i*d:(i+1)*d]); err != nil {
				return fmt.Errorf("row %d: %w", i, err)
			}
			return nil
		})
	}
	S := s.nsv()
	chunk := max(64, crossChunk/S)
	var buf, bfs, C []T
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		Xc := X[lo*d : hi*d]
		if s.scaling != ScaleNone {
			if buf == nil {
				buf = make([]T, min(chunk, n)*d)
				bfs = make([]T, min(chunk, n))
			}
			for i := range hi - lo {
				_, bfs[i] = s.normalized(buf[i*d:(i+1)*d], Xc[i*d:(i+1)*d])
			}
			Xc = buf[:(hi-lo)*d]
		}
		if C == nil {
			C = make([]T, min(chunk, n)*S)
		}
		kr := C[:(hi-lo)*S]
		if err := s.rows.RowsOf(kr, Xc); err != nil {
			if errors.Is(err, gram.ErrNonFinite) {
				for i := lo; i < hi; i++ {
					x := X[i*d : (i+1)*d]
					if !finiteSlice(x) {
						return nonFiniteRow(x, i)
					}
				}
			}
			return gramError(err)
		}
		for i := range hi - lo {
			bf := T(1)
			if bfs != nil {
				bf = bfs[i]
			}
			s.combine(dst[(lo+i)*r:(lo+i+1)*r], kr[i*S:(i+1)*S], bf)
		}
	}
	return finiteScores(dst, r)
}

func finiteSlice[T Float](x []T) bool {
	for _, v := range x {
		if !finite(v) {
			return false
		}
	}
	return true
}

// PredictBatch writes the labels of the row-major samples X to dst, one per
// row (len(X) must be len(dst)·Dims), scoring them as ScoresBatch does on
// the one snapshot it loads (a concurrent Update or Unmarshal cannot mix
// two models in one batch). It takes the scores (len(dst)·NumScores values)
// from a free list and allocates the kernel values of a chunk of rows.
func (m *KernelModel[T]) PredictBatch(dst []int, X []T) error {
	s, err := m.load()
	if err != nil {
		return err
	}
	r := s.nrows()
	if len(X) != len(dst)*s.d {
		return fmt.Errorf("%w: len(X) = %d, want len(dst) = %d rows × %d features", ErrDims, len(X), len(dst), s.d)
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

// Accuracy returns the fraction of the row-major samples X whose predicted
// label equals y.
func (m *KernelModel[T]) Accuracy(X []T, y []int) (float64, error) {
	if len(y) == 0 {
		return 0, fmt.Errorf("%w: no samples", ErrEmpty)
	}
	pred := make([]int, len(y))
	if err := m.PredictBatch(pred, X); err != nil {
		return 0, err
	}
	return fractionEqual(pred, y), nil
}
